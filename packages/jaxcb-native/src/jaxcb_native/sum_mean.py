"""The sum and the mean over the last axis in `jax.numpy`: a pytree of two outputs.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation.
<!-- jaxcb:expect native/jax sum_mean * status=ok -->

Types: any floating dtype. float16 and bfloat16 are accumulated in float32, as NumPy
does for float16, and both results are cast back: the mean of 100 float16 values of
1000 is 1000, while their sum (1e5, above float16's largest value) is inf. An empty
last axis gives a sum of 0 and a mean of NaN.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = ["sum_mean"]


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"sum_mean: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"sum_mean: {name} must be an array of numbers, got {got}") from None


def _checked(x: ArrayLike) -> jax.Array:
    """`x` a floating array with at least one axis."""
    x = _array("x", x)
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
        TypeError: `x` is not a floating array.
        ValueError: `x` is a scalar.
    """
    x = _checked(x)
    wide = jnp.promote_types(x.dtype, jnp.float32)  # accumulate narrow floats in float32
    total, mean = jnp.sum(x, axis=-1, dtype=wide), jnp.mean(x, axis=-1, dtype=wide)
    return total.astype(x.dtype), mean.astype(x.dtype)


# --8<-- [end:pattern]
