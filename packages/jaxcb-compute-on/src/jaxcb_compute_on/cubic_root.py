"""The real root of `x**3 + a*x - b` through `compute_on("device_host")`: jax.numpy code run on the host.

Contract:

- **No Python on the host.** The `jax.numpy` code of `jaxcb_native.cubic_root` is traced as
  it is; `compute_on` marks each of its operations to run on the host's processor,
  inside the same compiled program. Nothing calls back into Python, so there is no host
  function that JAX could drop, repeat or reorder.
- **Transforms.** The support matrix on the site has the measured answer for every
  transform.
- **Types and errors.** The arguments are checked first, with the messages of
  `jaxcb_native.cubic_root`, so a bad argument raises before `compute_on` traces the `jax.numpy` code.
"""

from __future__ import annotations

import jax
from jax.typing import ArrayLike

from jaxcb_native import _checks
from jaxcb_native.cubic_root import cubic_root as on_device

from ._host import on_host

__all__ = ["cubic_root"]


# --8<-- [start:pattern]
def cubic_root(a: ArrayLike, b: ArrayLike) -> jax.Array:
    """Return the real root of `x**3 + a*x - b`, elementwise, computed by XLA on the host's processor.

    Args:
        a: floating array; `a > 0` (then the root is unique).
        b: floating array, broadcastable with `a`.

    Returns:
        The root, of the broadcast shape of `a` and `b` and their common dtype.

    Raises:
        TypeError: `a` or `b` is not a floating array.
        ValueError: the shapes of `a` and `b` do not broadcast.
    """
    a, b, _ = _checks.cubic_root(a, b)  # the errors the reader knows, before compute_on traces
    return on_host(on_device)(a, b)


# --8<-- [end:pattern]
