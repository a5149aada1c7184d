"""Report a long `lax.scan` every `every` steps with `jax.debug.callback` or `jax.debug.print`.

Like `log_steps`, but the host is reached only after steps `k` with
`k % every == 0`: the callback sits in one branch of `lax.cond`, so the other
steps never leave the device. `progress_print` prints `step {k}: {x}` instead.

Contract:

- **Every reported step, in order.** With the default `ordered=True` the reports
  arrive in program order, also when the result is unused under `jax.jit`. With
  `ordered=False` each still arrives exactly once, in no promised order.
- **Batching.** `vmap` works (unlike an io_callback inside `lax.cond`): the host
  is called once per batch element per reported step.
- **Derivatives.** Native: `grad` works; the reports see the forward pass only.
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

__all__ = ["on_host", "progress", "progress_print"]

PRINT_FORMAT = "step {k}: {x}"  # what the print form writes after each reported step
Report = Callable[[np.ndarray, np.ndarray], Any]


def _log(k: np.ndarray, x: np.ndarray) -> None:
    logging.getLogger("jaxcb_debug").info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(report: Report | None, k: Any, x: Any) -> None:
    """Runs on the host on reported steps only; hands step and state to `report`."""
    (report or _log)(np.asarray(k), np.asarray(x))  # jax.Array in: views, no copies


# --8<-- [end:host]


def _check(fn: str, x0: ArrayLike, n: object, every: object) -> jax.Array:  # checked at run time
    x0 = jnp.asarray(x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"{fn}: x0 must have a floating dtype, got {x0.dtype}")
    checks: tuple[tuple[str, object, int], ...] = (("n", n, 0), ("every", every, 1))
    for name, value, low in checks:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{fn}: {name} must be a Python int, got {type(value).__name__}")
        if value < low:
            raise ValueError(f"{fn}: {name} must be >= {low}, got {value}")
    return x0


# --8<-- [start:pattern]
def progress(
    x0: ArrayLike, n: int, every: int, *, report: Report | None = None, ordered: bool = True
) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, calling `report(k, x_k)` when `k % every == 0`.

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int `>= 0`.
        every: report period, a Python int `>= 1`.
        report: `report(k, x_k)` on the host; default logs to the `jaxcb_debug` logger.
        ordered: deliver the reports in program order (default).

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not floating, or `n` or `every` is not an int.
        ValueError: `n` is negative or `every` is below 1.
    """
    x0 = _check("progress", x0, n, every)

    def send(k: jax.Array, x: jax.Array) -> None:
        jax.debug.callback(functools.partial(on_host, report), k, x, ordered=ordered)

    def skip(k: jax.Array, x: jax.Array) -> None:
        pass

    def step(x: jax.Array, k: jax.Array) -> tuple[jax.Array, None]:
        x = 0.5 * x + 1
        lax.cond(k % every == 0, send, skip, k, x)  # the host is reached on this branch only
        return x, None

    x, _ = lax.scan(step, x0, jnp.arange(1, n + 1, dtype=jnp.int32))
    return x


# --8<-- [end:pattern]


# --8<-- [start:print]
def progress_print(x0: ArrayLike, n: int, every: int) -> jax.Array:
    """Like `progress`, but print `step {k}: {x}` to stdout in program order."""
    x0 = _check("progress_print", x0, n, every)

    def send(k: jax.Array, x: jax.Array) -> None:
        jax.debug.print(PRINT_FORMAT, k=k, x=x, ordered=True)

    def skip(k: jax.Array, x: jax.Array) -> None:
        pass

    def step(x: jax.Array, k: jax.Array) -> tuple[jax.Array, None]:
        x = 0.5 * x + 1
        lax.cond(k % every == 0, send, skip, k, x)
        return x, None

    x, _ = lax.scan(step, x0, jnp.arange(1, n + 1, dtype=jnp.int32))
    return x


# --8<-- [end:print]
