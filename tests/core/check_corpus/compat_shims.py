"""A library's `_compat.py`: one name for each JAX API that moved, whatever JAX is installed."""

import functools

import jax
import numpy as np

# The FFI: jax.ffi from JAX 0.4.38 on, jax.extend.ffi before it.
try:
    ffi = jax.ffi
except AttributeError:  # an older JAX
    import jax.extend.ffi as ffi

# The same probe, written with hasattr.
if hasattr(jax, "ffi"):
    register_ffi_target = jax.ffi.register_ffi_target
else:
    from jax.extend.ffi import register_ffi_target

# And as a conditional expression.
pycapsule = jax.ffi.pycapsule if hasattr(jax, "ffi") else jax.extend.ffi.pycapsule

# jax.export left jax.experimental in 0.4.30.
try:
    from jax import export
except ImportError:
    from jax.experimental import export

JAX_VERSION = tuple(int(part) for part in jax.__version__.split(".")[:3])
HAS_VMAP_METHOD = JAX_VERSION >= (0, 4, 35)

# host_callback.call on the JAX that has it, its replacement under the same name elsewhere.
try:
    from jax.experimental.host_callback import call as host_call
except ImportError:  # JAX 0.8 and later: the module is gone
    host_call = None
if host_call is None or HAS_VMAP_METHOD:
    host_call = functools.partial(jax.pure_callback, vmap_method="sequential")


def pure_callback(fn, result_shape_dtypes, *args):
    """pure_callback with the old default batching, one host call per element, on any JAX."""
    if HAS_VMAP_METHOD:
        return jax.pure_callback(fn, result_shape_dtypes, *args, vmap_method="sequential")
    else:
        return jax.pure_callback(fn, result_shape_dtypes, *args, vectorized=False)


def pure_callback_vectorized(fn, result_shape_dtypes, *args):
    """For a host function that broadcasts: the newest keyword first, the old one on failure."""
    try:
        return jax.pure_callback(fn, result_shape_dtypes, *args, vmap_method="expand_dims")
    except TypeError:  # JAX < 0.4.35 has no vmap_method
        return jax.pure_callback(fn, result_shape_dtypes, *args, vectorized=True)


def pure_callback_legacy_first(fn, result_shape_dtypes, *args):
    """The shim written the other way round: JAX 0.6 to 0.9 raise ValueError at the old
    keyword, and from 0.10 it reaches the host function, so the handler never runs."""
    try:
        return jax.pure_callback(
            fn, result_shape_dtypes, *args, vectorized=True  # expect: JXC006
        )
    except TypeError:
        return jax.pure_callback(fn, result_shape_dtypes, *args, vmap_method="expand_dims")


def rms_norm(x, eps=1e-5):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return ffi.ffi_call("rms_norm", out, vmap_method="broadcast_all")(x, eps=np.float32(eps))


def clamp(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return ffi.ffi_call("clamp", out)(x)  # expect: JXC007


def solve(a, b):
    out = jax.ShapeDtypeStruct(b.shape, b.dtype)
    return host_call(np.linalg.solve, out, a, b)


def serialize(f, *args):
    return export.export(jax.jit(f))(*args).serialize()
