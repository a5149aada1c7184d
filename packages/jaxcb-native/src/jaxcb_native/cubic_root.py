"""The real root of `x**3 + a*x - b` in `jax.numpy`: Cardano's formula, polished by Newton.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation. Derivatives come from plain autodiff: after
the Newton steps the root is accurate to rounding, and differentiating a converged
Newton step gives the implicit-function derivative `dx = (db - x*da) / (3x^2 + a)`.
<!-- jaxcb:expect native/jax cubic_root * status=ok -->

Domain: for `a > 0` the cubic is strictly increasing, so it has exactly one real
root. Nothing overflows or underflows on the way to it: with `2**k` the power of two
nearest `max(sqrt(a), cbrt(|b|))` (from the exponents of `a` and `b` alone), the root
is `x = 2**k * y`, where `y` solves `y**3 + A*y - B = 0` with `A = a / 2**(2k)` and
`B = b / 2**(3k)` both below 1 in size, and scaling by a power of two is exact.
Cardano's formula for `y` is written without cancellation,

    u = cbrt(|B|/2 + sqrt(B**2/4 + p**3)),   y = B / (u**2 + p + (p/u)**2),   p = A/3,

and two Newton steps polish `x`. So the root is accurate to a few units in the last
place for any finite `a > 0` and `b` (the tests go from `1e-30` to `1e30` in both
widths). Outside the domain: for `a < 0` with three real roots the square root of a
negative discriminant gives NaN (with one real root it is returned), `a == b == 0`
gives NaN (the root 0 is a triple root), and a NaN or infinite `a` or `b` gives NaN.

Types: floating `a` and `b` of any width, computed in their common dtype (float16
and bfloat16 in float32, the result cast back).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = ["cubic_root"]

NEWTON_STEPS = 2


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"cubic_root: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"cubic_root: {name} must be an array of numbers, got {got}") from None


def _check(a: ArrayLike, b: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """`a` and `b` floating and broadcastable, in their common dtype."""
    a, b = _array("a", a), _array("b", b)
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
        TypeError: `a` or `b` is not a floating array.
        ValueError: the shapes of `a` and `b` do not broadcast.
    """
    a, b = _check(a, b)
    dtype = a.dtype
    a, b = a.astype(jnp.promote_types(dtype, jnp.float32)), b.astype(a.dtype)
    k = _scale(a, b)  # x = 2**k * y, where y**3 + A*y - B = 0 has |A|, |B| < 1
    s = jnp.ldexp(jnp.ones_like(a), -k)  # 2**-k: scaling by a power of two is exact
    big_a, big_b = a * s * s, b * s * s * s  # one factor at a time: none overflows
    p = big_a / 3
    # Cardano without cancellation: u**3 is the larger root of w**2 - |B| w - p**3, and
    # y = u - p/u = B / (u**2 + p + (p/u)**2). The root x = 2**k * y is formed as
    # (b / 2**(2k)) / (...), which stays representable where B underflows (a root b/a
    # far below the scale 2**k).
    u = jnp.cbrt(jnp.abs(big_b) / 2 + jnp.sqrt((big_b / 2) ** 2 + p**3))
    x = b * s * s / (u * u + p + (p / u) ** 2)
    for _ in range(NEWTON_STEPS):  # rounding in Cardano's formula; cheap to remove
        x = x - (x * (x * x + a) - b) / (3 * x * x + a)
    return x.astype(dtype)


def _scale(a: jax.Array, b: jax.Array) -> jax.Array:
    """The integer k with 2**k about max(sqrt(|a|), cbrt(|b|)), from the exponents alone."""
    (_, ea), (_, eb) = jnp.frexp(a), jnp.frexp(b)  # x = m * 2**e with 0.5 <= |m| < 1
    unset = -(2**29)  # below any exponent: a zero coefficient does not set k
    ka = jnp.where(a == 0, unset, -(-ea // 2))  # ceil(ea / 2): |a| / 2**(2k) < 1
    kb = jnp.where(b == 0, unset, -(-eb // 3))  # ceil(eb / 3): |b| / 2**(3k) < 1
    return jnp.maximum(ka, kb)


# --8<-- [end:pattern]
