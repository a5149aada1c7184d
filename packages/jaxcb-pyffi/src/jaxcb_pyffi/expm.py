"""The matrix exponential through `jax.ffi.ffi_call`, into Python functions registered as
XLA FFI handlers with `ctypes` (the bridge below, in this file), with a reverse-mode rule.

Contract:

- **Handlers, not callbacks.** `on_host(a, out)` and `on_host_vjp(a, g, out)` are
  registered once, at import, as the CPU FFI targets `jaxcb_py_expm` and
  `jaxcb_py_expm_vjp`; `jax.ffi.ffi_call` calls them from compiled code exactly as it
  calls C++ handlers. JAX's callback machinery is not involved.
- **Into the output buffer, one copy.** Both get NumPy views of XLA's own buffers:
  read-only inputs, and `out`, the memory of the array the call returns. SciPy has no
  `out=` for `expm` or `expm_frechet`: they return new arrays. `on_host` copies SciPy's
  result into `out` with `np.copyto` (the one copy that `jax.pure_callback` would make
  when it takes the returned array), and `on_host_vjp` stores each matrix's cotangent
  straight into its slice of `out`. Both return `None`.
- **has_side_effect=False** (the default of `ffi_call`) for both calls: JAX treats them
  as pure. Under `jax.jit` a call whose result is unused is removed (so under `jacrev`,
  which never uses the primal output, only the backward call runs); otherwise the
  handler runs once each time the compiled program runs.
  <!-- jaxcb:expect ffi_python/default expm jit_unused host_calls=0 -->
- **Not elementwise.** Each output entry depends on the whole matrix, so the handler gets
  whole matrices: `a` has shape `(..., n, n)` and stacks are allowed.
- **Batching.** `vmap_method="expand_dims"`: `scipy.linalg.expm` works on stacks
  `(..., n, n)`, so a batch is only more leading axes and one handler call fills it.
  `on_host_vjp` broadcasts the saved matrix against the cotangent, so `jacrev` (a `vmap`
  over cotangents) is one handler call too, the matrix arriving unbatched with a size-1
  axis instead of being tiled.
  <!-- jaxcb:expect ffi_python/default expm vmap host_calls=1 -->
  <!-- jaxcb:expect ffi_python/default expm jacrev host_calls=2 -->
- **Derivatives.** A `jax.custom_vjp` rule (below): the cotangent of
  `expm` at `a` for the output cotangent `g` is the Fréchet derivative `L(a^T, g)`, computed
  on the host per matrix by the second handler, through a second `ffi_call`. So `grad`,
  `vjp` and `jacrev` work, while `jvp` and `jacfwd` raise `TypeError` (a `custom_vjp`
  function has no forward mode), and a second derivative (`hessian`, `grad` of `grad`)
  raises `ValueError`: the backward `ffi_call` has no rule. `expm_callback` is the call
  without any rule.
- **What runs where.** The checks run in Python when the function is traced; both
  handlers run in the Python interpreter, called by XLA through `ctypes` in the middle of
  the program (CPU only: the views read host memory).
- **Non-finite input.** A matrix with a NaN or infinite entry comes out as a matrix of
  NaN, and so does its cotangent (the others of a stack are unaffected), as in every
  jaxcb package; `scipy.linalg.expm` itself returns `exp` of each entry of a diagonal
  matrix.
- **Types.** Any floating dtype: float16 and bfloat16 reach the handlers (and the rule)
  as float32, and the result is cast back.
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
import scipy.linalg
from jax.typing import ArrayLike

__all__ = [
    "VMAP_METHOD",
    "VMAP_METHODS",
    "expm",
    "expm_callback",
    "expm_vjp_callback",
    "on_host",
    "on_host_vjp",
]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"expm: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"expm: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"expm: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(a: ArrayLike, vmap_method: object) -> tuple[jax.Array, Any]:
    """`a` in a floating dtype of 32 bits or more, and the dtype of the result."""
    a = _array("a", a)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"expm: a must have a floating dtype, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    if vmap_method not in VMAP_METHODS:
        raise ValueError(f"expm: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}")
    wide = a.astype(jnp.promote_types(a.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, a.dtype


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
def on_host(a: np.ndarray, out: np.ndarray) -> None:
    """Runs on the host during the call: writes the exponential of each matrix into `out`."""
    finite = np.isfinite(a).all(axis=(-2, -1))  # NaN for a matrix with a non-finite entry
    if finite.all():  # the common case: no copies of the input
        np.copyto(out, scipy.linalg.expm(a))  # expm takes a stack (..., n, n); it has no out=
        return
    out[~finite] = np.nan
    out[finite] = scipy.linalg.expm(a[finite])


def on_host_vjp(a: np.ndarray, g: np.ndarray, out: np.ndarray) -> None:
    """Writes the cotangent of `a`, the Fréchet derivative of expm at `a^T` along `g`."""
    a, g = np.broadcast_to(a, out.shape), np.broadcast_to(g, out.shape)
    at = np.swapaxes(a, -1, -2)  # transpose each matrix, not the stack
    for i in np.ndindex(out.shape[:-2]):  # expm_frechet takes one matrix at a time
        finite = np.isfinite(a[i]).all()
        out[i] = scipy.linalg.expm_frechet(at[i], g[i], compute_expm=False) if finite else np.nan


# each looked up at each call, so that the module's host functions are the ones that run
TARGET = _register("jaxcb_py_expm", lambda *buffers: on_host(*buffers))
TARGET_VJP = _register("jaxcb_py_expm_vjp", lambda *buffers: on_host_vjp(*buffers))
# --8<-- [end:host]


# --8<-- [start:callback]
def expm_callback(a: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """The matrix exponential in the Python handler, into the output buffer, without any rule."""
    a, dtype = _checked(a, vmap_method)
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(a).astype(dtype)


def expm_vjp_callback(
    a: jax.Array, g: jax.Array, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The backward pass of `expm`: the cotangent of `a` for the cotangent `g`."""
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.ffi.ffi_call(TARGET_VJP, out_type, vmap_method=vmap_method)(a, g)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _differentiable(a: jax.Array, vmap_method: str | None) -> jax.Array:
    """The handler's value, with reverse mode from the Fréchet derivative of the matrix
    exponential at `a^T` in the direction of the output cotangent."""
    return expm_callback(a, vmap_method=vmap_method)


def _fwd(a: jax.Array, vmap_method: str | None) -> tuple[jax.Array, jax.Array]:
    return expm_callback(a, vmap_method=vmap_method), a  # save a for the backward pass


def _bwd(vmap_method: str | None, a: jax.Array, g: jax.Array) -> tuple[jax.Array]:
    return (expm_vjp_callback(a, g, vmap_method=vmap_method),)


_differentiable.defvjp(_fwd, _bwd)
# --8<-- [end:rule]


# --8<-- [start:pattern]
def expm(a: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the matrix exponential of `a`, computed by SciPy in a Python FFI handler.

    First-order reverse mode only: `grad`, `vjp` and `jacrev` work; `jvp`, `jacfwd`
    and second derivatives raise.

    Args:
        a: floating array of shape `(..., n, n)`.
        vmap_method: how `jax.vmap` calls the handlers (default `"expand_dims"`: one
            call per batch).

    Returns:
        An array of the shape and dtype of `a`; NaN for a matrix with a non-finite entry.

    Raises:
        TypeError: `a` is not a floating array.
        ValueError: `a` has fewer than two axes or its last two differ, or `vmap_method`
            is not one of `VMAP_METHODS`.
    """
    a, dtype = _checked(a, vmap_method)
    return _differentiable(a, vmap_method).astype(dtype)


# --8<-- [end:pattern]
