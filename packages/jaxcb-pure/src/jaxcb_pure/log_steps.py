"""COUNTER-EXAMPLE: logging every `lax.scan` step with `jax.pure_callback`. Do not copy.

This is the tempting way to log from compiled code, and it is wrong: a pure
callback promises JAX that it computes a value and has no effect, and the logging
call below returns a dummy value that nothing uses. JAX takes the promise at its
word. Measured on JAX 0.10.2 and 0.12.0.1 (CPU), by this package's tests:

- **The log is never called**, with or without `jax.jit`, and under `jax.vmap`:
  the scan body is always compiled, and a pure call whose result is unused is
  removed from it. The returned state is still right, which hides the bug.
  <!-- jaxcb:expect pure_callback log_steps eager|jit host_calls=0 -->
- **`jax.grad` and `jax.jvp` raise** `ValueError: Pure callbacks do not support
  JVP...`, although the callback's result does not even reach the output.

Nothing promises the opposite either: a pure callback may also run more than once
or out of order. For an effect use `jax.experimental.io_callback(..., ordered=True)`
or `jax.debug.callback(..., ordered=True)` (see the io and debug packages).

`vmap_method="sequential"` would give `log` one batch element at a time, the shape
it expects, if the call ever ran.

The loop is one module-level `jax.jit` with `n`, `log` and `vmap_method` as static
arguments, so repeated eager calls reuse one compiled program (an unhashable `log` is
compiled on every call). `x0` has at most 64 axes: NumPy's limit on the host (32
before NumPy 2).
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

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "log_steps", "on_host"]

VMAP_METHOD = "sequential"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)

_logger = logging.getLogger(__name__)


def _log_to_logging(k: np.ndarray, x: np.ndarray) -> None:
    _logger.info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(k: np.ndarray, x: np.ndarray, *, log: Callable[[Any, Any], Any]) -> np.ndarray:
    """Hands step `k` and state `x` to `log`; returns a dummy value (the mistake)."""
    log(np.asarray(k), np.asarray(x))
    return np.zeros((), np.int32)


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


def _check(x0: ArrayLike, n: object, log: object, vmap_method: object) -> jax.Array:
    """`x0` floating, `n` a step count in `[0, 2**31)`, `log` callable or None."""
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
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"log_steps: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    return x0


def _hashable(value: object) -> bool:
    """Whether `value` can be a static argument of `jax.jit` (it must hash)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


# --8<-- [start:pattern]
def _loop(
    x0: jax.Array,
    *,
    n: int,
    log: Callable[[Any, Any], Any] | None,
    vmap_method: str | None,
) -> jax.Array:
    host = functools.partial(on_host, log=_log_to_logging if log is None else log)

    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        dummy = jax.ShapeDtypeStruct((), jnp.int32)
        jax.pure_callback(host, dummy, k, x, vmap_method=vmap_method)  # result unused
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


_compiled_loop = jax.jit(_loop, inline=True, static_argnames=("n", "log", "vmap_method"))


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
        n: number of steps, a Python int in `[0, 2**31)`.
        log: host function called as `log(k, x_k)` (an int32 scalar and the state);
            `None` logs through the `logging` module.
        vmap_method: how `jax.vmap` would call the host.

    Returns:
        The state after `n` steps.

    Raises:
        TypeError: `x0` is not a floating array, `n` is not a Python int, or `log` is
            not callable.
        ValueError: `n` is negative or not below `2**31`, or `vmap_method` is not one
            of `VMAP_METHODS`.
    """
    x0 = _check(x0, n, log, vmap_method)
    loop = _compiled_loop if _hashable(log) else _loop  # a static argument must hash
    return loop(x0, n=n, log=log, vmap_method=vmap_method)


# --8<-- [end:pattern]
