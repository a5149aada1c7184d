"""The matrix exponential through `jax.experimental.buffer_callback`, with a reverse-mode rule.

Contract:

- **Into the output buffer, one copy.** SciPy has no `out=` for `expm` or
  `expm_frechet`: they return new arrays. `on_host(ctx, out, a)` copies SciPy's
  result into XLA's output buffer `out` with `np.copyto` (the one copy that
  `jax.pure_callback` would make when it takes the returned array), and
  `on_host_vjp(ctx, out, a, g)` stores each matrix's cotangent straight into its
  slice of `out`. Both return `None`. Under `jax.jit` on CPU, `out` is the memory of
  the array the call returns.
- **Read-only inputs.** An input `Buffer` says `writeable=False`, yet `np.asarray`
  of it is a writable view of the caller's array; both host functions make their
  input views read-only first, so a slip raises `ValueError` instead of changing
  that array.
  <!-- jaxcb:expect-observation gotcha buffer-inputs says_writeable=false view_writeable=true jax=0.12.0.1|0.10.2 -->
- **has_side_effect=False** (the default) for both calls: JAX treats them as pure.
  Under `jax.jit` a call whose result is unused is removed (so under `jacrev`,
  which never uses the primal output, only the backward call runs); otherwise the
  host runs once each time the compiled program runs.
  <!-- jaxcb:expect buffer_callback/default expm jit_unused host_calls=0 -->
- **Not elementwise.** Each output entry depends on the whole matrix, so the host
  gets whole matrices: `a` has shape `(..., n, n)` and stacks are allowed.
- **Batching.** `vmap_method="expand_dims"`: `scipy.linalg.expm` works on stacks
  `(..., n, n)`, so a batch is only more leading axes and one host call fills it.
  `on_host_vjp` broadcasts the saved matrix against the cotangent, so `jacrev` (a
  `vmap` over cotangents) is one host call too, the matrix arriving unbatched with
  a size-1 axis instead of being tiled.
  <!-- jaxcb:expect buffer_callback/default expm vmap host_calls=1 -->
- **Derivatives.** A `jax.custom_vjp` rule (below): the cotangent of
  `expm` at `a` for the output cotangent `g` is the Fréchet derivative `L(a^T, g)`,
  computed on the host per matrix by a second `buffer_callback`. So `grad`, `vjp` and
  `jacrev` work, while `jvp` and `jacfwd` raise `TypeError` (a `custom_vjp` function has
  no forward mode), and a second derivative (`hessian`, `grad` of `grad`) raises
  `ValueError`: the rule's own callback has no rule. `expm_callback` is the call without
  any rule.
- **What runs where.** The checks run in Python when the function is traced; both
  host functions run in the Python interpreter, called by XLA in the middle of the
  program. CPU only: `np.asarray` needs the `__array__` protocol, which a `Buffer`
  has on CPU ([`buffer_callback`'s docstring](https://github.com/jax-ml/jax/blob/main/jax/_src/buffer_callback.py),
  JAX 0.12.0.1).
- **Non-finite input.** A matrix with a NaN or infinite entry comes out as a matrix
  of NaN, and so does its cotangent (the others of a stack are unaffected), as in
  every jaxcb package; `scipy.linalg.expm` itself returns `exp` of each entry of a
  diagonal matrix.
- **Types.** Any floating dtype: float16 and bfloat16 reach the host (and the rule)
  as float32, and the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
from jax.experimental.buffer_callback import Buffer, ExecutionContext, buffer_callback
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
def _read_only(buffer: Buffer) -> np.ndarray:
    """A NumPy view of an input buffer (no copy) that raises if written to."""
    view = np.asarray(buffer)  # writable, although the Buffer says writeable=False
    view.flags.writeable = False
    return view


def on_host(ctx: ExecutionContext, out: Buffer, a: Buffer) -> None:
    """Runs on the host during the call: writes the exponential of each matrix into `out`."""
    a, o = _read_only(a), np.asarray(out)
    finite = np.isfinite(a).all(axis=(-2, -1))  # NaN for a matrix with a non-finite entry
    if finite.all():  # the common case: no copies of the input
        np.copyto(o, scipy.linalg.expm(a))  # expm takes a stack (..., n, n); it has no out=
        return
    o[~finite] = np.nan
    o[finite] = scipy.linalg.expm(a[finite])


def on_host_vjp(ctx: ExecutionContext, out: Buffer, a: Buffer, g: Buffer) -> None:
    """Writes the cotangent of `a`, the Fréchet derivative of expm at `a^T` along `g`."""
    o = np.asarray(out)
    a, g = np.broadcast_to(_read_only(a), o.shape), np.broadcast_to(_read_only(g), o.shape)
    at = np.swapaxes(a, -1, -2)  # transpose each matrix, not the stack
    for i in np.ndindex(o.shape[:-2]):  # expm_frechet takes one matrix at a time
        finite = np.isfinite(a[i]).all()
        o[i] = scipy.linalg.expm_frechet(at[i], g[i], compute_expm=False) if finite else np.nan


# --8<-- [end:host]


# --8<-- [start:callback]
def expm_callback(a: ArrayLike, *, vmap_method: str | None = VMAP_METHOD) -> jax.Array:
    """The matrix exponential on the host, into the output buffer, without any rule."""
    a, dtype = _checked(a, vmap_method)
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    call = buffer_callback(on_host, out_type, has_side_effect=False, vmap_method=vmap_method)
    return call(a).astype(dtype)


def expm_vjp_callback(
    a: jax.Array, g: jax.Array, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The backward pass of `expm`: the cotangent of `a` for the cotangent `g`."""
    out_type = jax.ShapeDtypeStruct(a.shape, a.dtype)
    call = buffer_callback(on_host_vjp, out_type, has_side_effect=False, vmap_method=vmap_method)
    return call(a, g)


# --8<-- [end:callback]


# --8<-- [start:rule]
@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _differentiable(a: jax.Array, vmap_method: str | None) -> jax.Array:
    """The host's value, with reverse mode from the Fréchet derivative of the matrix
    exponential at `a^T` in the direction of the output cotangent."""
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
