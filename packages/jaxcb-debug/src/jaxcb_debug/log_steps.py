"""Log every step of a `lax.scan` with `jax.debug.callback` or `jax.debug.print`.

The loop runs `n` steps of `x -> 0.5 * x + 1`; after step `k` (1-based)
`log_steps` calls `log(k, x_k)` on the host (`k` an int32 scalar array, `x_k` the
state), `log_steps_print` prints the line `step {k}: {x}` and `log_steps_log` logs it
with `jax.debug.log`.

Contract:

- **Every step, in order.** With the default `ordered=True` the steps arrive in
  program order, also when the result is unused under `jax.jit`. With
  `ordered=False` every step still arrives exactly once, in no promised order.
  <!-- jaxcb:expect debug.callback log_steps jit_unused|scan effects.verdict=exact -->
  `ordered=True` needs one device: an eager call with `x0` sharded over several
  raises `ValueError`, and so, on JAX 0.10.2 and later, does a traced `x0` put on a
  mesh of several devices (`jax.device_put` with a `NamedSharding`, then `jax.jit`,
  `shard_map` or `pmap`): its traced type names the mesh. Where the type names none (a
  NumPy `x0` placed by `jax.jit(..., in_shardings=...)`, or a program spread over
  several devices by its other arguments or its `out_shardings`), and on JAX 0.4.30,
  JAX refuses the program as it lowers it: `ValueError: The following ordered effects
  are not supported for more than 1 device: [<...OrderedDebugEffect object at
  0x...>]`. Either way: pass `ordered=False`, or put `x0` on one device.
- **Batching.** `vmap` calls the host once per batch element per step.
- **Derivatives.** Native: the loop is `jax.numpy`, so `grad` works. On JAX 0.10.2
  and later the log sees the forward pass only (the primal states, once per step),
  never tangents or cotangents; on JAX 0.4.30 it sees nothing under `grad`. Under
  `jax.checkpoint` (remat) on 0.10.2 and later the forward pass runs twice, once
  more inside the backward pass to recompute what was not saved, and the log sees
  every step twice: `1, 2, ..., n, 1, 2, ..., n`. Called inside a differentiated
  loop, steps can be lost. For a log that must not repeat, use an `io_callback`
  (`jaxcb_io.log_steps`), which refuses to be differentiated instead.
  <!-- jaxcb:expect debug.callback log_steps grad effects.verdict=exact jax=0.12.0.1|0.10.2 -->
  <!-- jaxcb:expect debug.callback log_steps grad effects.verdict=none jax=0.4.30 -->
  <!-- jaxcb:expect debug.callback log_steps checkpoint_grad effects.verdict=duplicated jax=0.12.0.1|0.10.2 -->
  <!-- jaxcb:expect debug.callback log_steps grad_fori_args effects.verdict=missing|none -->
- **Compiled once.** Each form is one module-level `jax.jit` with the Python
  arguments (`n`, `log`, `ordered`) static: repeated eager calls with the same ones
  reuse the compiled loop. `log` is compared by equality (the same function, or bound
  methods of the same object); an unhashable callable works too, compiled every call.
  `inline=True` traces a call inside another `jax.jit` into it.
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
from jax.typing import ArrayLike

__all__ = ["log_steps", "log_steps_log", "log_steps_print", "on_host"]

PRINT_FORMAT = "step {k}: {x}"  # what the print form writes after each step
Log = Callable[[np.ndarray, np.ndarray], Any]


def _log(k: np.ndarray, x: np.ndarray) -> None:
    logging.getLogger("jaxcb_debug").info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(log: Log | None, k: Any, x: Any) -> None:
    """Runs on the host after each step; hands the concrete step and state to `log`."""
    (log or _log)(np.asarray(k), np.asarray(x))  # jax.Array in: views, no copies


# --8<-- [end:host]


def _check(
    fn: str, x0: ArrayLike, n: object, log: object, ordered: object, partitioned: object
) -> tuple[jax.Array, bool, bool]:
    """`x0` floating, `n` a step count, `log` callable or None, then the options."""
    x0 = _array(fn, "x0", x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"{fn}: x0 must have a floating dtype, got {x0.dtype}")
    _check_count(fn, "n", n, 0)
    if log is not None and not callable(log):
        raise TypeError(f"{fn}: log must be callable or None, got {type(log).__name__}")
    return x0, *_check_options(fn, {"x0": x0}, None, ordered, partitioned)


# --8<-- [start:pattern]
def _loop(
    x0: jax.Array,
    *,
    n: int,
    log: Log | None,
    ordered: bool,
    partitioned: bool = False,
) -> jax.Array:
    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        options = {"partitioned": True} if partitioned else {}
        jax.debug.callback(functools.partial(on_host, log), k, x, ordered=ordered, **options)
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


_compiled_loop = jax.jit(_loop, inline=True, static_argnames=("n", "log", "ordered", "partitioned"))


def log_steps(
    x0: ArrayLike,
    n: int,
    *,
    log: Log | None = None,
    ordered: bool = True,
    partitioned: bool = False,
) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, calling `log(k, x_k)` on the host after each.

    Under `jax.checkpoint` the log sees every step twice (see the module docstring).

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int in `[0, 2**31)`.
        log: `log(k, x_k)` on the host; default logs to the `jaxcb_debug` logger.
        ordered: deliver the steps in program order (default).
        partitioned: under a sharded `jax.jit`, call the host once per shard with its own
            block instead of once with the gathered array (passed to JAX only when set:
            JAX 0.4.30 has no such option).

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not a floating array, `n` is not an int, `log` is not
            callable, or `ordered` is not a bool.
        ValueError: `n` is negative or not below `2**31`, or `ordered=True` with `x0`
            on several devices.
    """
    x0, ordered, partitioned = _check("log_steps", x0, n, log, ordered, partitioned)
    loop = _compiled_loop if _hashable(log) else _loop  # a static argument must hash
    return loop(x0, n=n, log=log, ordered=ordered, partitioned=partitioned)


# --8<-- [end:pattern]


# --8<-- [start:print]
@functools.partial(jax.jit, inline=True, static_argnames=("n", "ordered", "partitioned", "log"))
def _print_loop(
    x0: jax.Array, *, n: int, ordered: bool, partitioned: bool = False, log: bool = False
) -> jax.Array:
    emit = jax.debug.log if log else jax.debug.print  # log: to the logging module

    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        options = {"partitioned": True} if partitioned else {}
        emit(PRINT_FORMAT, k=k, x=x, ordered=ordered, **options)
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


def log_steps_print(
    x0: ArrayLike, n: int, *, ordered: bool = True, partitioned: bool = False
) -> jax.Array:
    """Like `log_steps`, but print `step {k}: {x}` to stdout (in program order by default)."""
    x0, ordered, partitioned = _check("log_steps_print", x0, n, None, ordered, partitioned)
    return _print_loop(x0, n=n, ordered=ordered, partitioned=partitioned)


def log_steps_log(
    x0: ArrayLike, n: int, *, ordered: bool = False, partitioned: bool = False
) -> jax.Array:
    """Like `log_steps_print`, but through `jax.debug.log`: each line is an INFO record
    of JAX's debugging logger (`logging`), unordered by default as `jax.debug.log` is."""
    x0, ordered, partitioned = _check("log_steps_log", x0, n, None, ordered, partitioned)
    if not hasattr(jax.debug, "log"):
        raise NotImplementedError(
            f"log_steps_log: this JAX ({jax.__version__}) has no jax.debug.log"
        )
    return _print_loop(x0, n=n, ordered=ordered, partitioned=partitioned, log=True)


# --8<-- [end:print]


# The checks: the arguments, then the options.


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(fn: str, name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"{fn}: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"{fn}: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"{fn}: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _check_count(fn: str, name: str, value: object, low: int) -> None:
    """A Python int step count in `[low, 2**31)`: the steps are counted in int32."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{fn}: {name} must be a Python int, got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{fn}: {name} must be >= {low}, got {value}")
    if value >= 2**31:
        raise ValueError(f"{fn}: {name} must be < 2**31 (steps are counted in int32), got {value}")


def _check_options(
    fn: str, arrays: dict[str, jax.Array], report: object, ordered: object, partitioned: object
) -> tuple[bool, bool]:
    """`report` callable or None, `ordered` a bool (`True` only with `arrays` on one
    device), `partitioned` a bool."""
    if report is not None and not callable(report):
        raise TypeError(f"{fn}: report must be callable or None, got {type(report).__name__}")
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"{fn}: ordered must be a bool, got {type(ordered).__name__}")
    if ordered:
        _check_one_device(fn, arrays)
    if not isinstance(partitioned, bool | np.bool_):
        raise TypeError(f"{fn}: partitioned must be a bool, got {type(partitioned).__name__}")
    return bool(ordered), bool(partitioned)


def _check_one_device(fn: str, arrays: dict[str, jax.Array]) -> None:
    """Ordered effects need one device: say so for an array on several before JAX does
    (eagerly from its devices; under a trace from the mesh its type carries, if any)."""
    for name, x in arrays.items():
        if not isinstance(x, jax.core.Tracer):
            if len(x.devices()) > 1:
                raise ValueError(
                    f"{fn}: ordered=True needs {name} on one device, got {name} on "
                    f"{len(x.devices())} devices"
                )
            continue
        typeof = getattr(jax, "typeof", None)  # JAX 0.4.30 has none, nor meshes in types
        mesh = getattr(getattr(typeof(x), "sharding", None), "mesh", None) if typeof else None
        size = getattr(mesh, "size", 1)  # the mesh of the traced type; an empty one: size 0
        if size > 1:
            raise ValueError(
                f"{fn}: ordered=True needs {name} on one device, got {name} traced on a mesh "
                f"of {size} devices: ordered effects are not supported for more than 1 "
                f"device; pass ordered=False, or put {name} on one device"
            )


def _hashable(value: object) -> bool:
    """Whether `value` can be a static argument of `jax.jit` (it must hash)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True
