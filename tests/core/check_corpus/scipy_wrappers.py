"""SciPy special functions inside jitted code."""

import functools

import jax
import numpy as np
import scipy.special


def _kv(v, z):
    return scipy.special.kv(v, z).astype(z.dtype)


def kv(v, z):
    out = jax.ShapeDtypeStruct(np.broadcast_shapes(v.shape, z.shape), z.dtype)
    return jax.pure_callback(_kv, out, v, z, vectorized=True)  # expect: JXC006


def gammaln(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(scipy.special.gammaln, out, x, vmap_method="expand_dims")


def erfcx(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(
        scipy.special.erfcx, out, x, vmap_method="expand_dim"  # expect: JXC015
    )


@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def iv(v, z):
    out = jax.ShapeDtypeStruct(z.shape, z.dtype)
    return jax.pure_callback(  # expect: JXC007
        lambda z: scipy.special.iv(v, z).astype(z.dtype), out, z
    )


@iv.defjvp
def _iv_jvp(v, primals, tangents):
    (z,), (dz,) = primals, tangents
    return iv(v, z), 0.5 * (iv(v - 1, z) + iv(v + 1, z)) * dz


batched_kv = jax.vmap(kv)
