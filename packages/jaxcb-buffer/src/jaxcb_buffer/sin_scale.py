"""``sin(x) * y + 1`` through `jax.experimental.buffer_callback`, written in place.

Contract:

- **In place.** `on_host(ctx, out, x, y)` gets XLA's own buffers and returns `None`:
  it writes the result into `out` with NumPy's `out=` argument and in-place
  operators, so no result array is allocated and nothing is copied back. Under
  `jax.jit` on CPU, `out` is the memory of the array the call returns, and `x` the
  memory of the argument passed in.
- **Read-only inputs.** An input `Buffer` says `writeable=False`, yet `np.asarray`
  of it is a writable view of the caller's array: a write would change an array
  JAX treats as immutable. `on_host` makes its input views read-only first, so a
  slip raises `ValueError` instead.
  <!-- jaxcb:expect-observation gotcha buffer-inputs says_writeable=false view_writeable=true jax=0.12.0.1|0.10.2 -->
- **has_side_effect=False** (the default): JAX treats the call as pure. Under
  `jax.jit` a call whose result is unused is removed; otherwise the host runs once
  each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: `on_host` is NumPy ufunc code, so one
  host call fills the whole batched `out`. The scalar `y` is reshaped to the rank
  of `x` first, so an unbatched argument arrives with size-1 axes and broadcasts
  into `out` without being tiled (`"broadcast_all"` would tile it into a new
  buffer; `"sequential"` would make one host call per batch element).
- **Derivatives.** A `jax.custom_jvp` rule (below), written in `jax.numpy` so
  `grad`, `jacfwd`, `jacrev` and `hessian` work; `sin_scale_callback` is the same
  call without the rule (`grad` through it raises).
- **What runs where.** The checks and the reshape run in Python when the function
  is traced; the derivative rule is compiled by XLA with the rest of the program;
  `on_host` runs in the Python interpreter, called by XLA in the middle of the
  program. CPU only: `np.asarray` needs the `__array__` protocol, which a `Buffer`
  has on CPU (on GPU it is device memory: [`buffer_callback`'s docstring](https://github.com/jax-ml/jax/blob/main/jax/_src/buffer_callback.py),
  JAX 0.12.0.1).
- **Types.** `x` any floating dtype: float16 and bfloat16 reach the host (and the
  rule) as float32, and the result is cast back. `y` a real scalar (not bool or
  complex).
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

__all__ = ["VMAP_METHOD", "VMAP_METHODS", "on_host", "sin_scale", "sin_scale_callback"]

VMAP_METHOD = "expand_dims"
VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all", None)


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"sin_scale: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"sin_scale: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"sin_scale: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _checked(x: ArrayLike, y: ArrayLike, vmap_method: object) -> tuple[jax.Array, jax.Array, Any]:
    """`x` and `y` in one floating dtype of 32 bits or more, and the result's dtype."""
    x, y = _array("x", x), _array("y", y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if not (jnp.issubdtype(y.dtype, jnp.integer) or jnp.issubdtype(y.dtype, jnp.floating)):
        raise TypeError(f"sin_scale: y must have an integer or floating dtype, got {y.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    if vmap_method not in VMAP_METHODS:
        raise ValueError(
            f"sin_scale: vmap_method must be one of {VMAP_METHODS}, got {vmap_method!r}"
        )
    wide = x.astype(jnp.promote_types(x.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, y.astype(wide.dtype), x.dtype


# --8<-- [start:host]
def _read_only(buffer: Buffer) -> np.ndarray:
    """A NumPy view of an input buffer (no copy) that raises if written to."""
    view = np.asarray(buffer)  # writable, although the Buffer says writeable=False
    view.flags.writeable = False
    return view


def on_host(ctx: ExecutionContext, out: Buffer, x: Buffer, y: Buffer) -> None:
    """Runs on the host during the call: writes `sin(x) * y + 1` into `out`."""
    x, y = _read_only(x), _read_only(y)
    if y.size == 1:  # one value (no batch): NumPy's scalar loop beats a stride-0 broadcast
        y = y.reshape(())
    o = np.asarray(out)  # XLA's output buffer itself; its old contents are garbage
    np.sin(x, out=o)  # broadcasts: under vmap either argument may carry the batch
    o *= y
    o += 1


# --8<-- [end:host]


# --8<-- [start:callback]
def sin_scale_callback(
    x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """`sin(x) * y + 1` on the host, written in place, without a derivative rule."""
    x, y, dtype = _checked(x, y, vmap_method)
    y = jnp.reshape(y, (1,) * x.ndim)  # same rank as x: batch axes broadcast on the host
    out_type = jax.ShapeDtypeStruct(x.shape, x.dtype)
    call = buffer_callback(on_host, out_type, has_side_effect=False, vmap_method=vmap_method)
    return call(x, y).astype(dtype)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_jvp, nondiff_argnums=(2,))
def _differentiable(x: jax.Array, y: jax.Array, vmap_method: str | None) -> jax.Array:
    """The host's value, differentiable: `d(sin(x) y + 1) = cos(x) y dx + sin(x) dy`."""
    return sin_scale_callback(x, y, vmap_method=vmap_method)


@_differentiable.defjvp
def _jvp(
    vmap_method: str | None, primals: tuple[jax.Array, ...], tangents: tuple[jax.Array, ...]
) -> tuple[jax.Array, jax.Array]:
    (x, y), (dx, dy) = primals, tangents
    return _differentiable(x, y, vmap_method), jnp.cos(x) * y * dx + jnp.sin(x) * dy


# --8<-- [end:rule]


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by NumPy on the host into JAX's output buffer.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.
        vmap_method: how `jax.vmap` calls the host (default `"expand_dims"`: one
            call per batch).

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, or `y` is not real (bool, complex).
        ValueError: `y` is not a scalar, or `vmap_method` is not one of `VMAP_METHODS`.
    """
    x, y, dtype = _checked(x, y, vmap_method)
    return _differentiable(x, y, vmap_method).astype(dtype)


# --8<-- [end:pattern]
