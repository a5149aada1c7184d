"""The Bessel function of the first kind `J_v(z)` for integer orders through `compute_on("device_host")`: jax.numpy code run on the host.

Contract:

- **No Python on the host.** The `jax.numpy` code of `jaxcb_native.bessel_jv` is traced as
  it is; `compute_on` marks each of its operations to run on the host's processor,
  inside the same compiled program. Nothing calls back into Python, so there is no host
  function that JAX could drop, repeat or reorder.
- **Transforms.** The support matrix on the site has the measured answer for every
  transform.
- **Types and errors.** The arguments are checked first, with the messages of
  `jaxcb_native.bessel_jv`, so a bad argument raises before `compute_on` traces the `jax.numpy` code.
"""

from __future__ import annotations

import jax
from jax.typing import ArrayLike

from jaxcb_native import _checks
from jaxcb_native.bessel_jv import bessel_jv as on_device

from ._host import on_host

__all__ = ["bessel_jv"]


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike) -> jax.Array:
    """Return `J_v(z)` for integer orders `v`, computed by XLA on the host's processor.

    Args:
        v: integer array of orders (any sign).
        z: floating array; an integer one is promoted to the default float dtype.

    Returns:
        An array of the broadcast shape of `v` and `z`, in the dtype of `z`.

    Raises:
        TypeError: `v` is not an integer array, or `z` is neither floating nor integer.
        ValueError: the shapes of `v` and `z` do not broadcast.
    """
    v, z, _ = _checks.bessel_jv(v, z)  # the errors the reader knows, before compute_on traces
    return on_host(on_device)(v, z)


# --8<-- [end:pattern]
