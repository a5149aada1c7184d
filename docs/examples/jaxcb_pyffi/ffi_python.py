# A Python function as an XLA FFI handler: ctypes makes it a C function, and
# jax.ffi.ffi_call calls it from compiled code as it would call a C++ handler.
# The structs mirror xla/ffi/api/c_api.h (under jax.ffi.include_dir()), up to the
# fields used here. CPU only; float32 buffers only, to stay short.
import ctypes

import jax
import jax.numpy as jnp
import numpy as np

P, S, INT, I64 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int64


class Ext(ctypes.Structure):  # XLA_FFI_InternalExtension
    pass


Ext._fields_ = [("size", S), ("type", INT), ("next", ctypes.POINTER(Ext))]


class Version(ctypes.Structure):  # XLA_FFI_Api_Version
    _fields_ = [("size", S), ("ext", P), ("major", INT), ("minor", INT)]


class Api(ctypes.Structure):  # XLA_FFI_Api, its first fields
    _fields_ = [("size", S), ("ext", P), ("version", Version)]


class Meta(ctypes.Structure):  # XLA_FFI_Metadata
    _fields_ = [("size", S), ("version", Version), ("traits", ctypes.c_uint32)]


class MetaExt(ctypes.Structure):  # XLA_FFI_Metadata_Extension
    _fields_ = [("base", Ext), ("meta", ctypes.POINTER(Meta))]


class Buffer(ctypes.Structure):  # XLA_FFI_Buffer
    _fields_ = [("size", S), ("ext", P), ("dtype", INT), ("data", P), ("rank", I64)]
    _fields_ += [("dims", ctypes.POINTER(I64))]


class List(ctypes.Structure):  # XLA_FFI_Args, XLA_FFI_Rets
    _fields_ = [("size", S), ("ext", P), ("n", I64), ("types", ctypes.POINTER(INT))]
    _fields_ += [("items", ctypes.POINTER(P))]


class Frame(ctypes.Structure):  # XLA_FFI_CallFrame, up to the results
    _fields_ = [("size", S), ("ext", ctypes.POINTER(Ext)), ("api", ctypes.POINTER(Api))]
    _fields_ += [("ctx", P), ("stage", INT), ("args", List), ("rets", List)]


def views(items):  # NumPy views of XLA's float32 buffers: no copy
    out = []
    for i in range(items.n):
        b = ctypes.cast(items.items[i], ctypes.POINTER(Buffer)).contents
        shape = tuple(b.dims[k] for k in range(b.rank))
        memory = (ctypes.c_float * int(np.prod(shape))).from_address(b.data)
        out.append(np.frombuffer(memory, np.float32).reshape(shape))
    return out


def as_handler(host):
    def call(frame):
        frame = frame.contents
        if frame.ext and frame.ext.contents.type == 1:  # registration asks for the API version
            meta = ctypes.cast(frame.ext, ctypes.POINTER(MetaExt)).contents.meta.contents
            version = frame.api.contents.version  # answer with the runtime's own
            meta.version.major, meta.version.minor = version.major, version.minor
            return None
        host(*views(frame.args), *views(frame.rets))  # inputs, then the outputs to fill
        return None  # no error

    return ctypes.CFUNCTYPE(P, ctypes.POINTER(Frame))(call)


def host_sin_scale(x, y, out):  # runs on the host, inside the compiled call
    np.sin(x, out=out)
    out *= y
    out += 1


handler = as_handler(host_sin_scale)  # keep a reference for as long as programs call it
capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype, capsule_new.argtypes = ctypes.py_object, (P, ctypes.c_char_p, P)
capsule = capsule_new(ctypes.cast(handler, P).value, None, None)
jax.ffi.register_ffi_target("py_sin_scale", capsule, platform="cpu")


def sin_scale(x, y):
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    call = jax.ffi.ffi_call("py_sin_scale", out_type, vmap_method="expand_dims")
    return call(x, jnp.reshape(y, (1,) * x.ndim))  # y: same rank as x, so it broadcasts


x = jnp.linspace(0.0, 1.5, 4, dtype=jnp.float32)
print("jit: ", jax.jit(sin_scale)(x, jnp.float32(2.0)))
print("vmap:", jax.vmap(sin_scale, in_axes=(0, None))(jnp.stack([x, -x]), jnp.float32(2.0)))
print("numpy:", np.sin(np.asarray(x)) * 2 + 1)
