"""``sin(x) * y + 1`` in `jax.numpy`: the baseline every callback is measured against.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation.

Types: `x` any floating dtype (float16 and bfloat16 too: the result has the dtype of
`x`); `y` a real scalar (an integer or floating one, not bool or complex), cast to
the dtype of `x`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

from . import _checks

__all__ = ["sin_scale"]


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike) -> jax.Array:
    """Return `sin(x) * y + 1`.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, or `y` is not real (bool, complex).
        ValueError: `y` is not a scalar.
    """
    x, y = _checks.sin_scale(x, y)
    return jnp.sin(x) * y.astype(x.dtype) + 1


# --8<-- [end:pattern]
