"""Observe the real root of ``x**3 + a*x - b`` with `jax.debug.callback`.

The native result comes from a copy of `jaxcb_native.cubic_root`, kept in this file
so that it can be copied alone: Cardano's formula for `a > 0` (one real root), on the
equation scaled by a power of two `2**k` near `max(sqrt(a), cbrt(|b|))` so that
nothing overflows or underflows, written without cancellation,

    u = cbrt(|B|/2 + sqrt(B**2/4 + p**3)),   y = B / (u**2 + p + (p/u)**2),

with `A = a / 2**(2k)`, `B = b / 2**(3k)`, `p = A/3` and the root `x = 2**k * y`,
then polished by two Newton steps. It is accurate to a few units in the last place
for any finite `a > 0` and `b` (the tests go from `1e-30` to `1e30`) and
differentiable (AD through the formula and the Newton steps). For `a <= 0` the
square root may be of a negative number and the result NaN, and a NaN or infinite
`a` or `b` gives NaN: `a > 0` is the documented domain.

Contract:

- **Observer only.** The result is the native one; `report` sees `a`, `b` and
  the output.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`;
  once per batch element under `vmap`; once under `grad` and `jvp`, with the forward
  (primal) values only. Not once per execution in every program: under
  `jax.checkpoint` the host sees the forward pass twice, under `vmap` of a `lax.cond`
  both branches run, and inside a loop that `grad` differentiates it may run fewer
  times than the loop has steps.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order (an
  eager call with an array sharded over several devices raises `ValueError`).
- **Derivatives.** Native: `grad` and `jvp` work.
- **Types.** Floating `a` and `b`, in their common dtype (float16 and bfloat16
  computed in float32).
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

__all__ = ["cubic_root", "on_host"]

Report = Callable[[str, dict[str, np.ndarray]], Any]

NEWTON_STEPS = 2


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


# --8<-- [start:host]
def on_host(report: Report | None, a: Any, b: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    values = {"a": np.asarray(a), "b": np.asarray(b), "out": np.asarray(out)}
    (report or _log)("cubic_root", values)


# --8<-- [end:host]


def _check(
    a: ArrayLike, b: ArrayLike, report: object, ordered: object, partitioned: object
) -> tuple[jax.Array, jax.Array, bool, bool]:
    a, b, _ = _checks.cubic_root(a, b)
    flags = _checks.observer("cubic_root", {"a": a, "b": b}, report, ordered, partitioned)
    dtype = jnp.result_type(a, b)
    return a.astype(dtype), b.astype(dtype), *flags


# --8<-- [start:native]
def _cardano(a: jax.Array, b: jax.Array) -> jax.Array:
    """The real root of `x**3 + a*x - b` for `a > 0`: scaled Cardano, two Newton steps."""
    dtype = a.dtype
    a, b = a.astype(jnp.promote_types(dtype, jnp.float32)), b.astype(a.dtype)
    k = _scale(a, b)  # x = 2**k * y, where y**3 + A*y - B = 0 has |A|, |B| < 1
    s = jnp.ldexp(jnp.ones_like(a), -k)  # 2**-k: scaling by a power of two is exact
    big_a, big_b = a * s * s, b * s * s * s  # one factor at a time: none overflows
    p = big_a / 3
    u = jnp.cbrt(jnp.abs(big_b) / 2 + jnp.sqrt((big_b / 2) ** 2 + p**3))
    x = b * s * s / (u * u + p + (p / u) ** 2)  # = 2**k * y, without cancellation
    for _ in range(NEWTON_STEPS):
        x = x - (x * (x * x + a) - b) / (3 * x * x + a)
    return x.astype(dtype)


def _scale(a: jax.Array, b: jax.Array) -> jax.Array:
    """The integer k with 2**k about max(sqrt(|a|), cbrt(|b|)), from the exponents alone."""
    (_, ea), (_, eb) = jnp.frexp(a), jnp.frexp(b)  # x = m * 2**e with 0.5 <= |m| < 1
    unset = -(2**29)  # below any exponent: a zero coefficient does not set k
    ka = jnp.where(a == 0, unset, -(-ea // 2))  # ceil(ea / 2): |a| / 2**(2k) < 1
    kb = jnp.where(b == 0, unset, -(-eb // 3))  # ceil(eb / 3): |b| / 2**(3k) < 1
    return jnp.maximum(ka, kb)


# --8<-- [end:native]


# --8<-- [start:pattern]
def cubic_root(
    a: ArrayLike,
    b: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """Return the real root of `x**3 + a*x - b` (native) and report it to the host.

    Args:
        a: floating array, `> 0` (one real root).
        b: floating array, broadcastable with `a`.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.
        partitioned: under a sharded `jax.jit`, call the host once per shard with its own
            block instead of once with the gathered array (passed to JAX only when set:
            JAX 0.4.30 has no such option).

    Returns:
        An array of shape `broadcast(a, b)` and dtype `result_type(a, b)`.

    Raises:
        TypeError: `a` or `b` is not a floating array, `report` is not callable, or
            `ordered` is not a bool.
        ValueError: `a` and `b` do not broadcast, or `ordered=True` with an input on
            several devices.
    """
    a, b, ordered, partitioned = _check(a, b, report, ordered, partitioned)
    out = _cardano(a, b)
    options = {"partitioned": True} if partitioned else {}
    jax.debug.callback(functools.partial(on_host, report), a, b, out, ordered=ordered, **options)
    return out


# --8<-- [end:pattern]
