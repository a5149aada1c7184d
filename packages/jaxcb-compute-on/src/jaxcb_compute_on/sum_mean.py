"""The sum and the mean over the last axis through `compute_on("device_host")`: jax.numpy code run on the host.

Contract:

- **No Python on the host.** The `jax.numpy` code of `jaxcb_native.sum_mean` is traced as
  it is; `compute_on` marks each of its operations to run on the host's processor,
  inside the same compiled program. Nothing calls back into Python, so there is no host
  function that JAX could drop, repeat or reorder.
- **Transforms.** The support matrix on the site has the measured answer for every
  transform.
- **Types and errors.** The arguments are checked first, with the messages of
  `jaxcb_native.sum_mean`, so a bad argument raises before `compute_on` traces the `jax.numpy` code.
"""

from __future__ import annotations

import jax
from jax.typing import ArrayLike

from jaxcb_native import _checks
from jaxcb_native.sum_mean import sum_mean as on_device

from ._host import on_host

__all__ = ["sum_mean"]


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """Return `(sum, mean)` over the last axis of `x`, computed by XLA on the host's processor.

    Args:
        x: floating array with at least one axis.

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array.
        ValueError: `x` is a scalar.
    """
    x = _checks.sum_mean(x)  # the errors the reader knows, before compute_on traces
    return on_host(on_device)(x)


# --8<-- [end:pattern]
