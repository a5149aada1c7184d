"""Bessel functions of the first kind, ``scipy.special.jv``, through `io_callback`.

Contract:

- **Not removed when unused.** Under `jax.jit` the host runs once per call even
  when the result is unused.
  Not a promise of one call per execution: inside a `lax.scan` or `lax.fori_loop`
  that `grad` differentiates, JAX may run it fewer times than the loop has steps
  (once for 3 steps when its arguments are loop constants).
  <!-- jaxcb:expect io_callback bessel_jv jit_unused status=ok host_calls=1 -->
  <!-- jaxcb:expect io_callback bessel_jv grad_scan_const|grad_fori_const host_calls=1 -->
  <!-- jaxcb:expect io_callback bessel_jv grad_scan_const|grad_fori_const effects.verdict=missing -->
- **Ordering.** `ordered=False` by default; `ordered=True` cannot be batched:
  `vmap` raises `ValueError`.
  <!-- jaxcb:expect io_callback/ordered bessel_jv vmap status=error error_type=ValueError -->
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
  <!-- jaxcb:expect io_callback/unordered bessel_jv vmap status=ok host_calls=4 -->
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. `jaxcb_pure.bessel_jv` differentiates through `jv(v - 1)` and
  `jv(v + 1)` callbacks instead.
- **Types.** `v` any integer dtype (not bool), sent to the host as int32 (orders
  beyond `+-(2**31 - 2)` are clamped to it); `z` any floating
  dtype, an integer one promoted to the default float dtype, float16 and bfloat16
  sent as float32 and the result cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["bessel_jv", "on_host"]

ORDER_LIMIT = 2**31 - 2  # int32 orders, with room for v - 1 and v + 1


# --8<-- [start:host]
def on_host(v: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype of `z`."""
    v, z = np.asarray(v), np.asarray(z)  # callbacks receive jax.Array: view, no copy
    return np.asarray(scipy.special.jv(v, z), dtype=z.dtype)  # jv computes in float64


# --8<-- [end:host]


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


def _check(
    v: ArrayLike, z: ArrayLike, ordered: object
) -> tuple[jax.Array, jax.Array, tuple[int, ...], bool]:
    """int32 orders within `+-ORDER_LIMIT`, `z` floating, their broadcast shape, `ordered`."""
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
        shape = jnp.broadcast_shapes(v.shape, z.shape)
    except ValueError:
        raise ValueError(
            f"bessel_jv: v and z must be broadcastable, got shapes {v.shape} and {z.shape}"
        ) from None
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"bessel_jv: ordered must be a bool, got {type(ordered).__name__}")
    return v, z, shape, bool(ordered)


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return `J_v(z)` from `scipy.special.jv` on the host.

    Args:
        v: integer order(s).
        z: real argument(s); integers are promoted to the default float dtype.
        ordered: serialise this host call with other ordered effects.

    Returns:
        An array of shape `broadcast(v, z)` and the float dtype of `z`.

    Raises:
        TypeError: `v` is not an integer array, `z` is not real, or `ordered` is not a bool.
        ValueError: `v` and `z` do not broadcast.
    """
    v, z, shape, ordered = _check(v, z, ordered)
    wide = jnp.promote_types(z.dtype, jnp.float32)  # float16, bfloat16: float32 on the host
    out_type = jax.ShapeDtypeStruct(shape, wide)
    return io_callback(on_host, out_type, v, z.astype(wide), ordered=ordered).astype(z.dtype)


# --8<-- [end:pattern]
