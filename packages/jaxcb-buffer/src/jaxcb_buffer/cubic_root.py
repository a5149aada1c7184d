"""The real root of `x**3 + a*x - b` through `jax.experimental.buffer_callback`.

Contract:

- **In place, element by element.** `scipy.optimize.brentq` finds one root of one
  scalar function, so `on_host(ctx, out, a, b)` loops over the broadcast elements
  and stores each root straight into XLA's output buffer `out`; it returns `None`,
  and no result array is allocated or copied back.
- **Read-only inputs.** An input `Buffer` says `writeable=False`, yet `np.asarray`
  of it is a writable view of the caller's array; `on_host` makes its input views
  read-only first, so a slip raises `ValueError` instead of changing that array.
  <!-- jaxcb:expect-observation gotcha buffer-inputs says_writeable=false view_writeable=true jax=0.12.0.1|0.10.2 -->
- **has_side_effect=False** (the default): JAX treats the call as pure. Under
  `jax.jit` a call whose result is unused is removed; otherwise the host runs once
  each time the compiled program runs.
- **Batching.** `vmap_method="expand_dims"`: `on_host` already loops over whatever
  shape `out` has and broadcasts its two arguments, so a batch is one host call
  (`"sequential"` would add a host call per batch element around the same loop).
  Both arguments are first reshaped to the rank of the output, so an unbatched one
  arrives with size-1 axes and is not tiled.
- **Derivatives.** A `jax.custom_jvp` rule (below): from the implicit function theorem,
  written in `jax.numpy` around the root `x` itself:
  `dx = (db - x*da) / (3x^2 + a)`. It reuses `x` and is differentiable, so `grad`,
  `jacfwd`, `jacrev` and `hessian` work; `cubic_root_callback` is the same call without
  the rule (`grad` through it raises).
- **Accurate at any scale.** The root is bracketed within a factor of a few
  (`[0, 2 min(cbrt|b|, |b|/a)]` for `a > 0`) and `brentq` stops on a *relative*
  tolerance (`rtol=4 eps`, `xtol` the smallest float): a root of `1e-20` is as
  accurate as a root of 1 (`xtol` is absolute, so `xtol=1e-15` alone would return
  0 for it).
- **Domain.** For `a > 0` the cubic is strictly increasing, so the root is unique.
  Otherwise `on_host` still returns a real root, but which one is unspecified.
  A NaN or infinite `a` or `b` gives NaN.
- **Types.** Floating `a` and `b`, in their common dtype; float16 and bfloat16
  reach the host as float32 and the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
- **What runs where.** The checks and reshapes run in Python when the function is
  traced; the derivative rule is compiled by XLA with the rest of the program;
  `on_host` runs in the Python interpreter, called by XLA in the middle of the
  program. CPU only: `np.asarray` needs the `__array__` protocol, which a `Buffer`
  has on CPU ([`buffer_callback`'s docstring](https://github.com/jax-ml/jax/blob/main/jax/_src/buffer_callback.py),
  JAX 0.12.0.1).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize
from jax.experimental.buffer_callback import Buffer, ExecutionContext, buffer_callback
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
    a = a.astype(jnp.result_type(a, b))  # their common dtype
    wide = a.astype(jnp.promote_types(a.dtype, jnp.float32))  # float16, bfloat16: float32
    return wide, b.astype(wide.dtype), a.dtype


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


def _read_only(buffer: Buffer) -> np.ndarray:
    """A NumPy view of an input buffer (no copy) that raises if written to."""
    view = np.asarray(buffer)  # writable, although the Buffer says writeable=False
    view.flags.writeable = False
    return view


def on_host(ctx: ExecutionContext, out: Buffer, a: Buffer, b: Buffer) -> None:
    """Runs on the host during the call: writes one root per element into `out`."""
    o = np.asarray(out)  # XLA's output buffer itself; its old contents are garbage
    a, b = np.broadcast_to(_read_only(a), o.shape), np.broadcast_to(_read_only(b), o.shape)
    for i in np.ndindex(o.shape):  # brentq is scalar-only: one element at a time
        o[i] = _root(float(a[i]), float(b[i]))


# --8<-- [end:host]


# --8<-- [start:callback]
def cubic_root_callback(
    a: ArrayLike, b: ArrayLike, *, vmap_method: str | None = VMAP_METHOD
) -> jax.Array:
    """The real root of `x**3 + a*x - b` on the host, in place, without a derivative rule."""
    a, b, dtype = _checked(a, b, vmap_method)
    shape = jnp.broadcast_shapes(a.shape, b.shape)
    a = jnp.reshape(a, (1,) * (len(shape) - a.ndim) + a.shape)  # same rank as the output:
    b = jnp.reshape(b, (1,) * (len(shape) - b.ndim) + b.shape)  # batch axes broadcast
    out_type = jax.ShapeDtypeStruct(shape, a.dtype)
    call = buffer_callback(on_host, out_type, has_side_effect=False, vmap_method=vmap_method)
    return call(a, b).astype(dtype)


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
    """Return the real root of `x**3 + a*x - b`, found by `brentq` on the host, in place.

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
