"""The sum and the mean over the last axis through `jax.ffi.ffi_call`, into a Python
function registered as an XLA FFI handler with `ctypes` (the bridge below, in this file).

Contract:

- **A handler, not a callback.** `on_host(x, total, mean)` is registered once, at import,
  as the CPU FFI target `jaxcb_py_sum_mean`; `jax.ffi.ffi_call` calls it from compiled
  code exactly as it calls a C++ handler. JAX's callback machinery is not involved.
- **In place, two outputs.** `on_host` gets NumPy views of XLA's own buffers: the
  read-only input `x`, then one writable view per result, `total` and `mean`, the memory
  of the two arrays the call returns (`result_shape_dtypes` is the matching pair of
  `jax.ShapeDtypeStruct`s). NumPy's sum and division write into them through their
  `out=` argument, so nothing is allocated or copied back.
- **has_side_effect=False** (the default of `ffi_call`): JAX treats the call as pure.
  Under `jax.jit` a call whose result is unused is removed; otherwise the handler runs
  once each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: `on_host` reduces over the last axis only,
  so leading batch axes pass straight through and one handler call fills both batched
  outputs. With a single argument, `"broadcast_all"` would do the same.
  <!-- jaxcb:expect ffi_python/default sum_mean vmap host_calls=1 -->
- **Derivatives.** A `jax.custom_jvp` rule (below), written in `jax.numpy` (the map is
  linear), so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sum_mean_callback` is the
  same call without the rule (`grad` through it raises).
- **What runs where.** The checks run in Python when the function is traced; the
  derivative rule is compiled by XLA with the rest of the program; `on_host` runs in the
  Python interpreter, called by XLA through `ctypes` in the middle of the program (CPU
  only: the views read host memory).
- **Types.** Any floating dtype: float16 and bfloat16 reach the handler as float32, so
  they are accumulated in float32 (as NumPy does for float16), and both results are cast
  back. An empty last axis gives a sum of 0 and a mean of NaN.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import ctypes
import functools
import threading
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "on_host", "sum_mean", "sum_mean_callback"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"sum_mean: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"sum_mean: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"sum_mean: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(x: ArrayLike, vmap_method: object) -> tuple[jax.Array, Any]:
    """`x` in a floating dtype of 32 bits or more, and the dtype of the results."""
    x = _array("x", x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sum_mean: x must have a floating dtype, got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"sum_mean: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    wide = x.astype(jnp.promote_types(x.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, x.dtype


# ---- the bridge (the same in every jaxcb_pyffi module) --------------------------------
# A Python function as the C function XLA's FFI calls, through `ctypes` (CPU). Per call XLA
# passes a call frame (`XLA_FFI_CallFrame` of `xla/ffi/api/c_api.h`, whose headers
# `jax.ffi.include_dir()` holds); the bridge reads its buffers as NumPy arrays without
# copying and calls `host(*inputs, *outputs)`: inputs read-only, outputs writable. An
# exception in `host` becomes an FFI error (the caller gets `JaxRuntimeError` with its type
# and message), and so does a buffer of a dtype NumPy cannot view (bfloat16, 8-bit floats).
# NVIDIA Warp's `jax_callable` declares the same structures with its own `ctypes` code.
_size, _ptr, _int, _i64 = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64


class _Extension(ctypes.Structure):  # XLA_FFI_InternalExtension: a linked list
    pass


_Extension._fields_ = [("struct_size", _size), ("type", _int), ("next", ctypes.POINTER(_Extension))]


class _ApiVersion(ctypes.Structure):
    _fields_ = [("struct_size", _size), ("extension_start", _ptr), ("major", _int), ("minor", _int)]


class _ErrorCreateArgs(ctypes.Structure):
    _fields_ = [("struct_size", _size), ("extension_start", _ptr), ("message", ctypes.c_char_p)]
    _fields_ += [("errc", _int)]


class _Api(ctypes.Structure):  # XLA_FFI_Api, up to the one function used here
    _fields_ = [("struct_size", _size), ("extension_start", _ptr), ("api_version", _ApiVersion)]
    _fields_ += [("internal_api", _ptr)]
    _fields_ += [("error_create", ctypes.CFUNCTYPE(_ptr, ctypes.POINTER(_ErrorCreateArgs)))]


class _Metadata(ctypes.Structure):  # what XLA asks a handler for when it is registered
    _fields_ = [("struct_size", _size), ("api_version", _ApiVersion), ("traits", ctypes.c_uint32)]


class _MetadataExtension(ctypes.Structure):
    _fields_ = [("base", _Extension), ("metadata", ctypes.POINTER(_Metadata))]


class _Buffer(ctypes.Structure):  # XLA_FFI_Buffer
    _fields_ = [("struct_size", _size), ("extension_start", _ptr), ("dtype", _int)]
    _fields_ += [("data", _ptr), ("rank", _i64), ("dims", ctypes.POINTER(_i64))]


class _List(ctypes.Structure):  # XLA_FFI_Args and XLA_FFI_Rets: the same layout
    _fields_ = [("struct_size", _size), ("extension_start", _ptr), ("size", _i64)]
    _fields_ += [("types", ctypes.POINTER(_int)), ("items", ctypes.POINTER(_ptr))]


class _CallFrame(ctypes.Structure):  # XLA_FFI_CallFrame, up to the results
    _fields_ = [("struct_size", _size), ("extension_start", ctypes.POINTER(_Extension))]
    _fields_ += [("api", ctypes.POINTER(_Api)), ("ctx", _ptr), ("stage", _int)]
    _fields_ += [("args", _List), ("rets", _List)]


_METADATA = 1  # XLA_FFI_Extension_Metadata
_BUFFER = 1  # XLA_FFI_ArgType_BUFFER, XLA_FFI_RetType_BUFFER
_INVALID_ARGUMENT, _UNKNOWN = 3, 2  # XLA_FFI_Error_Code
# XLA_FFI_DataType -> NumPy; the others (bfloat16, 8-bit and 4-bit floats) NumPy cannot view
_DTYPES = {1: np.bool_, 2: np.int8, 3: np.int16, 4: np.int32, 5: np.int64, 6: np.uint8}
_DTYPES |= {7: np.uint16, 8: np.uint32, 9: np.uint64, 10: np.float16, 11: np.float32}
_DTYPES |= {12: np.float64, 15: np.complex64, 18: np.complex128}
_NO_VIEW = {16: "bfloat16", 17: "a token", 19: "float8_e5m2", 20: "float8_e4m3fn"}


class _FFIError(Exception):
    """A buffer the bridge cannot hand to NumPy (reported to XLA as INVALID_ARGUMENT)."""


def _views(items: _List, what: str, writable: bool) -> list[np.ndarray]:
    """NumPy views (no copy) of a call frame's buffers."""
    out = []
    for i in range(items.size):
        if items.types[i] != _BUFFER:
            raise _FFIError(f"{what} {i} is not a buffer")
        buffer = ctypes.cast(items.items[i], ctypes.POINTER(_Buffer)).contents
        dtype = _DTYPES.get(buffer.dtype)
        if dtype is None:
            name = _NO_VIEW.get(buffer.dtype, f"XLA_FFI_DataType {buffer.dtype}")
            raise _FFIError(f"{what} {i} is {name}, which NumPy cannot view")
        shape = tuple(buffer.dims[k] for k in range(buffer.rank))
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        if size == 0:  # an empty buffer may have no memory at all
            view = np.empty(shape, dtype)
        else:
            memory = (ctypes.c_char * size).from_address(buffer.data)
            view = np.frombuffer(memory, dtype).reshape(shape)  # row-major, as XLA passes it
        view.flags.writeable = writable
        out.append(view)
    return out


def _error(frame: _CallFrame, code: int, message: str) -> int | None:
    args = _ErrorCreateArgs(ctypes.sizeof(_ErrorCreateArgs), None, message.encode(), code)
    return frame.api.contents.error_create(ctypes.byref(args))


def _answer_metadata(frame: _CallFrame) -> bool:
    """At registration XLA calls the handler once with a metadata request, to learn the
    FFI version it was built against: answer with the runtime's own."""
    extension = frame.extension_start
    while extension:
        if extension.contents.type == _METADATA:
            request = ctypes.cast(extension, ctypes.POINTER(_MetadataExtension)).contents
            version = frame.api.contents.api_version
            request.metadata.contents.api_version.major = version.major
            request.metadata.contents.api_version.minor = version.minor
            request.metadata.contents.traits = 0
            return True
        extension = extension.contents.next
    return False


_Handler = ctypes.CFUNCTYPE(_ptr, ctypes.POINTER(_CallFrame))


def _c_function(host: Callable[..., None]) -> Any:
    """``host`` as the C function XLA calls (ctypes takes the GIL for each call)."""

    def call(pointer: Any) -> int | None:
        frame = pointer.contents
        if _answer_metadata(frame):
            return None
        try:
            inputs = _views(frame.args, "argument", writable=False)
            outputs = _views(frame.rets, "result", writable=True)
        except _FFIError as e:
            return _error(frame, _INVALID_ARGUMENT, str(e))
        except Exception as e:  # e.g. more axes than NumPy holds: an error, never a crash
            return _error(frame, _INVALID_ARGUMENT, f"{type(e).__name__}: {e}")
        try:
            host(*inputs, *outputs)
        except Exception as e:  # reported to XLA: the caller gets JaxRuntimeError
            return _error(frame, _UNKNOWN, f"{type(e).__name__}: {e}")
        return None  # success

    return _Handler(call)


_KEEP: dict[str, Any] = {}  # the C functions must outlive every program that calls them
_LOCK = threading.Lock()


def _register(name: str, host: Callable[..., None]) -> str:
    """Register ``host(*inputs, *outputs)`` as the CPU FFI handler ``name``; returns ``name``.

    Once per name: a second registration of a name keeps the first handler.
    """
    with _LOCK:  # two threads tracing their first call at once register it once
        if name not in _KEEP:
            c_function = _c_function(host)
            jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(c_function), platform="cpu")
            _KEEP[name] = c_function
    return name


# ---- end of the bridge ---------------------------------------------------------------


# --8<-- [start:host]
def on_host(x: np.ndarray, total: np.ndarray, mean: np.ndarray) -> None:
    """Runs on the host during the call: writes the sum and the mean into `total`, `mean`."""
    np.sum(x, axis=-1, dtype=x.dtype, out=total)
    with np.errstate(invalid="ignore"):  # an empty last axis: 0 / 0 is NaN, silently
        np.divide(total, x.shape[-1], out=mean)


# looked up at each call, so that the module's on_host is the one that runs
TARGET = _register("jaxcb_py_sum_mean", lambda *buffers: on_host(*buffers))
# --8<-- [end:host]


# --8<-- [start:callback]
def sum_mean_callback(
    x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis in the Python handler, in place, without a rule."""
    x, dtype = _checked(x, vmap_method)
    out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    total, mean = jax.ffi.ffi_call(TARGET, (out, out), vmap_method=vmap_method)(x)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _differentiable(x: jax.Array, vmap_method: str | None) -> tuple[jax.Array, jax.Array]:
    """The handler's values, differentiable: both results are linear in `x`."""
    return sum_mean_callback(x, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array], tangents: tuple[jax.Array]
) -> tuple[tuple[jax.Array, jax.Array], tuple[jax.Array, jax.Array]]:
    (x,), (dx,) = primals, tangents
    return _differentiable(x, vmap_method), (jnp.sum(dx, axis=-1), jnp.mean(dx, axis=-1))


# --8<-- [end:rule]


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> tuple[jax.Array, jax.Array]:
    """Return `(sum, mean)` of `x` over its last axis, computed by NumPy in a Python FFI handler.

    Args:
        x: floating array with at least one axis.
        vmap_method: how `jax.vmap` calls the handler (default `"expand_dims"`: one
            call per batch).

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array.
        ValueError: `x` is a scalar, or `vmap_method` is not one of `VMAP_METHODS`.
    """
    x, dtype = _checked(x, vmap_method)
    total, mean = _differentiable(x, vmap_method)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:pattern]
