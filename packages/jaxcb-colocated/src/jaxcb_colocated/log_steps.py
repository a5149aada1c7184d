"""Log every step of a loop to the host next to the devices with `colocated_python`.

The loop runs `n` steps of `x -> 0.5 * x + 1`; after step `k` (1-based) the host of the
devices `x` lives on receives `log(k, x_k)`: `k` an int32 scalar array, `x_k` the state.

Contract:

- **The loop is Python.** `colocated_python` cannot be called inside compiled code, so
  the loop runs in Python: each step is one call of a jitted step function, and after it
  one call that runs `log` on the host. Called inside `jit`, `grad`, `vmap` or any other
  transform that traces, it raises `TypeError` naming `x0`, before any step runs.
  <!-- jaxcb:expect colocated_python log_steps jit|grad|vmap status=error -->
- **Every step, once, in order.** The steps are separate calls, made one after another
  from one thread.
  <!-- jaxcb:expect colocated_python log_steps eager effects.verdict=exact -->
- **A copy of `log`.** JAX pickles `log` to send it to the host: state it captures is
  copied there, so a list it appends to stays empty in the calling program. Log to a
  logger or a file. The default logs to the `jaxcb_colocated` logger.
- **Built once per `log`.** The function sent to the host is built and pickled once for
  each `log` (the 64 most recent are kept; an unhashable `log` is sent anew on every
  call): sending a new one costs more than many steps.
- **Devices.** `x0` may live on any device, or be sharded over several by a
  `NamedSharding` (the host then sees the whole state, gathered in this one process);
  over several devices with another kind of sharding (none is public in JAX 0.10.2 and
  later) it raises `ValueError` naming `x0`, before any step runs.
- **Counts.** `n` is a Python int below `2**31`: the step counter is int32.
  `x0` of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
- **Missing road.** On a JAX without `colocated_python` (0.4.30) it checks its arguments,
  then raises `NotImplementedError` naming the JAX version.
"""

from __future__ import annotations

import functools
import importlib
import logging
import types
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jax.typing import ArrayLike

__all__ = ["log_steps", "on_host"]

Log = Callable[[np.ndarray, np.ndarray], Any]

colocated_python: types.ModuleType | None
try:  # it imports cloudpickle, to send the function to the host
    colocated_python = importlib.import_module("jax.experimental.colocated_python")
except ImportError:  # JAX 0.4.30 has no colocated_python
    colocated_python = None


def near_devices(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, run as Python on the host of the devices its `jax.Array` arguments live on."""
    if colocated_python is not None:
        return colocated_python.colocated_python(fn)

    @functools.wraps(fn)
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"jax.experimental.colocated_python is not in JAX {jax.__version__}: "
            "upgrade JAX to use jaxcb_colocated"
        )

    return missing


def _log(k: np.ndarray, x: np.ndarray) -> None:
    logging.getLogger("jaxcb_colocated").info("step %d: %s", k, x)


# --8<-- [start:host]
def on_host(log: Log | None, k: jax.Array, x: jax.Array) -> None:
    """Runs on the host of the devices of `x`, after each step, with concrete arrays."""
    (log or _log)(np.asarray(k), np.asarray(x))


# --8<-- [end:host]


# --8<-- [start:pattern]
@jax.jit
def _step(x: jax.Array) -> jax.Array:
    return 0.5 * x + 1


def _send_with(log: Log | None) -> Callable[..., None]:
    """`on_host` with `log`, run next to the devices; JAX pickles it on its first call."""
    return near_devices(functools.partial(on_host, log))


_sender = functools.lru_cache(maxsize=64)(_send_with)  # one per log: pickled once, not per call


def log_steps(x0: ArrayLike, n: int, *, log: Log | None = None) -> jax.Array:
    """Run `n` steps of `x -> 0.5 * x + 1`, sending `log(k, x_k)` to the host after each.

    Args:
        x0: floating initial state (any shape), a concrete array.
        n: number of steps, a Python int in `[0, 2**31)`.
        log: `log(k, x_k)` on the host, a copy of it; default logs to the
            `jaxcb_colocated` logger.

    Returns:
        The final state `x_n` (`x0` when `n == 0`).

    Raises:
        TypeError: `x0` is not a floating array or is traced (under `jit`, `grad`,
            `vmap`...), `n` is not an int, or `log` is not callable.
        ValueError: `n` is negative or not below `2**31`, or `x0` is on several devices
            without a `NamedSharding`.
    """
    x = _check(x0, n, log)
    send = _sender(log) if _hashable(log) else _send_with(log)
    s = x.sharding  # k goes to the device list of x, in its order: replicated over its mesh
    mesh = s.mesh if isinstance(s, NamedSharding) else Mesh(list(x.devices()), ("d",))
    k_sharding = NamedSharding(mesh, PartitionSpec())
    for k in range(1, n + 1):
        x = _step(x)
        send(jax.device_put(np.int32(k), k_sharding), x)  # on the devices of x
    return x


# --8<-- [end:pattern]


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _check(x0: ArrayLike, n: object, log: object) -> jax.Array:
    """`x0` a concrete floating array on one device or sharded by a `NamedSharding`, `n`
    a step count, `log` callable or None."""
    try:
        x = jnp.asarray(x0)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"log_steps: x0 is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {x0.dtype}" if isinstance(x0, np.ndarray) else None
        got = got or type(x0).__name__
        raise TypeError(f"log_steps: x0 must be an array of numbers, got {got}") from None
    if x.ndim > _MAX_AXES:  # JAX holds more: the host call would fail
        raise ValueError(
            f"log_steps: x0 must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {x.ndim}"
        )
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"log_steps: x0 must have a floating dtype, got {x.dtype}")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"log_steps: n must be a Python int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"log_steps: n must be >= 0, got {n}")
    if n >= 2**31:
        raise ValueError(f"log_steps: n must be < 2**31 (steps are counted in int32), got {n}")
    if log is not None and not callable(log):
        raise TypeError(f"log_steps: log must be callable or None, got {type(log).__name__}")
    if isinstance(x, jax.core.Tracer):
        raise TypeError(
            "log_steps: x0 must be a concrete array, got a traced array: colocated_python "
            "runs outside jit, grad, vmap and every other transform that traces"
        )
    if len(x.devices()) > 1 and not isinstance(x.sharding, NamedSharding):
        raise ValueError(
            "log_steps: x0 must be on one device or sharded by a NamedSharding, got a "
            f"{type(x.sharding).__name__} over {len(x.devices())} devices"
        )
    return x


def _hashable(value: object) -> bool:
    """Whether `value` can be a cache key of `_sender` (it must hash)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True
