"""The sum and the mean over the last axis in `jax.numpy`: a pytree of two outputs.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation.

Types: any floating dtype. float16 and bfloat16 are accumulated in float32, as NumPy
does for float16, and both results are cast back: the mean of 100 float16 values of
1000 is 1000, while their sum (1e5, above float16's largest value) is inf. An empty
last axis gives a sum of 0 and a mean of NaN.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

from . import _checks

__all__ = ["sum_mean"]


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """Return `(sum, mean)` of `x` over its last axis.

    Args:
        x: floating array with at least one axis.

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array.
        ValueError: `x` is a scalar.
    """
    x = _checks.sum_mean(x)
    wide = jnp.promote_types(x.dtype, jnp.float32)  # accumulate narrow floats in float32
    total, mean = jnp.sum(x, axis=-1, dtype=wide), jnp.mean(x, axis=-1, dtype=wide)
    return total.astype(x.dtype), mean.astype(x.dtype)


# --8<-- [end:pattern]
