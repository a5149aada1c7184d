"""Observe the five computations of `jaxcb_native` with `jax.debug.callback`.

Contract:

- **Observer only.** A debug callback returns nothing to the computation: each function
  returns what the `jaxcb_native` function of the same name returns, and hands `report`
  that name and the arrays it saw, as NumPy arrays: the inputs (after the checks: `v` of
  `bessel_jv` as int32, `a` and `b` of `cubic_root` in their common dtype, `y` of
  `sin_scale` in the dtype of `x`) and the outputs (`out`, or `sum` and `mean`).
- **When it runs.** Once per call, also when the result is unused under `jax.jit`;
  once per batch element under `vmap`; once under `grad` and `jvp`, with the forward
  (primal) values only. Not once per execution in every program: under
  `jax.checkpoint` the host sees the forward pass twice, under `vmap` of a `lax.cond`
  both branches run, and inside a loop that `grad` differentiates it may run fewer
  times than the loop has steps.
  <!-- jaxcb:expect debug.callback sin_scale|sum_mean|bessel_jv|expm|cubic_root jit_unused|grad|jvp status=ok host_calls=1 -->
  <!-- jaxcb:expect debug.callback sin_scale|sum_mean|bessel_jv|expm|cubic_root vmap status=ok host_calls=4 -->
  <!-- jaxcb:expect debug.callback sin_scale|sum_mean|bessel_jv|expm|cubic_root checkpoint_grad|vmap_cond effects.verdict=duplicated -->
  <!-- jaxcb:expect debug.callback sin_scale|sum_mean|bessel_jv|expm|cubic_root checkpoint_grad host_calls=2 -->
  <!-- jaxcb:expect debug.callback sin_scale|sum_mean|bessel_jv|expm|cubic_root vmap_cond host_calls=4 -->
  <!-- jaxcb:expect debug.callback sin_scale|sum_mean|bessel_jv|expm|cubic_root grad_scan_const host_calls=1 effects.verdict=missing -->
- **Ordering.** `ordered=False` by default; `ordered=True` keeps program order (not
  allowed under `pmap`, nor for arrays sharded over several devices: an eager call with
  one raises `ValueError` here, before JAX would). Traced, on JAX 0.10.2 and later, an
  array put on a mesh of several devices (`jax.device_put` with a `NamedSharding`, then
  `jax.jit`, `shard_map` or `pmap`) raises it here too: its traced type names the mesh.
  Where the type names none (a NumPy array placed by `jax.jit(..., in_shardings=...)`,
  or a program spread over several devices by its other arguments or its
  `out_shardings`), and on JAX 0.4.30, JAX refuses the program as it lowers it:
  `ValueError: The following ordered effects are not supported for more than 1 device:
  [<...OrderedDebugEffect object at 0x...>]`. Either way: pass `ordered=False`, or put
  the array on one device.
  <!-- jaxcb:expect debug.callback/ordered sin_scale|sum_mean|bessel_jv|expm|cubic_root scan status=ok host_calls=3 -->
- **Derivatives.** Native: `grad` and `jvp` work; the observer does not block AD.
- **Arguments, results and errors** are those of the `jaxcb_native` function of the same
  name (arrays of at most 64 axes: NumPy's limit on the host, 32 before NumPy 2), and
  every function takes the same three options:
    - `report`: `report(name, values)`, called on the host; `None` (the default) logs
      `name values` at INFO level to the `jaxcb_debug` logger. Not callable: `TypeError`.
    - `ordered`: a bool (`TypeError` otherwise); `True` keeps program order with the other
      ordered effects.
    - `partitioned`: a bool; under a sharded `jax.jit`, `True` calls the host once per
      shard with its own block instead of once with the gathered array (passed to JAX only
      when set: JAX 0.4.30 has no such option).
      <!-- jaxcb:expect debug.callback/partitioned sin_scale|sum_mean|bessel_jv|expm|cubic_root sharded_jit host_calls=4 -->
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import jax.scipy.linalg
import numpy as np
from jax.typing import ArrayLike

__all__ = ["Report", "bessel_jv", "cubic_root", "expm", "on_host", "sin_scale", "sum_mean"]

Report = Callable[[str, dict[str, np.ndarray]], Any]
ORDER_LIMIT = 2**31 - 2  # int32 orders, with room for v - 1 and v + 1
NODES, RANGE = 128, 80  # bessel_jv's trapezoidal rule: accurate for |v| + |z| <= RANGE
NEWTON_STEPS = 2  # cubic_root's polish of Cardano's formula


# --8<-- [start:observe]
def on_host(report: Report | None, name: str, keys: tuple[str, ...], *arrays: Any) -> None:
    """Runs on the host with concrete arrays and hands them to `report`, by name."""
    values = {k: np.asarray(a) for k, a in zip(keys, arrays, strict=True)}
    if report is None:
        logging.getLogger("jaxcb_debug").info("%s %s", name, values)
    else:
        report(name, values)


def _observe(
    name: str, report: Report | None, ordered: bool, partitioned: bool, **values: jax.Array
) -> None:
    """Send `values` to `on_host` in the middle of the computation; nothing comes back."""
    options = {"partitioned": True} if partitioned else {}  # JAX 0.4.30 has no partitioned=
    callback = functools.partial(on_host, report, name, tuple(values))  # static: the names
    jax.debug.callback(callback, *values.values(), ordered=ordered, **options)


# --8<-- [end:observe]


# --8<-- [start:sin_scale]
def sin_scale(
    x: ArrayLike,
    y: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """`sin(x) * y + 1`, as [`jaxcb_native.sin_scale`][jaxcb_native.sin_scale.sin_scale];
    reports `x`, `y` and `out`."""
    x, y = _check_sin_scale(x, y)
    y = y.astype(x.dtype)
    ordered, partitioned = _check_options(
        "sin_scale", {"x": x, "y": y}, report, ordered, partitioned
    )
    out = _native_sin_scale(x, y)
    _observe("sin_scale", report, ordered, partitioned, x=x, y=y, out=out)
    return out


# --8<-- [end:sin_scale]


# --8<-- [start:sum_mean]
def sum_mean(
    x: ArrayLike, *, report: Report | None = None, ordered: bool = False, partitioned: bool = False
) -> tuple[jax.Array, jax.Array]:
    """`(sum, mean)` over the last axis, as
    [`jaxcb_native.sum_mean`][jaxcb_native.sum_mean.sum_mean]; reports `x`, `sum` and `mean`."""
    x = _check_sum_mean(x)
    ordered, partitioned = _check_options("sum_mean", {"x": x}, report, ordered, partitioned)
    total, mean = _native_sum_mean(x)
    _observe("sum_mean", report, ordered, partitioned, x=x, sum=total, mean=mean)
    return total, mean


# --8<-- [end:sum_mean]


# --8<-- [start:bessel_jv]
def bessel_jv(
    v: ArrayLike,
    z: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """`J_v(z)`, integer `v`, as [`jaxcb_native.bessel_jv`][jaxcb_native.bessel_jv.bessel_jv];
    reports `v` (as int32), `z` and `out`."""
    v, z = _check_bessel_jv(v, z)
    ordered, partitioned = _check_options(
        "bessel_jv", {"v": v, "z": z}, report, ordered, partitioned
    )
    out = _native_bessel_jv(v, z)
    _observe("bessel_jv", report, ordered, partitioned, v=v, z=z, out=out)
    return out


# --8<-- [end:bessel_jv]


# --8<-- [start:expm]
def expm(
    a: ArrayLike, *, report: Report | None = None, ordered: bool = False, partitioned: bool = False
) -> jax.Array:
    """The matrix exponential, as [`jaxcb_native.expm`][jaxcb_native.expm.expm]; reports `a`
    and `out`."""
    a = _check_expm(a)
    ordered, partitioned = _check_options("expm", {"a": a}, report, ordered, partitioned)
    out = _native_expm(a)
    _observe("expm", report, ordered, partitioned, a=a, out=out)
    return out


# --8<-- [end:expm]


# --8<-- [start:cubic_root]
def cubic_root(
    a: ArrayLike,
    b: ArrayLike,
    *,
    report: Report | None = None,
    ordered: bool = False,
    partitioned: bool = False,
) -> jax.Array:
    """The root of `x**3 + a*x - b`, as
    [`jaxcb_native.cubic_root`][jaxcb_native.cubic_root.cubic_root]; reports `a`, `b` and
    `out`."""
    a, b = _check_cubic_root(a, b)
    dtype = jnp.result_type(a, b)
    a, b = a.astype(dtype), b.astype(dtype)
    ordered, partitioned = _check_options(
        "cubic_root", {"a": a, "b": b}, report, ordered, partitioned
    )
    out = _native_cubic_root(a, b)
    _observe("cubic_root", report, ordered, partitioned, a=a, b=b, out=out)
    return out


# --8<-- [end:cubic_root]


# The checks: those of jaxcb_native for each computation, then the options of an observer.


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


def _check_broadcastable(fn: str, a: tuple[str, jax.Array], b: tuple[str, jax.Array]) -> None:
    try:
        jnp.broadcast_shapes(a[1].shape, b[1].shape)
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


def _check_options(
    fn: str, arrays: dict[str, jax.Array], report: object, ordered: object, partitioned: object
) -> tuple[bool, bool]:
    """`report` callable or None, `ordered` a bool (`True` only with `arrays` on one
    device), `partitioned` a bool."""
    if report is not None and not callable(report):
        raise TypeError(f"{fn}: report must be callable or None, got {type(report).__name__}")
    if not isinstance(ordered, bool | np.bool_):
        raise TypeError(f"{fn}: ordered must be a bool, got {type(ordered).__name__}")
    if ordered:
        _check_one_device(fn, arrays)
    if not isinstance(partitioned, bool | np.bool_):
        raise TypeError(f"{fn}: partitioned must be a bool, got {type(partitioned).__name__}")
    return bool(ordered), bool(partitioned)


def _check_one_device(fn: str, arrays: dict[str, jax.Array]) -> None:
    """Ordered effects need one device: say so for an array on several before JAX does
    (eagerly from its devices; under a trace from the mesh its type carries, if any)."""
    for name, x in arrays.items():
        if not isinstance(x, jax.core.Tracer):
            if len(x.devices()) > 1:
                raise ValueError(
                    f"{fn}: ordered=True needs {name} on one device, got {name} on "
                    f"{len(x.devices())} devices"
                )
            continue
        typeof = getattr(jax, "typeof", None)  # JAX 0.4.30 has none, nor meshes in types
        mesh = getattr(getattr(typeof(x), "sharding", None), "mesh", None) if typeof else None
        size = getattr(mesh, "size", 1)  # the mesh of the traced type; an empty one: size 0
        if size > 1:
            raise ValueError(
                f"{fn}: ordered=True needs {name} on one device, got {name} traced on a mesh "
                f"of {size} devices: ordered effects are not supported for more than 1 "
                f"device; pass ordered=False, or put {name} on one device"
            )


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
