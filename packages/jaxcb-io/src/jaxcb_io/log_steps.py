"""Log every step of a `lax.scan` to the host with `jax.experimental.io_callback`.

The loop runs `n` steps of `x -> 0.5 * x + 1`; after step `k` (1-based) the host
receives `log(k, x_k)`: `k` an int32 scalar array, `x_k` the state.

Contract:

- **Every step, exactly once, in order.** io_callbacks are never removed, so the
  log is written even when the result is unused under `jax.jit`. With the default
  `ordered=True` the steps arrive in program order. With `ordered=False` every
  step still arrives exactly once, but JAX promises no order.
- **Batching.** `ordered=True` cannot be batched: `vmap` raises `ValueError`.
  With `ordered=False`, `vmap` calls the host once per batch element per step.
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError` even though the log returns nothing. `jaxcb_debug.log_steps`
  observes the forward pass of a differentiated loop instead.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["log_steps", "on_host"]

Log = Callable[[np.ndarray, np.ndarray], Any]


def _log(k: np.ndarray, x: np.ndarray) -> None:
    logging.getLogger("jaxcb_io").info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(log: Log | None, k: Any, x: Any) -> None:
    """Runs on the host after each step; hands the concrete step and state to `log`."""
    (log or _log)(np.asarray(k), np.asarray(x))  # jax.Array in: views, no copies


# --8<-- [end:host]


def _check(x0: ArrayLike, n: object) -> jax.Array:  # checked at run time
    x0 = jnp.asarray(x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"log_steps: x0 must have a floating dtype, got {x0.dtype}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"log_steps: n must be a Python int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"log_steps: n must be >= 0, got {n}")
    return x0


# --8<-- [start:pattern]
def log_steps(x0: ArrayLike, n: int, *, log: Log | None = None, ordered: bool = True) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, sending `log(k, x_k)` to the host after each.

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int `>= 0`.
        log: `log(k, x_k)` on the host; default logs to the `jaxcb_io` logger.
        ordered: deliver the steps in program order (default).

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not floating, or `n` is not an int.
        ValueError: `n` is negative.
    """
    x0 = _check(x0, n)

    def step(x: jax.Array, k: jax.Array) -> tuple[jax.Array, None]:
        x = 0.5 * x + 1
        io_callback(functools.partial(on_host, log), None, k, x, ordered=ordered)
        return x, None

    x, _ = lax.scan(step, x0, jnp.arange(1, n + 1, dtype=jnp.int32))
    return x


# --8<-- [end:pattern]
