"""`cubic_root` through the removed host-callback APIs, written the way the two source texts did
(the Chinese pure_callback tutorial and JAX's early External callbacks guide).

`cubic_root_call` uses `jax.experimental.host_callback.call`; `cubic_root_vectorized` and
`cubic_root_sequential` use `jax.pure_callback` with `vectorized=True` / the old default.
No derivative rules: the texts' claims about `grad` are measured on these bare forms.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize


def on_host(a, b):
    """Runs on the host."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    roots = [
        scipy.optimize.brentq(
            lambda x, ai=ai, bi=bi: x**3 + ai * x - bi,
            -1 - abs(bi) - abs(ai),
            1 + abs(bi) + abs(ai),
        )
        for ai, bi in zip(a.ravel().tolist(), b.ravel().tolist(), strict=True)
    ]
    return np.asarray(roots, a.dtype).reshape(a.shape)


def _result(a, b):
    return jax.ShapeDtypeStruct(
        jnp.broadcast_shapes(jnp.shape(a), jnp.shape(b)), jnp.result_type(a)
    )


def cubic_root_call(a, b) -> Any:
    """`host_callback.call` with a tuple argument (the API takes exactly one)."""
    import jax.experimental.host_callback as hcb

    return hcb.call(lambda args: on_host(*args), (a, b), result_shape=_result(a, b))


def cubic_root_vectorized(a, b) -> Any:
    """`jax.pure_callback(..., vectorized=True)`: batched arguments arrive with a batch axis."""
    return jax.pure_callback(on_host, _result(a, b), a, b, vectorized=True)


def cubic_root_sequential(a, b) -> Any:
    """`jax.pure_callback` with the old default (`vectorized=False`): vmap loops over the
    batch."""
    return jax.pure_callback(on_host, _result(a, b), a, b)
