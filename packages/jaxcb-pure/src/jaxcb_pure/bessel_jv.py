"""The Bessel function `J_v(z)` of integer order through `jax.pure_callback`.

Contract:

- **Pure.** `on_host` (`scipy.special.jv`) depends on its arguments only, so JAX
  may run it once, many times, or never: under `jax.jit` a call whose result is
  unused is removed, and two identical calls may be merged.
- **Batching.** `vmap_method="expand_dims"`: `scipy.special.jv` is a NumPy ufunc,
  so one host call takes the whole batch. Both arguments are first reshaped to the
  rank of the output, so NumPy broadcasting lines the batch axes up whichever
  argument is batched, and nothing is tiled.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`:
  `dJ_v/dz = (J_{v-1}(z) - J_{v+1}(z)) / 2` that calls this same differentiable function
  for the neighbouring orders, so the rule itself has a rule: `grad`, `jacfwd`, `jacrev`
  and `hessian` in `z` all work, each order of derivative costing two more host calls.
  `bessel_jv_callback` is the same call without the rule (`grad` through it raises). The
  order `v` is an integer: it has no derivative.
- **Types.** `v` any integer dtype (not bool), converted to int32 first, so that
  `v - 1` in the rule is a signed order (an unsigned `0 - 1` would wrap to
  `2**32 - 1`); orders beyond `+-(2**31 - 2)` are clamped to it. `z` any floating
  dtype, an integer one promoted to the default float dtype; float16 and bfloat16
  reach the host as float32 and the result is cast back.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "bessel_jv", "bessel_jv_callback", "on_host"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)
ORDER_LIMIT = _checks.ORDER_LIMIT  # int32 orders, with room for v - 1 and v + 1


# --8<-- [start:host]
def on_host(v: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype JAX was promised."""
    v, z = np.asarray(v), np.asarray(z)  # callbacks receive jax.Array: view, no copy
    return scipy.special.jv(v, z).astype(z.dtype, copy=False)  # broadcasts like a ufunc


# --8<-- [end:host]


# --8<-- [start:callback]
def bessel_jv_callback(
    v: ArrayLike,
    z: ArrayLike,
    *,
    vmap_method: str | None = VMAP_METHOD,
) -> jax.Array:
    """`J_v(z)` on the host, without a derivative rule."""
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    shape = jnp.broadcast_shapes(v.shape, z.shape)
    v = jnp.reshape(v, (1,) * (len(shape) - v.ndim) + v.shape)  # same rank as the output:
    z = jnp.reshape(z, (1,) * (len(shape) - z.ndim) + z.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    return jax.pure_callback(on_host, out_type, v, z, vmap_method=vmap_method).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the Bessel function of the first kind `J_v(z)`, computed by SciPy on the host.

    Args:
        v: integer array of orders.
        z: floating array; an integer one is promoted to the default float dtype.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        An array of the broadcast shape of `v` and `z`, in the dtype of `z`.

    Raises:
        TypeError: `v` is not an integer array, or `z` is neither floating nor integer.
        ValueError: the shapes of `v` and `z` do not broadcast, or `vmap_method` is not
            one of `VMAP_METHODS`.
    """
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    compute = functools.partial(bessel_jv_callback, vmap_method=vmap_method)
    return rules.bessel_jv(compute, v, z).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
