"""The matrix exponential in `jax.scipy.linalg`: a computation that is not elementwise.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation. `jax.scipy.linalg.expm` (scaling and
squaring with a Padé approximant) already accepts stacks of shape `(..., n, n)`, so
no `vmap` is needed for batches of matrices.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.linalg
from jax.typing import ArrayLike

__all__ = ["expm"]


def _check(a: ArrayLike) -> jax.Array:
    a = jnp.asarray(a)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"expm: a must have a floating dtype, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    return a


# --8<-- [start:pattern]
def expm(a: ArrayLike) -> jax.Array:
    """Return the matrix exponential of `a` (of every matrix, for a stack).

    Args:
        a: floating array of shape `(..., n, n)`.

    Returns:
        An array of the shape and dtype of `a`.

    Raises:
        TypeError: `a` is not floating.
        ValueError: `a` has fewer than two axes or its last two differ.
    """
    a = _check(a)
    return jax.scipy.linalg.expm(a)


# --8<-- [end:pattern]
