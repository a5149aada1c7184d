"""Binding a C++ kernel through the XLA FFI, written for JAX 0.4.3x and updated halfway."""

import ctypes

import jax
import jax.numpy as jnp
from jax.extend import ffi  # expect: JXC013

try:
    from jax import ffi as jffi
except ImportError:
    from jax.extend import ffi as jffi

_lib = ctypes.cdll.LoadLibrary("./libkernels.so")
ffi.register_ffi_target("rms_norm", ffi.pycapsule(_lib.RmsNorm), platform="cpu")
jax.extend.ffi.register_ffi_target("softplus", jffi.pycapsule(_lib.Softplus))  # expect: JXC013


def rms_norm(x, eps=1e-5):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return ffi.ffi_call(  # expect: JXC014
        "rms_norm", out, x, eps=jnp.float32(eps), vectorized=True  # expect: JXC006
    )


def softplus(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jffi.ffi_call("softplus", out, vmap_method="broadcast_all")(x)


def clamp(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call("clamp", out)(x)  # expect: JXC007
