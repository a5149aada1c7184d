"""The sum and the mean over the last axis through `jax.ffi.ffi_call`, into a Python
function registered as an XLA FFI handler with `ctypes` (`_handler.py`).

Contract:

- **A handler, not a callback.** `on_host(x, total, mean)` is registered once, at import,
  as the CPU FFI target `jaxcb_py_sum_mean`; `jax.ffi.ffi_call` calls it from compiled
  code exactly as it calls a C++ handler. JAX's callback machinery is not involved.
- **In place, two outputs.** `on_host` gets NumPy views of XLA's own buffers: the
  read-only input `x`, then one writable view per result, `total` and `mean`, the memory
  of the two arrays the call returns (`result_shape_dtypes` is the matching pair of
  `jax.ShapeDtypeStruct`s). NumPy's sum and division write into them through their
  `out=` argument, so nothing is allocated or copied back.
- **has_side_effect=False** (the default of `ffi_call`): JAX treats the call as pure.
  Under `jax.jit` a call whose result is unused is removed; otherwise the handler runs
  once each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: `on_host` reduces over the last axis only,
  so leading batch axes pass straight through and one handler call fills both batched
  outputs. With a single argument, `"broadcast_all"` would do the same.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`, written in `jax.numpy`
  (the map is linear), so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sum_mean_callback`
  is the same call without the rule (`grad` through it raises).
- **What runs where.** The checks run in Python when the function is traced; the
  derivative rule is compiled by XLA with the rest of the program; `on_host` runs in the
  Python interpreter, called by XLA through `ctypes` in the middle of the program (CPU
  only: the views read host memory).
- **Types.** Any floating dtype: float16 and bfloat16 reach the handler as float32, so
  they are accumulated in float32 (as NumPy does for float16), and both results are cast
  back. An empty last axis gives a sum of 0 and a mean of NaN.
"""

from __future__ import annotations

import functools

import jax
import numpy as np
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks, _handler

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "on_host", "sum_mean", "sum_mean_callback"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# --8<-- [start:host]
def on_host(x: np.ndarray, total: np.ndarray, mean: np.ndarray) -> None:
    """Runs on the host during the call: writes the sum and the mean into `total`, `mean`."""
    np.sum(x, axis=-1, dtype=x.dtype, out=total)
    with np.errstate(invalid="ignore"):  # an empty last axis: 0 / 0 is NaN, silently
        np.divide(total, x.shape[-1], out=mean)


# looked up at each call, so that the module's on_host is the one that runs
TARGET = _handler.register("jaxcb_py_sum_mean", lambda *buffers: on_host(*buffers))
# --8<-- [end:host]


# --8<-- [start:callback]
def sum_mean_callback(
    x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis in the Python handler, in place, without a rule."""
    x, dtype = _checks.sum_mean_for_host(x, vmap_method, VMAP_METHODS)
    out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    total, mean = jax.ffi.ffi_call(TARGET, (out, out), vmap_method=vmap_method)(x)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> tuple[jax.Array, jax.Array]:
    """Return `(sum, mean)` of `x` over its last axis, computed by NumPy in a Python FFI handler.

    Args:
        x: floating array with at least one axis.
        vmap_method: how `jax.vmap` calls the handler (default `"expand_dims"`: one
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
