"""The sum and the mean over the last axis through `jax.experimental.buffer_callback`.

Contract:

- **In place, two outputs.** `on_host(ctx, out, x)` gets `out` as the pytree JAX was
  promised, here a pair of buffers, and returns `None`: NumPy's sum and division write
  into them through their `out=` argument, so nothing is allocated or copied back.
  Under `jax.jit` on CPU they are the memory of the two arrays the call returns.
- **Read-only input.** An input `Buffer` says `writeable=False`, yet `np.asarray` of
  it is a writable view of the caller's array; `on_host` makes its view read-only
  first, so a slip raises `ValueError` instead of changing that array.
  <!-- jaxcb:expect-observation gotcha buffer-inputs says_writeable=false view_writeable=true jax=0.12.0.1|0.10.2 -->
- **has_side_effect=False** (the default): JAX treats the call as pure. Under
  `jax.jit` a call whose result is unused is removed; otherwise the host runs once
  each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: `on_host` reduces over the last axis
  only, so leading batch axes pass straight through and one host call fills both
  batched outputs. With a single argument, `"broadcast_all"` would do the same.
  <!-- jaxcb:expect buffer_callback/default sum_mean vmap host_calls=1 -->
- **Derivatives.** A `jax.custom_jvp` rule (below), written in `jax.numpy` (the map
  is linear), so `grad`, `jacfwd`, `jacrev` and `hessian` work; `sum_mean_callback` is
  the same call without the rule (`grad` through it raises).
- **What runs where.** The checks run in Python when the function is traced; the
  derivative rule is compiled by XLA with the rest of the program; `on_host` runs
  in the Python interpreter, called by XLA in the middle of the program. CPU only:
  `np.asarray` needs the `__array__` protocol, which a `Buffer` has on CPU
  ([`buffer_callback`'s docstring](https://github.com/jax-ml/jax/blob/main/jax/_src/buffer_callback.py),
  JAX 0.12.0.1).
- **Types.** Any floating dtype: float16 and bfloat16 reach the host as float32, so
  they are accumulated in float32 (as NumPy does for float16), and both results are
  cast back. An empty last axis gives a sum of 0 and a mean of NaN.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.buffer_callback import Buffer, ExecutionContext, buffer_callback
from jax.typing import ArrayLike

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "on_host", "sum_mean", "sum_mean_callback"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"sum_mean: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"sum_mean: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"sum_mean: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(x: ArrayLike, vmap_method: object) -> tuple[jax.Array, Any]:
    """`x` in a floating dtype of 32 bits or more, and the dtype of the results."""
    x = _array("x", x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sum_mean: x must have a floating dtype, got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"sum_mean: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    wide = x.astype(jnp.promote_types(x.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, x.dtype


# --8<-- [start:host]
def _read_only(buffer: Buffer) -> np.ndarray:
    """A NumPy view of an input buffer (no copy) that raises if written to."""
    view = np.asarray(buffer)  # writable, although the Buffer says writeable=False
    view.flags.writeable = False
    return view


def on_host(ctx: ExecutionContext, out: tuple[Buffer, Buffer], x: Buffer) -> None:
    """Runs on the host during the call: writes the sum and the mean into `out`."""
    x = _read_only(x)
    total, mean = (np.asarray(o) for o in out)  # XLA's output buffers themselves
    np.sum(x, axis=-1, dtype=x.dtype, out=total)
    with np.errstate(invalid="ignore"):  # an empty last axis: 0 / 0 is NaN, silently
        np.divide(total, x.shape[-1], out=mean)


# --8<-- [end:host]


# --8<-- [start:callback]
def sum_mean_callback(
    x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis on the host, in place, without a derivative rule."""
    x, dtype = _checked(x, vmap_method)
    out = jax.ShapeDtypeStruct(x.shape[:-1], x.dtype)
    call = buffer_callback(on_host, (out, out), has_side_effect=False, vmap_method=vmap_method)
    total, mean = call(x)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(1,))
def _differentiable(x: jax.Array, vmap_method: str | None) -> tuple[jax.Array, jax.Array]:
    """The host's values, differentiable: both results are linear in `x`."""
    return sum_mean_callback(x, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array], tangents: tuple[jax.Array]
) -> tuple[tuple[jax.Array, jax.Array], tuple[jax.Array, jax.Array]]:
    (x,), (dx,) = primals, tangents
    return _differentiable(x, vmap_method), (jnp.sum(dx, axis=-1), jnp.mean(dx, axis=-1))


# --8<-- [end:rule]


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> tuple[jax.Array, jax.Array]:
    """Return `(sum, mean)` of `x` over its last axis, computed by NumPy in place.

    Args:
        x: floating array with at least one axis.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array.
        ValueError: `x` is a scalar, or `vmap_method` is not one of `VMAP_METHODS`.
    """
    x, dtype = _checked(x, vmap_method)
    total, mean = _differentiable(x, vmap_method)
    return total.astype(dtype), mean.astype(dtype)


# --8<-- [end:pattern]
