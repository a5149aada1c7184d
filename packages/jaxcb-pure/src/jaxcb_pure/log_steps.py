"""COUNTER-EXAMPLE: logging every `lax.scan` step with `jax.pure_callback`. Do not copy.

This is the tempting way to log from compiled code, and it is wrong: a pure
callback promises JAX that it computes a value and has no effect, and the logging
call below returns a dummy value that nothing uses. JAX takes the promise at its
word. Measured on JAX 0.10.2 and 0.12.0.1 (CPU), by this package's tests:

- **The log is never called**, with or without `jax.jit`, and under `jax.vmap`:
  the scan body is always compiled, and a pure call whose result is unused is
  removed from it. The returned state is still right, which hides the bug.
- **`jax.grad` and `jax.jvp` raise** `ValueError: Pure callbacks do not support
  JVP...`, although the callback's result does not even reach the output.

Nothing promises the opposite either: a pure callback may also run more than once
or out of order. For an effect use `jax.experimental.io_callback(..., ordered=True)`
or `jax.debug.callback(..., ordered=True)` (see the io and debug packages).

`vmap_method="sequential"` would give `log` one batch element at a time, the shape
it expects, if the call ever ran.
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

__all__ = ["VMAP_METHOD", "log_steps", "on_host"]

VMAP_METHOD = "sequential"

_logger = logging.getLogger(__name__)


def _log_to_logging(k: np.ndarray, x: np.ndarray) -> None:
    _logger.info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(k: np.ndarray, x: np.ndarray, *, log: Callable[[Any, Any], Any]) -> np.ndarray:
    """Hands step `k` and state `x` to `log`; returns a dummy value (the mistake)."""
    log(np.asarray(k), np.asarray(x))
    return np.zeros((), np.int32)


# --8<-- [end:host]


def _check(x0: ArrayLike, n: object) -> jax.Array:  # n: checked at run time
    x0 = jnp.asarray(x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"log_steps: x0 must have a floating dtype, got {x0.dtype}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"log_steps: n must be a Python int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"log_steps: n must be >= 0, got {n}")
    return x0


# --8<-- [start:pattern]
def log_steps(
    x0: ArrayLike,
    n: int,
    *,
    log: Callable[[Any, Any], Any] | None = None,
    vmap_method: str | None = VMAP_METHOD,
) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, *meaning* to call `log(k, x_k)` after each.

    Wrong on purpose: see the module docstring for what actually happens.

    Args:
        x0: floating array, the initial state.
        n: number of steps, a Python int `>= 0`.
        log: host function called as `log(k, x_k)` (an int32 scalar and the state);
            `None` logs through the `logging` module.
        vmap_method: how `jax.vmap` would call the host.

    Returns:
        The state after `n` steps.

    Raises:
        TypeError: `x0` is not floating, or `n` is not a Python int.
        ValueError: `n` is negative.
    """
    x0 = _check(x0, n)
    host = functools.partial(on_host, log=_log_to_logging if log is None else log)

    def step(x: jax.Array, k: jax.Array) -> tuple[jax.Array, None]:
        x = 0.5 * x + 1
        dummy = jax.ShapeDtypeStruct((), jnp.int32)
        jax.pure_callback(host, dummy, k, x, vmap_method=vmap_method)  # result unused
        return x, None

    x, _ = jax.lax.scan(step, x0, jnp.arange(1, n + 1, dtype=jnp.int32))
    return x


# --8<-- [end:pattern]
