"""`sin_scale` through the removed host-callback APIs, written the way the two source texts did
(the Chinese pure_callback tutorial and JAX's early External callbacks guide).

`sin_scale_call` uses `jax.experimental.host_callback.call`; `sin_scale_vectorized` and
`sin_scale_sequential` use `jax.pure_callback` with `vectorized=True` / the old default.
No derivative rules: the texts' claims about `grad` are measured on these bare forms.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np


def on_host(x, y):
    """Runs on the host."""
    x, y = np.asarray(x), np.asarray(y)
    return (np.sin(x) * y + 1).astype(x.dtype)


def _result(x, y):
    return jax.ShapeDtypeStruct(jnp.shape(x), jnp.result_type(x))


def sin_scale_call(x, y) -> Any:
    """`host_callback.call` with a tuple argument (the API takes exactly one)."""
    import jax.experimental.host_callback as hcb

    return hcb.call(lambda args: on_host(*args), (x, y), result_shape=_result(x, y))


def sin_scale_vectorized(x, y) -> Any:
    """`jax.pure_callback(..., vectorized=True)`: batched arguments arrive with a batch axis."""
    return jax.pure_callback(on_host, _result(x, y), x, y, vectorized=True)


def sin_scale_sequential(x, y) -> Any:
    """`jax.pure_callback` with the old default (`vectorized=False`): vmap loops over the
    batch."""
    return jax.pure_callback(on_host, _result(x, y), x, y)
