"""The matrix exponential through `compute_on("device_host")`: jax.numpy code run on the host.

Contract:

- **No Python on the host.** The `jax.numpy` code of `jaxcb_native.expm` is traced as
  it is; `compute_on` marks each of its operations to run on the host's processor,
  inside the same compiled program. Nothing calls back into Python, so there is no host
  function that JAX could drop, repeat or reorder.
- **Transforms.** The support matrix on the site has the measured answer for every
  transform.
- **Types and errors.** The arguments are checked first, with the messages of
  `jaxcb_native.expm`, so a bad argument raises before `compute_on` traces the `jax.numpy` code.
"""

from __future__ import annotations

import jax
from jax.typing import ArrayLike

from jaxcb_native import _checks
from jaxcb_native.expm import expm as on_device

from ._host import on_host

__all__ = ["expm"]


# --8<-- [start:pattern]
def expm(a: ArrayLike) -> jax.Array:
    """Return the matrix exponential of `a`, computed by XLA on the host's processor.

    Args:
        a: floating array of shape `(..., n, n)`.

    Returns:
        An array of the shape and dtype of `a`; NaN for a matrix with a non-finite entry.

    Raises:
        TypeError: `a` is not a floating array.
        ValueError: `a` has fewer than two axes or its last two differ.
    """
    a = _checks.expm(a)  # the errors the reader knows, before compute_on traces
    return on_host(on_device)(a)


# --8<-- [end:pattern]
