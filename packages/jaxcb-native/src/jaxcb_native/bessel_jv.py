"""The Bessel function `J_n(z)` of integer order in `jax.numpy`, differentiable in `z`.

Contract: pure, traced once per shape, no host round trip; every transform works
because XLA sees the whole computation, and derivatives of any order in `z` come
from plain autodiff.

Why not `jax.scipy.special`? It has no `jv`. `jax.scipy.special.bessel_jn(z, v=v)`
(JAX 0.10 and 0.12) takes the order as a static Python int and returns every order
`0..v`, so it cannot take the integer array `v` of this signature, which may be a
traced value.

Method: Bessel's integral `J_n(z) = (1/2pi) * integral over one period of
cos(n*t - z*sin(t)) dt`, by the trapezoidal rule on `NODES` equally spaced points.
The integrand is smooth and periodic, so the rule converges geometrically: its only
error is the aliased orders `J_{n +- k*NODES}(z)`, negligible while `|n| + |z|` is
well below `NODES`. The angle `n*t` is reduced exactly in integer arithmetic
(`n*j mod NODES`), so a large order costs no precision.

Accuracy (measured against `scipy.special.jv` by the tests): for `|z| <= 60` and
`|n| <= 20` the absolute error of `J_n`, and of its first and second derivatives in
`z`, is below `1e-14` in float64 and `1e-6` in float32. The error is absolute, not
relative: values far below those bounds (say `J_20(0.5)`) come out as rounding
noise. Beyond the range the aliasing error grows fast: for `|n| <= 20` it is about
`1e-8` at `|z| = 80` and `1e-2` at `|z| = 100`.
The product `n*j` may wrap around in integer arithmetic for huge orders; that does not
change it modulo `NODES`, a power of two.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = ["NODES", "bessel_jv"]

NODES = 128


def _check(v: ArrayLike, z: ArrayLike) -> tuple[jax.Array, jax.Array]:
    v, z = jnp.asarray(v), jnp.asarray(z)
    if not jnp.issubdtype(v.dtype, jnp.integer):
        raise TypeError(f"bessel_jv: v must have an integer dtype, got {v.dtype}")
    if v.dtype.itemsize < 4:
        v = v.astype(jnp.int32)  # room for the index NODES
    if jnp.issubdtype(z.dtype, jnp.integer):
        z = z.astype(jnp.result_type(float))  # the default float: float64 under x64
    elif not jnp.issubdtype(z.dtype, jnp.floating):
        raise TypeError(f"bessel_jv: z must have a real dtype, got {z.dtype}")
    try:
        jnp.broadcast_shapes(v.shape, z.shape)
    except ValueError:
        raise ValueError(
            f"bessel_jv: v and z must be broadcastable, got shapes {v.shape} and {z.shape}"
        ) from None
    return v, z


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike) -> jax.Array:
    """Return the Bessel function of the first kind `J_v(z)` for integer orders `v`.

    Args:
        v: integer array of orders (any sign).
        z: floating array; an integer one is promoted to the default float dtype.

    Returns:
        An array of the broadcast shape of `v` and `z`, in the dtype of `z`.

    Raises:
        TypeError: `v` is not integer, or `z` is neither floating nor integer.
        ValueError: the shapes of `v` and `z` do not broadcast.
    """
    v, z = _check(v, z)
    j = jnp.arange(NODES, dtype=v.dtype)  # t_j = 2*pi*j / NODES
    k = jnp.mod(v[..., None] * j, NODES)  # n*t_j = 2*pi*k / NODES (mod 2*pi), exactly
    step = 2 * np.pi / NODES
    angle = k.astype(z.dtype) * step - z[..., None] * jnp.sin(j.astype(z.dtype) * step)
    return jnp.mean(jnp.cos(angle), axis=-1)


# --8<-- [end:pattern]
