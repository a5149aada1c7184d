"""Observe Bessel functions of the first kind with `jax.debug.callback`.

The native result comes from a small `jax.numpy` implementation kept in this file:
`jax.scipy.special.bessel_jn(z, v=...)` needs a static Python order and returns
every order up to it, so it cannot take the traced integer array `v` used here.
Instead, for integer `n`,

    J_n(z) = (1/pi) * integral_0^pi cos(n t - z sin t) dt,

evaluated with the trapezoidal rule on 64 intervals. The integrand extends to a
smooth periodic function, for which that rule converges exponentially: the
error is of the size of `J_{128 - |n|}(z)`, below float64 rounding for
`|n| <= 10`, `|z| <= 20` (checked against SciPy by the tests). Beyond that the
accuracy decays. It is plain `jax.numpy`, so AD differentiates it in `z` (the
tests check the second derivative against Bessel's equation).

Contract:

- **Observer only.** The result is the native one; `report` sees `v`, `z` and
  the output.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`.
  Under `vmap` once per batch element; under `grad` and `jvp` once, with the
  forward (primal) values only.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order.
- **Derivatives.** Native: `grad`, `jvp` and `hessian` work in `z`.
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

__all__ = ["bessel_jv", "on_host"]

Report = Callable[[str, dict[str, np.ndarray]], Any]

_INTERVALS = 64


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


# --8<-- [start:host]
def on_host(report: Report | None, v: Any, z: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    values = {"v": np.asarray(v), "z": np.asarray(z), "out": np.asarray(out)}
    (report or _log)("bessel_jv", values)


# --8<-- [end:host]


def _check(v: ArrayLike, z: ArrayLike) -> tuple[jax.Array, jax.Array]:
    v, z = jnp.asarray(v), jnp.asarray(z)
    if not jnp.issubdtype(v.dtype, jnp.integer):
        raise TypeError(f"bessel_jv: v must have an integer dtype, got {v.dtype}")
    if jnp.issubdtype(z.dtype, jnp.integer):
        z = z.astype(jnp.result_type(float))  # the default float: float64 under x64
    elif not jnp.issubdtype(z.dtype, jnp.floating):
        raise TypeError(f"bessel_jv: z must have a real dtype, got {z.dtype}")
    try:
        jnp.broadcast_shapes(v.shape, z.shape)
    except ValueError:
        raise ValueError(
            f"bessel_jv: v and z must be broadcastable, got shapes {v.shape} and {z.shape}"
        ) from None
    return v, z


# --8<-- [start:native]
def _jn(v: jax.Array, z: jax.Array) -> jax.Array:
    """`J_v(z)` for integer `v` by the trapezoidal rule on Bessel's integral."""
    t = jnp.arange(_INTERVALS + 1, dtype=z.dtype) * (jnp.pi / _INTERVALS)
    w = jnp.full(_INTERVALS + 1, 1.0 / _INTERVALS, z.dtype).at[jnp.array([0, -1])].mul(0.5)
    n = v.astype(z.dtype)[..., None]
    return jnp.sum(jnp.cos(n * t - z[..., None] * jnp.sin(t)) * w, axis=-1)  # fuses; `@ w` did not


# --8<-- [end:native]


# --8<-- [start:pattern]
def bessel_jv(
    v: ArrayLike, z: ArrayLike, *, report: Report | None = None, ordered: bool = False
) -> jax.Array:
    """Return `J_v(z)` (native) and report `v`, `z` and the result to the host.

    Args:
        v: integer order(s).
        z: real argument(s); integers are promoted to the default float dtype.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.

    Returns:
        An array of shape `broadcast(v, z)` and the float dtype of `z`.

    Raises:
        TypeError: `v` is not integer, or `z` is not real.
        ValueError: `v` and `z` do not broadcast.
    """
    v, z = _check(v, z)
    out = _jn(*jnp.broadcast_arrays(v, z))
    jax.debug.callback(functools.partial(on_host, report), v, z, out, ordered=ordered)
    return out


# --8<-- [end:pattern]
