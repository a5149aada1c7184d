"""``sin(x) * y + 1`` through `jax.ffi.ffi_call` into a C++ handler (`sin_scale.cc`).

Contract:

- **Pure.** The handler depends on its arguments only, and `ffi_call` is declared without
  side effects, so JAX may run it once, many times, or never: under `jax.jit` a call whose
  result is unused is removed. Each run is one call of the C++ handler, counted by it.
- **Batching.** `vmap_method="broadcast_all"`: every operand reaches the handler with the
  whole batch, so the handler stays a flat loop (`y` is reshaped to the rank of `x` first,
  so it holds one value per contiguous block of `x`), and one handler call takes the
  whole batch. The price is that an unbatched operand is tiled first (the scalar `y`, or
  `x` when only `y` is batched). With `"expand_dims"` and an unbatched `x` the handler
  gets fewer elements than the result and returns an error naming `broadcast_all`.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`, written in `jax.numpy`
  so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sin_scale_callback` is the same call
  without the rule (`grad` through it raises: an `ffi_call` has no derivative of its own).
- **Types.** The handler dispatches on float32 and float64 (and refuses any other dtype
  with an error); float16 and bfloat16 (and other narrow floats) are converted to float32
  here, before the handler, and the result is cast back. `y` is a real scalar (not bool or complex).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks
from ._library import register

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "sin_scale", "sin_scale_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)

# --8<-- [start:register]
TARGET = "jaxcb_sin_scale"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbSinScale"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
# --8<-- [end:register]


# --8<-- [start:callback]
def sin_scale_callback(
    x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`sin(x) * y + 1` in the C++ handler, without a derivative rule."""
    x, y, dtype = _checks.sin_scale_for_host(x, y, vmap_method, VMAP_METHODS)
    register(TARGET, HANDLERS[TARGET])  # once per process, on first use
    y = jnp.reshape(y, (1,) * x.ndim)  # same rank as x: one y per block of x under vmap
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(x, y).astype(dtype)


# --8<-- [end:callback]


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
    x, y, dtype = _checks.sin_scale_for_host(x, y, vmap_method, VMAP_METHODS)
    compute = functools.partial(sin_scale_callback, vmap_method=vmap_method)
    return rules.sin_scale(compute, x, y).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
