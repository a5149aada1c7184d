"""``sin(x) * y + 1`` through `jax.pure_callback`, differentiable.

Contract:

- **Pure.** `on_host` depends on its arguments only, so JAX may run it once, many
  times, or never: under `jax.jit` a call whose result is unused is removed, and
  two identical calls may be merged.
- **Batching.** `vmap_method="expand_dims"`: `on_host` is a NumPy ufunc
  expression, so one host call takes the whole batch; the scalar `y` is reshaped
  to the rank of `x` first, so NumPy broadcasting lines the batch axes up
  whichever argument is batched, and nothing is tiled.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`, written in
  `jax.numpy` so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sin_scale_callback` is
  the same call without the rule (`grad` through it raises).
- **Transforms.** `jit`, `vmap`, loops and `cond` work; the support matrix on the
  site has the measured answer for every transform.
- **Types.** `x` any floating dtype: float16 and bfloat16 reach the host (and the
  rule) as float32, and the result is cast back. `y` a real scalar (not bool or
  complex).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "on_host", "sin_scale", "sin_scale_callback"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# --8<-- [start:host]
def on_host(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype JAX was promised."""
    x, y = np.asarray(x), np.asarray(y)  # callbacks receive jax.Array: view, no copy
    if y.size == 1:  # one value (no batch): NumPy's scalar loop beats a stride-0 broadcast
        y = y.reshape(())
    out = np.sin(x) * y  # broadcasts: under vmap either argument may carry the batch
    out += 1
    return out


# --8<-- [end:host]


# --8<-- [start:callback]
def sin_scale_callback(
    x: ArrayLike,
    y: ArrayLike,
    *,
    vmap_method: str | None = VMAP_METHOD,
) -> jax.Array:
    """`sin(x) * y + 1` on the host, without a derivative rule."""
    x, y, dtype = _checks.sin_scale_for_host(x, y, vmap_method, VMAP_METHODS)
    y = jnp.reshape(y, (1,) * x.ndim)  # same rank as x: batch axes broadcast on the host
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(on_host, out_type, x, y, vmap_method=vmap_method).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by NumPy on the host.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, or `y` is not real (bool, complex).
        ValueError: `y` is not a scalar, or `vmap_method` is not one of `VMAP_METHODS`.
    """
    x, y, dtype = _checks.sin_scale_for_host(x, y, vmap_method, VMAP_METHODS)
    compute = functools.partial(sin_scale_callback, vmap_method=vmap_method)
    return rules.sin_scale(compute, x, y).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
