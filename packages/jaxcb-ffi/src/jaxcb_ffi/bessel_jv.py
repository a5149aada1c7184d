"""The Bessel function `J_v(z)` of integer order through `jax.ffi.ffi_call` (`bessel_jv.cc`).

Contract:

- **Pure.** The handler (`std::cyl_bessel_j`, C++17) depends on its arguments only, and
  `ffi_call` is declared without side effects, so JAX may run it once, many times, or
  never: under `jax.jit` a call whose result is unused is removed. Each run is one call of
  the C++ handler, counted by it.
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
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`:
  `dJ_v/dz = (J_{v-1}(z) - J_{v+1}(z)) / 2` that calls this same differentiable function for
  the neighbouring orders, so the rule itself has a rule: `grad`, `jacfwd`, `jacrev` and
  `hessian` in `z` all work. Under `jax.jit` a gradient is two handler calls (`J_{v-1}`,
  `J_{v+1}`: the unused value is removed) and a Hessian three (`J_{v-2}`, `J_v`, `J_{v+2}`:
  XLA merges the two identical `J_v` calls). `bessel_jv_callback` is the same call without
  the rule (`grad` through it raises). The order `v` is an integer: it has no derivative.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks
from ._library import register

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "bessel_jv", "bessel_jv_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)
ORDER_LIMIT = _checks.ORDER_LIMIT  # int32 orders, with room for v - 1 and v + 1

# --8<-- [start:register]
TARGET = "jaxcb_bessel_jv"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbBesselJv"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
# --8<-- [end:register]


# --8<-- [start:callback]
def bessel_jv_callback(
    v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`J_v(z)` in the C++ handler, without a derivative rule."""
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    register(TARGET, HANDLERS[TARGET])  # once per process, on first use
    shape = jnp.broadcast_shapes(v.shape, z.shape)
    v = jnp.broadcast_to(v, shape)  # int32 (see _orders): the handler binds an int32 buffer
    z = jnp.broadcast_to(z, shape)  # equal sizes: the handler loops elementwise
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(v, z).astype(dtype)


# --8<-- [end:callback]


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
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    compute = functools.partial(bessel_jv_callback, vmap_method=vmap_method)
    return rules.bessel_jv(compute, v, z).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
