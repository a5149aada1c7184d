"""``sin(x) * y + 1`` through `jax.ffi.ffi_call` into a C++ handler (`sin_scale.cc`).

Contract:

- **Pure.** The handler depends on its arguments only, and `ffi_call` is declared without
  side effects, so JAX may run it once, many times, or never: under `jax.jit` a call whose
  result is unused is removed. Each run is one call of the C++ handler.
  <!-- jaxcb:expect ffi_call/default sin_scale jit_unused host_calls=0 -->
- **Batching.** `vmap_method="broadcast_all"`: every operand reaches the handler with the
  whole batch, so the handler stays a flat loop (`y` is reshaped to the rank of `x` first,
  so it holds one value per contiguous block of `x`), and one handler call takes the
  whole batch. The price is that an unbatched operand is tiled first (the scalar `y`, or
  `x` when only `y` is batched). With `"expand_dims"` and an unbatched `x` the handler
  gets fewer elements than the result and returns an error naming `broadcast_all`.
  <!-- jaxcb:expect ffi_call/default sin_scale vmap host_calls=1 -->
- **Derivatives.** A `jax.custom_jvp` rule (below), written in `jax.numpy`
  so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sin_scale_callback` is the same call
  without the rule (`grad` through it raises: an `ffi_call` has no derivative of its own).
- **Types.** The handler dispatches on float32 and float64 (and refuses any other dtype
  with an error); float16 and bfloat16 (and other narrow floats) are converted to float32
  here, before the handler, and the result is cast back. `y` is a real scalar (not bool or complex).
"""

from __future__ import annotations

import ctypes
import functools
import importlib.metadata
import re
import threading
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "sin_scale", "sin_scale_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"sin_scale: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"sin_scale: {name} must be an array of numbers, got {got}") from None


def _checked(x: ArrayLike, y: ArrayLike, vmap_method: object) -> tuple[jax.Array, jax.Array, Any]:
    """`x` and `y` in one floating dtype of 32 bits or more, and the result's dtype."""
    x, y = _array("x", x), _array("y", y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if not (jnp.issubdtype(y.dtype, jnp.integer) or jnp.issubdtype(y.dtype, jnp.floating)):
        raise TypeError(f"sin_scale: y must have an integer or floating dtype, got {y.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"sin_scale: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    wide = x.astype(jnp.promote_types(x.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, y.astype(wide.dtype), x.dtype


# --8<-- [start:register]
TARGET = "jaxcb_sin_scale"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbSinScale"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
_LIBRARY = Path(__file__).with_name("libsin_scale.so")  # CMakeLists.txt builds it here
_BUILD = "cmake -S . -B build -DPython_EXECUTABLE=$(which python) && cmake --build build"
_lock = threading.Lock()
_registered = False


def _register() -> None:
    """Load the handlers with ctypes and register them with XLA, once per process."""
    global _registered
    with _lock:  # two threads tracing their first call at once register once
        if _registered:
            return
        if not _LIBRARY.is_file():
            raise RuntimeError(
                f"sin_scale: {_LIBRARY.name} is not built: in {_LIBRARY.parent}, beside "
                f"sin_scale.cc and CMakeLists.txt, run {_BUILD}"
            )
        lib = ctypes.CDLL(str(_LIBRARY))
        lib.JaxlibVersion.restype = ctypes.c_char_p  # the jaxlib whose headers it was built with
        built, running = lib.JaxlibVersion().decode(), importlib.metadata.version("jaxlib")
        if _release(built) > _release(running):  # XLA would refuse it: every computation fails
            raise RuntimeError(
                f"sin_scale: {_LIBRARY.name} was built against the XLA FFI headers of jaxlib "
                f"{built}, newer than the running jaxlib {running}: rebuild it with {_BUILD}"
            )
        for target, symbol in HANDLERS.items():
            capsule = jax.ffi.pycapsule(getattr(lib, symbol))
            jax.ffi.register_ffi_target(target, capsule, platform="cpu")
        _registered = True


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:4])


# --8<-- [end:register]


# --8<-- [start:callback]
def sin_scale_callback(
    x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`sin(x) * y + 1` in the C++ handler, without a derivative rule."""
    x, y, dtype = _checked(x, y, vmap_method)
    _register()  # once per process, on first use
    y = jnp.reshape(y, (1,) * x.ndim)  # same rank as x: one y per block of x under vmap
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(x, y).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(x: jax.Array, y: jax.Array, vmap_method: str | None) -> jax.Array:
    """The handler's value, differentiable: `d(sin(x) y + 1) = cos(x) y dx + sin(x) dy`."""
    return sin_scale_callback(x, y, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array, ...], tangents: tuple[jax.Array, ...]
) -> tuple[jax.Array, jax.Array]:
    (x, y), (dx, dy) = primals, tangents
    return _differentiable(x, y, vmap_method), jnp.cos(x) * y * dx + jnp.sin(x) * dy


# --8<-- [end:rule]


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by a C++ XLA FFI handler.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.
        vmap_method: how `jax.vmap` calls the handler (default `"broadcast_all"`: one
            call per batch).

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, or `y` is not real (bool, complex).
        ValueError: `y` is not a scalar, or `vmap_method` is not one of `VMAP_METHODS`.
    """
    x, y, dtype = _checked(x, y, vmap_method)
    return _differentiable(x, y, vmap_method).astype(dtype)


# --8<-- [end:pattern]
