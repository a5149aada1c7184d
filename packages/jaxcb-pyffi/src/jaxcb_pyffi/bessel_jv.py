"""The Bessel function `J_v(z)` of integer order through `jax.ffi.ffi_call`, into a Python
function registered as an XLA FFI handler with `ctypes` (`_handler.py`).

Contract:

- **A handler, not a callback.** `on_host(v, z, out)` is registered once, at import, as
  the CPU FFI target `jaxcb_py_bessel_jv`; `jax.ffi.ffi_call` calls it from compiled code
  exactly as it calls a C++ handler. JAX's callback machinery is not involved.
- **In place.** `on_host` gets NumPy views of XLA's own buffers: read-only inputs, and
  `out`, the memory of the array the call returns. `scipy.special.jv` is a NumPy ufunc,
  so its `out=` argument writes the result straight into `out` (for a float32 `z`, NumPy
  casts the results of SciPy's float64 loop into it), and nothing is copied back.
- **has_side_effect=False** (the default of `ffi_call`): JAX treats the call as pure.
  Under `jax.jit` a call whose result is unused is removed; otherwise the handler runs
  once each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: one handler call fills the whole batched
  `out`. Both arguments are first reshaped to the rank of the output, so an unbatched one
  arrives with size-1 axes and broadcasts into `out` without being tiled.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`:
  `dJ_v/dz = (J_{v-1}(z) - J_{v+1}(z)) / 2` that calls this same differentiable function for
  the neighbouring orders, so the rule itself has a rule: `grad`, `jacfwd`, `jacrev` and
  `hessian` in `z` all work. `bessel_jv_callback` is the same call without the rule (`grad`
  through it raises). The order `v` is an integer: it has no derivative.
- **What runs where.** The checks and reshapes run in Python when the function is
  traced; the derivative rule is compiled by XLA with the rest of the program; `on_host`
  runs in the Python interpreter, called by XLA through `ctypes` in the middle of the
  program (CPU only: the views read host memory).
- **Types.** `v` any integer dtype (not bool), converted to int32 first, so that `v - 1`
  in the rule is a signed order (an unsigned `0 - 1` would wrap to `2**32 - 1`); orders
  beyond `+-(2**31 - 2)` are clamped to it. `z` any floating dtype, an integer one
  promoted to the default float dtype; float16 and bfloat16 reach the handler as float32
  and the result is cast back.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks, _handler

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "bessel_jv", "bessel_jv_callback", "on_host"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)
ORDER_LIMIT = _checks.ORDER_LIMIT  # int32 orders, with room for v - 1 and v + 1


# --8<-- [start:host]
def on_host(v: np.ndarray, z: np.ndarray, out: np.ndarray) -> None:
    """Runs on the host during the call: writes `J_v(z)` into `out`."""
    scipy.special.jv(v, z, out=out)  # a ufunc: broadcasts, casts into out


# looked up at each call, so that the module's on_host is the one that runs
TARGET = _handler.register("jaxcb_py_bessel_jv", lambda *buffers: on_host(*buffers))
# --8<-- [end:host]


# --8<-- [start:callback]
def bessel_jv_callback(
    v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`J_v(z)` in the Python handler, written in place, without a derivative rule."""
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    shape = jnp.broadcast_shapes(v.shape, z.shape)
    v = jnp.reshape(v, (1,) * (len(shape) - v.ndim) + v.shape)  # same rank as the output:
    z = jnp.reshape(z, (1,) * (len(shape) - z.ndim) + z.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(v, z).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the Bessel function of the first kind `J_v(z)`, computed by SciPy in a Python handler.

    Args:
        v: integer array of orders.
        z: floating array; an integer one is promoted to the default float dtype.
        vmap_method: how `jax.vmap` calls the handler (default `"expand_dims"`: one
            call per batch).

    Returns:
        An array of the broadcast shape of `v` and `z`, in the dtype of `z`.

    Raises:
        TypeError: `v` is not an integer array, or `z` is neither floating nor integer.
        ValueError: the shapes of `v` and `z` do not broadcast, or `vmap_method` is not
            one of `VMAP_METHODS`.
    """
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    compute = functools.partial(bessel_jv_callback, vmap_method=vmap_method)
    return rules.bessel_jv(compute, v, z).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
