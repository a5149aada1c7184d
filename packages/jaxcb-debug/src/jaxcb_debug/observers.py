"""Observe the five computations of `jaxcb_native` with `jax.debug.callback`.

Contract:

- **Observer only.** A debug callback returns nothing to the computation: each function
  returns what the `jaxcb_native` function of the same name returns, and hands `report`
  that name and the arrays it saw, as NumPy arrays: the inputs (after the checks: `v` of
  `bessel_jv` as int32, `a` and `b` of `cubic_root` in their common dtype, `y` of
  `sin_scale` in the dtype of `x`) and the outputs (`out`, or `sum` and `mean`).
- **When it runs.** Once per call, also when the result is unused under `jax.jit`;
  once per batch element under `vmap`; once under `grad` and `jvp`, with the forward
  (primal) values only. Not once per execution in every program: under
  `jax.checkpoint` the host sees the forward pass twice, under `vmap` of a `lax.cond`
  both branches run, and inside a loop that `grad` differentiates it may run fewer
  times than the loop has steps.
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order (not
  allowed under `pmap`, nor for arrays sharded over several devices: an eager call with
  one raises `ValueError` here, before JAX would).
- **Derivatives.** Native: `grad` and `jvp` work; the observer does not block AD.
- **Arguments, results and errors** are those of the `jaxcb_native` function of the same
  name, and every function takes the same three options:
    - `report`: `report(name, values)`, called on the host; `None` (the default) logs
      `name values` at INFO level to the `jaxcb_debug` logger. Not callable: `TypeError`.
    - `ordered`: a bool (`TypeError` otherwise); `True` keeps program order with the other
      ordered effects.
    - `partitioned`: a bool; under a sharded `jax.jit`, `True` calls the host once per
      shard with its own block instead of once with the gathered array (passed to JAX only
      when set: JAX 0.4.30 has no such option).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

import jaxcb_native

from . import _checks

__all__ = ["Report", "bessel_jv", "cubic_root", "expm", "on_host", "sin_scale", "sum_mean"]

Report = Callable[[str, dict[str, np.ndarray]], Any]


# --8<-- [start:observe]
def on_host(report: Report | None, name: str, keys: tuple[str, ...], *arrays: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`, by name."""
    values = {k: np.asarray(a) for k, a in zip(keys, arrays, strict=True)}
    if report is None:
        logging.getLogger("jaxcb_debug").info("%s %s", name, values)
    else:
        report(name, values)


def _observe(
    name: str, report: Report | None, ordered: bool, partitioned: bool, **values: jax.Array
) -> None:
    """Send `values` to `on_host` in the middle of the computation; nothing comes back."""
    options = {"partitioned": True} if partitioned else {}  # JAX 0.4.30 has no partitioned=
    callback = functools.partial(on_host, report, name, tuple(values))  # static: the names
    jax.debug.callback(callback, *values.values(), ordered=ordered, **options)


# --8<-- [end:observe]


# --8<-- [start:sin_scale]
def sin_scale(
    x: ArrayLike,
    y: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """`sin(x) * y + 1`, as [`jaxcb_native.sin_scale`][jaxcb_native.sin_scale.sin_scale];
    reports `x`, `y` and `out`."""
    x, y = _checks.sin_scale(x, y)
    y = y.astype(x.dtype)
    ordered, partitioned = _checks.observer(
        "sin_scale", {"x": x, "y": y}, report, ordered, partitioned
    )
    out = jaxcb_native.sin_scale(x, y)
    _observe("sin_scale", report, ordered, partitioned, x=x, y=y, out=out)
    return out


# --8<-- [end:sin_scale]


# --8<-- [start:sum_mean]
def sum_mean(
    x: ArrayLike, *, report: Report | None = None, ordered: bool = False, partitioned: bool = False
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis, as
    [`jaxcb_native.sum_mean`][jaxcb_native.sum_mean.sum_mean]; reports `x`, `sum` and `mean`."""
    x = _checks.sum_mean(x)
    ordered, partitioned = _checks.observer("sum_mean", {"x": x}, report, ordered, partitioned)
    total, mean = jaxcb_native.sum_mean(x)
    _observe("sum_mean", report, ordered, partitioned, x=x, sum=total, mean=mean)
    return total, mean


# --8<-- [end:sum_mean]


# --8<-- [start:bessel_jv]
def bessel_jv(
    v: ArrayLike,
    z: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """`J_v(z)`, integer `v`, as [`jaxcb_native.bessel_jv`][jaxcb_native.bessel_jv.bessel_jv];
    reports `v` (as int32), `z` and `out`."""
    v, z, _ = _checks.bessel_jv(v, z)
    ordered, partitioned = _checks.observer(
        "bessel_jv", {"v": v, "z": z}, report, ordered, partitioned
    )
    out = jaxcb_native.bessel_jv(v, z)
    _observe("bessel_jv", report, ordered, partitioned, v=v, z=z, out=out)
    return out


# --8<-- [end:bessel_jv]


# --8<-- [start:expm]
def expm(
    a: ArrayLike, *, report: Report | None = None, ordered: bool = False, partitioned: bool = False
) -> jax.Array:
    """The matrix exponential, as [`jaxcb_native.expm`][jaxcb_native.expm.expm]; reports `a`
    and `out`."""
    a = _checks.expm(a)
    ordered, partitioned = _checks.observer("expm", {"a": a}, report, ordered, partitioned)
    out = jaxcb_native.expm(a)
    _observe("expm", report, ordered, partitioned, a=a, out=out)
    return out


# --8<-- [end:expm]


# --8<-- [start:cubic_root]
def cubic_root(
    a: ArrayLike,
    b: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """The root of `x**3 + a*x - b`, as
    [`jaxcb_native.cubic_root`][jaxcb_native.cubic_root.cubic_root]; reports `a`, `b` and
    `out`."""
    a, b, _ = _checks.cubic_root(a, b)
    dtype = jnp.result_type(a, b)
    a, b = a.astype(dtype), b.astype(dtype)
    ordered, partitioned = _checks.observer(
        "cubic_root", {"a": a, "b": b}, report, ordered, partitioned
    )
    out = jaxcb_native.cubic_root(a, b)
    _observe("cubic_root", report, ordered, partitioned, a=a, b=b, out=out)
    return out


# --8<-- [end:cubic_root]
