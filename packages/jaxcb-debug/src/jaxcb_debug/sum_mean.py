"""Observe ``(sum, mean)`` over the last axis with `jax.debug.callback`.

Contract:

- **Observer only.** A debug callback returns nothing to the computation: the
  result is the native `jax.numpy` one, and `report` sees the input and outputs.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`.
  Under `vmap` once per batch element; under `grad` and `jvp` once, with the
  forward (primal) values only.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order.
- **Derivatives.** Native: `grad` and `jvp` work; the observer does not block AD.
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

__all__ = ["on_host", "sum_mean"]

Report = Callable[[str, dict[str, np.ndarray]], Any]


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


# --8<-- [start:host]
def on_host(report: Report | None, x: Any, total: Any, mean: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    values = {"x": np.asarray(x), "sum": np.asarray(total), "mean": np.asarray(mean)}
    (report or _log)("sum_mean", values)


# --8<-- [end:host]


def _check(x: ArrayLike) -> jax.Array:
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sum_mean: x must have a floating dtype, got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    return x


# --8<-- [start:pattern]
def sum_mean(
    x: ArrayLike, *, report: Report | None = None, ordered: bool = False
) -> tuple[jax.Array, jax.Array]:
    """Return `(x.sum(-1), x.mean(-1))` (native) and report input and outputs to the host.

    Args:
        x: floating array with at least one axis.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.

    Raises:
        TypeError: `x` is not floating.
        ValueError: `x` is a scalar.
    """
    x = _check(x)
    total, mean = jnp.sum(x, axis=-1), jnp.mean(x, axis=-1)
    jax.debug.callback(functools.partial(on_host, report), x, total, mean, ordered=ordered)
    return total, mean


# --8<-- [end:pattern]
