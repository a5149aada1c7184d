"""Report a long `lax.scan` to the host every `every` steps, with `io_callback`.

Like `log_steps`, but the host is reached only after steps `k` with
`k % every == 0`: the callback sits in one branch of `lax.cond`, so the other
steps never leave the device (filtering on the host would still pay a round
trip per step).

Contract:

- **Every reported step, once, in order.** The reports arrive even when the
  result is unused under `jax.jit`; with the default `ordered=True` in program
  order, with `ordered=False` once each in no promised order.
  <!-- jaxcb:expect io_callback progress jit_unused|scan effects.verdict=exact -->
- **Not inside a differentiated loop.** Called on every step of a `lax.scan` or
  `lax.fori_loop` that `grad` differentiates, the reports can all be lost, as
  for `log_steps`.
  <!-- jaxcb:expect io_callback progress grad_scan_args effects.verdict=none host_calls=0 -->
- **Batching.** none: an io_callback inside `lax.cond` cannot be batched, so
  `vmap` raises `NotImplementedError` whatever `ordered` is.
  <!-- jaxcb:expect io_callback progress vmap status=error error_type=NotImplementedError -->
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`.
- **Compiled once.** The loop is one module-level `jax.jit` with `n`, `every`,
  `report` and `ordered` as static arguments, as in `log_steps`.
- **Counts.** `n` and `every` are Python ints below `2**31`: the step counter is int32.
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

__all__ = ["on_host", "progress"]

Report = Callable[[np.ndarray, np.ndarray], Any]


def _log(k: np.ndarray, x: np.ndarray) -> None:
    logging.getLogger("jaxcb_io").info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(report: Report | None, k: Any, x: Any) -> None:
    """Runs on the host on reported steps only; hands step and state to `report`."""
    (report or _log)(np.asarray(k), np.asarray(x))  # jax.Array in: views, no copies


# --8<-- [end:host]


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"progress: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"progress: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"progress: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _check(
    x0: ArrayLike, n: object, every: object, report: object, ordered: object
) -> tuple[jax.Array, bool]:
    """`x0` floating, `n` and `every` step counts, `report` callable or None, `ordered`."""
    x0 = _array("x0", x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"progress: x0 must have a floating dtype, got {x0.dtype}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"progress: n must be a Python int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"progress: n must be >= 0, got {n}")
    if n >= 2**31:
        raise ValueError(f"progress: n must be < 2**31 (steps are counted in int32), got {n}")
    if not isinstance(every, int) or isinstance(every, bool):
        raise TypeError(f"progress: every must be a Python int, got {type(every).__name__}")
    if every < 1:
        raise ValueError(f"progress: every must be >= 1, got {every}")
    if every >= 2**31:
        raise ValueError(
            f"progress: every must be < 2**31 (steps are counted in int32), got {every}"
        )
    if report is not None and not callable(report):
        raise TypeError(f"progress: report must be callable or None, got {type(report).__name__}")
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"progress: ordered must be a bool, got {type(ordered).__name__}")
    return x0, bool(ordered)


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
    every: int,
    report: Report | None,
    ordered: bool,
) -> jax.Array:
    def send(k: jax.Array, x: jax.Array) -> None:
        io_callback(functools.partial(on_host, report), None, k, x, ordered=ordered)

    def skip(k: jax.Array, x: jax.Array) -> None:
        pass

    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        lax.cond(k % every == 0, send, skip, k, x)  # the host is reached on this branch only
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


_compiled_loop = jax.jit(_loop, inline=True, static_argnames=("n", "every", "report", "ordered"))


def progress(
    x0: ArrayLike, n: int, every: int, *, report: Report | None = None, ordered: bool = True
) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, sending `report(k, x_k)` when `k % every == 0`.

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int in `[0, 2**31)`.
        every: report period, a Python int in `[1, 2**31)`.
        report: `report(k, x_k)` on the host; default logs to the `jaxcb_io` logger.
        ordered: deliver the reports in program order (default).

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not a floating array, `n` or `every` is not an int,
            `report` is not callable, or `ordered` is not a bool.
        ValueError: `n` is negative, `every` is below 1, or either is not below `2**31`.
    """
    x0, ordered = _check(x0, n, every, report, ordered)
    loop = _compiled_loop if _hashable(report) else _loop  # a static argument must hash
    return loop(x0, n=n, every=every, report=report, ordered=ordered)


# --8<-- [end:pattern]
