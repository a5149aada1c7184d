"""The Bessel function `J_v(z)` of integer order through `jax.pure_callback`.

Contract:

- **Pure.** `on_host` (`scipy.special.jv`) depends on its arguments only, so JAX
  may run it once, many times, or never (`jax.pure_callback`'s docstring, JAX 0.4.30
  to 0.12.0.1: "safe to be called multiple times", or "not to be called at all"):
  under `jax.jit` a call whose result is unused is removed. Two identical calls in one
  jitted program both ran on every JAX version measured, which JAX does not promise.
  <!-- jaxcb:expect pure_callback/default bessel_jv jit_unused host_calls=0 -->
  <!-- jaxcb:expect-observation gotcha merged host_calls=2 -->
- **Batching.** `vmap_method="expand_dims"`: `scipy.special.jv` is a NumPy ufunc,
  so one host call takes the whole batch. Both arguments are first reshaped to the
  rank of the output, so NumPy broadcasting lines the batch axes up whichever
  argument is batched, and nothing is tiled.
- **Derivatives.** A `jax.custom_jvp` rule (below):
  `dJ_v/dz = (J_{v-1}(z) - J_{v+1}(z)) / 2` that calls this same differentiable function
  for the neighbouring orders, so the rule itself has a rule: `grad`, `jacfwd`, `jacrev`
  and `hessian` in `z` all work. Called without `jax.jit`, the function is 1 host call,
  a first derivative (`grad`, `jvp`, `vjp`, `jacfwd`, `jacrev`) 3 (`J_v`, `J_{v-1}`,
  `J_{v+1}`) and `hessian` 9 (the support matrix, JAX 0.10.2 and 0.12.0.1).
  <!-- jaxcb:expect pure_callback/default bessel_jv eager status=ok host_calls=1 -->
  <!-- jaxcb:expect pure_callback/default bessel_jv grad|jvp|vjp|jacfwd|jacrev status=ok host_calls=3 -->
  <!-- jaxcb:expect pure_callback/default bessel_jv hessian status=ok host_calls=9 -->
  Under `jax.jit` a gradient is 2 host calls (`J_{v-1}`, `J_{v+1}`: the unused `J_v` is
  removed) and a Hessian 4: the two identical `J_v` calls both run, where the same
  Hessian through `ffi_call`, `buffer_callback` or the Python FFI bridge makes 3.
  <!-- jaxcb:expect-observation edge bessel-jv-derivatives-jit "pure_callback/default jit grad=2" "pure_callback/default jit hessian=4" jax=0.10.2|0.12.0.1 -->
  <!-- jaxcb:expect-observation edge bessel-jv-derivatives-jit "ffi_call/default jit hessian=3" "buffer_callback/default jit hessian=3" "ffi_python/default jit hessian=3" jax=0.10.2|0.12.0.1 -->
  `bessel_jv_callback` is the same call without the rule (`grad` through it raises). The
  order `v` is an integer: it has no derivative.
- **Types.** `v` any integer dtype (not bool), converted to int32 first, so that
  `v - 1` in the rule is a signed order (an unsigned `0 - 1` would wrap to
  `2**32 - 1`); orders beyond `+-(2**31 - 2)` are clamped to it. `z` any floating
  dtype, an integer one promoted to the default float dtype; float16 and bfloat16
  reach the host as float32 and the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.typing import ArrayLike

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "bessel_jv", "bessel_jv_callback", "on_host"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)
ORDER_LIMIT = 2**31 - 2  # int32 orders, with room for v - 1 and v + 1


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"bessel_jv: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"bessel_jv: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"bessel_jv: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(v: ArrayLike, z: ArrayLike, vmap_method: object) -> tuple[jax.Array, jax.Array, Any]:
    """int32 orders within `+-ORDER_LIMIT`, `z` in a floating dtype of 32 bits or more, and the result's dtype."""
    v = _array("v", v)
    if not jnp.issubdtype(v.dtype, jnp.integer):
        raise TypeError(f"bessel_jv: v must have an integer dtype, got {v.dtype}")
    if v.dtype.itemsize >= 4:  # clamp before the cast: an unsigned or int64 order never wraps
        low = 0 if jnp.issubdtype(v.dtype, jnp.unsignedinteger) else -ORDER_LIMIT
        v = jnp.clip(v, low, ORDER_LIMIT)
    v, z = v.astype(jnp.int32), _array("z", z)
    if jnp.issubdtype(z.dtype, jnp.integer):
        z = z.astype(jnp.result_type(float))  # the default float: float64 under x64
    elif not jnp.issubdtype(z.dtype, jnp.floating):
        raise TypeError(f"bessel_jv: z must have an integer or floating dtype, got {z.dtype}")
    try:
        jnp.broadcast_shapes(v.shape, z.shape)
    except ValueError:
        raise ValueError(
            f"bessel_jv: v and z must be broadcastable, got shapes {v.shape} and {z.shape}"
        ) from None
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"bessel_jv: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    wide = z.astype(jnp.promote_types(z.dtype, jnp.float32))  # float16, bfloat16: float32
    return v, wide, z.dtype


# --8<-- [start:host]
def on_host(v: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype JAX was promised."""
    v, z = np.asarray(v), np.asarray(z)  # callbacks receive jax.Array: view, no copy
    return scipy.special.jv(v, z).astype(z.dtype, copy=False)  # broadcasts like a ufunc


# --8<-- [end:host]


# --8<-- [start:callback]
def bessel_jv_callback(
    v: ArrayLike,
    z: ArrayLike,
    *,
    vmap_method: str | None = VMAP_METHOD,
) -> jax.Array:
    """`J_v(z)` on the host, without a derivative rule."""
    v, z, dtype = _checked(v, z, vmap_method)
    shape = jnp.broadcast_shapes(v.shape, z.shape)
    v = jnp.reshape(v, (1,) * (len(shape) - v.ndim) + v.shape)  # same rank as the output:
    z = jnp.reshape(z, (1,) * (len(shape) - z.ndim) + z.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    return jax.pure_callback(on_host, out_type, v, z, vmap_method=vmap_method).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(v: jax.Array, z: jax.Array, vmap_method: str | None) -> jax.Array:
    """The host's value, differentiable in `z`: `dJ_v/dz = (J_{v-1} - J_{v+1}) / 2`.

    `v` must be int32 clamped away from the int32 limits, so that `v - 1` and `v + 1`
    are the neighbouring orders and never wrap.
    """
    return bessel_jv_callback(v, z, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array, ...], tangents: tuple[jax.Array, ...]
) -> tuple[jax.Array, jax.Array]:
    (v, z), (_, dz) = primals, tangents  # v is an integer: its tangent is float0
    out = _differentiable(v, z, vmap_method)
    # The rule calls the differentiable function again, so it can be differentiated too.
    slope = (_differentiable(v - 1, z, vmap_method) - _differentiable(v + 1, z, vmap_method)) / 2
    return out, slope * dz


# --8<-- [end:rule]


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the Bessel function of the first kind `J_v(z)`, computed by SciPy on the host.

    Args:
        v: integer array of orders.
        z: floating array; an integer one is promoted to the default float dtype.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        An array of the broadcast shape of `v` and `z`, in the dtype of `z`.

    Raises:
        TypeError: `v` is not an integer array, or `z` is neither floating nor integer.
        ValueError: the shapes of `v` and `z` do not broadcast, or `vmap_method` is not
            one of `VMAP_METHODS`.
    """
    v, z, dtype = _checked(v, z, vmap_method)
    return _differentiable(v, z, vmap_method).astype(dtype)


# --8<-- [end:pattern]
