"""``sin(x) * y + 1`` through `jax.experimental.io_callback`.

Contract:

- **Guaranteed to run.** An io_callback is never removed or merged: one host call
  per execution (per element under `vmap`), even when the result is unused.
- **Ordering.** `ordered=False` by default (nothing here depends on order);
  `ordered=True` serialises host calls against other ordered effects and cannot
  be batched: `vmap` raises.
- **Batching.** `vmap` becomes a sequential loop, one host call per element.
- **Derivatives.** none: io_callback has no JVP rule and is not allowed inside
  `custom_jvp`, so `grad` raises. Use `jaxcb_pure.sin_scale` to differentiate.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["on_host", "sin_scale"]


def on_host(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype JAX was promised."""
    x, y = np.asarray(x), np.asarray(y)  # callbacks receive jax.Array: view, no copy
    out = np.sin(x) * y
    out += 1
    return out


def _check(x: ArrayLike, y: ArrayLike) -> tuple[jax.Array, jax.Array]:
    x, y = jnp.asarray(x), jnp.asarray(y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    return x, y.astype(x.dtype)


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by NumPy on the host, every time it runs.

    Args:
        x: floating array of any shape.
        y: scalar, cast to the dtype of `x`.
        ordered: serialise this host call with other ordered effects.

    Raises:
        TypeError: `x` is not floating.
        ValueError: `y` is not a scalar.
    """
    x, y = _check(x, y)
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return io_callback(on_host, out_type, x, y, ordered=ordered)


# --8<-- [end:pattern]
