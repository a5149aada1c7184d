"""Real root of ``x**3 + a*x - b`` by ``scipy.optimize.brentq``, through `io_callback`.

`brentq` solves one scalar equation at a time, so the host loops over the
elements: the typical shape of wrapping scalar-only library code.

Contract:

- **Unique root for `a > 0`** (the function is strictly increasing). For other
  `a` the host still returns *a* real root; which one is not specified.
- **Guaranteed to run.** One host call per execution, even when the result is
  unused under `jax.jit`.
- **Ordering.** `ordered=False` by default; `ordered=True` cannot be batched:
  `vmap` raises `ValueError`.
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. `jaxcb_pure.cubic_root` adds the implicit-function derivative.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["cubic_root", "on_host"]


# --8<-- [start:host]
def _root(a: float, b: float) -> float:
    """One real root of `x**3 + a*x - b`, in float64."""
    bound = 1.0 + abs(a) + abs(b)  # f(-bound) < 0 < f(bound): the root is bracketed
    return float(scipy.optimize.brentq(lambda x: x**3 + a * x - b, -bound, bound, xtol=1e-15))


def on_host(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays of one shape; returns the dtype of `a`."""
    a, b = np.asarray(a), np.asarray(b)  # callbacks receive jax.Array: view, no copy
    roots = [_root(ai, bi) for ai, bi in zip(a.ravel().tolist(), b.ravel().tolist(), strict=True)]
    return np.asarray(roots, dtype=np.float64).reshape(a.shape).astype(a.dtype)


# --8<-- [end:host]


def _check(a: ArrayLike, b: ArrayLike) -> tuple[jax.Array, jax.Array]:
    a, b = jnp.asarray(a), jnp.asarray(b)
    for name, arg in (("a", a), ("b", b)):
        if not jnp.issubdtype(arg.dtype, jnp.floating):
            raise TypeError(f"cubic_root: {name} must have a floating dtype, got {arg.dtype}")
    try:
        shape = jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"cubic_root: a and b must be broadcastable, got shapes {a.shape} and {b.shape}"
        ) from None
    dtype = jnp.result_type(a, b)
    return jnp.broadcast_to(a, shape).astype(dtype), jnp.broadcast_to(b, shape).astype(dtype)


# --8<-- [start:pattern]
def cubic_root(a: ArrayLike, b: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return the real root of `x**3 + a*x - b` (unique for `a > 0`), solved on the host.

    Args:
        a: floating array, `> 0` for a unique root.
        b: floating array, broadcastable with `a`.
        ordered: serialise this host call with other ordered effects.

    Returns:
        An array of shape `broadcast(a, b)` and dtype `result_type(a, b)`.

    Raises:
        TypeError: `a` or `b` is not floating.
        ValueError: `a` and `b` do not broadcast.
    """
    a, b = _check(a, b)  # broadcast here: the host loops over matching elements
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return io_callback(on_host, out_type, a, b, ordered=ordered)


# --8<-- [end:pattern]
