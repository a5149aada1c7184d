"""A Python function as an XLA FFI handler, through `ctypes` (CPU).

`register(name, host)` makes `host` a C function that XLA calls, and registers it with
`jax.ffi.register_ffi_target` under `name`; `jax.ffi.ffi_call(name, ...)` then calls it
from compiled code, as it calls a C++ handler (NVIDIA Warp's `jax_callable` does the same
with its own `ctypes` structures). Per call, XLA passes a call frame (the
`XLA_FFI_CallFrame` of `xla/ffi/api/c_api.h`, whose headers `jax.ffi.include_dir()`
holds); this module reads its buffers as NumPy arrays, without copying, and calls
`host(*inputs, *outputs)`:

- **inputs** are read-only views of XLA's argument buffers;
- **outputs** are writable views of the buffers the call returns: `host` writes its
  result into them (`out=`, in-place operators, `np.copyto`) and returns nothing;
- an exception in `host` becomes an FFI error: the compiled call raises
  `JaxRuntimeError` with its type and message;
- a buffer of a dtype NumPy cannot view (bfloat16, the 8-bit floats) is an FFI error
  naming it.

Copy this file with the pattern module you copy. Only the standard library, NumPy and JAX.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

__all__ = ["register"]

# --8<-- [start:frame]
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
# --8<-- [end:frame]


# --8<-- [start:bridge]
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


def _handler(host: Callable[..., None]) -> Any:
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


def register(name: str, host: Callable[..., None]) -> str:
    """Register ``host(*inputs, *outputs)`` as the CPU FFI handler ``name``; returns ``name``.

    Once per name: a second registration of a name keeps the first handler.
    """
    with _LOCK:  # two threads tracing their first call at once register it once
        if name not in _KEEP:
            c_function = _handler(host)
            jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(c_function), platform="cpu")
            _KEEP[name] = c_function
    return name


# --8<-- [end:bridge]
