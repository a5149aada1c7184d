"""``sin(x) * y + 1`` in `jax.numpy`: the baseline every callback is measured against.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

__all__ = ["sin_scale"]


def _check(x: ArrayLike, y: ArrayLike) -> tuple[jax.Array, jax.Array]:
    x, y = jnp.asarray(x), jnp.asarray(y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    return x, y.astype(x.dtype)


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike) -> jax.Array:
    """Return `sin(x) * y + 1`.

    Args:
        x: floating array of any shape.
        y: scalar, cast to the dtype of `x`.

    Raises:
        TypeError: `x` is not floating.
        ValueError: `y` is not a scalar.
    """
    x, y = _check(x, y)
    return jnp.sin(x) * y + 1


# --8<-- [end:pattern]
