"""The Bessel function `J_v(z)` of integer order through `jax.experimental.buffer_callback`.

Contract:

- **In place.** `on_host(ctx, out, v, z)` gets XLA's own buffers and returns `None`:
  `scipy.special.jv` is a NumPy ufunc, so its `out=` argument writes the result
  straight into `out` (for a float32 `z`, NumPy casts the results of SciPy's
  float64 loop into it), and no result array is copied back.
- **Read-only inputs.** An input `Buffer` says `writeable=False`, yet `np.asarray`
  of it is a writable view of the caller's array; `on_host` makes its input views
  read-only first, so a slip raises `ValueError` instead of changing that array.
- **has_side_effect=False** (the default): JAX treats the call as pure. Under
  `jax.jit` a call whose result is unused is removed; otherwise the host runs once
  each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: one host call fills the whole batched
  `out`. Both arguments are first reshaped to the rank of the output, so an
  unbatched one arrives with size-1 axes and broadcasts into `out` without being
  tiled.
- **Derivatives.** The `jax.custom_jvp` rule of `jaxcb_native.rules`:
  `dJ_v/dz = (J_{v-1}(z) - J_{v+1}(z)) / 2` that calls this same differentiable function
  for the neighbouring orders, so the rule itself has a rule: `grad`, `jacfwd`, `jacrev`
  and `hessian` in `z` all work. `bessel_jv_callback` is the same call without the rule
  (`grad` through it raises). The order `v` is an integer: it has no derivative.
- **What runs where.** The checks and reshapes run in Python when the function is
  traced; the derivative rule is compiled by XLA with the rest of the program;
  `on_host` runs in the Python interpreter, called by XLA in the middle of the
  program. CPU only: `np.asarray` needs the `__array__` protocol, which a `Buffer`
  has on CPU.
- **Types.** `v` any integer dtype (not bool), converted to int32 first, so that
  `v - 1` in the rule is a signed order (an unsigned `0 - 1` would wrap to
  `2**32 - 1`); orders beyond `+-(2**31 - 2)` are clamped to it. `z` any floating
  dtype, an integer one promoted to the default float dtype; float16 and bfloat16
  reach the host as float32 and the result is cast back.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import scipy.special
from jax.experimental.buffer_callback import Buffer, ExecutionContext, buffer_callback
from jax.typing import ArrayLike

from jaxcb_native import rules

from . import _checks

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "bessel_jv", "bessel_jv_callback", "on_host"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)
ORDER_LIMIT = _checks.ORDER_LIMIT  # int32 orders, with room for v - 1 and v + 1


# --8<-- [start:host]
def _read_only(buffer: Buffer) -> np.ndarray:
    """A NumPy view of an input buffer (no copy) that raises if written to."""
    view = np.asarray(buffer)  # writable, although the Buffer says writeable=False
    view.flags.writeable = False
    return view


def on_host(ctx: ExecutionContext, out: Buffer, v: Buffer, z: Buffer) -> None:
    """Runs on the host during the call: writes `J_v(z)` into `out`."""
    v, z = _read_only(v), _read_only(z)
    scipy.special.jv(v, z, out=np.asarray(out))  # a ufunc: broadcasts, casts into out


# --8<-- [end:host]


# --8<-- [start:callback]
def bessel_jv_callback(
    v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`J_v(z)` on the host, written in place, without a derivative rule."""
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    shape = jnp.broadcast_shapes(v.shape, z.shape)
    v = jnp.reshape(v, (1,) * (len(shape) - v.ndim) + v.shape)  # same rank as the output:
    z = jnp.reshape(z, (1,) * (len(shape) - z.ndim) + z.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, z.dtype)
    call = buffer_callback(on_host, out_type, has_side_effect=False, vmap_method=vmap_method)
    return call(v, z).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:pattern]
def bessel_jv(v: ArrayLike, z: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return the Bessel function of the first kind `J_v(z)`, computed by SciPy in place.

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
    v, z, dtype = _checks.bessel_jv_for_host(v, z, vmap_method, VMAP_METHODS)
    compute = functools.partial(bessel_jv_callback, vmap_method=vmap_method)
    return rules.bessel_jv(compute, v, z).astype(dtype)  # the rule: jaxcb_native.rules


# --8<-- [end:pattern]
