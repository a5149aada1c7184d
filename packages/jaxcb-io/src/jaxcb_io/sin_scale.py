"""``sin(x) * y + 1`` through `jax.experimental.io_callback`.

Contract:

- **Not removed when unused.** Under `jax.jit` the host runs once per call even
  when the result is unused, and once per element under `vmap`.
  Not a promise of one call per execution: inside a `lax.scan` or `lax.fori_loop`
  that `grad` differentiates, JAX may run it fewer times than the loop has steps
  (once for 3 steps when its arguments are loop constants).
- **Ordering.** `ordered=False` by default (nothing here depends on order);
  `ordered=True` serialises host calls against other ordered effects and cannot
  be batched: `vmap` raises.
- **Batching.** `vmap` becomes a sequential loop, one host call per element.
- **Derivatives.** none: io_callback has no JVP rule and is not allowed inside
  `custom_jvp`, so `grad` raises. Use `jaxcb_pure.sin_scale` to differentiate.
- **Types.** `x` any floating dtype: float16 and bfloat16 reach the host as float32
  and the result is cast back. `y` a real scalar (not bool or complex).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.typing import ArrayLike

from . import _checks

__all__ = ["on_host", "sin_scale"]


def on_host(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype JAX was promised."""
    x, y = np.asarray(x), np.asarray(y)  # callbacks receive jax.Array: view, no copy
    out = np.sin(x) * y
    out += 1
    return out


def _check(x: ArrayLike, y: ArrayLike, ordered: object) -> tuple[jax.Array, jax.Array, bool]:
    x, y = _checks.sin_scale(x, y)
    return x, y.astype(x.dtype), _checks.flag("sin_scale", "ordered", ordered)


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by NumPy on the host.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.
        ordered: serialise this host call with other ordered effects.

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, `y` is not real, or `ordered` is not a bool.
        ValueError: `y` is not a scalar.
    """
    x, y, ordered = _check(x, y, ordered)
    wide = jnp.promote_types(x.dtype, jnp.float32)  # float16, bfloat16: float32 on the host
    out_type = jax.ShapeDtypeStruct(x.shape, wide)
    out = io_callback(on_host, out_type, x.astype(wide), y.astype(wide), ordered=ordered)
    return out.astype(x.dtype)


# --8<-- [end:pattern]
