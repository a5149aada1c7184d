"""The five pure computations, run as Python on the host next to the devices.

Contract:

- **Outside `jit` only.** Each function checks its arguments as `jaxcb_native` does
  (the same `TypeError`/`ValueError`, naming the argument), then calls a function that
  `colocated_python` runs on the host of the devices its arguments live on: the NumPy
  function of `jaxcb_pure`'s pattern of the same name (copied here as `<name>_on_host`),
  its result put back on those devices. `colocated_python` takes concrete `jax.Array`s
  only: under `jit`, `grad`, `vmap` and every other transform that traces, each function
  raises `TypeError` naming the traced argument, before anything runs.
  <!-- jaxcb:expect colocated_python sin_scale|sum_mean|bessel_jv|expm|cubic_root jit|grad|vmap status=error error_type=TypeError -->
- **Arguments, results and errors** are those of the `jaxcb_native` function of the same
  name; float16 and bfloat16 are computed in float32 and returned in their own dtype.
  Arrays of at most 64 axes: NumPy's limit on the host (32 before NumPy 2).
- **Devices.** The arguments may live on any device, or be sharded over several by a
  `NamedSharding` (the host then sees the whole array, gathered in this one process):
  `colocated_python` needs every array argument on the same devices, so they are placed
  as `jax.jit` places its arguments. Arrays committed to devices (`jax.device_put` to a
  device or a sharding, or computed from such arrays) must share one device list; the
  others (NumPy arrays, Python numbers, arrays made without a device) are moved to it.
  The result comes back sharded as the argument of its shape (`x`, `z` or `a`; for
  `sum_mean`, as `x` without its last axis). Two committed arguments on different
  devices, or an argument over several devices with another kind of sharding than
  `NamedSharding` (none is public in JAX 0.10.2 and later), raise `ValueError` naming
  them, before anything runs.
- **A copy of the function.** JAX pickles the function to send it to the host: anything
  it changes that it did not import lives in the copy.
- **Missing road.** On a JAX without `colocated_python` (0.4.30) each function checks its
  arguments, then raises `NotImplementedError` naming the JAX version.
"""

from __future__ import annotations

import functools
import importlib
import math
import types
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special
from jax.sharding import NamedSharding, PartitionSpec
from jax.typing import ArrayLike

__all__ = ["bessel_jv", "cubic_root", "expm", "sin_scale", "sum_mean"]

ORDER_LIMIT = 2**31 - 2  # int32 orders, with room for v - 1 and v + 1

colocated_python: types.ModuleType | None
try:  # it imports cloudpickle, to send the function to the host
    colocated_python = importlib.import_module("jax.experimental.colocated_python")
except ImportError:  # JAX 0.4.30 has no colocated_python
    colocated_python = None


def near_devices(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, run as Python on the host of the devices its `jax.Array` arguments live on."""
    if colocated_python is not None:
        return colocated_python.colocated_python(fn)

    @functools.wraps(fn)
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f"jax.experimental.colocated_python is not in JAX {jax.__version__}: "
            "upgrade JAX to use jaxcb_colocated"
        )

    return missing


def _wide(*args: jax.Array) -> list[jax.Array]:
    """float16 and bfloat16 as float32: the host computes in NumPy's float32 or wider."""
    return [a.astype(jnp.promote_types(a.dtype, jnp.float32)) for a in args]


def _placed(fn: str, **arrays: jax.Array) -> list[jax.Array]:
    """The arrays on one device list, as `jax.jit` places its arguments: the uncommitted
    ones move to the devices of the first committed one (of the first one, if none is)."""
    where = {name: _device_list(fn, name, a) for name, a in arrays.items()}
    home = next((n for n, a in arrays.items() if a.committed), next(iter(arrays)))
    placed = []
    for name, a in arrays.items():
        if where[name] != where[home]:
            if a.committed:
                raise ValueError(
                    f"{fn}: {home} and {name} must be on the same devices, got {home} on "
                    f"{where[home]} and {name} on {where[name]}: move one with jax.device_put"
                )
            a = jax.device_put(a, _sharding_like(arrays[home], a.shape))
        placed.append(a)
    return placed


def _device_list(fn: str, name: str, a: jax.Array) -> list[jax.Device]:
    """The devices of `a` in their order, which colocated_python compares."""
    if isinstance(a.sharding, NamedSharding):
        return list(a.sharding.mesh.devices.flat)
    if len(a.devices()) > 1:  # no mesh to put a scalar on
        raise ValueError(
            f"{fn}: {name} must be on one device or sharded by a NamedSharding, got a "
            f"{type(a.sharding).__name__} over {len(a.devices())} devices"
        )
    return list(a.devices())


def _sharding_like(home: jax.Array, shape: tuple[int, ...]) -> jax.sharding.Sharding:
    """A sharding for an array of `shape` on the devices of `home`."""
    if not isinstance(home.sharding, NamedSharding) or shape == home.shape:
        return home.sharding  # one device, or an array of its shape: sharded as it is
    return NamedSharding(home.sharding.mesh, PartitionSpec())  # a copy on each device


# --8<-- [start:sin_scale]
def sin_scale_on_host(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """`sin(x) * y + 1` in NumPy (`jaxcb_pure.sin_scale.on_host`)."""
    x, y = np.asarray(x), np.asarray(y)
    if y.size == 1:  # one value (no batch): NumPy's scalar loop beats a stride-0 broadcast
        y = y.reshape(())
    out = np.sin(x) * y
    out += 1
    return out


@near_devices
def _sin_scale(x: jax.Array, y: jax.Array) -> jax.Array:
    out = sin_scale_on_host(np.asarray(x), np.asarray(y))  # NumPy, on the host
    return jax.device_put(out, x.sharding)  # back on the devices x came from


def sin_scale(x: ArrayLike, y: ArrayLike) -> jax.Array:
    """`sin(x) * y + 1`, as [`jaxcb_native.sin_scale`][jaxcb_native.sin_scale.sin_scale]."""
    x, y = _check_sin_scale(x, y)
    _check_concrete("sin_scale", x=x, y=y)
    return _sin_scale(*_wide(*_placed("sin_scale", x=x, y=y))).astype(x.dtype)


# --8<-- [end:sin_scale]


# --8<-- [start:sum_mean]
def sum_mean_on_host(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sum and the mean over the last axis in NumPy (`jaxcb_pure.sum_mean.on_host`)."""
    x = np.asarray(x)
    total = x.sum(axis=-1, dtype=x.dtype)
    with np.errstate(invalid="ignore"):  # an empty last axis: 0 / 0 is NaN, silently
        mean = total / x.shape[-1]
    return total, mean.astype(x.dtype, copy=False)


@near_devices
def _sum_mean(x: jax.Array) -> tuple[jax.Array, jax.Array]:
    total, mean = sum_mean_on_host(np.asarray(x))
    sharding = x.sharding  # the results lack the last axis of x: so does their sharding
    if isinstance(sharding, NamedSharding):
        sharding = NamedSharding(sharding.mesh, PartitionSpec(*sharding.spec[: x.ndim - 1]))
    return jax.device_put(total, sharding), jax.device_put(mean, sharding)


def sum_mean(x: ArrayLike) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis, as
    [`jaxcb_native.sum_mean`][jaxcb_native.sum_mean.sum_mean]."""
    x = _check_sum_mean(x)
    _check_concrete("sum_mean", x=x)
    total, mean = _sum_mean(*_wide(*_placed("sum_mean", x=x)))
    return total.astype(x.dtype), mean.astype(x.dtype)


# --8<-- [end:sum_mean]


# --8<-- [start:bessel_jv]
def bessel_jv_on_host(v: np.ndarray, z: np.ndarray) -> np.ndarray:
    """`J_v(z)` by SciPy (`jaxcb_pure.bessel_jv.on_host`)."""
    v, z = np.asarray(v), np.asarray(z)
    return scipy.special.jv(v, z).astype(z.dtype, copy=False)  # broadcasts like a ufunc


@near_devices
def _bessel_jv(v: jax.Array, z: jax.Array) -> jax.Array:
    return jax.device_put(bessel_jv_on_host(np.asarray(v), np.asarray(z)), z.sharding)


def bessel_jv(v: ArrayLike, z: ArrayLike) -> jax.Array:
    """`J_v(z)`, integer `v`, as [`jaxcb_native.bessel_jv`][jaxcb_native.bessel_jv.bessel_jv]."""
    v, z, shape = _check_bessel_jv(v, z)
    _check_concrete("bessel_jv", v=v, z=z)
    v, z = jnp.broadcast_to(v, shape), jnp.broadcast_to(z, shape)  # one sharding for both
    v, z = _placed("bessel_jv", v=v, z=z)
    return _bessel_jv(v, *_wide(z)).astype(z.dtype)


# --8<-- [end:bessel_jv]


# --8<-- [start:expm]
def expm_on_host(a: np.ndarray) -> np.ndarray:
    """The matrix exponential by SciPy, NaN for a matrix with a non-finite entry
    (`jaxcb_pure.expm.on_host`)."""
    a = np.asarray(a)
    finite = np.isfinite(a).all(axis=(-2, -1))
    if finite.all():  # the common case: no copies of the input
        return scipy.linalg.expm(a).astype(a.dtype, copy=False)  # expm takes (..., n, n)
    out = np.full(a.shape, np.nan, a.dtype)
    out[finite] = scipy.linalg.expm(a[finite])
    return out


@near_devices
def _expm(a: jax.Array) -> jax.Array:
    return jax.device_put(expm_on_host(np.asarray(a)), a.sharding)


def expm(a: ArrayLike) -> jax.Array:
    """The matrix exponential, as [`jaxcb_native.expm`][jaxcb_native.expm.expm]."""
    a = _check_expm(a)
    _check_concrete("expm", a=a)
    return _expm(*_wide(*_placed("expm", a=a))).astype(a.dtype)


# --8<-- [end:expm]


# --8<-- [start:cubic_root]
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


def _shape(a: np.ndarray, b: np.ndarray) -> tuple[int, ...]:
    """The shape `a` and `b` broadcast to, from their shapes: `np.broadcast_arrays` and
    `np.broadcast_shapes` stop at 32 axes."""
    n = max(a.ndim, b.ndim)
    pairs = zip((1,) * (n - a.ndim) + a.shape, (1,) * (n - b.ndim) + b.shape, strict=True)
    return tuple(i if j == 1 else j for i, j in pairs)  # a mismatch: broadcast_to raises


def cubic_root_on_host(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The real root by `brentq`, one element at a time (`jaxcb_pure.cubic_root.on_host`)."""
    a, b = np.asarray(a), np.asarray(b)
    shape = _shape(a, b)
    a, b = np.broadcast_to(a, shape), np.broadcast_to(b, shape)
    out = np.empty(a.shape, a.dtype)
    for i in np.ndindex(a.shape):  # brentq is scalar-only: one element at a time
        out[i] = _root(float(a[i]), float(b[i]))
    return out


@near_devices
def _cubic_root(a: jax.Array, b: jax.Array) -> jax.Array:
    return jax.device_put(cubic_root_on_host(np.asarray(a), np.asarray(b)), a.sharding)


def cubic_root(a: ArrayLike, b: ArrayLike) -> jax.Array:
    """The root of `x**3 + a*x - b`, as
    [`jaxcb_native.cubic_root`][jaxcb_native.cubic_root.cubic_root]."""
    a, b, shape = _check_cubic_root(a, b)
    _check_concrete("cubic_root", a=a, b=b)
    dtype = jnp.result_type(a, b)
    a, b = jnp.broadcast_to(a, shape).astype(dtype), jnp.broadcast_to(b, shape).astype(dtype)
    return _cubic_root(*_wide(*_placed("cubic_root", a=a, b=b))).astype(dtype)


# --8<-- [end:cubic_root]


# The checks: jaxcb_native's for each computation, then colocated_python's own.


# NumPy's limit on an array's axes on the host, where the arrays go (JAX's is wider).
_MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32


def _array(fn: str, name: str, value: ArrayLike) -> jax.Array:
    """`value` as a JAX array, or an error that names the argument."""
    try:
        array = jnp.asarray(value)
    except OverflowError as e:  # a Python int beyond the default integer dtype
        raise ValueError(f"{fn}: {name} is out of range ({e})") from None
    except (TypeError, ValueError):  # None, a string, a ragged list, an object array
        got = f"an array of dtype {value.dtype}" if isinstance(value, np.ndarray) else None
        got = got or type(value).__name__
        raise TypeError(f"{fn}: {name} must be an array of numbers, got {got}") from None
    if array.ndim > _MAX_AXES:  # JAX holds more: the host call would fail inside XLA
        raise ValueError(
            f"{fn}: {name} must have at most {_MAX_AXES} axes (NumPy's limit on the host), "
            f"got {array.ndim}"
        )
    return array


def _check_floating(fn: str, **arrays: jax.Array) -> None:
    for name, a in arrays.items():
        if not jnp.issubdtype(a.dtype, jnp.floating):
            raise TypeError(f"{fn}: {name} must have a floating dtype, got {a.dtype}")


def _check_broadcastable(
    fn: str, a: tuple[str, jax.Array], b: tuple[str, jax.Array]
) -> tuple[int, ...]:
    try:
        return jnp.broadcast_shapes(a[1].shape, b[1].shape)
    except ValueError:
        raise ValueError(
            f"{fn}: {a[0]} and {b[0]} must be broadcastable, got shapes {a[1].shape} and "
            f"{b[1].shape}"
        ) from None


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


def _check_bessel_jv(v: ArrayLike, z: ArrayLike) -> tuple[jax.Array, jax.Array, tuple[int, ...]]:
    """int32 orders clamped to `+-ORDER_LIMIT`; `z` floating (an integer one in the default
    float dtype); the shape they broadcast to."""
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
    return v, z, _check_broadcastable("bessel_jv", ("v", v), ("z", z))


def _check_expm(a: ArrayLike) -> jax.Array:
    a = _array("expm", "a", a)
    _check_floating("expm", a=a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: a must have shape (..., n, n), got shape {a.shape}")
    return a


def _check_cubic_root(a: ArrayLike, b: ArrayLike) -> tuple[jax.Array, jax.Array, tuple[int, ...]]:
    a, b = _array("cubic_root", "a", a), _array("cubic_root", "b", b)
    _check_floating("cubic_root", a=a, b=b)
    return a, b, _check_broadcastable("cubic_root", ("a", a), ("b", b))


def _check_concrete(fn: str, **arrays: jax.Array) -> None:
    """Raise `TypeError` naming the first traced argument: colocated_python needs values."""
    for name, value in arrays.items():
        if isinstance(value, jax.core.Tracer):
            raise TypeError(
                f"{fn}: {name} must be a concrete array, got a traced array: colocated_python "
                "runs outside jit, grad, vmap and every other transform that traces"
            )
