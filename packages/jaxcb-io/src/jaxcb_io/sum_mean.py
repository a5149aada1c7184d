"""``(sum, mean)`` over the last axis through `jax.experimental.io_callback`.

Contract:

- **Not removed when unused.** Under `jax.jit` the host runs once per call even
  when the result is unused.
  Not a promise of one call per execution: inside a `lax.scan` or `lax.fori_loop`
  that `grad` differentiates, JAX may run it fewer times than the loop has steps
  (once for 3 steps when its arguments are loop constants).
  <!-- jaxcb:expect io_callback sum_mean jit_unused status=ok host_calls=1 -->
  <!-- jaxcb:expect io_callback sum_mean grad_scan_const|grad_fori_const host_calls=1 -->
  <!-- jaxcb:expect io_callback sum_mean grad_scan_const|grad_fori_const effects.verdict=missing -->
- **Pytree output.** The host returns a tuple; `io_callback` is told its shape
  with a matching tuple of `jax.ShapeDtypeStruct`.
- **Ordering.** `ordered=False` by default (nothing here depends on order);
  `ordered=True` serialises host calls against other ordered effects and cannot
  be batched: `vmap` raises `ValueError`.
  <!-- jaxcb:expect io_callback/ordered sum_mean vmap status=error error_type=ValueError -->
- **Batching.** With `ordered=False`, `vmap` becomes a sequential loop: one host
  call per batch element.
  <!-- jaxcb:expect io_callback/unordered sum_mean vmap status=ok host_calls=4 -->
- **Derivatives.** none: io_callback has no JVP rule, so `grad` raises
  `ValueError`. Use `jaxcb_pure.sum_mean` to differentiate.
- **Types.** Any floating dtype: float16 and bfloat16 reach the host as float32, so
  they are accumulated in float32 (as NumPy does for float16), and both results are
  cast back. An empty last axis gives a sum of 0 and a mean of NaN.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["on_host", "sum_mean"]


# --8<-- [start:host]
def on_host(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Runs on the host with a concrete array; returns the dtype JAX was promised."""
    x = np.asarray(x)  # callbacks receive jax.Array: view, no copy
    total = x.sum(axis=-1)
    with np.errstate(invalid="ignore"):  # an empty last axis: 0 / 0 is NaN, silently
        mean = total / x.shape[-1]
    return np.asarray(total, dtype=x.dtype), np.asarray(mean, dtype=x.dtype)


# --8<-- [end:host]


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


def _check(x: ArrayLike, ordered: object) -> tuple[jax.Array, bool]:
    """`x` a floating array with at least one axis, `ordered` a bool."""
    x = _array("x", x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sum_mean: x must have a floating dtype, got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"sum_mean: ordered must be a bool, got {type(ordered).__name__}")
    return x, bool(ordered)


# --8<-- [start:pattern]
def sum_mean(x: ArrayLike, *, ordered: bool = False) -> tuple[jax.Array, jax.Array]:
    """Return `(x.sum(-1), x.mean(-1))`, computed by NumPy on the host.

    Args:
        x: floating array with at least one axis.
        ordered: serialise this host call with other ordered effects.

    Returns:
        Two arrays of shape `x.shape[:-1]` and the dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, or `ordered` is not a bool.
        ValueError: `x` is a scalar.
    """
    x, ordered = _check(x, ordered)
    wide = jnp.promote_types(x.dtype, jnp.float32)  # float16, bfloat16: float32 on the host
    reduced = jax.ShapeDtypeStruct(x.shape[:-1], wide)
    total, mean = io_callback(on_host, (reduced, reduced), x.astype(wide), ordered=ordered)
    return total.astype(x.dtype), mean.astype(x.dtype)


# --8<-- [end:pattern]
