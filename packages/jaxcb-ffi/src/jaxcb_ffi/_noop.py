"""The fixed cost of `jax.ffi.ffi_call`: one call into a C++ handler that does no work (`noop.cc`).

Contract:

- **Not a computation.** The result has the shape and dtype of `x`; its values are
  unspecified (the handler writes nothing). The benchmarks time it against a jitted
  native no-op to measure what one `ffi_call` costs by itself.
- **Pure, as declared.** `ffi_call` has no side effects here, so under `jax.jit` a call
  whose result is unused is removed.
- **Batching.** `vmap_method="broadcast_all"`: one handler call per batch.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

from ._library import register

__all__ = ["HANDLERS", "TARGET", "VMAP_METHOD", "noop"]

VMAP_METHOD = "broadcast_all"

TARGET = "jaxcb_noop"
HANDLERS = {TARGET: "JaxcbNoop"}


# --8<-- [start:pattern]
def noop(x: ArrayLike) -> jax.Array:
    """One `ffi_call` that does no work: an array of the shape and dtype of `x`."""
    x = jnp.asarray(x)
    register(TARGET, HANDLERS[TARGET])
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=VMAP_METHOD)(x)


# --8<-- [end:pattern]
