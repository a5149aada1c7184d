"""Log every step of a loop to the host next to the devices with `colocated_python`.

The loop runs `n` steps of `x -> 0.5 * x + 1`; after step `k` (1-based) the host of the
devices `x` lives on receives `log(k, x_k)`: `k` an int32 scalar array, `x_k` the state.

Contract:

- **The loop is Python.** `colocated_python` cannot be called inside compiled code, so
  the loop runs in Python: each step is one call of a jitted step function, and after it
  one call that runs `log` on the host. Called inside `jit`, `grad`, `vmap` or any other
  transform that traces, it raises `TypeError` naming `x0`, before any step runs.
- **Every step, once, in order.** The steps are separate calls, made one after another
  from one thread.
- **A copy of `log`.** JAX pickles `log` to send it to the host: state it captures is
  copied there, so a list it appends to stays empty in the calling program. Log to a
  logger or a file. The default logs to the `jaxcb_colocated` logger.
- **Built once per `log`.** The function sent to the host is built and pickled once for
  each `log` (the 64 most recent are kept; an unhashable `log` is sent anew on every
  call): sending a new one costs more than many steps.
- **Counts.** `n` is a Python int below `2**31`: the step counter is int32.
- **Missing road.** On a JAX without `colocated_python` (0.4.30) it checks its arguments,
  then raises `NotImplementedError` naming the JAX version.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from jax.typing import ArrayLike

from . import _checks
from ._near import near_devices

__all__ = ["log_steps", "on_host"]

Log = Callable[[np.ndarray, np.ndarray], Any]


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
        ValueError: `n` is negative or not below `2**31`.
    """
    x = _checks.log_steps("log_steps", x0, n, log)
    _checks.concrete("log_steps", x0=x)
    send = _sender(log) if _checks.hashable(log) else _send_with(log)
    k_sharding = NamedSharding(Mesh(list(x.devices()), ("d",)), PartitionSpec())
    for k in range(1, n + 1):
        x = _step(x)
        send(jax.device_put(np.int32(k), k_sharding), x)  # on the devices of x
    return x


# --8<-- [end:pattern]
