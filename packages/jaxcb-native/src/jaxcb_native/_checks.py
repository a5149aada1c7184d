"""The argument checks of every jaxcb pattern package, in one place.

Not part of any lesson: each pattern module calls these first (through its package's
`_checks`, which adds the few checks only that package needs), so that every bad argument
is a `TypeError` or `ValueError` naming it, raised before JAX sees it, and the module itself
holds the pattern. Copy this file, and the package's `_checks.py`, with the pattern module
you copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike

__all__ = [
    "ORDER_LIMIT",
    "array",
    "bessel_jv",
    "bessel_jv_for_host",
    "broadcastable",
    "count",
    "cubic_root",
    "cubic_root_for_host",
    "expm",
    "expm_for_host",
    "flag",
    "floating",
    "hashable",
    "host_draw",
    "log_steps",
    "orders",
    "progress",
    "sin_scale",
    "sin_scale_for_host",
    "sink",
    "sum_mean",
    "sum_mean_for_host",
    "vmap_method",
]


def array(fn: str, name: str, value: object) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"{fn}: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = type(value).__name__
        if isinstance(value, np.ndarray):
            got = f"an array of dtype {value.dtype}"
        raise TypeError(f"{fn}: {name} must be an array of numbers, got {got}") from None


def floating(fn: str, name: str, value: ArrayLike) -> jax.Array:
    """`value` as an array of a floating dtype."""
    a = array(fn, name, value)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"{fn}: {name} must have a floating dtype, got {a.dtype}")
    return a


ORDER_LIMIT = 2**31 - 2  # int32 orders, with room for v - 1 and v + 1


def orders(fn: str, v: ArrayLike) -> jax.Array:
    """Integer orders as int32, clamped to `+-ORDER_LIMIT`: `v - 1` and `v + 1` never wrap."""
    v = array(fn, "v", v)
    if not jnp.issubdtype(v.dtype, jnp.integer):
        raise TypeError(f"{fn}: v must have an integer dtype, got {v.dtype}")
    if v.dtype.itemsize >= 4:  # clamp before the cast: an unsigned or int64 order never wraps
        low = 0 if jnp.issubdtype(v.dtype, jnp.unsignedinteger) else -ORDER_LIMIT
        v = jnp.clip(v, low, ORDER_LIMIT)
    return v.astype(jnp.int32)


def broadcastable(fn: str, a: tuple[str, jax.Array], b: tuple[str, jax.Array]) -> tuple[int, ...]:
    """The shape `a` and `b` broadcast to, or an error naming both."""
    try:
        return jnp.broadcast_shapes(a[1].shape, b[1].shape)
    except ValueError:
        raise ValueError(
            f"{fn}: {a[0]} and {b[0]} must be broadcastable, got shapes {a[1].shape} and "
            f"{b[1].shape}"
        ) from None


def sin_scale(x: ArrayLike, y: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """`x` a floating array, `y` a real scalar (not bool or complex)."""
    x, y = array("sin_scale", "x", x), array("sin_scale", "y", y)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"sin_scale: x must have a floating dtype, got {x.dtype}")
    if not (jnp.issubdtype(y.dtype, jnp.integer) or jnp.issubdtype(y.dtype, jnp.floating)):
        raise TypeError(f"sin_scale: y must have an integer or floating dtype, got {y.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    return x, y


def sum_mean(x: ArrayLike) -> jax.Array:
    """`x` a floating array with at least one axis."""
    x = floating("sum_mean", "x", x)
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    return x


def bessel_jv(v: ArrayLike, z: ArrayLike) -> tuple[jax.Array, jax.Array, tuple[int, ...]]:
    """int32 orders `v`, `z` floating (an integer `z` in the default float dtype), and the
    shape they broadcast to."""
    v, z = orders("bessel_jv", v), array("bessel_jv", "z", z)
    if jnp.issubdtype(z.dtype, jnp.integer):
        z = z.astype(jnp.result_type(float))  # the default float: float64 under x64
    elif not jnp.issubdtype(z.dtype, jnp.floating):
        raise TypeError(f"bessel_jv: z must have an integer or floating dtype, got {z.dtype}")
    return v, z, broadcastable("bessel_jv", ("v", v), ("z", z))


def expm(a: ArrayLike) -> jax.Array:
    """`a` a floating stack of square matrices, shape `(..., n, n)`."""
    a = floating("expm", "a", a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    return a


def cubic_root(a: ArrayLike, b: ArrayLike) -> tuple[jax.Array, jax.Array, tuple[int, ...]]:
    """`a` and `b` floating arrays, and the shape they broadcast to."""
    a, b = array("cubic_root", "a", a), array("cubic_root", "b", b)
    for name, arg in (("a", a), ("b", b)):
        if not jnp.issubdtype(arg.dtype, jnp.floating):
            raise TypeError(f"cubic_root: {name} must have a floating dtype, got {arg.dtype}")
    return a, b, broadcastable("cubic_root", ("a", a), ("b", b))


def vmap_method(fn: str, value: object, allowed: Sequence[str | None]) -> None:
    if value not in allowed:
        raise ValueError(f"{fn}: vmap_method must be one of {tuple(allowed)}, got {value!r}")


# The roads to the host (jaxcb_pure, jaxcb_buffer, jaxcb_ffi, jaxcb_pyffi) check the same
# arguments, then widen float16 and bfloat16 to float32 (the host computes in float32 or
# float64) and cast the result back: each function below returns the checked arguments as
# the host takes them, then the dtype of the result.


def _widened(
    fn: str, a: jax.Array, method: object, allowed: Sequence[str | None]
) -> tuple[jax.Array, Any]:
    """`vmap_method` checked; `a` in a floating dtype of 32 bits or more, and its own dtype."""
    vmap_method(fn, method, allowed)
    return a.astype(jnp.promote_types(a.dtype, jnp.float32)), a.dtype


def sin_scale_for_host(
    x: ArrayLike, y: ArrayLike, method: object, allowed: Sequence[str | None]
) -> tuple[jax.Array, jax.Array, Any]:
    """`x` and `y` in one floating dtype (float16, bfloat16: float32), and the result's."""
    x, y = sin_scale(x, y)
    x, dtype = _widened("sin_scale", x, method, allowed)
    return x, y.astype(x.dtype), dtype


def sum_mean_for_host(
    x: ArrayLike, method: object, allowed: Sequence[str | None]
) -> tuple[jax.Array, Any]:
    """`x` in a floating dtype of 32 bits or more, and the dtype of the results."""
    return _widened("sum_mean", sum_mean(x), method, allowed)


def bessel_jv_for_host(
    v: ArrayLike, z: ArrayLike, method: object, allowed: Sequence[str | None]
) -> tuple[jax.Array, jax.Array, Any]:
    """int32 orders, `z` in a floating dtype of 32 bits or more, and the result's dtype."""
    v, z, _ = bessel_jv(v, z)
    z, dtype = _widened("bessel_jv", z, method, allowed)
    return v, z, dtype


def expm_for_host(
    a: ArrayLike, method: object, allowed: Sequence[str | None]
) -> tuple[jax.Array, Any]:
    """`a` in a floating dtype of 32 bits or more, and the dtype of the result."""
    return _widened("expm", expm(a), method, allowed)


def cubic_root_for_host(
    a: ArrayLike, b: ArrayLike, method: object, allowed: Sequence[str | None]
) -> tuple[jax.Array, jax.Array, Any]:
    """`a` and `b` in one floating dtype of 32 bits or more, and the result's dtype."""
    a, b, _ = cubic_root(a, b)
    a, dtype = _widened("cubic_root", a.astype(jnp.result_type(a, b)), method, allowed)
    return a, b.astype(a.dtype), dtype


def flag(fn: str, name: str, value: object) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{fn}: {name} must be a bool, got {type(value).__name__}")
    return bool(value)


def sink(fn: str, name: str, value: object) -> Callable[..., Any] | None:
    if value is not None and not callable(value):
        raise TypeError(f"{fn}: {name} must be callable or None, got {type(value).__name__}")
    return value


def count(fn: str, name: str, value: object, low: int) -> int:
    """A Python int step count in `[low, 2**31)`: the steps are counted in int32."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{fn}: {name} must be a Python int, got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{fn}: {name} must be >= {low}, got {value}")
    if value >= 2**31:
        raise ValueError(f"{fn}: {name} must be < 2**31 (steps are counted in int32), got {value}")
    return value


def hashable(value: object) -> bool:
    """Whether `value` can be a static argument of `jax.jit` (it must hash)."""
    try:
        hash(value)
    except TypeError:
        return False
    return True


def log_steps(fn: str, x0: ArrayLike, n: object, log: object) -> jax.Array:
    """`x0` floating, `n` a step count, `log` callable or None."""
    x0 = floating(fn, "x0", x0)
    count(fn, "n", n, 0)
    sink(fn, "log", log)
    return x0


def progress(fn: str, x0: ArrayLike, n: object, every: object, report: object) -> jax.Array:
    """`x0` floating, `n` and `every` step counts, `report` callable or None."""
    x0 = floating(fn, "x0", x0)
    count(fn, "n", n, 0)
    count(fn, "every", every, 1)
    sink(fn, "report", report)
    return x0


def host_draw(shape: object, rng: object) -> tuple[int, ...]:
    """`shape` a tuple of non-negative ints below `2**31`; `rng` a NumPy generator or None."""
    if not (
        isinstance(shape, tuple)
        and all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d < 2**31 for d in shape)
    ):
        raise ValueError(
            f"host_draw: shape must be a tuple of non-negative ints below 2**31, got {shape!r}"
        )
    if rng is not None and not callable(getattr(rng, "standard_normal", None)):
        raise TypeError(  # duck-typed: a wrapper that counts draws is a generator too
            "host_draw: rng must be a numpy.random.Generator (an object with "
            f"standard_normal) or None, got {type(rng).__name__}"
        )
    return shape
