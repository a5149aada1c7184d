"""Report a long `lax.scan` every `every` steps with `jax.debug.callback` or `jax.debug.print`.

Like `log_steps`, but the host is reached only after steps `k` with
`k % every == 0`: the callback sits in one branch of `lax.cond`, so the other
steps never leave the device. `progress_print` prints `step {k}: {x}` instead.

Contract:

- **Every reported step, in order.** With the default `ordered=True` the reports
  arrive in program order, also when the result is unused under `jax.jit`. With
  `ordered=False` each still arrives exactly once, in no promised order.
  <!-- jaxcb:expect debug.callback progress jit_unused|scan effects.verdict=exact -->
  `ordered=True` needs one device: an eager call with `x0` sharded over several
  raises `ValueError`, and so, on JAX 0.10.2 and later, does a traced `x0` put on a
  mesh of several devices (`jax.device_put` with a `NamedSharding`, then `jax.jit`,
  `shard_map` or `pmap`): its traced type names the mesh. Where the type names none (a
  NumPy `x0` placed by `jax.jit(..., in_shardings=...)`, or a program spread over
  several devices by its other arguments or its `out_shardings`), and on JAX 0.4.30,
  JAX refuses the program as it lowers it: `ValueError: The following ordered effects
  are not supported for more than 1 device: [<...OrderedDebugEffect object at
  0x...>]`. Either way: pass `ordered=False`, or put `x0` on one device.
- **Batching.** `vmap` works (unlike an io_callback inside `lax.cond`): the host
  is called once per batch element per reported step.
- **Derivatives.** Native: `grad` works. On JAX 0.10.2 and later the reports see
  the forward pass only, and under `jax.checkpoint` every report comes twice; on
  JAX 0.4.30 no report arrives under `grad` (as for `log_steps`).
  <!-- jaxcb:expect debug.callback progress grad effects.verdict=exact jax=0.12.0.1|0.10.2 -->
  <!-- jaxcb:expect debug.callback progress checkpoint_grad effects.verdict=duplicated jax=0.12.0.1|0.10.2 -->
  <!-- jaxcb:expect debug.callback progress grad effects.verdict=none jax=0.4.30 -->
- **Compiled once.** Each form is one module-level `jax.jit` with `n`, `every`,
  `report` and `ordered` static, as in `log_steps`.
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
from jax.typing import ArrayLike

__all__ = ["on_host", "progress", "progress_log", "progress_print"]

PRINT_FORMAT = "step {k}: {x}"  # what the print form writes after each reported step
Report = Callable[[np.ndarray, np.ndarray], Any]


def _log(k: np.ndarray, x: np.ndarray) -> None:
    logging.getLogger("jaxcb_debug").info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(report: Report | None, k: Any, x: Any) -> None:
    """Runs on the host on reported steps only; hands step and state to `report`."""
    (report or _log)(np.asarray(k), np.asarray(x))  # jax.Array in: views, no copies


# --8<-- [end:host]


def _check(
    fn: str,
    x0: ArrayLike,
    n: object,
    every: object,
    report: object,
    ordered: object,
    partitioned: object,
) -> tuple[jax.Array, bool, bool]:
    """`x0` floating, `n` and `every` step counts, `report` callable or None, then the
    options."""
    x0 = _array(fn, "x0", x0)
    if not jnp.issubdtype(x0.dtype, jnp.floating):
        raise TypeError(f"{fn}: x0 must have a floating dtype, got {x0.dtype}")
    _check_count(fn, "n", n, 0)
    _check_count(fn, "every", every, 1)
    if report is not None and not callable(report):
        raise TypeError(f"{fn}: report must be callable or None, got {type(report).__name__}")
    return x0, *_check_options(fn, {"x0": x0}, None, ordered, partitioned)


# --8<-- [start:pattern]
def _loop(
    x0: jax.Array,
    *,
    n: int,
    every: int,
    report: Report | None,
    ordered: bool,
    partitioned: bool = False,
) -> jax.Array:
    def send(k: jax.Array, x: jax.Array) -> None:
        options = {"partitioned": True} if partitioned else {}
        jax.debug.callback(functools.partial(on_host, report), k, x, ordered=ordered, **options)

    def skip(k: jax.Array, x: jax.Array) -> None:
        pass

    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        lax.cond(k % every == 0, send, skip, k, x)  # the host is reached on this branch only
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


_compiled_loop = jax.jit(
    _loop,
    inline=True,
    static_argnames=("n", "every", "report", "ordered", "partitioned"),
)


def progress(
    x0: ArrayLike,
    n: int,
    every: int,
    *,
    report: Report | None = None,
    ordered: bool = True,
    partitioned: bool = False,
) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, calling `report(k, x_k)` when `k % every == 0`.

    Args:
        x0: floating initial state (any shape).
        n: number of steps, a Python int in `[0, 2**31)`.
        every: report period, a Python int in `[1, 2**31)`.
        report: `report(k, x_k)` on the host; default logs to the `jaxcb_debug` logger.
        ordered: deliver the reports in program order (default).
        partitioned: under a sharded `jax.jit`, call the host once per shard with its own
            block instead of once with the gathered array (passed to JAX only when set:
            JAX 0.4.30 has no such option).

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not a floating array, `n` or `every` is not an int,
            `report` is not callable, or `ordered` is not a bool.
        ValueError: `n` is negative, `every` is below 1, either is not below `2**31`,
            or `ordered=True` with `x0` on several devices.
    """
    x0, ordered, partitioned = _check("progress", x0, n, every, report, ordered, partitioned)
    loop = _compiled_loop if _hashable(report) else _loop  # a static argument must hash
    return loop(x0, n=n, every=every, report=report, ordered=ordered, partitioned=partitioned)


# --8<-- [end:pattern]


# --8<-- [start:print]
@functools.partial(
    jax.jit, inline=True, static_argnames=("n", "every", "ordered", "partitioned", "log")
)
def _print_loop(
    x0: jax.Array,
    *,
    n: int,
    every: int,
    ordered: bool,
    partitioned: bool = False,
    log: bool = False,
) -> jax.Array:
    emit = jax.debug.log if log else jax.debug.print  # log: to the logging module

    def send(k: jax.Array, x: jax.Array) -> None:
        options = {"partitioned": True} if partitioned else {}
        emit(PRINT_FORMAT, k=k, x=x, ordered=ordered, **options)

    def skip(k: jax.Array, x: jax.Array) -> None:
        pass

    def step(carry: tuple[jax.Array, jax.Array], _: None) -> tuple[Any, None]:
        x, k = carry
        x, k = 0.5 * x + 1, k + 1
        lax.cond(k % every == 0, send, skip, k, x)
        return (x, k), None

    (x, _), _ = lax.scan(step, (x0, jnp.int32(0)), length=n)
    return x


def progress_print(
    x0: ArrayLike, n: int, every: int, *, ordered: bool = True, partitioned: bool = False
) -> jax.Array:
    """Like `progress`, but print `step {k}: {x}` to stdout (in program order by default)."""
    x0, ordered, partitioned = _check("progress_print", x0, n, every, None, ordered, partitioned)
    return _print_loop(x0, n=n, every=every, ordered=ordered, partitioned=partitioned)


def progress_log(
    x0: ArrayLike, n: int, every: int, *, ordered: bool = False, partitioned: bool = False
) -> jax.Array:
    """Like `progress_print`, but through `jax.debug.log` (INFO records of JAX's
    debugging logger), unordered by default as `jax.debug.log` is."""
    x0, ordered, partitioned = _check("progress_log", x0, n, every, None, ordered, partitioned)
    if not hasattr(jax.debug, "log"):
        raise NotImplementedError(
            f"progress_log: this JAX ({jax.__version__}) has no jax.debug.log"
        )
    return _print_loop(x0, n=n, every=every, ordered=ordered, partitioned=partitioned, log=True)


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
