"""Observe ``(sum, mean)`` over the last axis with `jax.debug.callback`.

Contract:

- **Observer only.** A debug callback returns nothing to the computation: the
  result is the native `jax.numpy` one, and `report` sees the input and outputs.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`;
  once per batch element under `vmap`; once under `grad` and `jvp`, with the forward
  (primal) values only. Not once per execution in every program: under
  `jax.checkpoint` the host sees the forward pass twice, under `vmap` of a `lax.cond`
  both branches run, and inside a loop that `grad` differentiates it may run fewer
  times than the loop has steps.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order (an
  eager call with an array sharded over several devices raises `ValueError`).
- **Derivatives.** Native: `grad` and `jvp` work; the observer does not block AD.
- **Types.** As `jaxcb_native.sum_mean`: float16 and bfloat16 are accumulated in
  float32 and both results cast back; an empty last axis gives a mean of NaN.
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


def _check(
    x: ArrayLike, report: object, ordered: object, partitioned: object
) -> tuple[jax.Array, bool, bool]:
    x = _checks.sum_mean(x)
    return x, *_checks.observer("sum_mean", {"x": x}, report, ordered, partitioned)


# --8<-- [start:pattern]
def sum_mean(
    x: ArrayLike, *, report: Report | None = None, ordered: bool = False, partitioned: bool = False
) -> tuple[jax.Array, jax.Array]:
    """Return `(x.sum(-1), x.mean(-1))` (native) and report input and outputs to the host.

    Args:
        x: floating array with at least one axis.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.
        partitioned: under a sharded `jax.jit`, call the host once per shard with its own
            block instead of once with the gathered array (passed to JAX only when set:
            JAX 0.4.30 has no such option).

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, `report` is not callable, or `ordered`
            is not a bool.
        ValueError: `x` is a scalar, or `ordered=True` with `x` on several devices.
    """
    x, ordered, partitioned = _check(x, report, ordered, partitioned)
    wide = jnp.promote_types(x.dtype, jnp.float32)  # accumulate narrow floats in float32
    total = jnp.sum(x, axis=-1, dtype=wide).astype(x.dtype)
    mean = jnp.mean(x, axis=-1, dtype=wide).astype(x.dtype)
    options = {"partitioned": True} if partitioned else {}
    jax.debug.callback(
        functools.partial(on_host, report), x, total, mean, ordered=ordered, **options
    )
    return total, mean


# --8<-- [end:pattern]
