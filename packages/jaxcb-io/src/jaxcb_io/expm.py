"""Matrix exponential, ``scipy.linalg.expm``, through `jax.experimental.io_callback`.

Contract:

- **Not elementwise.** Each `(n, n)` matrix is one unit of work; a stack of
  shape `(..., n, n)` goes to the host in one call (`scipy.linalg.expm` accepts
  stacks).
- **Not removed when unused.** Under `jax.jit` the host runs once per call even
  when the result is unused.
  Not a promise of one call per execution: inside a `lax.scan` or `lax.fori_loop`
  that `grad` differentiates, JAX may run it fewer times than the loop has steps
  (once for 3 steps when its arguments are loop constants).
  <!-- jaxcb:expect io_callback expm jit_unused status=ok host_calls=1 -->
  <!-- jaxcb:expect io_callback expm grad_scan_const|grad_fori_const host_calls=1 -->
  <!-- jaxcb:expect io_callback expm grad_scan_const|grad_fori_const effects.verdict=missing -->
- **Ordering.** `ordered=False` by default; `ordered=True` cannot be batched:
  `vmap` raises `ValueError`.
  <!-- jaxcb:expect io_callback/ordered expm vmap status=error error_type=ValueError -->
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
  <!-- jaxcb:expect io_callback/unordered expm vmap status=ok host_calls=4 -->
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. `jaxcb_pure.expm` has a `custom_vjp` for reverse mode.
- **Non-finite input.** A matrix with a NaN or infinite entry comes out as a matrix
  of NaN (the others of a stack are unaffected), as in every jaxcb package;
  `scipy.linalg.expm` itself returns `exp` of each entry of a diagonal matrix.
- **Types.** Any floating dtype: float16 and bfloat16 reach the host as float32 and
  the result is cast back.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["expm", "on_host"]


# --8<-- [start:host]
def on_host(a: np.ndarray) -> np.ndarray:
    """Runs on the host with a concrete stack of matrices; returns the dtype of `a`."""
    a = np.asarray(a)  # callbacks receive jax.Array: view, no copy
    finite = np.isfinite(a).all(axis=(-2, -1))
    if finite.all():  # the common case: no copies of the input
        return scipy.linalg.expm(a).astype(a.dtype, copy=False)  # expm takes (..., n, n)
    out = np.full(a.shape, np.nan, a.dtype)  # NaN for a matrix with a non-finite entry
    out[finite] = scipy.linalg.expm(a[finite])
    return out


# --8<-- [end:host]


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


def _check(a: ArrayLike, ordered: object) -> tuple[jax.Array, bool]:
    """`a` a floating stack of square matrices, shape `(..., n, n)`; `ordered` a bool."""
    a = _array("a", a)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"expm: a must have a floating dtype, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"expm: ordered must be a bool, got {type(ordered).__name__}")
    return a, bool(ordered)


# --8<-- [start:pattern]
def expm(a: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return the matrix exponential of `a` from SciPy on the host.

    Args:
        a: floating array of shape `(..., n, n)`.
        ordered: serialise this host call with other ordered effects.

    Returns:
        An array of the shape and dtype of `a`; NaN for a matrix with a non-finite entry.

    Raises:
        TypeError: `a` is not a floating array, or `ordered` is not a bool.
        ValueError: `a` is not a (stack of) square matrices.
    """
    a, ordered = _check(a, ordered)
    wide = jnp.promote_types(a.dtype, jnp.float32)  # float16, bfloat16: float32 on the host
    out_type = jax.ShapeDtypeStruct(a.shape, wide)
    return io_callback(on_host, out_type, a.astype(wide), ordered=ordered).astype(a.dtype)


# --8<-- [end:pattern]
