"""The real root of `x**3 + a*x - b` through `jax.ffi.ffi_call` (`cubic_root.cc`): C++ root finding.

Contract:

- **Pure.** The handler depends on its arguments only, and `ffi_call` is declared without
  side effects, so JAX may run it once, many times, or never: under `jax.jit` a call whose
  result is unused is removed. Each run is one call of the C++ handler.
  <!-- jaxcb:expect ffi_call/default cubic_root jit_unused host_calls=0 -->
- **The root finder.** Newton's method kept inside a bracket (bisection when a step would
  leave it), in double precision for either dtype, stopping on a *relative* step: tiny and
  huge roots are as accurate as roots near 1.
- **Batching.** `vmap_method="broadcast_all"`: `a` and `b` are broadcast to the output
  shape here, and under `vmap` every operand arrives with the whole batch, so the handler
  is an elementwise loop over equal-sized buffers and one handler call takes the whole
  batch (an unbatched operand is tiled first).
  <!-- jaxcb:expect ffi_call/default cubic_root vmap host_calls=1 -->
- **Derivatives.** A `jax.custom_jvp` rule (below): from the implicit
  function theorem, written in `jax.numpy` around the root `x` itself:
  `dx = (db - x*da) / (3x^2 + a)`. It reuses `x` and is differentiable, so `grad`, `jacfwd`,
  `jacrev` and `hessian` work; `cubic_root_callback` is the same call without the rule
  (`grad` through it raises).
- **Domain.** For `a > 0` the cubic is strictly increasing, so the root is unique.
  Otherwise the handler still returns a real root, but which one is unspecified. A NaN
  or infinite `a` or `b` gives NaN, as in every jaxcb package.
- **Types.** Floating `a` and `b`, in their common dtype; float16 and bfloat16 (and other narrow floats) are converted to float32
  here, before the handler, and the result is cast back.
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

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "cubic_root", "cubic_root_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"cubic_root: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"cubic_root: {name} must be an array of numbers, got {got}") from None


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
    dtype = jnp.result_type(a, b)
    wide = jnp.promote_types(dtype, jnp.float32)  # float16, bfloat16: float32
    return a.astype(wide), b.astype(wide), dtype


# --8<-- [start:register]
TARGET = "jaxcb_cubic_root"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbCubicRoot"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
_LIBRARY = Path(__file__).with_name("libcubic_root.so")  # CMakeLists.txt builds it here
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
                f"cubic_root: {_LIBRARY.name} is not built: in {_LIBRARY.parent}, beside "
                f"cubic_root.cc and CMakeLists.txt, run {_BUILD}"
            )
        lib = ctypes.CDLL(str(_LIBRARY))
        lib.JaxlibVersion.restype = ctypes.c_char_p  # the jaxlib whose headers it was built with
        built, running = lib.JaxlibVersion().decode(), importlib.metadata.version("jaxlib")
        if _release(built) > _release(running):  # XLA would refuse it: every computation fails
            raise RuntimeError(
                f"cubic_root: {_LIBRARY.name} was built against the XLA FFI headers of jaxlib "
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
def cubic_root_callback(
    a: ArrayLike, b: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The real root of `x**3 + a*x - b` in the C++ handler, without a derivative rule."""
    a, b, dtype = _checked(a, b, vmap_method)
    _register()  # once per process, on first use
    shape = jnp.broadcast_shapes(a.shape, b.shape)
    a, b = jnp.broadcast_to(a, shape), jnp.broadcast_to(b, shape)  # elementwise in C++
    out_type = jax.ShapeDtypeStruct(shape, a.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(a, b).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(a: jax.Array, b: jax.Array, vmap_method: str | None) -> jax.Array:
    """The handler's root `x` of `x**3 + a*x - b`, differentiable: from the implicit
    function theorem, `dx = (db - x da) / (3x^2 + a)`."""
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
    """Return the real root of `x**3 + a*x - b`, found by a C++ handler.

    Args:
        a: floating array; `a > 0` (then the root is unique).
        b: floating array, broadcastable with `a`.
        vmap_method: how `jax.vmap` calls the handler (default `"broadcast_all"`: one
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
