"""The Bessel function `J_v(z)` of integer order through `jax.ffi.ffi_call`, into a Python
function registered as an XLA FFI handler with `ctypes` (`_handler.py`).

Contract:

- **A handler, not a callback.** `on_host(v, z, out)` is registered once, at import, as
  the CPU FFI target `jaxcb_py_bessel_jv`; `jax.ffi.ffi_call` calls it from compiled code
  exactly as it calls a C++ handler. JAX's callback machinery is not involved.
- **In place.** `on_host` gets NumPy views of XLA's own buffers: read-only inputs, and
  `out`, the memory of the array the call returns. `scipy.special.jv` is a NumPy ufunc,
  so its `out=` argument writes the result straight into `out` (for a float32 `z`, NumPy
  casts the results of SciPy's float64 loop into it), and nothing is copied back.
- **has_side_effect=False** (the default of `ffi_call`): JAX treats the call as pure.
  Under `jax.jit` a call whose result is unused is removed; otherwise the handler runs
  once each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: one handler call fills the whole batched
  `out`. Both arguments are first reshaped to the rank of the output, so an unbatched one
  arrives with size-1 axes and broadcasts into `out` without being tiled.
- **Derivatives.** A `jax.custom_jvp` rule (below):
  `dJ_v/dz = (J_{v-1}(z) - J_{v+1}(z)) / 2` that calls this same differentiable function for
  the neighbouring orders, so the rule itself has a rule: `grad`, `jacfwd`, `jacrev` and
  `hessian` in `z` all work. Called without `jax.jit`, a first derivative (`grad`, `jvp`,
  `vjp`, `jacfwd`, `jacrev`) is 3 handler calls and `hessian` 9 (the support matrix, JAX
  0.10.2 and 0.12.0.1). Under `jax.jit` a gradient is two handler calls (`J_{v-1}`,
  `J_{v+1}`: the unused value is removed) and a Hessian three (the two identical `J_v`
  calls merged). `bessel_jv_callback` is the same call without the rule (`grad`
  through it raises). The order `v` is an integer: it has no derivative.
  <!-- jaxcb:expect ffi_python/default bessel_jv grad|jvp|vjp|jacfwd|jacrev status=ok host_calls=3 -->
  <!-- jaxcb:expect ffi_python/default bessel_jv hessian status=ok host_calls=9 -->
  <!-- jaxcb:expect-observation edge bessel-jv-derivatives-jit "ffi_python/default jit grad=2" "ffi_python/default jit hessian=3" jax=0.10.2|0.12.0.1 -->
- **What runs where.** The checks and reshapes run in Python when the function is
  traced; the derivative rule is compiled by XLA with the rest of the program; `on_host`
  runs in the Python interpreter, called by XLA through `ctypes` in the middle of the
  program (CPU only: the views read host memory).
- **Types.** `v` any integer dtype (not bool), converted to int32 first, so that `v - 1`
  in the rule is a signed order (an unsigned `0 - 1` would wrap to `2**32 - 1`); orders
  beyond `+-(2**31 - 2)` are clamped to it. `z` any floating dtype, an integer one
  promoted to the default float dtype; float16 and bfloat16 reach the handler as float32
  and the result is cast back.
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

try:  # inside the jaxcb_pyffi package
    from . import _handler
except ImportError:  # copied into a folder beside _handler.py
    import _handler  # type: ignore[import-not-found, no-redef]

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
    """int32 orders, `z` in a floating dtype of 32 bits or more, and the result's dtype."""
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
def on_host(v: np.ndarray, z: np.ndarray, out: np.ndarray) -> None:
    """Runs on the host during the call: writes `J_v(z)` into `out`."""
    scipy.special.jv(v, z, out=out)  # a ufunc: broadcasts, casts into out


# looked up at each call, so that the module's on_host is the one that runs
TARGET = _handler.register("jaxcb_py_bessel_jv", lambda *buffers: on_host(*buffers))
# --8<-- [end:host]


# --8<-- [start:callback]
def bessel_jv_callback(
    v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`J_v(z)` in the Python handler, written in place, without a derivative rule."""
    v, z, dtype = _checked(v, z, vmap_method)
    shape = jnp.broadcast_shapes(v.shape, z.shape)
    v = jnp.reshape(v, (1,) * (len(shape) - v.ndim) + v.shape)  # same rank as the output:
    z = jnp.reshape(z, (1,) * (len(shape) - z.ndim) + z.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    return jax.ffi.ffi_call(TARGET, out_type, vmap_method=vmap_method)(v, z).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(v: jax.Array, z: jax.Array, vmap_method: str | None) -> jax.Array:
    """The handler's value, differentiable in `z`: `dJ_v/dz = (J_{v-1} - J_{v+1}) / 2`."""
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
    """Return the Bessel function of the first kind `J_v(z)`, computed by SciPy in a Python handler.

    Args:
        v: integer array of orders.
        z: floating array; an integer one is promoted to the default float dtype.
        vmap_method: how `jax.vmap` calls the handler (default `"expand_dims"`: one
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
