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


def on_host(x):
    """Runs on the host."""
    x = np.asarray(x)
    return x.sum(axis=-1).astype(x.dtype), x.mean(axis=-1).astype(x.dtype)


def _result(x):
    return (jax.ShapeDtypeStruct(jnp.shape(x)[:-1], jnp.result_type(x)),) * 2


def sum_mean_call(x) -> Any:
    """`host_callback.call` with a tuple argument (the API takes exactly one)."""
    import jax.experimental.host_callback as hcb

    return hcb.call(lambda args: on_host(*args), (x,), result_shape=_result(x))


def sum_mean_vectorized(x) -> Any:
    """`jax.pure_callback(..., vectorized=True)`: batched arguments arrive with a batch axis."""
    return jax.pure_callback(on_host, _result(x), x, vectorized=True)


def sum_mean_sequential(x) -> Any:
    """`jax.pure_callback` with the old default (`vectorized=False`): vmap loops over the
    batch."""
    return jax.pure_callback(on_host, _result(x), x)
