"""The Bessel function `J_v(z)` of integer order through `jax.ffi.ffi_call` (`bessel_jv.cc`).

Contract:

- **Pure.** The handler (`std::cyl_bessel_j`, C++17) depends on its arguments only, and
  `ffi_call` is declared without side effects, so JAX may run it once, many times, or
  never: under `jax.jit` a call whose result is unused is removed. Each run is one call of
  the C++ handler.
  <!-- jaxcb:expect ffi_call/default bessel_jv jit_unused host_calls=0 -->
- **Orders.** Any integer order, negative ones by `J_{-n} = (-1)^n J_n`, and negative `z`
  by `J_n(-z) = (-1)^n J_n(z)`. The order reaches the handler as int32, converted first
  (an unsigned `0 - 1` in the rule would wrap to `2**32 - 1`; orders beyond
  `+-(2**31 - 2)` are clamped to it). `z` floating, or integer promoted to the default
  float dtype; float16 and bfloat16 (and other narrow floats) are converted to float32
  here, before the handler, and the result is cast back.
- **Batching.** `vmap_method="broadcast_all"`: `v` and `z` are broadcast to the output
  shape here, and under `vmap` every operand arrives with the whole batch, so the handler
  is an elementwise loop over equal-sized buffers and one handler call takes the whole
  batch. The price is that the unbatched operand (usually `v`) is tiled first.
  <!-- jaxcb:expect ffi_call/default bessel_jv vmap host_calls=1 -->
- **Derivatives.** A `jax.custom_jvp` rule (below):
  `dJ_v/dz = (J_{v-1}(z) - J_{v+1}(z)) / 2` that calls this same differentiable function for
  the neighbouring orders, so the rule itself has a rule: `grad`, `jacfwd`, `jacrev` and
  `hessian` in `z` all work. Called without `jax.jit`, a first derivative (`grad`, `jvp`,
  `vjp`, `jacfwd`, `jacrev`) is 3 handler calls and `hessian` 9 (the support matrix, JAX
  0.10.2 and 0.12.0.1). Under `jax.jit` a gradient is two handler calls (`J_{v-1}`,
  `J_{v+1}`: the unused value is removed) and a Hessian three (`J_{v-2}`, `J_v`, `J_{v+2}`:
  XLA merges the two identical `J_v` calls). `bessel_jv_callback` is the same call without
  the rule (`grad` through it raises). The order `v` is an integer: it has no derivative.
  <!-- jaxcb:expect ffi_call/default bessel_jv grad|jvp|vjp|jacfwd|jacrev status=ok host_calls=3 -->
  <!-- jaxcb:expect ffi_call/default bessel_jv hessian status=ok host_calls=9 -->
  <!-- jaxcb:expect-observation edge bessel-jv-derivatives-jit "ffi_call/default jit grad=2" "ffi_call/default jit hessian=3" jax=0.10.2|0.12.0.1 -->
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

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "bessel_jv", "bessel_jv_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)
ORDER_LIMIT = 2**31 - 2  # int32 orders, with room for v - 1 and v + 1


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"bessel_jv: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"bessel_jv: {name} must be an array of numbers, got {got}") from None


def _checked(v: ArrayLike, z: ArrayLike, vmap_method: object) -> tuple[jax.Array, jax.Array, Any]:
    """int32 orders clamped to `+-ORDER_LIMIT`, `z` in a floating dtype of 32 bits or more,
    and the result's dtype."""
    v = _array("v", v)
    if not jnp.issubdtype(v.dtype, jnp.integer):
        raise TypeError(f"bessel_jv: v must have an integer dtype, got {v.dtype}")
    if v.dtype.itemsize >= 4:  # clamp before the cast: an unsigned or int64 order never wraps
        low = 0 if jnp.issubdtype(v.dtype, jnp.unsignedinteger) else -ORDER_LIMIT
        v = jnp.clip(v, low, ORDER_LIMIT)
    v, z = v.astype(jnp.int32), _array("z", z)
    if jnp.issubdtype(z.dtype, jnp.integer):
        z = z.astype(jnp.result_type(float))  # the default float: float64 under x64
    elif not jnp.issubdtype(z.dtype, jnp.floating):
        raise TypeError(f"bessel_jv: z must have an integer or floating dtype, got {z.dtype}")
    try:
        jnp.broadcast_shapes(v.shape, z.shape)
    except ValueError:
        raise ValueError(
            f"bessel_jv: v and z must be broadcastable, got shapes {v.shape} and {z.shape}"
        ) from None
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"bessel_jv: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    return v, z.astype(jnp.promote_types(z.dtype, jnp.float32)), z.dtype  # float16: float32


# --8<-- [start:register]
TARGET = "jaxcb_bessel_jv"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbBesselJv"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
_LIBRARY = Path(__file__).with_name("libbessel_jv.so")  # CMakeLists.txt builds it here
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
                f"bessel_jv: {_LIBRARY.name} is not built: in {_LIBRARY.parent}, beside "
                f"bessel_jv.cc and CMakeLists.txt, run {_BUILD}"
            )
        lib = ctypes.CDLL(str(_LIBRARY))
        lib.JaxlibVersion.restype = ctypes.c_char_p  # the jaxlib whose headers it was built with
        built, running = lib.JaxlibVersion().decode(), importlib.metadata.version("jaxlib")
        if _release(built) > _release(running):  # XLA would refuse it: every computation fails
            raise RuntimeError(
                f"bessel_jv: {_LIBRARY.name} was built against the XLA FFI headers of jaxlib "
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
def bessel_jv_callback(
    v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`J_v(z)` in the C++ handler, without a derivative rule."""
    v, z, dtype = _checked(v, z, vmap_method)
    _register()  # once per process, on first use
    shape = jnp.broadcast_shapes(v.shape, z.shape)
    v = jnp.broadcast_to(v, shape)  # int32 (_checked): the handler binds an int32 buffer
    z = jnp.broadcast_to(z, shape)  # equal sizes: the handler loops elementwise
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(v, z).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(v: jax.Array, z: jax.Array, vmap_method: str | None) -> jax.Array:
    """The handler's value, differentiable in `z`: `dJ_v/dz = (J_{v-1} - J_{v+1}) / 2`.

    `v` must be int32 clamped away from the int32 limits, so that `v - 1` and `v + 1`
    are the neighbouring orders and never wrap.
    """
    return bessel_jv_callback(v, z, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array, ...], tangents: tuple[jax.Array, ...]
) -> tuple[jax.Array, jax.Array]:
    (v, z), (_, dz) = primals, tangents  # v is an integer: its tangent is float0
    out = _differentiable(v, z, vmap_method)
    # The rule calls the differentiable function again, so it can be differentiated too.
    slope = (_differentiable(v - 1, z, vmap_method) - _differentiable(v + 1, z, vmap_method)) / 2
    return out, slope * dz


# --8<-- [end:rule]


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the Bessel function of the first kind `J_v(z)`, computed by a C++ handler.

    Args:
        v: integer array of orders.
        z: floating array; an integer one is promoted to the default float dtype.
        vmap_method: how `jax.vmap` calls the handler (default `"broadcast_all"`: one
            call per batch).

    Returns:
        An array of the broadcast shape of `v` and `z`, in the dtype of `z`.

    Raises:
        TypeError: `v` is not an integer array, or `z` is neither floating nor integer.
        ValueError: the shapes of `v` and `z` do not broadcast, or `vmap_method` is not
            one of `VMAP_METHODS`.
    """
    v, z, dtype = _checked(v, z, vmap_method)
    return _differentiable(v, z, vmap_method).astype(dtype)


# --8<-- [end:pattern]
