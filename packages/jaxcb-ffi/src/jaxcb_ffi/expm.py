"""The matrix exponential through `jax.ffi.ffi_call` (`expm.cc`), with a reverse-mode rule.

Contract:

- **Pure.** Both handlers (`expm` and its derivative `expm_vjp`) depend on their arguments
  only, and `ffi_call` is declared without side effects, so JAX may run them once, many
  times, or never: under `jax.jit` a call whose result is unused is removed. Each run is one
  call of a C++ handler, counted by it.
- **Not elementwise.** Each output entry depends on the whole matrix, so the handler gets
  whole matrices: `a` has shape `(..., n, n)` and stacks are allowed. It computes in double
  precision, by scaling and squaring with the [6/6] Padé approximant.
- **Batching.** `vmap_method="broadcast_all"`: the handler loops over the stack, so a batch
  is only more leading axes and one handler call takes it. In the derivative the saved
  matrix is unbatched while the cotangents are (`jacrev` is a `vmap` over cotangents):
  `broadcast_all` tiles it, so `jacrev` is one backward handler call too, and under
  `jax.jit` the only one, since `jacrev` never uses the primal output and the forward call
  is removed.
- **Derivatives.** The `jax.custom_vjp` rule of `jaxcb_native.rules` whose backward pass
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

import functools

import jax
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks
from ._library import register

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

# --8<-- [start:register]
TARGET = "jaxcb_expm"  # the FFI target names that ffi_call uses
TARGET_VJP = "jaxcb_expm_vjp"
HANDLERS = {TARGET: "JaxcbExpm", TARGET_VJP: "JaxcbExpmVjp"}  # target -> C++ symbol
# --8<-- [end:register]


# --8<-- [start:callback]
def expm_callback(a: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """The matrix exponential in the C++ handler, without a derivative rule."""
    a, dtype = _checks.expm_for_host(a, vmap_method, VMAP_METHODS)
    register(TARGET, HANDLERS[TARGET])  # once per process, on first use
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(a).astype(dtype)


def expm_vjp_callback(
    a: jax.Array, g: jax.Array, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The backward pass of `expm`: the cotangent of `a` for the cotangent `g`."""
    register(TARGET_VJP, HANDLERS[TARGET_VJP])
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.ffi.ffi_call(TARGET_VJP, out_type, vmap_method=vmap_method)(a, g)


# --8<-- [end:callback]


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
    a, dtype = _checks.expm_for_host(a, vmap_method, VMAP_METHODS)
    compute = functools.partial(expm_callback, vmap_method=vmap_method)
    vjp = functools.partial(expm_vjp_callback, vmap_method=vmap_method)
    return rules.expm(compute, vjp, a).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
