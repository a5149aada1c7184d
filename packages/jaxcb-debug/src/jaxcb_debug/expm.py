"""Observe the matrix exponential with `jax.debug.callback`.

The native result is `jax.scipy.linalg.expm`, which accepts stacks `(..., n, n)`.

Contract:

- **Observer only.** The result is the native one; `report` sees the input and
  output.
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
import jax.scipy.linalg
import numpy as np
from jax.typing import ArrayLike

__all__ = ["expm", "on_host"]

Report = Callable[[str, dict[str, np.ndarray]], Any]


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


# --8<-- [start:host]
def on_host(report: Report | None, a: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    (report or _log)("expm", {"a": np.asarray(a), "out": np.asarray(out)})


# --8<-- [end:host]


def _check(a: ArrayLike) -> jax.Array:
    a = jnp.asarray(a)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"expm: a must have a floating dtype, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    return a


# --8<-- [start:pattern]
def expm(a: ArrayLike, *, report: Report | None = None, ordered: bool = False) -> jax.Array:
    """Return the matrix exponential of `a` (native) and report input and output to the host.

    Args:
        a: floating array of shape `(..., n, n)`.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.

    Raises:
        TypeError: `a` is not floating.
        ValueError: `a` is not a (stack of) square matrices.
    """
    a = _check(a)
    out = jax.scipy.linalg.expm(a)
    jax.debug.callback(functools.partial(on_host, report), a, out, ordered=ordered)
    return out


# --8<-- [end:pattern]
