"""Per-step logging inside `lax.scan` with `host_callback.id_tap` (removed in JAX 0.4.35, per the JAX changelog).

`id_tap(tap, arg)` returns `arg` unchanged and calls `tap(arg, transforms)` on the host;
the result must be used, or the tap may be dropped. Migrate to `jax.debug.callback` or
`io_callback(ordered=True)` (see `jaxcb_debug.log_steps`, `jaxcb_io.log_steps`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
from jax import lax

Log = Callable[[Any, Any], Any]


def _default_log(k: Any, x: Any) -> None:
    logging.getLogger("jaxcb_legacy").info("step %s: %s", k, x)


def on_host(log: Log | None, arg: tuple[Any, Any], transforms: Any) -> None:
    """The tap: runs on the host with concrete `(k, x)`."""
    k, x = arg
    (log or _default_log)(k, x)


def log_steps(x0: Any, n: int, *, log: Log | None = None) -> Any:
    import jax.experimental.host_callback as hcb

    tap = functools.partial(on_host, log)

    def step(x: Any, k: Any) -> tuple[Any, None]:
        x = 0.5 * x + 1.0
        _, x = hcb.id_tap(tap, (k, x))
        return x, None

    x, _ = lax.scan(step, jnp.asarray(x0), jnp.arange(1, n + 1, dtype=jnp.int32))
    return x
