"""Derivative rules for the five computations, for a value computed where JAX cannot look.

A callback or an FFI call is opaque to JAX: it cannot differentiate the code on the
other side, so `grad` through a bare one raises. The derivative of a computation does not
depend on the road its value takes, though: each rule here is written once, in
`jax.numpy`, around the value itself, and every pattern that reaches the host uses it by
passing the function that computes the value:

    compute = functools.partial(sin_scale_callback, vmap_method=vmap_method)
    return rules.sin_scale(compute, x, y)

Contract:

- **The value is `compute(*args)`**, unchanged. `compute` is any function of the arrays
  alone (bind its options first, as above); it is a static argument, never traced.
- **Rules that can be differentiated again.** `sin_scale`, `sum_mean`, `bessel_jv` and
  `cubic_root` are `jax.custom_jvp` functions whose tangent is `jax.numpy` around the
  value, so JAX derives reverse mode from them and can differentiate the rule itself.
  The `bessel_jv` rule calls itself at the orders `v - 1` and `v + 1`: each derivative
  costs two more calls of `compute`.
- **`expm` is reverse mode only.** Its rule is a `jax.custom_vjp` whose backward pass is a
  second function, `vjp(a, g)`, that computes the Fréchet derivative where the value was
  computed; forward mode through a `custom_vjp` raises.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import jax
import jax.numpy as jnp

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]

Pair = tuple[jax.Array, jax.Array]
Binary = Callable[[jax.Array, jax.Array], jax.Array]  # compute(x, y), the value of two arrays
Unary = Callable[[jax.Array], jax.Array]


# --8<-- [start:sin_scale]
@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def sin_scale(compute: Binary, x: jax.Array, y: jax.Array) -> jax.Array:
    """`compute(x, y)`, differentiable: `d(sin(x) y + 1) = cos(x) y dx + sin(x) dy`."""
    return compute(x, y)


@sin_scale.defjvp
def _sin_scale_jvp(compute: Binary, primals: Pair, tangents: Pair) -> Pair:
    x, y = primals
    dx, dy = tangents
    return sin_scale(compute, x, y), jnp.cos(x) * y * dx + jnp.sin(x) * dy


# --8<-- [end:sin_scale]


# --8<-- [start:sum_mean]
@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def sum_mean(compute: Callable[[jax.Array], Pair], x: jax.Array) -> Pair:
    """`compute(x)`, differentiable: both results are linear in `x`."""
    return compute(x)


@sum_mean.defjvp
def _sum_mean_jvp(
    compute: Callable[[jax.Array], Pair], primals: tuple[jax.Array], tangents: tuple[jax.Array]
) -> tuple[Pair, Pair]:
    (x,), (dx,) = primals, tangents
    return sum_mean(compute, x), (jnp.sum(dx, axis=-1), jnp.mean(dx, axis=-1))


# --8<-- [end:sum_mean]


# --8<-- [start:bessel_jv]
@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def bessel_jv(compute: Binary, v: jax.Array, z: jax.Array) -> jax.Array:
    """`compute(v, z)`, differentiable in `z`: `dJ_v/dz = (J_{v-1} - J_{v+1}) / 2`.

    `v` must be int32 clamped away from the int32 limits, so that `v - 1` and `v + 1`
    are the neighbouring orders and never wrap.
    """
    return compute(v, z)


@bessel_jv.defjvp
def _bessel_jv_jvp(compute: Binary, primals: Pair, tangents: Pair) -> Pair:
    v, z = primals
    _, dz = tangents  # v is an integer: its tangent is float0
    out = bessel_jv(compute, v, z)
    # The rule calls the differentiable function again, so it can be differentiated too.
    slope = (bessel_jv(compute, v - 1, z) - bessel_jv(compute, v + 1, z)) / 2
    return out, slope * dz


# --8<-- [end:bessel_jv]


# --8<-- [start:cubic_root]
@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def cubic_root(compute: Binary, a: jax.Array, b: jax.Array) -> jax.Array:
    """`compute(a, b)`, the root `x` of `x**3 + a*x - b`, differentiable: from the
    implicit function theorem, `dx = (db - x da) / (3x^2 + a)`."""
    return compute(a, b)


@cubic_root.defjvp
def _cubic_root_jvp(compute: Binary, primals: Pair, tangents: Pair) -> Pair:
    a, b = primals
    da, db = tangents
    x = cubic_root(compute, a, b)
    # Implicit function theorem on x**3 + a*x - b = 0: (3x^2 + a) dx + x da - db = 0.
    return x, (db - x * da) / (3 * x * x + a)


# --8<-- [end:cubic_root]


# --8<-- [start:expm]
@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1))
def expm(
    compute: Unary,
    vjp: Binary,
    a: jax.Array,
) -> jax.Array:
    """`compute(a)`, with reverse mode from `vjp(a, g)`: the Fréchet derivative of the
    matrix exponential at `a^T` in the direction `g`."""
    return compute(a)


def _expm_fwd(
    compute: Unary,
    vjp: Binary,
    a: jax.Array,
) -> Pair:
    return compute(a), a  # save a for the backward pass


def _expm_bwd(
    compute: Unary,
    vjp: Binary,
    a: jax.Array,
    g: jax.Array,
) -> tuple[jax.Array]:
    return (vjp(a, g),)


expm.defvjp(_expm_fwd, _expm_bwd)
# --8<-- [end:expm]
