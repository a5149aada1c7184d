"""The sum and the mean over the last axis through `jax.ffi.ffi_call` (`sum_mean.cc`): two outputs.

Contract:

- **Pure.** The handler depends on its argument only, and `ffi_call` is declared without
  side effects, so JAX may run it once, many times, or never: under `jax.jit` a call whose
  result is unused is removed. Each run is one call of the C++ handler, counted by it.
- **Several results.** One handler call fills both arrays; `result_shape_dtypes` is the
  matching tuple of `jax.ShapeDtypeStruct`s and the handler binds two `Ret` buffers.
- **Batching.** `vmap_method="broadcast_all"`: the handler reduces the last axis of
  whatever rows it gets, so leading batch axes are only more rows and one handler call
  takes the whole batch. With a single argument `"expand_dims"` does the same.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`, written in `jax.numpy`
  (the map is linear), so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sum_mean_callback`
  is the same call without the rule (`grad` through it raises).
- **Types.** The handler takes float32 and float64, accumulated in double (and refuses
  any other dtype with an error); float16 and bfloat16 (and other narrow floats) are converted to float32
  here, before the handler, and the result is cast back. An empty last axis gives
  a sum of 0 and a mean of NaN (0/0 in the handler).
"""

from __future__ import annotations

import functools

import jax
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks
from ._library import register

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "sum_mean", "sum_mean_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)

# --8<-- [start:register]
TARGET = "jaxcb_sum_mean"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbSumMean"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
# --8<-- [end:register]


# --8<-- [start:callback]
def sum_mean_callback(
    x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis in the C++ handler, without a derivative rule."""
    x, dtype = _checks.sum_mean_for_host(x, vmap_method, VMAP_METHODS)
    register(TARGET, HANDLERS[TARGET])  # once per process, on first use
    out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    total, mean = jax.ffi.ffi_call(TARGET, (out, out), vmap_method=vmap_method)(x)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:callback]


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
    x, dtype = _checks.sum_mean_for_host(x, vmap_method, VMAP_METHODS)
    compute = functools.partial(sum_mean_callback, vmap_method=vmap_method)
    total, mean = rules.sum_mean(compute, x)  # the rule: jaxcb_native.rules
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:pattern]
