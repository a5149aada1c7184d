"""The real root of `x**3 + a*x - b` in `jax.numpy`: Cardano's formula, polished by Newton.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation. Derivatives come from plain autodiff: after
the Newton steps the root is accurate to rounding, and differentiating a converged
Newton step gives the implicit-function derivative `dx = (db - x*da) / (3x^2 + a)`.

For `a > 0` the cubic is strictly increasing, so it has exactly one real root and
the discriminant `b**2/4 + a**3/27` is positive. That is the documented domain: for
`a < 0` with three real roots the square root of a negative discriminant gives NaN,
and `a == b == 0` gives NaN too (the root 0 is a triple root).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

__all__ = ["cubic_root"]

NEWTON_STEPS = 2


def _check(a: ArrayLike, b: ArrayLike) -> tuple[jax.Array, jax.Array]:
    a, b = jnp.asarray(a), jnp.asarray(b)
    for name, arg in (("a", a), ("b", b)):
        if not jnp.issubdtype(arg.dtype, jnp.floating):
            raise TypeError(f"cubic_root: {name} must have a floating dtype, got {arg.dtype}")
    try:
        jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"cubic_root: a and b must be broadcastable, got shapes {a.shape} and {b.shape}"
        ) from None
    dtype = jnp.result_type(a, b)
    return a.astype(dtype), b.astype(dtype)


# --8<-- [start:pattern]
def cubic_root(a: ArrayLike, b: ArrayLike) -> jax.Array:
    """Return the real root of `x**3 + a*x - b`, elementwise.

    Args:
        a: floating array; `a > 0` (then the root is unique).
        b: floating array, broadcastable with `a`.

    Returns:
        The root, of the broadcast shape of `a` and `b` and their common dtype.

    Raises:
        TypeError: `a` or `b` is not floating.
        ValueError: the shapes of `a` and `b` do not broadcast.
    """
    a, b = _check(a, b)
    # Cardano: x = u + w with u**3, w**3 the roots of s**2 - b*s - a**3/27 and u*w = -a/3.
    # Take u from the root without cancellation, w from u*w = -a/3.
    sign = jnp.where(b >= 0, 1, -1).astype(b.dtype)
    u = jnp.cbrt(b / 2 + sign * jnp.sqrt(b * b / 4 + a * a * a / 27))
    x = u - a / (3 * u)
    for _ in range(NEWTON_STEPS):  # rounding in Cardano's formula; cheap to remove
        x = x - (x * (x * x + a) - b) / (3 * x * x + a)
    return x


# --8<-- [end:pattern]
