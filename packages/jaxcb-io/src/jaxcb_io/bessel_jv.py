"""Bessel functions of the first kind, ``scipy.special.jv``, through `io_callback`.

Contract:

- **Guaranteed to run.** One host call per execution, even when the result is
  unused under `jax.jit`.
- **Ordering.** `ordered=False` by default; `ordered=True` cannot be batched:
  `vmap` raises `ValueError`.
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. `jaxcb_pure.bessel_jv` differentiates through `jv(v - 1)` and
  `jv(v + 1)` callbacks instead.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["bessel_jv", "on_host"]


# --8<-- [start:host]
def on_host(v: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype of `z`."""
    v, z = np.asarray(v), np.asarray(z)  # callbacks receive jax.Array: view, no copy
    return np.asarray(scipy.special.jv(v, z), dtype=z.dtype)  # jv computes in float64


# --8<-- [end:host]


def _check(v: ArrayLike, z: ArrayLike) -> tuple[jax.Array, jax.Array, tuple[int, ...]]:
    v, z = jnp.asarray(v), jnp.asarray(z)
    if not jnp.issubdtype(v.dtype, jnp.integer):
        raise TypeError(f"bessel_jv: v must have an integer dtype, got {v.dtype}")
    if jnp.issubdtype(z.dtype, jnp.integer):
        z = z.astype(jnp.result_type(float))  # the default float: float64 under x64
    elif not jnp.issubdtype(z.dtype, jnp.floating):
        raise TypeError(f"bessel_jv: z must have a real dtype, got {z.dtype}")
    try:
        shape = jnp.broadcast_shapes(v.shape, z.shape)
    except ValueError:
        raise ValueError(
            f"bessel_jv: v and z must be broadcastable, got shapes {v.shape} and {z.shape}"
        ) from None
    return v, z, shape


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return `J_v(z)` from `scipy.special.jv` on the host, every time it runs.

    Args:
        v: integer order(s).
        z: real argument(s); integers are promoted to the default float dtype.
        ordered: serialise this host call with other ordered effects.

    Returns:
        An array of shape `broadcast(v, z)` and the float dtype of `z`.

    Raises:
        TypeError: `v` is not integer, or `z` is not real.
        ValueError: `v` and `z` do not broadcast.
    """
    v, z, shape = _check(v, z)
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    return io_callback(on_host, out_type, v, z, ordered=ordered)


# --8<-- [end:pattern]
