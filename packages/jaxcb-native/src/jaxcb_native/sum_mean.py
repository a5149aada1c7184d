"""The sum and the mean over the last axis in `jax.numpy`: a pytree of two outputs.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

__all__ = ["sum_mean"]


def _check(x: ArrayLike) -> jax.Array:
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sum_mean: x must have a floating dtype, got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    return x


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """Return `(sum, mean)` of `x` over its last axis.

    Args:
        x: floating array with at least one axis.

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not floating.
        ValueError: `x` is a scalar.
    """
    x = _check(x)
    return jnp.sum(x, axis=-1), jnp.mean(x, axis=-1)


# --8<-- [end:pattern]
