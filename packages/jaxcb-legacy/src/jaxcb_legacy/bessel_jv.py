"""`bessel_jv` through the removed host-callback APIs, written the way the two source texts did
(the Chinese pure_callback tutorial and JAX's early External callbacks guide).

`bessel_jv_call` uses `jax.experimental.host_callback.call`; `bessel_jv_vectorized` and
`bessel_jv_sequential` use `jax.pure_callback` with `vectorized=True` / the old default.
No derivative rules: the texts' claims about `grad` are measured on these bare forms.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special


def on_host(v, z):
    """Runs on the host."""
    z = np.asarray(z)
    return scipy.special.jv(np.asarray(v), z).astype(z.dtype)


def _result(v, z):
    return jax.ShapeDtypeStruct(
        jnp.broadcast_shapes(jnp.shape(v), jnp.shape(z)), jnp.result_type(z)
    )


def bessel_jv_call(v, z) -> Any:
    """`host_callback.call` with a tuple argument (the API takes exactly one)."""
    import jax.experimental.host_callback as hcb

    return hcb.call(lambda args: on_host(*args), (v, z), result_shape=_result(v, z))


def bessel_jv_vectorized(v, z) -> Any:
    """`jax.pure_callback(..., vectorized=True)`: batched arguments arrive with a batch axis."""
    return jax.pure_callback(on_host, _result(v, z), v, z, vectorized=True)


def bessel_jv_sequential(v, z) -> Any:
    """`jax.pure_callback` with the old default (`vectorized=False`): vmap loops over the
    batch."""
    return jax.pure_callback(on_host, _result(v, z), v, z)
