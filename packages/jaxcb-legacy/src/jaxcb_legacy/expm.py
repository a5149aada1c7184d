"""`expm` through the removed host-callback APIs, written the way the two source texts did
(the Chinese pure_callback tutorial and JAX's early External callbacks guide).

`expm_call` uses `jax.experimental.host_callback.call`; `expm_vectorized` and
`expm_sequential` use `jax.pure_callback` with `vectorized=True` / the old default.
No derivative rules: the texts' claims about `grad` are measured on these bare forms.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg


def on_host(a):
    """Runs on the host."""
    a = np.asarray(a)
    return scipy.linalg.expm(a).astype(a.dtype)


def _result(a):
    return jax.ShapeDtypeStruct(jnp.shape(a), jnp.result_type(a))


def expm_call(a) -> Any:
    """`host_callback.call` with a tuple argument (the API takes exactly one)."""
    import jax.experimental.host_callback as hcb

    return hcb.call(lambda args: on_host(*args), (a,), result_shape=_result(a))


def expm_vectorized(a) -> Any:
    """`jax.pure_callback(..., vectorized=True)`: batched arguments arrive with a batch axis."""
    return jax.pure_callback(on_host, _result(a), a, vectorized=True)


def expm_sequential(a) -> Any:
    """`jax.pure_callback` with the old default (`vectorized=False`): vmap loops over the
    batch."""
    return jax.pure_callback(on_host, _result(a), a)
