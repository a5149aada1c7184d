"""Observe the matrix exponential with `jax.debug.callback`.

The native result is `jax.scipy.linalg.expm`, which accepts stacks `(..., n, n)`.

Contract:

- **Observer only.** The result is the native one; `report` sees the input and
  output.
- **When it runs.** Once per call, also when the result is unused under `jax.jit`;
  once per batch element under `vmap`; once under `grad` and `jvp`, with the forward
  (primal) values only. Not once per execution in every program: under
  `jax.checkpoint` the host sees the forward pass twice, under `vmap` of a `lax.cond`
  both branches run, and inside a loop that `grad` differentiates it may run fewer
  times than the loop has steps.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order (an
  eager call with an array sharded over several devices raises `ValueError`).
- **Derivatives.** Native: `grad` and `jvp` work.
- **Types and non-finite input.** As `jaxcb_native.expm`: float16 and bfloat16 are
  computed in float32; a matrix with a NaN or infinite entry comes out as NaN.
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

from . import _checks

__all__ = ["expm", "on_host"]

Report = Callable[[str, dict[str, np.ndarray]], Any]


def _log(name: str, values: dict[str, np.ndarray]) -> None:
    logging.getLogger("jaxcb_debug").info("%s %s", name, values)


# --8<-- [start:host]
def on_host(report: Report | None, a: Any, out: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`."""
    (report or _log)("expm", {"a": np.asarray(a), "out": np.asarray(out)})


# --8<-- [end:host]


def _check(
    a: ArrayLike, report: object, ordered: object, partitioned: object
) -> tuple[jax.Array, bool, bool]:
    a = _checks.expm(a)
    return a, *_checks.observer("expm", {"a": a}, report, ordered, partitioned)


# --8<-- [start:pattern]
def expm(
    a: ArrayLike, *, report: Report | None = None, ordered: bool = False, partitioned: bool = False
) -> jax.Array:
    """Return the matrix exponential of `a` (native) and report input and output to the host.

    Args:
        a: floating array of shape `(..., n, n)`.
        report: `report(name, values)` on the host; default logs to `jaxcb_debug`.
        ordered: keep program order with other ordered effects.
        partitioned: under a sharded `jax.jit`, call the host once per shard with its own
            block instead of once with the gathered array (passed to JAX only when set:
            JAX 0.4.30 has no such option).

    Returns:
        An array of the shape and dtype of `a`; NaN for a matrix with a non-finite entry.

    Raises:
        TypeError: `a` is not a floating array, `report` is not callable, or `ordered`
            is not a bool.
        ValueError: `a` is not a (stack of) square matrices, or `ordered=True` with `a`
            on several devices.
    """
    a, ordered, partitioned = _check(a, report, ordered, partitioned)
    wide = jnp.promote_types(a.dtype, jnp.float32)  # float16, bfloat16: in float32
    out = jax.scipy.linalg.expm(a.astype(wide)).astype(a.dtype)
    options = {"partitioned": True} if partitioned else {}
    jax.debug.callback(functools.partial(on_host, report), a, out, ordered=ordered, **options)
    return out


# --8<-- [end:pattern]
