"""Throttled progress reports with `host_callback.id_tap` gated by `lax.cond` (JAX ≤ 0.4.30)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
from jax import lax

Report = Callable[[Any, Any], Any]


def _default_report(k: Any, x: Any) -> None:
    logging.getLogger("jaxcb_legacy").info("progress %s: %s", k, x)


def on_host(report: Report | None, arg: tuple[Any, Any], transforms: Any) -> None:
    """The tap: runs on the host with concrete `(k, x)`."""
    k, x = arg
    (report or _default_report)(k, x)


def progress(x0: Any, n: int, every: int, *, report: Report | None = None) -> Any:
    import jax.experimental.host_callback as hcb

    tap = functools.partial(on_host, report)

    def step(x: Any, k: Any) -> tuple[Any, None]:
        x = 0.5 * x + 1.0
        x = lax.cond(k % every == 0, lambda x: hcb.id_tap(tap, (k, x))[1], lambda x: x, x)
        return x, None

    x, _ = lax.scan(step, jnp.asarray(x0), jnp.arange(1, n + 1, dtype=jnp.int32))
    return x
