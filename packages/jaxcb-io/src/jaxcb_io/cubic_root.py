"""Real root of ``x**3 + a*x - b`` by ``scipy.optimize.brentq``, through `io_callback`.

`brentq` solves one scalar equation at a time, so the host loops over the
elements: the typical shape of wrapping scalar-only library code.

Contract:

- **Unique root for `a > 0`** (the function is strictly increasing). For other
  `a` the host still returns *a* real root; which one is not specified. A NaN or
  infinite `a` or `b` gives NaN.
- **Accurate at any scale.** The root is bracketed within a factor of a few
  (`[0, 2 min(cbrt|b|, |b|/a)]` for `a > 0`) and `brentq` stops on a *relative*
  tolerance (`rtol=4 eps`, `xtol` the smallest float): a root of `1e-20` is as
  accurate as a root of 1 (`xtol` is absolute, so `xtol=1e-15` alone would return
  0 for it).
- **Not removed when unused.** Under `jax.jit` the host runs once per call even
  when the result is unused.
  Not a promise of one call per execution: inside a `lax.scan` or `lax.fori_loop`
  that `grad` differentiates, JAX may run it fewer times than the loop has steps
  (once for 3 steps when its arguments are loop constants).
  <!-- jaxcb:expect io_callback cubic_root jit_unused status=ok host_calls=1 -->
  <!-- jaxcb:expect io_callback cubic_root grad_scan_const|grad_fori_const host_calls=1 -->
  <!-- jaxcb:expect io_callback cubic_root grad_scan_const|grad_fori_const effects.verdict=missing -->
- **Ordering.** `ordered=False` by default; `ordered=True` cannot be batched:
  `vmap` raises `ValueError`.
  <!-- jaxcb:expect io_callback/ordered cubic_root vmap status=error error_type=ValueError -->
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
  <!-- jaxcb:expect io_callback/unordered cubic_root vmap status=ok host_calls=4 -->
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. `jaxcb_pure.cubic_root` adds the implicit-function derivative.
- **Types.** Floating `a` and `b`, in their common dtype; float16 and bfloat16
  reach the host as float32 and the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import scipy.optimize
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["cubic_root", "on_host"]


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


def on_host(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays of one shape; returns the dtype of `a`."""
    a, b = np.asarray(a), np.asarray(b)  # callbacks receive jax.Array: view, no copy
    roots = [_root(ai, bi) for ai, bi in zip(a.ravel().tolist(), b.ravel().tolist(), strict=True)]
    return np.asarray(roots, dtype=np.float64).reshape(a.shape).astype(a.dtype)


# --8<-- [end:host]


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


def _check(a: ArrayLike, b: ArrayLike, ordered: object) -> tuple[jax.Array, jax.Array, bool]:
    """`a` and `b` floating, broadcast to one shape and dtype; `ordered` a bool."""
    a, b = _array("a", a), _array("b", b)
    for name, arg in (("a", a), ("b", b)):
        if not jnp.issubdtype(arg.dtype, jnp.floating):
            raise TypeError(f"cubic_root: {name} must have a floating dtype, got {arg.dtype}")
    try:
        shape = jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"cubic_root: a and b must be broadcastable, got shapes {a.shape} and {b.shape}"
        ) from None
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"cubic_root: ordered must be a bool, got {type(ordered).__name__}")
    dtype = jnp.result_type(a, b)
    a, b = jnp.broadcast_to(a, shape).astype(dtype), jnp.broadcast_to(b, shape).astype(dtype)
    return a, b, bool(ordered)


# --8<-- [start:pattern]
def cubic_root(a: ArrayLike, b: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return the real root of `x**3 + a*x - b` (unique for `a > 0`), solved on the host.

    Args:
        a: floating array, `> 0` for a unique root.
        b: floating array, broadcastable with `a`.
        ordered: serialise this host call with other ordered effects.

    Returns:
        An array of shape `broadcast(a, b)` and dtype `result_type(a, b)`.

    Raises:
        TypeError: `a` or `b` is not a floating array, or `ordered` is not a bool.
        ValueError: `a` and `b` do not broadcast.
    """
    a, b, ordered = _check(a, b, ordered)  # broadcast here: the host loops over elements
    wide = jnp.promote_types(a.dtype, jnp.float32)  # float16, bfloat16: float32 on the host
    out_type = jax.ShapeDtypeStruct(a.shape, wide)
    out = io_callback(on_host, out_type, a.astype(wide), b.astype(wide), ordered=ordered)
    return out.astype(a.dtype)


# --8<-- [end:pattern]
