"""Shared plumbing for the legacy pure computations: the three old ways to call the host."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax


def call(on_host: Callable[..., Any], result: Any, *args: Any) -> Any:
    """`host_callback.call` with a tuple argument (the API takes exactly one)."""
    import jax.experimental.host_callback as hcb

    return hcb.call(lambda a: on_host(*a), args, result_shape=result)


def vectorized(on_host: Callable[..., Any], result: Any, *args: Any) -> Any:
    """`jax.pure_callback(..., vectorized=True)`: batched arguments arrive with a batch axis."""
    return jax.pure_callback(on_host, result, *args, vectorized=True)


def sequential(on_host: Callable[..., Any], result: Any, *args: Any) -> Any:
    """`jax.pure_callback` with the old default (`vectorized=False`): vmap loops over the batch."""
    return jax.pure_callback(on_host, result, *args)
