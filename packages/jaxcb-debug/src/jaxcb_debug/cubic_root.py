"""Observe the real root of ``x**3 + a*x - b`` with `jax.debug.callback`.

The native result comes from a small `jax.numpy` solver kept in this file:
Cardano's formula for `a > 0` (one real root), written without cancellation,

    u = cbrt(|b|/2 + sqrt(b**2/4 + (a/3)**3)),   x = b / (u**2 + a/3 + (a/(3u))**2),

then polished by two Newton steps. It is differentiable (AD through the formula
and the Newton steps). For `a <= 0` the square root may be of a negative number
and the result NaN: `a > 0` is the documented domain.

Contract:

- **Observer only.** The result is the native one; `report` sees `a`, `b` and
  the output.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`.
  Under `vmap` once per batch element; under `grad` and `jvp` once, with the
  forward (primal) values only.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order.
- **Derivatives.** Native: `grad` and `jvp` work.
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

__all__ = ["cubic_root", "on_host"]

Report = Callable[[str, dict[str, np.ndarray]], Any]


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


# --8<-- [start:host]
def on_host(report: Report | None, a: Any, b: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    values = {"a": np.asarray(a), "b": np.asarray(b), "out": np.asarray(out)}
    (report or _log)("cubic_root", values)


# --8<-- [end:host]


def _check(a: ArrayLike, b: ArrayLike) -> tuple[jax.Array, jax.Array]:
    a, b = jnp.asarray(a), jnp.asarray(b)
    for name, arg in (("a", a), ("b", b)):
        if not jnp.issubdtype(arg.dtype, jnp.floating):
            raise TypeError(f"cubic_root: {name} must have a floating dtype, got {arg.dtype}")
    try:
        jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"cubic_root: a and b must be broadcastable, got shapes {a.shape} and {b.shape}"
        ) from None
    dtype = jnp.result_type(a, b)
    return a.astype(dtype), b.astype(dtype)


# --8<-- [start:native]
def _cardano(a: jax.Array, b: jax.Array) -> jax.Array:
    """The real root of `x**3 + a*x - b` for `a > 0`: Cardano, then two Newton steps."""
    p = a / 3
    u = jnp.cbrt(jnp.abs(b) / 2 + jnp.sqrt((b / 2) ** 2 + p**3))
    x = b / (u * u + p + (p / u) ** 2)  # = u - p/u with the sign of b, without cancellation
    for _ in range(2):
        x = x - (x**3 + a * x - b) / (3 * x * x + a)
    return x


# --8<-- [end:native]


# --8<-- [start:pattern]
def cubic_root(
    a: ArrayLike, b: ArrayLike, *, report: Report | None = None, ordered: bool = False
) -> jax.Array:
    """Return the real root of `x**3 + a*x - b` (native) and report it to the host.

    Args:
        a: floating array, `> 0` (one real root).
        b: floating array, broadcastable with `a`.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.

    Returns:
        An array of shape `broadcast(a, b)` and dtype `result_type(a, b)`.

    Raises:
        TypeError: `a` or `b` is not floating.
        ValueError: `a` and `b` do not broadcast.
    """
    a, b = _check(a, b)
    out = _cardano(a, b)
    jax.debug.callback(functools.partial(on_host, report), a, b, out, ordered=ordered)
    return out


# --8<-- [end:pattern]
