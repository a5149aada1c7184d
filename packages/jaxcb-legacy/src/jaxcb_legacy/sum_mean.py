"""`sum_mean` through the removed host-callback APIs, written the way the two source texts did
(the Chinese pure_callback tutorial and JAX's early External callbacks guide).

`sum_mean_call` uses `jax.experimental.host_callback.call`; `sum_mean_vectorized` and
`sum_mean_sequential` use `jax.pure_callback` with `vectorized=True` / the old default.
No derivative rules: the texts' claims about `grad` are measured on these bare forms.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from . import _pure


def on_host(x):
    """Runs on the host."""
    x = np.asarray(x)
    return x.sum(axis=-1).astype(x.dtype), x.mean(axis=-1).astype(x.dtype)


def _result(x):
    return (jax.ShapeDtypeStruct(jnp.shape(x)[:-1], jnp.result_type(x)),) * 2


def sum_mean_call(x) -> Any:
    return _pure.call(on_host, _result(x), x)


def sum_mean_vectorized(x) -> Any:
    return _pure.vectorized(on_host, _result(x), x)


def sum_mean_sequential(x) -> Any:
    return _pure.sequential(on_host, _result(x), x)
