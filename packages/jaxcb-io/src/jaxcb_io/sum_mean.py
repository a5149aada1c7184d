"""``(sum, mean)`` over the last axis through `jax.experimental.io_callback`.

Contract:

- **Guaranteed to run.** An io_callback is never removed or merged: one host call
  per execution, even when the result is unused under `jax.jit`.
- **Pytree output.** The host returns a tuple; `io_callback` is told its shape
  with a matching tuple of `jax.ShapeDtypeStruct`.
- **Ordering.** `ordered=False` by default (nothing here depends on order);
  `ordered=True` serialises host calls against other ordered effects and cannot
  be batched: `vmap` raises `ValueError`.
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. Use `jaxcb_pure.sum_mean` to differentiate.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["on_host", "sum_mean"]


# --8<-- [start:host]
def on_host(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Runs on the host with a concrete array; returns the dtype JAX was promised."""
    x = np.asarray(x)  # callbacks receive jax.Array: view, no copy
    total = np.asarray(x.sum(axis=-1), dtype=x.dtype)
    mean = np.asarray(x.mean(axis=-1), dtype=x.dtype)
    return total, mean


# --8<-- [end:host]


def _check(x: ArrayLike) -> jax.Array:
    x = jnp.asarray(x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sum_mean: x must have a floating dtype, got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    return x


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike, *, ordered: bool = False) -> tuple[jax.Array, jax.Array]:
    """Return `(x.sum(-1), x.mean(-1))`, computed by NumPy on the host, every time it runs.

    Args:
        x: floating array with at least one axis.
        ordered: serialise this host call with other ordered effects.

    Raises:
        TypeError: `x` is not floating.
        ValueError: `x` is a scalar.
    """
    x = _check(x)
    reduced = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    return io_callback(on_host, (reduced, reduced), x, ordered=ordered)


# --8<-- [end:pattern]
