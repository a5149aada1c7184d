"""Log every step of a `lax.scan` to the host with `jax.experimental.io_callback`.

The loop runs `n` steps of `x -> 0.5 * x + 1`; after step `k` (1-based) the host
receives `log(k, x_k)`: `k` an int32 scalar array, `x_k` the state.

Contract:

- **Every step, once, in order.** The log is written even when the result is
  unused under `jax.jit`. With the default `ordered=True` the steps arrive in
  program order. With `ordered=False` every step still arrives once, but JAX
  promises no order.
  <!-- jaxcb:expect io_callback log_steps jit_unused|scan effects.verdict=exact -->
- **Not inside a differentiated loop.** Called on every step of a `lax.scan` or
  `lax.fori_loop` that `grad` differentiates, the log can stay empty: no step
  arrives.
  <!-- jaxcb:expect io_callback log_steps grad_scan_args|grad_fori_args effects.verdict=none host_calls=0 -->
- **Batching.** `ordered=True` cannot be batched: `vmap` raises `ValueError`.
  With `ordered=False`, `vmap` calls the host once per batch element per step.
  <!-- jaxcb:expect io_callback/ordered log_steps vmap status=error error_type=ValueError -->
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError` even though the log returns nothing. `jaxcb_debug.log_steps`
  can be differentiated, and logs the forward pass on JAX 0.10.2 and later.
  <!-- jaxcb:expect debug.callback log_steps grad status=ok effects.verdict=exact jax=0.12.0.1|0.10.2 -->
  <!-- jaxcb:expect debug.callback log_steps grad_scan_args effects.verdict=exact jax=0.12.0.1|0.10.2 -->
- **Compiled once.** The loop is one module-level `jax.jit` with `n`, `log` and
  `ordered` as static arguments: repeated eager calls with the same three reuse the
  compiled loop. `log` is compared by equality (the same function, or bound methods
  of the same object); an unhashable callable works too, compiled on every call.
  `inline=True` traces a call inside another `jax.jit` into it, as a plain function
  would be.
- **Counts.** `n` is a Python int below `2**31`: the step counter is int32.
  `x0` of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
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


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"log_steps: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"log_steps: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"log_steps: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _check(x0: ArrayLike, n: object, log: object, ordered: object) -> tuple[jax.Array, bool]:
    """`x0` floating, `n` a step count in `[0, 2**31)`, `log` callable or None, `ordered`."""
    x0 = _array("x0", x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"log_steps: x0 must have a floating dtype, got {x0.dtype}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"log_steps: n must be a Python int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"log_steps: n must be >= 0, got {n}")
    if n >= 2**31:
        raise ValueError(f"log_steps: n must be < 2**31 (steps are counted in int32), got {n}")
    if log is not None and not callable(log):
        raise TypeError(f"log_steps: log must be callable or None, got {type(log).__name__}")
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"log_steps: ordered must be a bool, got {type(ordered).__name__}")
    return x0, bool(ordered)


def _hashable(value: object) -> bool:
    """Whether `value` can be a static argument of `jax.jit` (it must hash)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


# --8<-- [start:pattern]
def _loop(x0: jax.Array, *, n: int, log: Log | None, ordered: bool) -> jax.Array:
    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        io_callback(functools.partial(on_host, log), None, k, x, ordered=ordered)
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


_compiled_loop = jax.jit(_loop, inline=True, static_argnames=("n", "log", "ordered"))


def log_steps(x0: ArrayLike, n: int, *, log: Log | None = None, ordered: bool = True) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, sending `log(k, x_k)` to the host after each.

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int in `[0, 2**31)`.
        log: `log(k, x_k)` on the host; default logs to the `jaxcb_io` logger.
        ordered: deliver the steps in program order (default).

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not a floating array, `n` is not an int, `log` is not
            callable, or `ordered` is not a bool.
        ValueError: `n` is negative or not below `2**31`.
    """
    x0, ordered = _check(x0, n, log, ordered)
    loop = _compiled_loop if _hashable(log) else _loop  # a static argument must hash
    return loop(x0, n=n, log=log, ordered=ordered)


# --8<-- [end:pattern]
