"""Special functions with a legacy and a current callback path, switched by flags while a
library still supports an older JAX."""

import os

import jax
import numpy as np
import scipy.special

USE_LEGACY_CALLBACKS = os.environ.get("SPECIAL_LEGACY_CALLBACKS", "0") == "1"
_jax_version = tuple(int(v) for v in jax.__version__.split(".")[:2])


class _Config:
    legacy_ffi = False


config = _Config()


def _log1mexp_host(x):
    return np.log(-np.expm1(-x)).astype(x.dtype)


def log1mexp(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    if USE_LEGACY_CALLBACKS:
        return jax.pure_callback(_log1mexp_host, out, x)
    else:
        return jax.pure_callback(_log1mexp_host, out, x, vmap_method="expand_dims")


def _i0e_host(x):
    return scipy.special.i0e(x).astype(x.dtype)


if _jax_version >= (0, 5):

    def i0e(x):
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(_i0e_host, out, x, vmap_method="expand_dims")

else:

    def i0e(x):
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        return jax.pure_callback(_i0e_host, out, x, vectorized=True)


def softplus(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    if config.legacy_ffi:
        return jax.ffi.ffi_call("softplus", out)(x)
    return jax.ffi.ffi_call("softplus", out, vmap_method="broadcast_all")(x)


def erfcx(x):
    # A flag alone makes nothing safe: neither branch says how to batch.
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    if USE_LEGACY_CALLBACKS:
        return jax.pure_callback(
            scipy.special.erfcx, out, x, vectorized=True  # expect: JXC006
        )
    return jax.pure_callback(scipy.special.erfcx, out, x)  # expect: JXC007


def ndtri(p):
    out = jax.ShapeDtypeStruct(p.shape, p.dtype)
    if not USE_LEGACY_CALLBACKS:
        return jax.pure_callback(scipy.special.ndtri, out, p, vmap_method="expand_dims")
    return jax.pure_callback(scipy.special.ndtri, out, p)
