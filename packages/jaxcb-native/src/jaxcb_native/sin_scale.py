"""``sin(x) * y + 1`` in `jax.numpy`: the baseline every callback is measured against.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation.
<!-- jaxcb:expect native/jax sin_scale * status=ok -->

Types: `x` any floating dtype (float16 and bfloat16 too: the result has the dtype of
`x`); `y` a real scalar (an integer or floating one, not bool or complex), cast to
the dtype of `x`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = ["sin_scale"]


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"sin_scale: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"sin_scale: {name} must be an array of numbers, got {got}") from None


def _checked(x: ArrayLike, y: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """`x` a floating array, `y` a real scalar (not bool or complex)."""
    x, y = _array("x", x), _array("y", y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if not (jnp.issubdtype(y.dtype, jnp.integer) or jnp.issubdtype(y.dtype, jnp.floating)):
        raise TypeError(f"sin_scale: y must have an integer or floating dtype, got {y.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    return x, y


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
    x, y = _checked(x, y)
    return jnp.sin(x) * y.astype(x.dtype) + 1


# --8<-- [end:pattern]
