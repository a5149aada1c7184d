"""Observe ``sin(x) * y + 1`` with `jax.debug.callback`.

Contract:

- **Observer only.** A debug callback returns nothing to the computation: the
  result is the native `jax.numpy` one, and `report` sees the inputs and output.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`;
  once per batch element under `vmap`; once under `grad` and `jvp`, with the forward
  (primal) values only. Not once per execution in every program: under
  `jax.checkpoint` the host sees the forward pass twice, under `vmap` of a `lax.cond`
  both branches run, and inside a loop that `grad` differentiates it may run fewer
  times than the loop has steps.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order
  (not allowed under `pmap`, nor for arrays sharded over several devices: an eager
  call with one raises `ValueError` here, before JAX would).
- **Derivatives.** Everything native works: the observer does not block AD.
- **Types.** As `jaxcb_native.sin_scale`: `x` any floating dtype, `y` a real scalar.
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

__all__ = ["on_host", "sin_scale"]

Report = Callable[[str, dict[str, np.ndarray]], Any]


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


def on_host(report: Report | None, x: Any, y: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    values = {"x": np.asarray(x), "y": np.asarray(y), "out": np.asarray(out)}
    (report or _log)("sin_scale", values)


def _check(
    x: ArrayLike, y: ArrayLike, report: object, ordered: object, partitioned: object
) -> tuple[jax.Array, jax.Array, bool, bool]:
    x, y = _checks.sin_scale(x, y)
    flags = _checks.observer("sin_scale", {"x": x, "y": y}, report, ordered, partitioned)
    return x, y.astype(x.dtype), *flags


# --8<-- [start:pattern]
def sin_scale(
    x: ArrayLike,
    y: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """Return `sin(x) * y + 1` (native) and report inputs and output to the host.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.
        partitioned: under a sharded `jax.jit`, call the host once per shard with its own
            block instead of once with the gathered array (passed to JAX only when set:
            JAX 0.4.30 has no such option).

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, `y` is not real, `report` is not
            callable, or `ordered` is not a bool.
        ValueError: `y` is not a scalar, or `ordered=True` with an input on several devices.
    """
    x, y, ordered, partitioned = _check(x, y, report, ordered, partitioned)
    out = jnp.sin(x) * y + 1
    options = {"partitioned": True} if partitioned else {}
    jax.debug.callback(functools.partial(on_host, report), x, y, out, ordered=ordered, **options)
    return out


# --8<-- [end:pattern]
