"""The matrix exponential through `jax.ffi.ffi_call` (`expm.cc`), with a reverse-mode rule.

Contract:

- **Pure.** Both handlers (`expm` and its derivative `expm_vjp`) depend on their arguments
  only, and `ffi_call` is declared without side effects, so JAX may run them once, many
  times, or never: under `jax.jit` a call whose result is unused is removed. Each run is one
  call of a C++ handler.
  <!-- jaxcb:expect ffi_call/default expm jit_unused host_calls=0 -->
- **Not elementwise.** Each output entry depends on the whole matrix, so the handler gets
  whole matrices: `a` has shape `(..., n, n)` and stacks are allowed. It computes in double
  precision, by scaling and squaring with the [6/6] Padé approximant.
- **Batching.** `vmap_method="broadcast_all"`: the handler loops over the stack, so a batch
  is only more leading axes and one handler call takes it. In the derivative the saved
  matrix is unbatched while the cotangents are (`jacrev` is a `vmap` over cotangents):
  `broadcast_all` tiles it, so `jacrev` is one backward handler call too, and under
  `jax.jit` the only one, since `jacrev` never uses the primal output and the forward call
  is removed.
  <!-- jaxcb:expect ffi_call/default expm vmap host_calls=1 -->
  <!-- jaxcb:expect ffi_call/default expm jacrev host_calls=2 -->
- **Derivatives.** A `jax.custom_vjp` rule (below) whose backward pass
  runs in C++ as well: the cotangent of `expm` at `a` for the output cotangent `g` is the
  Fréchet derivative `L(a^T, g)`, the upper-right block of `expm([[a^T, g], [0, a^T]])`, so
  the same kernel serves. `grad`, `vjp` and `jacrev` work, while `jvp` and `jacfwd` raise
  `TypeError` (a `custom_vjp` function has no forward mode), and a second derivative
  (`hessian`, `grad` of `grad`) raises `ValueError`: the backward `ffi_call` has no rule.
  `expm_callback` is the call without any rule.
- **Non-finite input.** A matrix with a NaN or infinite entry comes out as a matrix of
  NaN, and so does its cotangent (the others of a stack are unaffected), as in every
  jaxcb package; `scipy.linalg.expm` itself returns `exp` of each entry of a diagonal
  matrix.
- **Types.** The handlers take float32 and float64; float16 and bfloat16 (and other narrow floats) are converted to float32
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

__all__ = [
    "HANDLERS",
    "TARGET",
    "TARGET_VJP",
    "VMAP_METHOD",
    "VMAP_METHODS",
    "expm",
    "expm_callback",
    "expm_vjp_callback",
]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"expm: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"expm: {name} must be an array of numbers, got {got}") from None


def _checked(a: ArrayLike, vmap_method: object) -> tuple[jax.Array, Any]:
    """`a` in a floating dtype of 32 bits or more, and the dtype of the result."""
    a = _array("a", a)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"expm: a must have a floating dtype, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    if vmap_method not in VMAP_METHODS:
        raise ValueError(f"expm: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}")
    return a.astype(jnp.promote_types(a.dtype, jnp.float32)), a.dtype  # float16: float32


# --8<-- [start:register]
TARGET = "jaxcb_expm"  # the FFI target names that ffi_call uses
TARGET_VJP = "jaxcb_expm_vjp"
HANDLERS = {TARGET: "JaxcbExpm", TARGET_VJP: "JaxcbExpmVjp"}  # target -> C++ symbol
_LIBRARY = Path(__file__).with_name("libexpm.so")  # CMakeLists.txt builds it here
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
                f"expm: {_LIBRARY.name} is not built: in {_LIBRARY.parent}, beside "
                f"expm.cc and CMakeLists.txt, run {_BUILD}"
            )
        lib = ctypes.CDLL(str(_LIBRARY))
        lib.JaxlibVersion.restype = ctypes.c_char_p  # the jaxlib whose headers it was built with
        built, running = lib.JaxlibVersion().decode(), importlib.metadata.version("jaxlib")
        if _release(built) > _release(running):  # XLA would refuse it: every computation fails
            raise RuntimeError(
                f"expm: {_LIBRARY.name} was built against the XLA FFI headers of jaxlib "
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
def expm_callback(a: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """The matrix exponential in the C++ handler, without a derivative rule."""
    a, dtype = _checked(a, vmap_method)
    _register()  # once per process, on first use
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(a).astype(dtype)


def expm_vjp_callback(
    a: jax.Array, g: jax.Array, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The backward pass of `expm`: the cotangent of `a` for the cotangent `g`."""
    _register()  # once per process, on first use
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.ffi.ffi_call(TARGET_VJP, out_type, vmap_method=vmap_method)(a, g)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _differentiable(a: jax.Array, vmap_method: str | None) -> jax.Array:
    """The handler's value, with reverse mode from the backward handler: the Fréchet
    derivative of the matrix exponential at `a^T` in the direction of the cotangent."""
    return expm_callback(a, vmap_method=vmap_method)


def _fwd(a: jax.Array, vmap_method: str | None) -> tuple[jax.Array, jax.Array]:
    return expm_callback(a, vmap_method=vmap_method), a  # save a for the backward pass


def _bwd(vmap_method: str | None, a: jax.Array, g: jax.Array) -> tuple[jax.Array]:
    return (expm_vjp_callback(a, g, vmap_method=vmap_method),)


_differentiable.defvjp(_fwd, _bwd)
# --8<-- [end:rule]


# --8<-- [start:pattern]
def expm(a: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the matrix exponential of `a`, computed by a C++ handler.

    First-order reverse mode only: `grad`, `vjp` and `jacrev` work; `jvp`, `jacfwd`
    and second derivatives raise.

    Args:
        a: floating array of shape `(..., n, n)`.
        vmap_method: how `jax.vmap` calls the handler (default `"broadcast_all"`: one
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
