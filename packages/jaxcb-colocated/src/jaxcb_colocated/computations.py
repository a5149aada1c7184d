"""The five pure computations, run as Python on the host next to the devices.

Contract:

- **Outside `jit` only.** Each function checks its arguments with `jaxcb_native`'s checks
  (the same `TypeError`/`ValueError`, naming the argument), then calls a function that
  `colocated_python` runs on the host of the devices its arguments live on: the NumPy
  function of `jaxcb_pure`'s pattern of the same name, its result put back on those
  devices. `colocated_python` takes concrete `jax.Array`s only: under `jit`, `grad`,
  `vmap` and every other transform that traces, each function raises `TypeError` naming
  the traced argument, before anything runs.
- **Arguments, results and errors** are those of the `jaxcb_native` function of the same
  name; float16 and bfloat16 are computed in float32 and returned in their own dtype.
- **A copy of the function.** JAX pickles the function to send it to the host: anything
  it changes that it did not import lives in the copy.
- **Missing road.** On a JAX without `colocated_python` (0.4.30) each function checks its
  arguments, then raises `NotImplementedError` naming the JAX version.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

from jaxcb_pure.bessel_jv import on_host as bessel_jv_on_host
from jaxcb_pure.cubic_root import on_host as cubic_root_on_host
from jaxcb_pure.expm import on_host as expm_on_host
from jaxcb_pure.sin_scale import on_host as sin_scale_on_host
from jaxcb_pure.sum_mean import on_host as sum_mean_on_host

from . import _checks
from ._near import near_devices

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]


def _wide(*args: jax.Array) -> list[jax.Array]:
    """float16 and bfloat16 as float32: the host computes in NumPy's float32 or wider."""
    return [a.astype(jnp.promote_types(a.dtype, jnp.float32)) for a in args]


# --8<-- [start:sin_scale]
@near_devices
def _sin_scale(x: jax.Array, y: jax.Array) -> jax.Array:
    out = sin_scale_on_host(np.asarray(x), np.asarray(y))  # NumPy, on the host
    return jax.device_put(out, x.sharding)  # back on the devices x came from


def sin_scale(x: ArrayLike, y: ArrayLike) -> jax.Array:
    """`sin(x) * y + 1`, as [`jaxcb_native.sin_scale`][jaxcb_native.sin_scale.sin_scale]."""
    x, y = _checks.sin_scale(x, y)
    _checks.concrete("sin_scale", x=x, y=y)
    return _sin_scale(*_wide(x, y)).astype(x.dtype)


# --8<-- [end:sin_scale]


# --8<-- [start:sum_mean]
@near_devices
def _sum_mean(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    total, mean = sum_mean_on_host(np.asarray(x))
    return jax.device_put(total, x.sharding), jax.device_put(mean, x.sharding)


def sum_mean(x: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis, as
    [`jaxcb_native.sum_mean`][jaxcb_native.sum_mean.sum_mean]."""
    x = _checks.sum_mean(x)
    _checks.concrete("sum_mean", x=x)
    total, mean = _sum_mean(*_wide(x))
    return total.astype(x.dtype), mean.astype(x.dtype)


# --8<-- [end:sum_mean]


# --8<-- [start:bessel_jv]
@near_devices
def _bessel_jv(v: jax.Array, z: jax.Array) -> jax.Array:
    return jax.device_put(bessel_jv_on_host(np.asarray(v), np.asarray(z)), z.sharding)


def bessel_jv(v: ArrayLike, z: ArrayLike) -> jax.Array:
    """`J_v(z)`, integer `v`, as [`jaxcb_native.bessel_jv`][jaxcb_native.bessel_jv.bessel_jv]."""
    v, z, shape = _checks.bessel_jv(v, z)
    _checks.concrete("bessel_jv", v=v, z=z)
    v, z = jnp.broadcast_to(v, shape), jnp.broadcast_to(z, shape)  # one sharding for both
    return _bessel_jv(v, *_wide(z)).astype(z.dtype)


# --8<-- [end:bessel_jv]


# --8<-- [start:expm]
@near_devices
def _expm(a: jax.Array) -> jax.Array:
    return jax.device_put(expm_on_host(np.asarray(a)), a.sharding)


def expm(a: ArrayLike) -> jax.Array:
    """The matrix exponential, as [`jaxcb_native.expm`][jaxcb_native.expm.expm]."""
    a = _checks.expm(a)
    _checks.concrete("expm", a=a)
    return _expm(*_wide(a)).astype(a.dtype)


# --8<-- [end:expm]


# --8<-- [start:cubic_root]
@near_devices
def _cubic_root(a: jax.Array, b: jax.Array) -> jax.Array:
    return jax.device_put(cubic_root_on_host(np.asarray(a), np.asarray(b)), a.sharding)


def cubic_root(a: ArrayLike, b: ArrayLike) -> jax.Array:
    """The root of `x**3 + a*x - b`, as
    [`jaxcb_native.cubic_root`][jaxcb_native.cubic_root.cubic_root]."""
    a, b, shape = _checks.cubic_root(a, b)
    _checks.concrete("cubic_root", a=a, b=b)
    dtype = jnp.result_type(a, b)
    a, b = jnp.broadcast_to(a, shape).astype(dtype), jnp.broadcast_to(b, shape).astype(dtype)
    return _cubic_root(*_wide(a, b)).astype(dtype)


# --8<-- [end:cubic_root]
