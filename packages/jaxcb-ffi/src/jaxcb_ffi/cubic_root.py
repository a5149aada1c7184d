"""The real root of `x**3 + a*x - b` through `jax.ffi.ffi_call` (`cubic_root.cc`): C++ root finding.

Contract:

- **Pure.** The handler depends on its arguments only, and `ffi_call` is declared without
  side effects, so JAX may run it once, many times, or never: under `jax.jit` a call whose
  result is unused is removed. Each run is one call of the C++ handler, counted by it.
- **The root finder.** Newton's method kept inside a bracket (bisection when a step would
  leave it), in double precision for either dtype, stopping on a *relative* step: tiny and
  huge roots are as accurate as roots near 1.
- **Batching.** `vmap_method="broadcast_all"`: `a` and `b` are broadcast to the output
  shape here, and under `vmap` every operand arrives with the whole batch, so the handler
  is an elementwise loop over equal-sized buffers and one handler call takes the whole
  batch (an unbatched operand is tiled first).
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`: from the implicit
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

import functools

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks
from ._library import register

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "VMAP_METHODS", "cubic_root", "cubic_root_callback"]

VMAP_METHOD = "broadcast_all"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)

# --8<-- [start:register]
TARGET = "jaxcb_cubic_root"  # the FFI target name that ffi_call uses
HANDLERS = {TARGET: "JaxcbCubicRoot"}  # target -> C++ symbol (XLA_FFI_DEFINE_HANDLER_SYMBOL)
# --8<-- [end:register]


# --8<-- [start:callback]
def cubic_root_callback(
    a: ArrayLike, b: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The real root of `x**3 + a*x - b` in the C++ handler, without a derivative rule."""
    a, b, dtype = _checks.cubic_root_for_host(a, b, vmap_method, VMAP_METHODS)
    register(TARGET, HANDLERS[TARGET])  # once per process, on first use
    shape = jnp.broadcast_shapes(a.shape, b.shape)
    a, b = jnp.broadcast_to(a, shape), jnp.broadcast_to(b, shape)  # elementwise in C++
    out_type = jax.ShapeDtypeStruct(shape, a.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(a, b).astype(dtype)


# --8<-- [end:callback]


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
    a, b, dtype = _checks.cubic_root_for_host(a, b, vmap_method, VMAP_METHODS)
    compute = functools.partial(cubic_root_callback, vmap_method=vmap_method)
    return rules.cubic_root(compute, a, b).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
