"""The sum and the mean over the last axis through `jax.ffi.ffi_call` (`sum_mean.cc`): two outputs.

Contract:

- **Pure.** The handler depends on its argument only, and `ffi_call` is declared without
  side effects, so JAX may run it once, many times, or never: under `jax.jit` a call whose
  result is unused is removed. Each run is one call of the C++ handler.
  <!-- jaxcb:expect ffi_call/default sum_mean jit_unused host_calls=0 -->
- **Several results.** One handler call fills both arrays; `result_shape_dtypes` is the
  matching tuple of `jax.ShapeDtypeStruct`s and the handler binds two `Ret` buffers.
- **Batching.** `vmap_method="broadcast_all"`: the handler reduces the last axis of
  whatever rows it gets, so leading batch axes are only more rows and one handler call
  takes the whole batch. With a single argument `"expand_dims"` does the same.
  <!-- jaxcb:expect ffi_call/default sum_mean vmap host_calls=1 -->
- **Derivatives.** A `jax.custom_jvp` rule (below), written in `jax.numpy`
  (the map is linear), so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sum_mean_callback`
  is the same call without the rule (`grad` through it raises).
- **Types.** The handler takes float32 and float64, accumulated in double (and refuses
  any other dtype with an error); float16 and bfloat16 (and other narrow floats) are converted to float32
  here, before the handler, and the result is cast back. An empty last axis gives
  a sum of 0 and a mean of NaN (0/0 in the handler).
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

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "sum_mean", "sum_mean_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"sum_mean: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"sum_mean: {name} must be an array of numbers, got {got}") from None


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
    return x.astype(jnp.promote_types(x.dtype, jnp.float32)), x.dtype  # float16: float32


# --8<-- [start:register]
TARGET = "jaxcb_sum_mean"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbSumMean"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
_LIBRARY = Path(__file__).with_name("libsum_mean.so")  # CMakeLists.txt builds it here
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
                f"sum_mean: {_LIBRARY.name} is not built: in {_LIBRARY.parent}, beside "
                f"sum_mean.cc and CMakeLists.txt, run {_BUILD}"
            )
        lib = ctypes.CDLL(str(_LIBRARY))
        lib.JaxlibVersion.restype = ctypes.c_char_p  # the jaxlib whose headers it was built with
        built, running = lib.JaxlibVersion().decode(), importlib.metadata.version("jaxlib")
        if _release(built) > _release(running):  # XLA would refuse it: every computation fails
            raise RuntimeError(
                f"sum_mean: {_LIBRARY.name} was built against the XLA FFI headers of jaxlib "
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
def sum_mean_callback(
    x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis in the C++ handler, without a derivative rule."""
    x, dtype = _checked(x, vmap_method)
    _register()  # once per process, on first use
    out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    total, mean = jax.ffi.ffi_call(TARGET, (out, out), vmap_method=vmap_method)(x)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _differentiable(x: jax.Array, vmap_method: str | None) -> tuple[jax.Array, jax.Array]:
    """The handler's values, differentiable: both are linear in `x`."""
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
    """Return `(sum, mean)` of `x` over its last axis, computed by a C++ XLA FFI handler.

    Args:
        x: floating array with at least one axis.
        vmap_method: how `jax.vmap` calls the handler (default `"broadcast_all"`: one
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
