"""``sin(x) * y + 1`` through `jax.ffi.ffi_call`, into a Python function registered as an
XLA FFI handler with `ctypes` (`_handler.py`).

Contract:

- **A handler, not a callback.** `on_host(x, y, out)` is registered once, at import, as
  the CPU FFI target `jaxcb_py_sin_scale`; `jax.ffi.ffi_call` calls it from compiled code
  exactly as it calls a C++ handler. JAX's callback machinery is not involved.
- **In place.** `on_host` gets NumPy views of XLA's own buffers: read-only inputs, and
  `out`, the memory of the array the call returns, which it fills with NumPy's `out=`
  argument and in-place operators. Nothing is allocated or copied back.
- **has_side_effect=False** (the default of `ffi_call`): JAX treats the call as pure.
  Under `jax.jit` a call whose result is unused is removed; otherwise the handler runs
  once each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: `on_host` is NumPy ufunc code, so one
  handler call fills the whole batched `out`. The scalar `y` is reshaped to the rank of
  `x` first, so an unbatched argument arrives with size-1 axes and broadcasts into `out`.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`, written in `jax.numpy`
  so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sin_scale_callback` is the same call
  without the rule (`grad` through it raises).
- **What runs where.** The checks and the reshape run in Python when the function is
  traced; the derivative rule is compiled by XLA with the rest of the program;
  `on_host` runs in the Python interpreter, called by XLA through `ctypes` in the
  middle of the program (CPU only: the views read host memory).
- **Types.** `x` any floating dtype: float16 and bfloat16 reach the handler (and the
  rule) as float32, and the result is cast back. `y` a real scalar (not bool or complex).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks, _handler

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "on_host", "sin_scale", "sin_scale_callback"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# --8<-- [start:host]
def on_host(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    """Runs on the host during the call: writes `sin(x) * y + 1` into `out`."""
    if y.size == 1:  # one value (no batch): NumPy's scalar loop beats a stride-0 broadcast
        y = y.reshape(())
    np.sin(x, out=out)  # broadcasts: under vmap either argument may carry the batch
    out *= y
    out += 1


# looked up at each call, so that the module's on_host is the one that runs
TARGET = _handler.register("jaxcb_py_sin_scale", lambda *buffers: on_host(*buffers))
# --8<-- [end:host]


# --8<-- [start:callback]
def sin_scale_callback(
    x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`sin(x) * y + 1` in the Python handler, written in place, without a derivative rule."""
    x, y, dtype = _checks.sin_scale_for_host(x, y, vmap_method, VMAP_METHODS)
    y = jnp.reshape(y, (1,) * x.ndim)  # same rank as x: batch axes broadcast on the host
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(x, y).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by NumPy in a Python FFI handler.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.
        vmap_method: how `jax.vmap` calls the handler (default `"expand_dims"`: one
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
