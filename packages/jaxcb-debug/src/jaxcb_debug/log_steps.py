"""Log every step of a `lax.scan` with `jax.debug.callback` or `jax.debug.print`.

The loop runs `n` steps of `x -> 0.5 * x + 1`; after step `k` (1-based)
`log_steps` calls `log(k, x_k)` on the host (`k` an int32 scalar array, `x_k` the
state) and `log_steps_print` prints the line `step {k}: {x}`.

Contract:

- **Every step, in order.** With the default `ordered=True` the steps arrive in
  program order, also when the result is unused under `jax.jit`. With
  `ordered=False` every step still arrives exactly once, in no promised order.
- **Batching.** `vmap` calls the host once per batch element per step.
- **Derivatives.** Native: the loop is `jax.numpy`, so `grad` works; the log sees
  the forward pass only (the primal states, once per step), never tangents or
  cotangents.
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
from jax.typing import ArrayLike

__all__ = ["log_steps", "log_steps_print", "on_host"]

PRINT_FORMAT = "step {k}: {x}"  # what the print form writes after each step
Log = Callable[[np.ndarray, np.ndarray], Any]


def _log(k: np.ndarray, x: np.ndarray) -> None:
    logging.getLogger("jaxcb_debug").info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(log: Log | None, k: Any, x: Any) -> None:
    """Runs on the host after each step; hands the concrete step and state to `log`."""
    (log or _log)(np.asarray(k), np.asarray(x))  # jax.Array in: views, no copies


# --8<-- [end:host]


def _check(fn: str, x0: ArrayLike, n: object) -> jax.Array:  # checked at run time
    x0 = jnp.asarray(x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"{fn}: x0 must have a floating dtype, got {x0.dtype}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{fn}: n must be a Python int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{fn}: n must be >= 0, got {n}")
    return x0


# --8<-- [start:pattern]
def log_steps(x0: ArrayLike, n: int, *, log: Log | None = None, ordered: bool = True) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, calling `log(k, x_k)` on the host after each.

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int `>= 0`.
        log: `log(k, x_k)` on the host; default logs to the `jaxcb_debug` logger.
        ordered: deliver the steps in program order (default).

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not floating, or `n` is not an int.
        ValueError: `n` is negative.
    """
    x0 = _check("log_steps", x0, n)

    def step(x: jax.Array, k: jax.Array) -> tuple[jax.Array, None]:
        x = 0.5 * x + 1
        jax.debug.callback(functools.partial(on_host, log), k, x, ordered=ordered)
        return x, None

    x, _ = lax.scan(step, x0, jnp.arange(1, n + 1, dtype=jnp.int32))
    return x


# --8<-- [end:pattern]


# --8<-- [start:print]
def log_steps_print(x0: ArrayLike, n: int) -> jax.Array:
    """Like `log_steps`, but print `step {k}: {x}` to stdout in program order."""
    x0 = _check("log_steps_print", x0, n)

    def step(x: jax.Array, k: jax.Array) -> tuple[jax.Array, None]:
        x = 0.5 * x + 1
        jax.debug.print(PRINT_FORMAT, k=k, x=x, ordered=True)
        return x, None

    x, _ = lax.scan(step, x0, jnp.arange(1, n + 1, dtype=jnp.int32))
    return x


# --8<-- [end:print]
