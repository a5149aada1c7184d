"""The matrix exponential in `jax.scipy.linalg`: a computation that is not elementwise.

Contract: pure, traced once per shape, no host round trip; XLA sees the whole
computation, so every transform of the support matrix works on JAX 0.10.2 and 0.12.0.1.
On JAX 0.4.30 `shard_map` of it raises `NotImplementedError` ("No replication rule for
cond"): that version's `jax.scipy.linalg.expm` contains a `lax.cond`, which its
`shard_map` cannot check (its message names the workaround, `check_rep=False`).
<!-- jaxcb:expect native/jax expm * status=ok jax=0.12.0.1|0.10.2 -->
<!-- jaxcb:expect native/jax expm shard_map status=error error_type=NotImplementedError jax=0.4.30 -->
`jax.scipy.linalg.expm` (scaling and squaring with a Padé approximant) already accepts
stacks of shape `(..., n, n)`, so no `vmap` is needed for batches of matrices.

Types: any floating dtype; float16 and bfloat16 (which `jax.scipy.linalg.expm`
refuses) are computed in float32 and the result cast back.

Non-finite input: a matrix with a NaN or infinite entry comes out as a matrix of NaN
(the other matrices of a stack are unaffected), as in every jaxcb package.
`scipy.linalg.expm` differs: for a diagonal matrix it returns `exp` of each entry
(`inf` for `inf`, `0` for `-inf`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jax.scipy.linalg
import numpy as np
from jax.typing import ArrayLike

__all__ = ["expm"]


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"expm: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"expm: {name} must be an array of numbers, got {got}") from None


def _checked(a: ArrayLike) -> jax.Array:
    """`a` a floating stack of square matrices, shape `(..., n, n)`."""
    a = _array("a", a)
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
        An array of the shape and dtype of `a`; NaN for a matrix with a non-finite entry.

    Raises:
        TypeError: `a` is not a floating array.
        ValueError: `a` has fewer than two axes or its last two differ.
    """
    a = _checked(a)
    wide = jnp.promote_types(a.dtype, jnp.float32)  # float16, bfloat16: in float32
    return jax.scipy.linalg.expm(a.astype(wide)).astype(a.dtype)


# --8<-- [end:pattern]
