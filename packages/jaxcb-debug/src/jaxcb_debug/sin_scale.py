"""Observe ``sin(x) * y + 1`` with `jax.debug.callback`.

Contract:

- **Observer only.** A debug callback returns nothing to the computation: the
  result is the native `jax.numpy` one, and `report` sees the inputs and output.
- **When it runs.** Not removed when the result is unused; may be removed if
  JAX proves the values it observes are unused. Under `grad` it sees the forward
  pass only. Under `vmap` it runs once per batch element.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order
  (not allowed under `pmap`).
- **Derivatives.** Everything native works: the observer does not block AD.
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

__all__ = ["on_host", "sin_scale"]

Report = Callable[[str, dict[str, np.ndarray]], Any]


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


def on_host(report: Report | None, x: Any, y: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    values = {"x": np.asarray(x), "y": np.asarray(y), "out": np.asarray(out)}
    (report or _log)("sin_scale", values)


def _check(x: ArrayLike, y: ArrayLike) -> tuple[jax.Array, jax.Array]:
    x, y = jnp.asarray(x), jnp.asarray(y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    return x, y.astype(x.dtype)


# --8<-- [start:pattern]
def sin_scale(
    x: ArrayLike, y: ArrayLike, *, report: Report | None = None, ordered: bool = False
) -> jax.Array:
    """Return `sin(x) * y + 1` (native) and report inputs and output to the host.

    Args:
        x: floating array of any shape.
        y: scalar, cast to the dtype of `x`.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.

    Raises:
        TypeError: `x` is not floating.
        ValueError: `y` is not a scalar.
    """
    x, y = _check(x, y)
    out = jnp.sin(x) * y + 1
    jax.debug.callback(functools.partial(on_host, report), x, y, out, ordered=ordered)
    return out


# --8<-- [end:pattern]
