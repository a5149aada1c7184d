"""The sum and the mean over the last axis through `jax.pure_callback`: two outputs.

Contract:

- **Pure.** `on_host` depends on its argument only, so JAX may run it once, many
  times, or never: under `jax.jit` a call whose result is unused is removed, and
  two identical calls may be merged.
- **Pytree output.** One host call returns both arrays; `result_shape_dtypes` is
  the matching tuple of `jax.ShapeDtypeStruct`s.
- **Batching.** `vmap_method="expand_dims"`: `on_host` reduces over the last axis
  only, so leading batch axes pass straight through and one host call takes the
  whole batch. With a single argument, `"broadcast_all"` would do the same.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`, written in
  `jax.numpy` (the map is linear), so `grad`, `jacfwd`, `jacrev` and `hessian` work;
  `sum_mean_callback` is the same call without the rule (`grad` through it raises).
- **Types.** Any floating dtype: float16 and bfloat16 reach the host as float32, so
  they are accumulated in float32 (as NumPy does for float16), and both results are
  cast back. An empty last axis gives a sum of 0 and a mean of NaN.
"""

from __future__ import annotations

import functools

import jax
import numpy as np
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "on_host", "sum_mean", "sum_mean_callback"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# --8<-- [start:host]
def on_host(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Runs on the host with a concrete array; returns the dtype JAX was promised."""
    x = np.asarray(x)  # callbacks receive jax.Array: view, no copy
    total = x.sum(axis=-1, dtype=x.dtype)
    with np.errstate(invalid="ignore"):  # an empty last axis: 0 / 0 is NaN, silently
        mean = total / x.shape[-1]
    return total, mean.astype(x.dtype, copy=False)


# --8<-- [end:host]


# --8<-- [start:callback]
def sum_mean_callback(
    x: ArrayLike,
    *,
    vmap_method: str | None = VMAP_METHOD,
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis on the host, without a derivative rule."""
    x, dtype = _checks.sum_mean_for_host(x, vmap_method, VMAP_METHODS)
    out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    total, mean = jax.pure_callback(on_host, (out, out), x, vmap_method=vmap_method)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> tuple[jax.Array, jax.Array]:
    """Return `(sum, mean)` of `x` over its last axis, computed by NumPy on the host.

    Args:
        x: floating array with at least one axis.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array.
        ValueError: `x` is a scalar, or `vmap_method` is not one of `VMAP_METHODS`.
    """
    x, dtype = _checks.sum_mean_for_host(x, vmap_method, VMAP_METHODS)
    compute = functools.partial(sum_mean_callback, vmap_method=vmap_method)
    total, mean = rules.sum_mean(compute, x)  # the rule: jaxcb_native.rules
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:pattern]
