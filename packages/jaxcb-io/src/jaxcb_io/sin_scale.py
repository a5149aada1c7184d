"""``sin(x) * y + 1`` through `jax.experimental.io_callback`.

Contract:

- **Not removed when unused.** Under `jax.jit` the host runs once per call even
  when the result is unused, and once per element under `vmap`.
  Not a promise of one call per execution: inside a `lax.scan` or `lax.fori_loop`
  that `grad` differentiates, JAX may run it fewer times than the loop has steps
  (once for 3 steps when its arguments are loop constants).
  <!-- jaxcb:expect io_callback sin_scale jit_unused status=ok host_calls=1 -->
  <!-- jaxcb:expect io_callback sin_scale grad_scan_const|grad_fori_const host_calls=1 -->
  <!-- jaxcb:expect io_callback sin_scale grad_scan_const|grad_fori_const effects.verdict=missing -->
- **Ordering.** `ordered=False` by default (nothing here depends on order);
  `ordered=True` serialises host calls against other ordered effects and cannot
  be batched: `vmap` raises.
  <!-- jaxcb:expect io_callback/ordered sin_scale vmap status=error error_type=ValueError -->
- **Batching.** `vmap` becomes a sequential loop, one host call per element.
  <!-- jaxcb:expect io_callback/unordered sin_scale vmap status=ok host_calls=4 -->
- **Derivatives.** none: io_callback has no JVP rule and is not allowed inside
  `custom_jvp`, so `grad` raises. Use `jaxcb_pure.sin_scale` to differentiate.
- **Types.** `x` any floating dtype: float16 and bfloat16 reach the host as float32
  and the result is cast back. `y` a real scalar (not bool or complex).
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.typing import ArrayLike

__all__ = ["on_host", "sin_scale"]


def on_host(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Runs on the host with concrete arrays; returns the dtype JAX was promised."""
    x, y = np.asarray(x), np.asarray(y)  # callbacks receive jax.Array: view, no copy
    out = np.sin(x) * y
    out += 1
    return out


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


def _check(x: ArrayLike, y: ArrayLike, ordered: object) -> tuple[jax.Array, jax.Array, bool]:
    """`x` a floating array, `y` a real scalar in its dtype, `ordered` a bool."""
    x, y = _array("x", x), _array("y", y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if not (jnp.issubdtype(y.dtype, jnp.integer) or jnp.issubdtype(y.dtype, jnp.floating)):
        raise TypeError(f"sin_scale: y must have an integer or floating dtype, got {y.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"sin_scale: ordered must be a bool, got {type(ordered).__name__}")
    return x, y.astype(x.dtype), bool(ordered)


# --8<-- [start:pattern]
def sin_scale(x: ArrayLike, y: ArrayLike, *, ordered: bool = False) -> jax.Array:
    """Return `sin(x) * y + 1`, computed by NumPy on the host.

    Args:
        x: floating array of any shape.
        y: real scalar, cast to the dtype of `x`.
        ordered: serialise this host call with other ordered effects.

    Returns:
        An array of the shape and dtype of `x`.

    Raises:
        TypeError: `x` is not a floating array, `y` is not real, or `ordered` is not a bool.
        ValueError: `y` is not a scalar.
    """
    x, y, ordered = _check(x, y, ordered)
    wide = jnp.promote_types(x.dtype, jnp.float32)  # float16, bfloat16: float32 on the host
    out_type = jax.ShapeDtypeStruct(x.shape, wide)
    out = io_callback(on_host, out_type, x.astype(wide), y.astype(wide), ordered=ordered)
    return out.astype(x.dtype)


# --8<-- [end:pattern]
