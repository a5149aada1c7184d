"""The real root of `x**3 + a*x - b` through `jax.ffi.ffi_call`, into a Python function
registered as an XLA FFI handler with `ctypes` (the bridge below, in this file).

Contract:

- **A handler, not a callback.** `on_host(a, b, out)` is registered once, at import, as
  the CPU FFI target `jaxcb_py_cubic_root`; `jax.ffi.ffi_call` calls it from compiled
  code exactly as it calls a C++ handler. JAX's callback machinery is not involved.
- **In place, element by element.** `on_host` gets NumPy views of XLA's own buffers:
  read-only inputs, and `out`, the memory of the array the call returns.
  `scipy.optimize.brentq` finds one root of one scalar function, so `on_host` loops over
  the broadcast elements and stores each root straight into `out`; it returns `None`,
  and no result array is allocated or copied back.
- **has_side_effect=False** (the default of `ffi_call`): JAX treats the call as pure.
  Under `jax.jit` a call whose result is unused is removed; otherwise the handler runs
  once each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: `on_host` already loops over whatever shape
  `out` has and broadcasts its two arguments, so a batch is one handler call
  (`"sequential"` would add a handler call per batch element around the same loop). Both
  arguments are first reshaped to the rank of the output, so an unbatched one arrives
  with size-1 axes and is not tiled.
- **Derivatives.** A `jax.custom_jvp` rule (below): from the implicit function theorem,
  written in `jax.numpy` around the root `x` itself:
  `dx = (db - x*da) / (3x^2 + a)`. It reuses `x` and is differentiable, so `grad`, `jacfwd`,
  `jacrev` and `hessian` work; `cubic_root_callback` is the same call without the rule
  (`grad` through it raises).
- **Accurate at any scale.** The root is bracketed within a factor of a few
  (`[0, 2 min(cbrt|b|, |b|/a)]` for `a > 0`) and `brentq` stops on a *relative*
  tolerance (`rtol=4 eps`, `xtol` the smallest float): a root of `1e-20` is as accurate
  as a root of 1 (`xtol` is absolute, so `xtol=1e-15` alone would return 0 for it).
- **Domain.** For `a > 0` the cubic is strictly increasing, so the root is unique.
  Otherwise `on_host` still returns a real root, but which one is unspecified. A NaN or
  infinite `a` or `b` gives NaN.
- **Types.** Floating `a` and `b`, in their common dtype; float16 and bfloat16 reach the
  handler as float32 and the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
- **What runs where.** The checks and reshapes run in Python when the function is
  traced; the derivative rule is compiled by XLA with the rest of the program; `on_host`
  runs in the Python interpreter, called by XLA through `ctypes` in the middle of the
  program (CPU only: the views read host memory).
"""

from __future__ import annotations

import ctypes
import functools
import math
import threading
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize
from jax.typing import ArrayLike

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "cubic_root", "cubic_root_callback", "on_host"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"cubic_root: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"cubic_root: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"cubic_root: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(a: ArrayLike, b: ArrayLike, vmap_method: object) -> tuple[jax.Array, jax.Array, Any]:
    """`a` and `b` in one floating dtype of 32 bits or more, and the result's dtype."""
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
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"cubic_root: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    a = a.astype(jnp.result_type(a, b))  # their common dtype
    wide = a.astype(jnp.promote_types(a.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, b.astype(wide.dtype), a.dtype


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
_EPS, _TINY = np.finfo(float).eps, np.finfo(float).tiny  # a relative tolerance only


def _root(a: float, b: float) -> float:
    """One real root of `x**3 + a*x - b`, in float64 (NaN for a non-finite `a` or `b`)."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.nan
    c = abs(b)  # the cubic is odd in x and b: solve for |b|, then give the root b's sign
    # f(0) = -c <= 0 <= f(hi): for a > 0 the root is below both cbrt(c) and c/a
    hi = 2 * min(math.cbrt(c), c / a) if a > 0 else 2 * math.cbrt(c) + math.sqrt(-a)
    if hi == 0:  # a >= 0 and b == 0: the root 0
        return 0.0
    x = scipy.optimize.brentq(lambda x: x * x * x + a * x - c, 0.0, hi, xtol=_TINY, rtol=4 * _EPS)
    return math.copysign(x, b)


def on_host(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """Runs on the host during the call: writes one root per element into `out`."""
    a, b = np.broadcast_to(a, out.shape), np.broadcast_to(b, out.shape)
    for i in np.ndindex(out.shape):  # brentq is scalar-only: one element at a time
        out[i] = _root(float(a[i]), float(b[i]))


# looked up at each call, so that the module's on_host is the one that runs
TARGET = _register("jaxcb_py_cubic_root", lambda *buffers: on_host(*buffers))
# --8<-- [end:host]


# --8<-- [start:callback]
def cubic_root_callback(
    a: ArrayLike, b: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The real root of `x**3 + a*x - b` in the Python handler, in place, without a rule."""
    a, b, dtype = _checked(a, b, vmap_method)
    shape = jnp.broadcast_shapes(a.shape, b.shape)
    a = jnp.reshape(a, (1,) * (len(shape) - a.ndim) + a.shape)  # same rank as the output:
    b = jnp.reshape(b, (1,) * (len(shape) - b.ndim) + b.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, a.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(a, b).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(a: jax.Array, b: jax.Array, vmap_method: str | None) -> jax.Array:
    """The handler's root `x` of `x**3 + a*x - b`, differentiable: from the implicit function
    theorem, `dx = (db - x da) / (3x^2 + a)`."""
    return cubic_root_callback(a, b, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array, ...], tangents: tuple[jax.Array, ...]
) -> tuple[jax.Array, jax.Array]:
    (a, b), (da, db) = primals, tangents
    x = _differentiable(a, b, vmap_method)
    # Implicit function theorem on x**3 + a*x - b = 0: (3x^2 + a) dx + x da - db = 0.
    return x, (db - x * da) / (3 * x * x + a)


# --8<-- [end:rule]


# --8<-- [start:pattern]
def cubic_root(a: ArrayLike, b: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the real root of `x**3 + a*x - b`, found by `brentq` in a Python FFI handler.

    Args:
        a: floating array; `a > 0` (then the root is unique).
        b: floating array, broadcastable with `a`.
        vmap_method: how `jax.vmap` calls the handler (default `"expand_dims"`: one
            call per batch).

    Returns:
        The root, of the broadcast shape of `a` and `b` and their common dtype.

    Raises:
        TypeError: `a` or `b` is not a floating array.
        ValueError: the shapes of `a` and `b` do not broadcast, or `vmap_method` is not
            one of `VMAP_METHODS`.
    """
    a, b, dtype = _checked(a, b, vmap_method)
    return _differentiable(a, b, vmap_method).astype(dtype)


# --8<-- [end:pattern]
