"""``sin(x) * y + 1`` through `compute_on("device_host")`: jax.numpy code run on the host.

Contract:

- **No Python on the host.** The `jax.numpy` code of `jaxcb_native.sin_scale` is traced as
  it is; `compute_on` marks each of its operations to run on the host's processor,
  inside the same compiled program. Nothing calls back into Python, so there is no host
  function that JAX could drop, repeat or reorder.
- **Transforms.** The support matrix on the site has the measured answer for every
  transform.
- **Types and errors.** The arguments are checked first, with the messages of
  `jaxcb_native.sin_scale`, so a bad argument raises before `compute_on` traces the `jax.numpy` code.
"""

from __future__ import annotations

import jax
from jax.typing import ArrayLike

from jaxcb_native import _checks
from jaxcb_native.sin_scale import sin_scale as on_device

from ._host import on_host

__all__ = ["sin_scale"]


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by XLA on the host's processor.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, or `y` is not real (bool, complex).
        ValueError: `y` is not a scalar.
    """
    x, y = _checks.sin_scale(x, y)  # the errors the reader knows, before compute_on traces
    return on_host(on_device)(x, y)


# --8<-- [end:pattern]
