"""The five pure computations of `jaxcb_native`, their operations run on the host's processor.

Contract:

- **No Python on the host.** Each function checks its arguments as `jaxcb_native` does
  (the same `TypeError`/`ValueError`, naming the argument), then traces the
  `jax.numpy` code of the `jaxcb_native` function of the same name (copied below)
  under `on_host`, which marks every operation to run on the host's processor inside
  the same compiled program. Nothing calls back into Python, so there is no host
  function that JAX could drop, repeat or reorder.
- **Arguments, results and errors** are those of the `jaxcb_native` function of the same
  name; its page in this reference has them.
- **Transforms.** The support matrix on the site has the measured answer for every
  transform.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import jax.scipy.linalg
import numpy as np
from jax.experimental.compute_on import compute_on
from jax.typing import ArrayLike

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]

ORDER_LIMIT = 2**31 - 2  # int32 orders, with room for v - 1 and v + 1
NODES, RANGE = 128, 80  # bessel_jv's trapezoidal rule: accurate for |v| + |z| <= RANGE
NEWTON_STEPS = 2  # cubic_root's polish of Cardano's formula


def _array(fn: str, name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        return jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"{fn}: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"{fn}: {name} must be an array of numbers, got {got}") from None


def _check_floating(fn: str, **arrays: jax.Array) -> None:
    for name, a in arrays.items():
        if not jnp.issubdtype(a.dtype, jnp.floating):
            raise TypeError(f"{fn}: {name} must have a floating dtype, got {a.dtype}")


def _check_broadcastable(fn: str, a: tuple[str, jax.Array], b: tuple[str, jax.Array]) -> None:
    try:
        jnp.broadcast_shapes(a[1].shape, b[1].shape)
    except ValueError:
        raise ValueError(
            f"{fn}: {a[0]} and {b[0]} must be broadcastable, got shapes {a[1].shape} and "
            f"{b[1].shape}"
        ) from None


# --8<-- [start:pattern]
WRAPS = "out_memory_spaces" in inspect.signature(compute_on).parameters  # JAX 0.12 and later


def on_host(f: Callable[..., Any]) -> Callable[..., Any]:
    """`f`, with every operation it traces marked to run on the host's processor.

    `jax.experimental.compute_on` changed form between releases. JAX 0.12 wraps a function
    and asks where each result should live (`out_memory_spaces=`; `jax.memory.Space.Device`
    keeps it in device memory). Earlier releases took the compute type alone and were used
    as a context manager around the operations. Both mark every operation of `f` with
    `_xla_compute_type = "host"` in the lowered program.
    """
    if WRAPS:
        space = jax.memory.Space.Device  # one space for every result: results stay on device
        return compute_on(compute_type="device_host", out_memory_spaces=space)(f)

    @functools.wraps(f)
    def marked(*args: Any) -> Any:
        with compute_on("device_host"):  # type: ignore[call-arg]
            return f(*args)

    return marked


# --8<-- [end:pattern]


# --8<-- [start:sin_scale]
def sin_scale(x: ArrayLike, y: ArrayLike) -> jax.Array:
    """`sin(x) * y + 1`, as [`jaxcb_native.sin_scale`][jaxcb_native.sin_scale.sin_scale]."""
    x, y = _check_sin_scale(x, y)  # the errors the reader knows, before compute_on traces
    return on_host(_native_sin_scale)(x, y)


# --8<-- [end:sin_scale]


# --8<-- [start:sum_mean]
def sum_mean(x: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis, as
    [`jaxcb_native.sum_mean`][jaxcb_native.sum_mean.sum_mean]."""
    x = _check_sum_mean(x)
    return on_host(_native_sum_mean)(x)


# --8<-- [end:sum_mean]


# --8<-- [start:bessel_jv]
def bessel_jv(v: ArrayLike, z: ArrayLike) -> jax.Array:
    """`J_v(z)`, integer `v`, as [`jaxcb_native.bessel_jv`][jaxcb_native.bessel_jv.bessel_jv]."""
    v, z = _check_bessel_jv(v, z)
    return on_host(_native_bessel_jv)(v, z)


# --8<-- [end:bessel_jv]


# --8<-- [start:expm]
def expm(a: ArrayLike) -> jax.Array:
    """The matrix exponential, as [`jaxcb_native.expm`][jaxcb_native.expm.expm]."""
    a = _check_expm(a)
    return on_host(_native_expm)(a)


# --8<-- [end:expm]


# --8<-- [start:cubic_root]
def cubic_root(a: ArrayLike, b: ArrayLike) -> jax.Array:
    """The root of `x**3 + a*x - b`, as
    [`jaxcb_native.cubic_root`][jaxcb_native.cubic_root.cubic_root]."""
    a, b = _check_cubic_root(a, b)
    return on_host(_native_cubic_root)(a, b)


# --8<-- [end:cubic_root]


# The checks of each computation, as jaxcb_native makes them.


def _check_sin_scale(x: ArrayLike, y: ArrayLike) -> tuple[jax.Array, jax.Array]:
    x, y = _array("sin_scale", "x", x), _array("sin_scale", "y", y)
    _check_floating("sin_scale", x=x)
    if not (jnp.issubdtype(y.dtype, jnp.integer) or jnp.issubdtype(y.dtype, jnp.floating)):
        raise TypeError(f"sin_scale: y must have an integer or floating dtype, got {y.dtype}")
    if y.ndim != 0:
        raise ValueError(f"sin_scale: y must be a scalar, got shape {y.shape}")
    return x, y


def _check_sum_mean(x: ArrayLike) -> jax.Array:
    x = _array("sum_mean", "x", x)
    _check_floating("sum_mean", x=x)
    if x.ndim < 1:
        raise ValueError(f"sum_mean: x must have at least one axis, got shape {x.shape}")
    return x


def _check_bessel_jv(v: ArrayLike, z: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """int32 orders clamped to `+-ORDER_LIMIT`; `z` floating (an integer one in the default
    float dtype)."""
    v = _array("bessel_jv", "v", v)
    if not jnp.issubdtype(v.dtype, jnp.integer):
        raise TypeError(f"bessel_jv: v must have an integer dtype, got {v.dtype}")
    if v.dtype.itemsize >= 4:  # clamp before the cast: an unsigned or int64 order never wraps
        low = 0 if jnp.issubdtype(v.dtype, jnp.unsignedinteger) else -ORDER_LIMIT
        v = jnp.clip(v, low, ORDER_LIMIT)
    v, z = v.astype(jnp.int32), _array("bessel_jv", "z", z)
    if jnp.issubdtype(z.dtype, jnp.integer):
        z = z.astype(jnp.result_type(float))  # the default float: float64 under x64
    elif not jnp.issubdtype(z.dtype, jnp.floating):
        raise TypeError(f"bessel_jv: z must have an integer or floating dtype, got {z.dtype}")
    _check_broadcastable("bessel_jv", ("v", v), ("z", z))
    return v, z


def _check_expm(a: ArrayLike) -> jax.Array:
    a = _array("expm", "a", a)
    _check_floating("expm", a=a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    return a


def _check_cubic_root(a: ArrayLike, b: ArrayLike) -> tuple[jax.Array, jax.Array]:
    a, b = _array("cubic_root", "a", a), _array("cubic_root", "b", b)
    _check_floating("cubic_root", a=a, b=b)
    _check_broadcastable("cubic_root", ("a", a), ("b", b))
    return a, b


# The jax.numpy code of jaxcb_native (its module docstrings explain it), on checked arrays.


def _native_sin_scale(x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.sin(x) * y.astype(x.dtype) + 1


def _native_sum_mean(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    wide = jnp.promote_types(x.dtype, jnp.float32)  # accumulate narrow floats in float32
    total, mean = jnp.sum(x, axis=-1, dtype=wide), jnp.mean(x, axis=-1, dtype=wide)
    return total.astype(x.dtype), mean.astype(x.dtype)


def _native_bessel_jv(v: jax.Array, z: jax.Array) -> jax.Array:
    """Bessel's integral by the trapezoidal rule on `NODES` points; NaN beyond `RANGE`."""
    dtype = z.dtype
    z = z.astype(jnp.promote_types(dtype, jnp.float32))  # float16, bfloat16: in float32
    z = z + jnp.where(jnp.abs(v) + jnp.abs(z) <= RANGE, 0, jnp.nan)  # NaN, derivatives too
    j = jnp.arange(NODES, dtype=jnp.int32)  # t_j = 2*pi*j / NODES
    k = jnp.mod(v[..., None] * j, NODES)  # n*t_j = 2*pi*k / NODES (mod 2*pi), exactly
    step = 2 * np.pi / NODES
    angle = k.astype(z.dtype) * step - z[..., None] * jnp.sin(j.astype(z.dtype) * step)
    return jnp.mean(jnp.cos(angle), axis=-1).astype(dtype)


def _native_expm(a: jax.Array) -> jax.Array:
    wide = jnp.promote_types(a.dtype, jnp.float32)  # float16, bfloat16: in float32
    return jax.scipy.linalg.expm(a.astype(wide)).astype(a.dtype)


def _native_cubic_root(a: jax.Array, b: jax.Array) -> jax.Array:
    """Cardano's formula without cancellation on the problem scaled by a power of two,
    polished by `NEWTON_STEPS` Newton steps."""
    dtype = jnp.result_type(a, b)
    a = a.astype(jnp.promote_types(dtype, jnp.float32))
    b = b.astype(a.dtype)
    (_, ea), (_, eb) = jnp.frexp(a), jnp.frexp(b)  # x = m * 2**e with 0.5 <= |m| < 1
    unset = -(2**29)  # below any exponent: a zero coefficient does not set k
    ka = jnp.where(a == 0, unset, -(-ea // 2))  # ceil(ea / 2): |a| / 2**(2k) < 1
    kb = jnp.where(b == 0, unset, -(-eb // 3))  # ceil(eb / 3): |b| / 2**(3k) < 1
    s = jnp.ldexp(jnp.ones_like(a), -jnp.maximum(ka, kb))  # 2**-k, k from the exponents
    big_a, big_b = a * s * s, b * s * s * s  # one factor at a time: none overflows
    p = big_a / 3
    u = jnp.cbrt(jnp.abs(big_b) / 2 + jnp.sqrt((big_b / 2) ** 2 + p**3))
    x = b * s * s / (u * u + p + (p / u) ** 2)
    for _ in range(NEWTON_STEPS):  # rounding in Cardano's formula; cheap to remove
        x = x - (x * (x * x + a) - b) / (3 * x * x + a)
    return x.astype(dtype)
