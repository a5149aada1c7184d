"""The five pure computations of `jaxcb_native`, their operations run on the host's processor.

Contract:

- **No Python on the host.** Each function checks its arguments with `jaxcb_native`'s
  checks (the same `TypeError`/`ValueError`, naming the argument), then traces the
  `jax.numpy` code of the `jaxcb_native` function of the same name under `on_host`,
  which marks every operation to run on the host's processor inside the same compiled
  program. Nothing calls back into Python, so there is no host function that JAX could
  drop, repeat or reorder.
- **Arguments, results and errors** are those of the `jaxcb_native` function of the same
  name; its page in this reference has them.
- **Transforms.** The support matrix on the site has the measured answer for every
  transform.
"""

from __future__ import annotations

import jax
from jax.typing import ArrayLike

import jaxcb_native
from jaxcb_native import _checks

from ._host import on_host

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]


# --8<-- [start:sin_scale]
def sin_scale(x: ArrayLike, y: ArrayLike) -> jax.Array:
    """`sin(x) * y + 1`, as [`jaxcb_native.sin_scale`][jaxcb_native.sin_scale.sin_scale]."""
    x, y = _checks.sin_scale(x, y)  # the errors the reader knows, before compute_on traces
    return on_host(jaxcb_native.sin_scale)(x, y)


# --8<-- [end:sin_scale]


# --8<-- [start:sum_mean]
def sum_mean(x: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis, as
    [`jaxcb_native.sum_mean`][jaxcb_native.sum_mean.sum_mean]."""
    x = _checks.sum_mean(x)
    return on_host(jaxcb_native.sum_mean)(x)


# --8<-- [end:sum_mean]


# --8<-- [start:bessel_jv]
def bessel_jv(v: ArrayLike, z: ArrayLike) -> jax.Array:
    """`J_v(z)`, integer `v`, as [`jaxcb_native.bessel_jv`][jaxcb_native.bessel_jv.bessel_jv]."""
    v, z, _ = _checks.bessel_jv(v, z)
    return on_host(jaxcb_native.bessel_jv)(v, z)


# --8<-- [end:bessel_jv]


# --8<-- [start:expm]
def expm(a: ArrayLike) -> jax.Array:
    """The matrix exponential, as [`jaxcb_native.expm`][jaxcb_native.expm.expm]."""
    a = _checks.expm(a)
    return on_host(jaxcb_native.expm)(a)


# --8<-- [end:expm]


# --8<-- [start:cubic_root]
def cubic_root(a: ArrayLike, b: ArrayLike) -> jax.Array:
    """The root of `x**3 + a*x - b`, as
    [`jaxcb_native.cubic_root`][jaxcb_native.cubic_root.cubic_root]."""
    a, b, _ = _checks.cubic_root(a, b)
    return on_host(jaxcb_native.cubic_root)(a, b)


# --8<-- [end:cubic_root]
