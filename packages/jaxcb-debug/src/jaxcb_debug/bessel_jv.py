"""Observe Bessel functions of the first kind with `jax.debug.callback`.

The native result comes from a copy of `jaxcb_native.bessel_jv`, kept in this file so
that it can be copied alone: `jax.scipy.special.bessel_jn(z, v=...)` needs a static
Python order and returns every order up to it, so it cannot take the traced integer
array `v` used here. Instead, for integer `n`, Bessel's integral

    J_n(z) = (1/2pi) * integral over one period of cos(n t - z sin t) dt

is evaluated by the trapezoidal rule on `NODES` (128) points, the angle `n t`
reduced exactly in integer arithmetic. The rule converges geometrically; its error
is the aliased orders `J_{n +- 128 k}(z)`. Accurate range: `|v| + |z| <= RANGE`
(80), where the absolute error of `J_v` and of its first two derivatives is below
`1e-14` in float64 and `2e-6` in float32 (checked against SciPy by the tests);
outside it the result is NaN, and so are its derivatives. It is plain `jax.numpy`,
so AD differentiates it in `z` (the tests check the second derivative against
Bessel's equation).

Contract:

- **Observer only.** The result is the native one; `report` sees `v` (as int32), `z`
  and the output.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`;
  once per batch element under `vmap`; once under `grad` and `jvp`, with the forward
  (primal) values only. Not once per execution in every program: under
  `jax.checkpoint` the host sees the forward pass twice, under `vmap` of a `lax.cond`
  both branches run, and inside a loop that `grad` differentiates it may run fewer
  times than the loop has steps.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order (an
  eager call with an array sharded over several devices raises `ValueError`).
- **Derivatives.** Native: `grad`, `jvp` and `hessian` work in `z`.
- **Types.** As `jaxcb_native.bessel_jv`: `v` any integer dtype, converted to int32
  (clamped to `+-(2**31 - 2)`); `z` floating, or integer promoted to the default
  float dtype; float16 and bfloat16 computed in float32.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from . import _checks

__all__ = ["NODES", "RANGE", "bessel_jv", "on_host"]

Report = Callable[[str, dict[str, np.ndarray]], Any]

NODES = 128
RANGE = 80  # accurate for |v| + |z| <= RANGE; NaN beyond
ORDER_LIMIT = _checks.ORDER_LIMIT  # int32 orders, with room for v - 1 and v + 1


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


# --8<-- [start:host]
def on_host(report: Report | None, v: Any, z: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    values = {"v": np.asarray(v), "z": np.asarray(z), "out": np.asarray(out)}
    (report or _log)("bessel_jv", values)


# --8<-- [end:host]


def _check(
    v: ArrayLike, z: ArrayLike, report: object, ordered: object, partitioned: object
) -> tuple[jax.Array, jax.Array, bool, bool]:
    v, z, _ = _checks.bessel_jv(v, z)
    return v, z, *_checks.observer("bessel_jv", {"v": v, "z": z}, report, ordered, partitioned)


# --8<-- [start:native]
def _jn(v: jax.Array, z: jax.Array) -> jax.Array:
    """`J_v(z)` for int32 `v`: the trapezoidal rule on Bessel's integral; NaN off range."""
    dtype = z.dtype
    z = z.astype(jnp.promote_types(dtype, jnp.float32))  # float16, bfloat16: in float32
    # Outside the range z becomes NaN by adding NaN: the value and every derivative are NaN
    # (a jnp.where selecting NaN would give reverse mode a zero derivative there).
    z = z + jnp.where(jnp.abs(v) + jnp.abs(z) <= RANGE, 0, jnp.nan)
    j = jnp.arange(NODES, dtype=jnp.int32)  # t_j = 2*pi*j / NODES
    k = jnp.mod(v[..., None] * j, NODES)  # n*t_j = 2*pi*k / NODES (mod 2*pi), exactly
    step = 2 * np.pi / NODES
    angle = k.astype(z.dtype) * step - z[..., None] * jnp.sin(j.astype(z.dtype) * step)
    return jnp.mean(jnp.cos(angle), axis=-1).astype(dtype)


# --8<-- [end:native]


# --8<-- [start:pattern]
def bessel_jv(
    v: ArrayLike,
    z: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """Return `J_v(z)` (native) and report `v`, `z` and the result to the host.

    Accurate for `|v| + |z| <= RANGE` (80); NaN outside that range.

    Args:
        v: integer order(s).
        z: real argument(s); integers are promoted to the default float dtype.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.
        partitioned: under a sharded `jax.jit`, call the host once per shard with its own
            block instead of once with the gathered array (passed to JAX only when set:
            JAX 0.4.30 has no such option).

    Returns:
        An array of shape `broadcast(v, z)` and the float dtype of `z`.

    Raises:
        TypeError: `v` is not an integer array, `z` is not real, `report` is not
            callable, or `ordered` is not a bool.
        ValueError: `v` and `z` do not broadcast, or `ordered=True` with an input on
            several devices.
    """
    v, z, ordered, partitioned = _check(v, z, report, ordered, partitioned)
    out = _jn(v, z)  # v broadcasts against z inside: no per-element order array
    options = {"partitioned": True} if partitioned else {}
    jax.debug.callback(functools.partial(on_host, report), v, z, out, ordered=ordered, **options)
    return out


# --8<-- [end:pattern]
