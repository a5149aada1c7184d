"""The real root of `x**3 + a*x - b` through `jax.pure_callback`: scalar-only host code.

Contract:

- **Pure.** `on_host` depends on its arguments only, so JAX may run it once, many
  times, or never ([`jax.pure_callback`'s
  docstring](https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html),
  JAX 0.4.30 to 0.12.0.1: "safe to be called multiple times", or "not to be called
  at all"): under `jax.jit` a call whose result is unused is removed. Two identical
  calls in one jitted program both ran on JAX 0.4.30, 0.10.2 and 0.12.0.1 (the
  `merged` gotcha), which JAX does not promise.
  <!-- jaxcb:expect pure_callback/default cubic_root jit_unused host_calls=0 -->
  <!-- jaxcb:expect-observation gotcha merged host_calls=2 -->
- **Scalar host code.** `scipy.optimize.brentq` finds one root of one scalar
  function, so `on_host` loops over the broadcast elements itself.
- **Accurate at any scale.** The root is bracketed within a factor of a few
  (`[0, 2 min(cbrt|b|, |b|/a)]` for `a > 0`) and `brentq` stops on a *relative*
  tolerance (`rtol=4 eps`, `xtol` the smallest float): a root of `1e-20` is as
  accurate as a root of 1 (`xtol` is absolute, so `xtol=1e-15` alone would return
  0 for it).
- **Batching.** `vmap_method="expand_dims"`: since `on_host` already loops over
  whatever shape it gets and broadcasts its two arguments, a batch is one host call
  (`"sequential"` would add a host call per batch element around the same loop).
  Both arguments are first reshaped to the rank of the output, so NumPy
  broadcasting lines the batch axes up whichever argument is batched.
- **Derivatives.** A `jax.custom_jvp` rule (below): from the implicit
  function theorem, written in `jax.numpy` around the root `x` itself:
  `dx = (db - x*da) / (3x^2 + a)`. It reuses `x` and is differentiable, so `grad`,
  `jacfwd`, `jacrev` and `hessian` work; `cubic_root_callback` is the same call without
  the rule (`grad` through it raises).
- **Domain.** For `a > 0` the cubic is strictly increasing, so the root is unique.
  Otherwise `on_host` still returns a real root, but which one is unspecified.
  A NaN or infinite `a` or `b` gives NaN.
- **Types.** Floating `a` and `b`, in their common dtype; float16 and bfloat16
  reach the host as float32 and the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize
from jax.typing import ArrayLike

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "cubic_root", "cubic_root_callback", "on_host"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"cubic_root: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"cubic_root: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"cubic_root: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(a: ArrayLike, b: ArrayLike, vmap_method: object) -> tuple[jax.Array, jax.Array, Any]:
    """`a` and `b` in one floating dtype of 32 bits or more, and the result's dtype."""
    a, b = _array("a", a), _array("b", b)
    for name, arg in (("a", a), ("b", b)):
        if not jnp.issubdtype(arg.dtype, jnp.floating):
            raise TypeError(f"cubic_root: {name} must have a floating dtype, got {arg.dtype}")
    try:
        jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"cubic_root: a and b must be broadcastable, got shapes {a.shape} and {b.shape}"
        ) from None
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"cubic_root: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    dtype = jnp.result_type(a, b)
    wide = jnp.promote_types(dtype, jnp.float32)  # float16, bfloat16: float32
    return a.astype(wide), b.astype(wide), dtype


# --8<-- [start:host]
_EPS, _TINY = np.finfo(float).eps, np.finfo(float).tiny  # a relative tolerance only


def _root(a: float, b: float) -> float:
    """One real root of `x**3 + a*x - b`, in float64 (NaN for a non-finite `a` or `b`)."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.nan
    c = abs(b)  # the cubic is odd in x and b: solve for |b|, then give the root b's sign
    # f(0) = -c <= 0 <= f(hi): for a > 0 the root is below both cbrt(c) and c/a
    hi = 2 * min(math.cbrt(c), c / a) if a > 0 else 2 * math.cbrt(c) + math.sqrt(-a)
    if hi == 0:  # a >= 0 and b == 0: the root 0
        return 0.0
    x = scipy.optimize.brentq(lambda x: x * x * x + a * x - c, 0.0, hi, xtol=_TINY, rtol=4 * _EPS)
    return math.copysign(x, b)


def _shape(a: np.ndarray, b: np.ndarray) -> tuple[int, ...]:
    """The shape `a` and `b` broadcast to (under vmap either may carry the batch), from
    their shapes: `np.broadcast_arrays` and `np.broadcast_shapes` stop at 32 axes."""
    n = max(a.ndim, b.ndim)
    pairs = zip((1,) * (n - a.ndim) + a.shape, (1,) * (n - b.ndim) + b.shape, strict=True)
    return tuple(i if j == 1 else j for i, j in pairs)  # a mismatch: broadcast_to raises


def on_host(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype JAX was promised."""
    a, b = np.asarray(a), np.asarray(b)  # callbacks receive jax.Array: view, no copy
    shape = _shape(a, b)
    a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
    out = np.empty(a.shape, a.dtype)
    for i in np.ndindex(a.shape):  # brentq is scalar-only: one element at a time
        out[i] = _root(float(a[i]), float(b[i]))
    return out


# --8<-- [end:host]


# --8<-- [start:callback]
def cubic_root_callback(
    a: ArrayLike,
    b: ArrayLike,
    *,
    vmap_method: str | None = VMAP_METHOD,
) -> jax.Array:
    """The real root of `x**3 + a*x - b` on the host, without a derivative rule."""
    a, b, dtype = _checked(a, b, vmap_method)
    shape = jnp.broadcast_shapes(a.shape, b.shape)
    a = jnp.reshape(a, (1,) * (len(shape) - a.ndim) + a.shape)  # same rank as the output:
    b = jnp.reshape(b, (1,) * (len(shape) - b.ndim) + b.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, a.dtype)
    return jax.pure_callback(on_host, out_type, a, b, vmap_method=vmap_method).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(a: jax.Array, b: jax.Array, vmap_method: str | None) -> jax.Array:
    """The host's root `x` of `x**3 + a*x - b`, differentiable: from the implicit function
    theorem, `dx = (db - x da) / (3x^2 + a)`."""
    return cubic_root_callback(a, b, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array, ...], tangents: tuple[jax.Array, ...]
) -> tuple[jax.Array, jax.Array]:
    (a, b), (da, db) = primals, tangents
    x = _differentiable(a, b, vmap_method)
    # Implicit function theorem on x**3 + a*x - b = 0: (3x^2 + a) dx + x da - db = 0.
    return x, (db - x * da) / (3 * x * x + a)


# --8<-- [end:rule]


# --8<-- [start:pattern]
def cubic_root(a: ArrayLike, b: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the real root of `x**3 + a*x - b`, found by `brentq` on the host.

    Args:
        a: floating array; `a > 0` (then the root is unique).
        b: floating array, broadcastable with `a`.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        The root, of the broadcast shape of `a` and `b` and their common dtype.

    Raises:
        TypeError: `a` or `b` is not a floating array.
        ValueError: the shapes of `a` and `b` do not broadcast, or `vmap_method` is not
            one of `VMAP_METHODS`.
    """
    a, b, dtype = _checked(a, b, vmap_method)
    return _differentiable(a, b, vmap_method).astype(dtype)


# --8<-- [end:pattern]
