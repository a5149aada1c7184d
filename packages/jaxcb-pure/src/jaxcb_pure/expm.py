"""The matrix exponential through `jax.pure_callback`, with a reverse-mode rule.

Contract:

- **Pure.** `on_host` (`scipy.linalg.expm`) and `on_host_vjp`
  (`scipy.linalg.expm_frechet`) depend on their arguments only, so JAX may run them
  once, many times, or never ([`jax.pure_callback`'s
  docstring](https://docs.jax.dev/en/latest/_autosummary/jax.pure_callback.html),
  JAX 0.4.30 to 0.12.0.1: "safe to be called multiple times", or "not to be called
  at all"): under `jax.jit` a call whose result is unused is removed. Two identical
  calls in one jitted program both ran on JAX 0.4.30, 0.10.2 and 0.12.0.1 (the
  `merged` gotcha), which JAX does not promise.
  <!-- jaxcb:expect pure_callback/default expm jit_unused host_calls=0 -->
  <!-- jaxcb:expect-observation gotcha merged host_calls=2 -->
- **Not elementwise.** Each output entry depends on the whole matrix, so the
  host gets whole matrices: `a` has shape `(..., n, n)` and stacks are allowed.
- **Batching.** `vmap_method="expand_dims"`: `scipy.linalg.expm` works on stacks
  `(..., n, n)`, so a batch is only more leading axes and one host call takes it.
  In the derivative, `on_host_vjp` broadcasts the saved matrix against the
  cotangent, so `jacrev` (a `vmap` over cotangents) is one host call as well;
  under `jax.jit` it is the only one, since `jacrev` never uses the primal output
  and the forward call is removed.
  <!-- jaxcb:expect pure_callback/default expm vmap host_calls=1 -->
  <!-- jaxcb:expect pure_callback/default expm jacrev host_calls=2 -->
- **Derivatives.** A `jax.custom_vjp` rule (below): the cotangent of
  `expm` at `a` for the output cotangent `g` is the Fréchet derivative `L(a^T, g)`,
  computed on the host per matrix. So `grad`, `vjp` and `jacrev` work, while `jvp` and
  `jacfwd` raise `TypeError` (a `custom_vjp` function has no forward mode), and a second
  derivative (`hessian`, `grad` of `grad`) raises `ValueError`: the rule's own callback
  has no rule. `expm_callback` is the call without any rule.
- **Non-finite input.** A matrix with a NaN or infinite entry comes out as a matrix
  of NaN, and so does its cotangent (the others of a stack are unaffected), as in
  every jaxcb package; `scipy.linalg.expm` itself returns `exp` of each entry of a
  diagonal matrix.
- **Types.** Any floating dtype: float16 and bfloat16 reach the host as float32 and
  the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
from jax.typing import ArrayLike

__all__ = [
    "VMAP_METHOD",
    "VMAP_METHODS",
    "expm",
    "expm_callback",
    "expm_vjp_callback",
    "on_host",
    "on_host_vjp",
]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"expm: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"expm: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"expm: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(a: ArrayLike, vmap_method: object) -> tuple[jax.Array, Any]:
    """`a` in a floating dtype of 32 bits or more, and the dtype of the result."""
    a = _array("a", a)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"expm: a must have a floating dtype, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    if vmap_method not in VMAP_METHODS:
        raise ValueError(f"expm: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}")
    wide = a.astype(jnp.promote_types(a.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, a.dtype


# --8<-- [start:host]
def on_host(a: np.ndarray) -> np.ndarray:
    """Runs on the host with a concrete stack of matrices; returns the promised dtype."""
    a = np.asarray(a)  # callbacks receive jax.Array: view, no copy
    finite = np.isfinite(a).all(axis=(-2, -1))
    if finite.all():  # the common case: no copies of the input
        return scipy.linalg.expm(a).astype(a.dtype, copy=False)  # expm takes (..., n, n)
    out = np.full(a.shape, np.nan, a.dtype)  # NaN for a matrix with a non-finite entry
    out[finite] = scipy.linalg.expm(a[finite])
    return out


def _shape(a: np.ndarray, g: np.ndarray) -> tuple[int, ...]:
    """The shape `a` and `g` broadcast to (under vmap either may carry the batch), from
    their shapes: `np.broadcast_arrays` and `np.broadcast_shapes` stop at 32 axes."""
    n = max(a.ndim, g.ndim)
    pairs = zip((1,) * (n - a.ndim) + a.shape, (1,) * (n - g.ndim) + g.shape, strict=True)
    return tuple(i if j == 1 else j for i, j in pairs)  # a mismatch: broadcast_to raises


def on_host_vjp(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The cotangent of `a`: the Fréchet derivative of expm at `a^T` in direction `g`."""
    a, g = np.asarray(a), np.asarray(g)
    shape = _shape(a, g)
    a, g = np.broadcast_to(a, shape), np.broadcast_to(g, shape)
    at = np.swapaxes(a, -1, -2)  # transpose each matrix, not the stack
    out = np.full(a.shape, np.nan, a.dtype)
    for i in np.ndindex(a.shape[:-2]):  # expm_frechet takes one matrix at a time
        if np.isfinite(a[i]).all():
            out[i] = scipy.linalg.expm_frechet(at[i], g[i], compute_expm=False)
    return out


# --8<-- [end:host]


# --8<-- [start:callback]
def expm_callback(
    a: ArrayLike,
    *,
    vmap_method: str | None = VMAP_METHOD,
) -> jax.Array:
    """The matrix exponential on the host, without a derivative rule."""
    a, dtype = _checked(a, vmap_method)
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.pure_callback(on_host, out_type, a, vmap_method=vmap_method).astype(dtype)


def expm_vjp_callback(
    a: jax.Array, g: jax.Array, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The backward pass of `expm`: the cotangent of `a` for the cotangent `g`."""
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    return jax.pure_callback(on_host_vjp, out_type, a, g, vmap_method=vmap_method)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _differentiable(a: jax.Array, vmap_method: str | None) -> jax.Array:
    """The host's value, with reverse mode from `expm_vjp_callback`: the Fréchet
    derivative of the matrix exponential at `a^T` in the direction of the cotangent."""
    return expm_callback(a, vmap_method=vmap_method)


def _fwd(a: jax.Array, vmap_method: str | None) -> tuple[jax.Array, jax.Array]:
    return expm_callback(a, vmap_method=vmap_method), a  # save a for the backward pass


def _bwd(vmap_method: str | None, a: jax.Array, g: jax.Array) -> tuple[jax.Array]:
    return (expm_vjp_callback(a, g, vmap_method=vmap_method),)


_differentiable.defvjp(_fwd, _bwd)


# --8<-- [end:rule]


# --8<-- [start:pattern]
def expm(a: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the matrix exponential of `a`, computed by SciPy on the host.

    First-order reverse mode only: `grad`, `vjp` and `jacrev` work; `jvp`, `jacfwd`
    and second derivatives raise.

    Args:
        a: floating array of shape `(..., n, n)`.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        An array of the shape and dtype of `a`; NaN for a matrix with a non-finite entry.

    Raises:
        TypeError: `a` is not a floating array.
        ValueError: `a` has fewer than two axes or its last two differ, or `vmap_method`
            is not one of `VMAP_METHODS`.
    """
    a, dtype = _checked(a, vmap_method)
    return _differentiable(a, vmap_method).astype(dtype)


# --8<-- [end:pattern]
