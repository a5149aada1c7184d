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

from . import _pure


def on_host(a):
    """Runs on the host."""
    a = np.asarray(a)
    return scipy.linalg.expm(a).astype(a.dtype)


def _result(a):
    return jax.ShapeDtypeStruct(jnp.shape(a), jnp.result_type(a))


def expm_call(a) -> Any:
    return _pure.call(on_host, _result(a), a)


def expm_vectorized(a) -> Any:
    return _pure.vectorized(on_host, _result(a), a)


def expm_sequential(a) -> Any:
    return _pure.sequential(on_host, _result(a), a)
