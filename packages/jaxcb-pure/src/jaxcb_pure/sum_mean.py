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
- **Derivatives.** A `jax.custom_jvp` rule written in `jax.numpy` (the map is
  linear), so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sum_mean_callback` is
  the same call without the rule (`grad` through it raises).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = ["VMAP_METHOD", "on_host", "sum_mean", "sum_mean_callback"]

VMAP_METHOD = "expand_dims"


# --8<-- [start:host]
def on_host(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Runs on the host with a concrete array; returns the dtype JAX was promised."""
    x = np.asarray(x)  # callbacks receive jax.Array: view, no copy
    return x.sum(axis=-1, dtype=x.dtype), x.mean(axis=-1, dtype=x.dtype)


# --8<-- [end:host]


def _check(x: ArrayLike) -> jax.Array:
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sum_mean: x must have a floating dtype, got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    return x


# --8<-- [start:callback]
def sum_mean_callback(
    x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis on the host, without a derivative rule."""
    x = _check(x)
    out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    return jax.pure_callback(on_host, (out, out), x, vmap_method=vmap_method)


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
        TypeError: `x` is not floating.
        ValueError: `x` is a scalar.
    """
    x = _check(x)
    return _sum_mean(vmap_method, x)


@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def _sum_mean(vmap_method: str | None, x: jax.Array) -> tuple[jax.Array, jax.Array]:
    return sum_mean_callback(x, vmap_method=vmap_method)


@_sum_mean.defjvp
def _sum_mean_jvp(vmap_method, primals, tangents):  # type: ignore[no-untyped-def]
    (x,), (dx,) = primals, tangents
    return _sum_mean(vmap_method, x), (jnp.sum(dx, axis=-1), jnp.mean(dx, axis=-1))


# --8<-- [end:pattern]
