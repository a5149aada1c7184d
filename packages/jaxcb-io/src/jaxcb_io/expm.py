"""Matrix exponential, ``scipy.linalg.expm``, through `jax.experimental.io_callback`.

Contract:

- **Not elementwise.** Each `(n, n)` matrix is one unit of work; a stack of
  shape `(..., n, n)` goes to the host in one call (`scipy.linalg.expm` accepts
  stacks).
- **Guaranteed to run.** One host call per execution, even when the result is
  unused under `jax.jit`.
- **Ordering.** `ordered=False` by default; `ordered=True` cannot be batched:
  `vmap` raises `ValueError`.
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. `jaxcb_pure.expm` has a `custom_vjp` for reverse mode.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["expm", "on_host"]


# --8<-- [start:host]
def on_host(a: np.ndarray) -> np.ndarray:
    """Runs on the host with a concrete stack of matrices; returns the dtype of `a`."""
    a = np.asarray(a)  # callbacks receive jax.Array: view, no copy
    return np.asarray(scipy.linalg.expm(a), dtype=a.dtype)


# --8<-- [end:host]


def _check(a: ArrayLike) -> jax.Array:
    a = jnp.asarray(a)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"expm: a must have a floating dtype, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    return a


# --8<-- [start:pattern]
def expm(a: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return the matrix exponential of `a` from SciPy on the host, every time it runs.

    Args:
        a: floating array of shape `(..., n, n)`.
        ordered: serialise this host call with other ordered effects.

    Raises:
        TypeError: `a` is not floating.
        ValueError: `a` is not a (stack of) square matrices.
    """
    a = _check(a)
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return io_callback(on_host, out_type, a, ordered=ordered)


# --8<-- [end:pattern]
