"""No silent wrong answers: edge inputs of the pure computations, every package at once.

- `bessel_jv` of `jaxcb_native`, `jaxcb_compute_on` and `jaxcb_debug` (one trapezoidal rule) against
  SciPy over v in [0, 1000] and z in [1e-3, 1e4]: accurate to the catalog's tolerance
  where `|v| + |z| <= 80`, NaN (values and derivatives) outside, checked on both sides
  of the boundary; the issue's `J_128(1)`, `J_0(1e4)` and `J_1(200)` are NaN.
- `bessel_jv` derivatives for unsigned and narrow integer orders (`np.uint32(0) - 1`
  used to wrap), in every package with a derivative; orders beyond int32 clamp.
- `cubic_root` over `a > 0` and `|b|` from `1e-30` to `1e30` in both widths, within a
  few units in the last place of a long-double reference, in every package.
- float16 and bfloat16 are accepted everywhere: the results have the input's dtype and
  its precision (`sum_mean` accumulates in float32: the mean of 100 float16 values of
  1000 is 1000, their sum inf).
- Non-finite input: a matrix with a NaN or infinite entry gives a NaN matrix (the rest
  of the stack is unaffected, and so is its gradient); `cubic_root` of a NaN or
  infinite coefficient is NaN; an empty last axis gives `sum_mean` = (0, NaN).
- Arrays on other devices (issue 53, on the 4 CPU devices tests/conftest.py asks for):
  `jaxcb_colocated` takes an argument committed to another device or sharded over a
  mesh (the others follow it, as `jax.jit` places its arguments) and refuses two
  committed to different devices with a `ValueError` naming both; `jaxcb_debug`'s
  ordered forms refuse an argument on a mesh of several devices under `jax.jit` with
  their own `ValueError` naming it, and where the traced type names no mesh JAX's own
  refusal is what the contract says it is.
- `host_draw` (`jaxcb_pure`, `jaxcb_io`) of a shape NumPy cannot draw (more than 64 axes,
  sizes other than 0 multiplying to `2**60` or more): a `ValueError` naming `shape`,
  eagerly and under `jax.jit`, where XLA's or the host's failure used to surface (issue 53);
  the largest shapes within the limits are drawn.
- Extreme rank (issue 53): an argument of 65 axes (JAX holds it, NumPy 2 at most 64) is a
  `ValueError` naming it, eagerly and under `jax.jit`, in every package whose arrays reach
  NumPy on the host (XLA's error, or a crash with `jaxcb_pyffi`, used to surface), the
  logging forms' `x0` included; the C++ handlers and XLA alone compute it. `cubic_root` of
  40 axes gives the reference (`np.broadcast_arrays` on the host stopped at 32).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.linalg
import scipy.special
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from pkg_support import PURE, arguments, assert_close, raises

from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import discover

PACKAGES = sorted({v.package for v in discover() if v.implementations} - {"jaxcb_legacy"})
OUTSIDE_JIT = {"jaxcb_colocated"}  # colocated_python takes concrete arrays: called eagerly
# io_callback has no JVP rule; colocated_python runs outside every transform
DIFFERENTIABLE = [p for p in PACKAGES if p != "jaxcb_io" and p not in OUTSIDE_JIT]
TRAPEZOID = [p for p in PACKAGES if p in ("jaxcb_native", "jaxcb_compute_on", "jaxcb_debug")]
RANGE = 80  # the accurate range of the trapezoidal bessel_jv: |v| + |z| <= RANGE
NARROW = {"float16": (np.float16, 4e-3), "bfloat16": (jnp.bfloat16, 3e-2)}  # dtype, rtol


def public(package: str, name: str) -> Callable[..., Any]:
    """The package's function, its debug report silenced."""
    f = getattr(importlib.import_module(package), name)
    if package == "jaxcb_debug":
        return lambda *a: f(*a, report=lambda *r: None)
    return f  # type: ignore[no-any-return]


def jitted(package: str, name: str) -> Callable[..., Any]:
    """The package's function under `jax.jit` (eager where it runs outside jit only)."""
    f = public(package, name)
    return f if package in OUTSIDE_JIT else jax.jit(lambda *a: f(*a))


def elementwise_derivatives(f: Callable[..., Any], argnum: int) -> tuple[Any, Any]:
    """First and second derivatives of an elementwise `f` in argument `argnum`, for whole
    arrays at once: the gradient of the sum (one call, no vmap)."""

    def d1(*args: Any) -> Any:
        return jax.grad(lambda *a: f(*a).sum(), argnums=argnum)(*args)

    def d2(*args: Any) -> Any:
        return jax.grad(lambda *a: d1(*a).sum(), argnums=argnum)(*args)

    return jax.jit(d1), jax.jit(d2)


# --- bessel_jv: the accurate range of the trapezoidal rule ---------------------------------


def in_range(v: Any, z: Any) -> np.ndarray:
    return np.abs(np.asarray(v, np.float64)) + np.abs(np.asarray(z, np.float64)) <= RANGE


@pytest.mark.parametrize("package", TRAPEZOID)
def test_bessel_grid_accurate_in_range_nan_outside(package: str, dtype: np.dtype[Any]) -> None:
    v = np.concatenate([np.arange(0, 81, 4), [81, 100, 128, 200, 500, 1000]]).astype(np.int32)
    z = np.concatenate([np.geomspace(1e-3, 1e4, 57), np.linspace(0.0, 80.0, 81)]).astype(dtype)
    vv, zz = np.meshgrid(v, z, indexing="ij")
    out = np.asarray(jitted(package, "bessel_jv")(vv, zz), np.float64)
    inside = in_range(vv, zz)
    assert 0 < inside.sum() < inside.size
    assert np.isnan(out[~inside]).all()
    ref = scipy.special.jv(vv[inside], zz[inside].astype(np.float64))
    np.testing.assert_allclose(out[inside], ref, *by_name("bessel_jv").tolerance(dtype))


BOUNDARY = [  # (v, z), all within 1e-6 of |v| + |z| = 80, on both sides
    (0, 80.0),
    (0, -80.0),
    (40, 40.0),
    (80, 0.0),
    (-80, 0.0),
    (79, 1.0),
    (0, 80.00001),
    (40, -40.00001),
    (81, 0.0),
    (-81, 0.0),
    (128, 1.0),  # the issue: J_0(1) came out, the true value is ~1e-250
    (0, 1e4),
    (1, 200.0),
]


@pytest.mark.parametrize("package", TRAPEZOID)
def test_bessel_both_sides_of_the_boundary(package: str, dtype: np.dtype[Any]) -> None:
    v = np.array([p[0] for p in BOUNDARY], np.int32)
    z = np.array([p[1] for p in BOUNDARY], dtype)
    f = public(package, "bessel_jv")
    out = np.asarray(jax.jit(f)(v, z), np.float64)
    grad = np.asarray(elementwise_derivatives(f, 1)[0](v, z), np.float64)
    inside = in_range(v, z)
    assert inside.tolist() == [True] * 6 + [False] * 7
    z64 = z.astype(np.float64)
    tol = by_name("bessel_jv").tolerance(dtype)
    np.testing.assert_allclose(out[inside], scipy.special.jv(v, z64)[inside], *tol)
    np.testing.assert_allclose(grad[inside], scipy.special.jvp(v, z64)[inside], *tol)
    assert np.isnan(out[~inside]).all()
    assert np.isnan(grad[~inside]).all()


@pytest.mark.parametrize("package", TRAPEZOID)
def test_bessel_derivatives_in_range(package: str, dtype: np.dtype[Any]) -> None:
    """J_v and its first and second derivatives against scipy.special.jvp, whole range."""
    v = np.arange(-80, 81, 8).astype(np.int32)[:, None]
    z = np.linspace(-80.0, 80.0, 81).astype(dtype)[None, :]
    vv, zz = (a.ravel() for a in np.broadcast_arrays(v, z))
    keep = in_range(vv, zz)
    vv, zz = vv[keep], zz[keep]
    f = public(package, "bessel_jv")
    bound = 1e-14 if dtype == np.float64 else 2e-6  # the docstring's absolute error bounds
    for order, g in enumerate((jax.jit(f), *elementwise_derivatives(f, 1))):
        out = np.asarray(g(vv, zz), np.float64)
        err = np.abs(out - scipy.special.jvp(vv, zz.astype(np.float64), order))
        assert err.max() < bound, (order, err.max())


ORDER_DTYPES = ["uint8", "uint32", "int8", "int16"]  # int32 is every other test's


def check_order_derivatives(package: str, dtypes: list[str], dtype: Any) -> None:
    f = public(package, "bessel_jv")
    d1, d2 = elementwise_derivatives(f, 1)
    z = np.full(3, 1.5, dtype)
    tol = by_name("bessel_jv").tolerance(dtype)
    orders = np.array([0, 1, 5])
    for order_dtype in dtypes:
        v = orders.astype(order_dtype)
        first, second = d1(v, z), d2(v, z)
        assert first.dtype == second.dtype == dtype
        np.testing.assert_allclose(first, scipy.special.jvp(orders, 1.5), *tol)
        np.testing.assert_allclose(second, scipy.special.jvp(orders, 1.5, 2), *tol)


@pytest.mark.parametrize("package", DIFFERENTIABLE)
def test_bessel_derivative_of_narrow_and_unsigned_orders(package: str, x32: None) -> None:
    """dJ_v/dz = (J_{v-1} - J_{v+1}) / 2: v - 1 of an unsigned 0 must be -1, not 2**32 - 1
    (jaxcb_pure gave -0.279 for dJ_0/dz(1.5), the true value being -0.558)."""
    check_order_derivatives(package, ORDER_DTYPES, np.float32)


@pytest.mark.parametrize("package", DIFFERENTIABLE)
def test_bessel_derivative_of_64_bit_orders(package: str, x64: None) -> None:
    check_order_derivatives(package, ["uint64", "int64"], np.float64)


@pytest.mark.parametrize("package", PACKAGES)
def test_bessel_orders_beyond_int32_are_clamped(package: str, x64: None) -> None:
    """An order beyond +-(2**31 - 2) is that order (J is 0 there), never a wrapped one."""
    v = np.array([2**40, -(2**40), 2**31 - 1], np.int64)
    out = np.asarray(jitted(package, "bessel_jv")(v, np.full(3, 1.5)))
    if package in TRAPEZOID:
        assert np.isnan(out).all()  # far outside the accurate range
    else:
        np.testing.assert_array_equal(out, 0.0)
    unsigned = np.asarray(jitted(package, "bessel_jv")(np.uint32(2**32 - 1), 1.5))
    assert np.isnan(unsigned) if package in TRAPEZOID else unsigned == 0.0


# --- cubic_root at every scale -------------------------------------------------------------


def cubic_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The real root for a > 0 by bisection in long double, then Newton: the true root to
    well below float64's precision."""
    a, c = a.astype(np.longdouble), np.abs(b).astype(np.longdouble)
    lo, hi = np.zeros_like(c), 2 * np.minimum(np.cbrt(c), c / a)
    for _ in range(300):
        mid = (lo + hi) / 2
        low = mid * mid * mid + a * mid - c < 0
        lo, hi = np.where(low, mid, lo), np.where(low, hi, mid)
    x = (lo + hi) / 2
    for _ in range(3):
        x = x - (x * x * x + a * x - c) / (3 * x * x + a)
    return np.where(c == 0, 0.0, np.sign(b) * x)


def scales() -> tuple[np.ndarray, np.ndarray]:
    a = np.geomspace(1e-30, 1e30, 13)
    b = np.concatenate([-np.geomspace(1e30, 1e-30, 13), [0.0], np.geomspace(1e-30, 1e30, 13)])
    aa, bb = np.meshgrid(a, b, indexing="ij")
    return aa.ravel(), bb.ravel()


@pytest.mark.parametrize("package", PACKAGES)
def test_cubic_root_every_scale(package: str, dtype: np.dtype[Any]) -> None:
    a, b = (x.astype(dtype) for x in scales())
    out = np.asarray(jitted(package, "cubic_root")(a, b))
    assert out.dtype == dtype
    ref = cubic_reference(a, b).astype(dtype)  # the true root, rounded to the dtype
    tiny = np.finfo(dtype).tiny
    normal = np.abs(ref) >= tiny  # below: flushed to zero by XLA, or a subnormal
    ulps = np.abs(out[normal] - ref[normal]) / np.spacing(np.abs(ref[normal]))
    assert ulps.max() <= 8, (ulps.max(), a[normal][np.argmax(ulps)], b[normal][np.argmax(ulps)])
    assert np.all(np.abs(out[~normal]) <= tiny)
    assert np.all(out[b == 0] == 0)


@pytest.mark.parametrize("package", PACKAGES)
def test_cubic_root_the_issue_cases(package: str, x32: None) -> None:
    f = jitted(package, "cubic_root")
    big = f(np.float32(3e13), np.float32(1.0))  # was NaN natively (a**3 overflowed)
    np.testing.assert_allclose(big, 1 / 3e13, rtol=1e-6)
    tiny = f(np.float32(1e10), np.float32(1e-10))  # was 0.0 on the host (absolute xtol)
    np.testing.assert_allclose(tiny, 1e-20, rtol=1e-6)


@pytest.mark.parametrize("package", PACKAGES)
def test_cubic_root_outside_the_domain(package: str, x32: None) -> None:
    """a <= 0: the closed form gives NaN where the cubic has three real roots (and for the
    triple root a == b == 0) and the root where it has one; a host root finder returns one
    of the real roots."""
    a = np.array([-3.0, -3.0, -3.0, 0.0, 0.0], np.float32)
    b = np.array([0.5, 10.0, -10.0, 8.0, 0.0], np.float32)
    x = np.asarray(jitted(package, "cubic_root")(a, b), np.float64)
    one_root = [False, True, True, True, False]
    if package in TRAPEZOID:  # jaxcb_native (run by jaxcb_compute_on) and the copy in jaxcb_debug
        assert np.isnan(x).tolist() == [True, False, False, False, True]
    else:
        assert np.isfinite(x).all()
        one_root[0] = one_root[4] = True
    r = x[one_root]
    np.testing.assert_allclose(r**3 + a[one_root] * r - b[one_root], 0.0, atol=1e-4)


def test_an_absolute_xtol_alone_loses_a_tiny_root() -> None:
    """What the host docstrings say of brentq: xtol is absolute, so xtol=1e-15 alone returns
    0 for the root 1e-20 of x**3 + 1e10 x - 1e-10 (as jaxcb_pure and jaxcb_io did)."""
    import scipy.optimize

    f = lambda x: x**3 + 1e10 * x - 1e-10  # noqa: E731
    bound = 1.0 + 1e10 + 1e-10  # the bracket the host root finders used
    assert scipy.optimize.brentq(f, -bound, bound, xtol=1e-15) == 0.0
    eps, tiny = np.finfo(float).eps, np.finfo(float).tiny
    tight = scipy.optimize.brentq(f, 0.0, 2e-20, xtol=tiny, rtol=4 * eps)
    np.testing.assert_allclose(tight, 1e-20, rtol=1e-15)


@pytest.mark.parametrize("package", DIFFERENTIABLE)
def test_cubic_root_derivative_at_every_scale(package: str, x64: None) -> None:
    """The implicit derivative dx/db = 1 / (3x^2 + a) holds at the extremes too."""
    a, b = scales()
    out = np.asarray(elementwise_derivatives(public(package, "cubic_root"), 1)[0](a, b))
    x = cubic_reference(a, b).astype(np.float64)
    np.testing.assert_allclose(out, 1 / (3 * x * x + a), rtol=1e-12)


# --- float16 and bfloat16 ------------------------------------------------------------------


@pytest.mark.parametrize("narrow", list(NARROW))
@pytest.mark.parametrize("package", PACKAGES)
def test_sum_mean_narrow_floats_accumulate_in_float32(package: str, narrow: str) -> None:
    dt, _ = NARROW[narrow]
    x = np.full(100, 1000, dt)
    with np.errstate(over="ignore"):
        expected_sum = np.asarray(1e5).astype(dt)  # inf in float16, as in NumPy
    for f in (public(package, "sum_mean"), jitted(package, "sum_mean")):
        total, mean = f(x)
        assert total.dtype == mean.dtype == np.dtype(dt)
        assert float(mean) == 1000.0  # float16 accumulation would overflow to inf
        assert total == expected_sum


@pytest.mark.parametrize("narrow", list(NARROW))
@pytest.mark.parametrize("name", PURE)
@pytest.mark.parametrize("package", PACKAGES)
def test_narrow_floats_accepted(package: str, name: str, narrow: str, x32: None) -> None:
    """The result has the narrow dtype and its precision, against the float64 reference."""
    dt, rtol = NARROW[narrow]
    c = by_name(name)
    base = c.make_args(np.dtype("float32"))
    floating = [np.issubdtype(np.asarray(a).dtype, np.floating) for a in base]
    args = [np.asarray(a).astype(dt) if f else a for a, f in zip(base, floating, strict=True)]
    out = jitted(package, name)(*args)
    ref = c.reference(
        *(np.asarray(a, np.float64) if f else a for a, f in zip(args, floating, strict=True))
    )
    for o, r in zip(jax.tree.leaves(out), jax.tree.leaves(ref), strict=True):
        assert o.dtype == np.dtype(dt)
        np.testing.assert_allclose(np.asarray(o, np.float64), r, rtol=rtol, atol=rtol)


# --- non-finite input ----------------------------------------------------------------------


def bad_stack(dtype: Any) -> np.ndarray:
    good = 0.5 * np.random.default_rng(0).standard_normal((3, 3))
    stack = np.stack([good] * 4)
    stack[1, 0, 1] = np.nan
    stack[2, 2, 2] = np.inf
    stack[3, 1, 1] = -np.inf
    return stack.astype(dtype)


@pytest.mark.parametrize("package", PACKAGES)
def test_expm_non_finite_matrix_is_nan(package: str, dtype: np.dtype[Any]) -> None:
    a = bad_stack(dtype)
    out = np.asarray(jitted(package, "expm")(a))
    assert np.isnan(out[1:]).all()
    tol = by_name("expm").tolerance(dtype)
    np.testing.assert_allclose(out[0], scipy.linalg.expm(a[0].astype(np.float64)), *tol)


def test_scipy_expm_differs_on_diagonal_matrices() -> None:
    """What the docstrings say of SciPy: exp of each entry for a diagonal matrix, where
    every jaxcb package gives NaN."""
    with np.errstate(invalid="ignore"):
        out = scipy.linalg.expm(np.diag([np.inf, -np.inf, 1.0]))
    np.testing.assert_array_equal(np.diag(out), [np.inf, 0.0, np.e])


@pytest.mark.parametrize("package", DIFFERENTIABLE)
def test_expm_gradient_of_a_non_finite_matrix_is_nan(package: str, x64: None) -> None:
    a = bad_stack(np.float64)
    f = public(package, "expm")
    grad = np.asarray(jax.jit(jax.grad(lambda a: f(a)[0].sum() + f(a)[1:].sum()))(a))
    assert np.isnan(grad[1:]).all()
    expected = by_name("expm").vjp_reference
    assert expected is not None
    np.testing.assert_allclose(grad[0], expected((a[0],), np.ones((3, 3))), rtol=1e-9)


@pytest.mark.parametrize("package", PACKAGES)
def test_cubic_root_non_finite_coefficient_is_nan(package: str, dtype: np.dtype[Any]) -> None:
    a = np.array([np.nan, np.inf, 1.0, 1.0, 2.0], dtype)
    b = np.array([1.0, 1.0, np.nan, -np.inf, 3.0], dtype)
    out = np.asarray(jitted(package, "cubic_root")(a, b))
    assert np.isnan(out[:4]).all()
    np.testing.assert_allclose(out[4], 1.0, rtol=1e-6)  # 1 + 2 - 3 = 0


@pytest.mark.parametrize("package", PACKAGES)
def test_sum_mean_empty_last_axis(package: str, dtype: np.dtype[Any]) -> None:
    x = np.zeros((2, 0), dtype)
    for f in (public(package, "sum_mean"), jitted(package, "sum_mean")):
        total, mean = f(x)
        np.testing.assert_array_equal(total, np.zeros(2, dtype))
        assert np.isnan(np.asarray(mean)).all()
        assert total.dtype == mean.dtype == dtype


# --- arrays on other devices (issue 53) -----------------------------------------------------

needs_four_devices = pytest.mark.skipif(
    len(jax.devices()) < 4, reason="needs 4 devices (tests/conftest.py asks for 4 CPU devices)"
)
ARRAYS = {name: arguments(name) for name in PURE}  # the array arguments, in order
EACH_ARRAY = [(name, i) for name, names in ARRAYS.items() for i in range(len(names))]
PLACES = ["device 3", "jax.make_mesh", "jax.sharding.Mesh"]
COLOCATED = pytest.mark.skipif(
    "jaxcb_colocated" not in PACKAGES, reason="this JAX has no colocated_python"
)


def mesh(where: str) -> Mesh:
    """The 4 devices in a row: `jax.make_mesh` gives its axis the Explicit type (JAX 0.10.2
    and later), `jax.sharding.Mesh` the Auto type."""
    devices = jax.devices()[:4]
    if where == "jax.make_mesh":
        return jax.make_mesh((4,), ("d",), devices=devices)
    return Mesh(np.array(devices), ("d",))


def place(value: Any, where: str) -> jax.Array:
    """`value` committed to device 3, or sharded over a mesh of 4 along its first axis (a
    scalar: a copy on each device)."""
    if where == "device 3":
        return jax.device_put(value, jax.devices()[3])
    spec = PartitionSpec("d") if np.ndim(value) else PartitionSpec()
    return jax.device_put(value, NamedSharding(mesh(where), spec))


@needs_four_devices
@COLOCATED
@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize(
    ("name", "i"), EACH_ARRAY, ids=[f"{n}-{ARRAYS[n][i]}" for n, i in EACH_ARRAY]
)
def test_colocated_takes_an_argument_on_other_devices(
    name: str, i: int, where: str, x32: None
) -> None:
    """One argument on device 3, or sharded, the others NumPy: JAX said "All arguments must
    use the same device list, but got multiple device lists: ..." (issue 53). The others now
    follow it, as `jax.jit` places its arguments, and the result is right, on its devices."""
    c = by_name(name)
    args = list(c.make_args(np.dtype("float32")))
    args[i] = place(args[i], where)
    out = public("jaxcb_colocated", name)(*args)
    assert_close(out, c.reference(*map(np.asarray, args)), c.tolerance(np.float32), np.float32)
    for leaf in jax.tree.leaves(out):
        assert leaf.devices() == args[i].devices()


ELSEWHERE = [p for p in PACKAGES if p not in OUTSIDE_JIT]  # colocated: the test above
NATIVE_EXPM = ("jaxcb_native", "jaxcb_compute_on", "jaxcb_debug")  # jax.scipy.linalg.expm


@needs_four_devices
@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize(
    ("name", "i"), EACH_ARRAY, ids=[f"{n}-{ARRAYS[n][i]}" for n, i in EACH_ARRAY]
)
@pytest.mark.parametrize("package", ELSEWHERE)
def test_every_road_takes_an_argument_on_other_devices(
    package: str, name: str, i: int, where: str, x32: None
) -> None:
    """The same inputs on every other road (issue 53: "treat them alike"): one argument
    committed to device 3, or sharded over a mesh of 4, eagerly and under `jax.jit`: the
    right answer. One exception, JAX's own: `jax.scipy.linalg.expm` (native, compute_on and
    the debug observer compute with it) refuses a matrix split over an Explicit mesh axis,
    in the LU it calls, with a message that names the split but not the argument."""
    c = by_name(name)
    args = list(c.make_args(np.dtype("float32")))
    args[i] = place(args[i], where)
    want = c.reference(*map(np.asarray, args))
    for f in (public(package, name), jitted(package, name)):
        if name == "expm" and where == "jax.make_mesh" and package in NATIVE_EXPM:
            with pytest.raises(Exception, match="must be unsharded on non-batch dimensions"):
                f(*args)
            continue
        assert_close(f(*args), want, c.tolerance(np.float32), np.float32)


@needs_four_devices
@COLOCATED
@pytest.mark.parametrize("where", ["device 0", *PLACES[1:]])
@pytest.mark.parametrize("name", [n for n, names in ARRAYS.items() if len(names) == 2])
def test_colocated_arguments_committed_to_different_devices_raise(
    name: str, where: str, x32: None
) -> None:
    """Both arguments committed, the first to device 3 and the second elsewhere: a
    `ValueError` naming both, before JAX sees them (as `jax.jit` refuses them too)."""
    first, second = ARRAYS[name]
    args = list(by_name(name).make_args(np.dtype("float32")))
    args[0] = place(args[0], "device 3")
    if where == "device 0":
        args[1], devices = jax.device_put(args[1], jax.devices()[0]), [jax.devices()[0]]
    else:
        args[1], devices = place(args[1], where), list(mesh(where).devices.flat)
    message = (
        f"{name}: {first} and {second} must be on the same devices, got {first} on "
        f"{[jax.devices()[3]]} and {second} on {devices}: move one with jax.device_put"
    )
    with raises(ValueError, message, whole=True):
        public("jaxcb_colocated", name)(*args)


@needs_four_devices
@COLOCATED
@pytest.mark.parametrize("where", PLACES)
def test_colocated_log_steps_with_x0_on_other_devices(where: str, tmp_path: Any, x32: None) -> None:
    """A sharded `x0` used to reach "All arguments must use the same device list": the step
    counter went to the devices of `x0` in another order."""
    path = tmp_path / "log.txt"

    def log(k: np.ndarray, x: np.ndarray) -> None:  # a file: the host runs a copy of log
        with open(path, "a") as f:
            f.write(f"{int(k)} {x.tolist()}\n")

    x0 = place(np.zeros(8, np.float32), where)
    out = public("jaxcb_colocated", "log_steps")(x0, 2, log=log)
    assert path.read_text().splitlines() == [f"1 {[1.0] * 8}", f"2 {[1.5] * 8}"]
    assert out.devices() == x0.devices()
    np.testing.assert_array_equal(np.asarray(out), np.full(8, 1.5, np.float32))


def quiet(*_: Any) -> None:
    pass


DEBUG_ORDERED = [*ARRAYS, "log_steps", "log_steps_print", "log_steps_log"]
DEBUG_ORDERED += ["progress", "progress_print", "progress_log"]


def ordered_call(name: str) -> tuple[Callable[..., Any], list[Any], tuple[str, ...]]:
    """An ordered call of `jaxcb_debug`'s `name` on its arrays alone (the step counts closed
    over), its arrays, and their names."""
    f = getattr(importlib.import_module("jaxcb_debug"), name)
    if name in ARRAYS:
        args = list(by_name(name).make_args(np.dtype("float32")))
        return lambda *a: f(*a, ordered=True, report=quiet), args, ARRAYS[name]
    counts = (3,) if name.startswith("log_steps") else (4, 2)
    sink = {"log_steps": {"log": quiet}, "progress": {"report": quiet}}.get(name, {})
    return lambda x0: f(x0, *counts, ordered=True, **sink), [np.zeros(8, np.float32)], ("x0",)


@needs_four_devices
@pytest.mark.skipif("jaxcb_debug" not in PACKAGES, reason="jaxcb_debug is not installed")
@pytest.mark.parametrize("where", PLACES[1:])
@pytest.mark.parametrize(
    ("name", "i"),
    [(n, i) for n in DEBUG_ORDERED for i in range(len(ARRAYS.get(n, ("x0",))))],
    ids=[
        f"{n}-{ARRAYS.get(n, ('x0',))[i]}"
        for n in DEBUG_ORDERED
        for i in range(len(ARRAYS.get(n, ("x0",))))
    ],
)
def test_debug_ordered_with_an_argument_on_a_mesh(name: str, i: int, where: str, x32: None) -> None:
    """`ordered=True` with one argument sharded over a mesh of 4 (issue 53): eagerly the
    package's `ValueError`, and under `jax.jit` too, from the mesh the traced type names,
    where XLA's refusal used to surface ("The following ordered effects are not supported
    for more than 1 device: [<...OrderedDebugEffect object at 0x...>]")."""
    call, args, names = ordered_call(name)
    args[i] = place(args[i], where)
    arg = names[i]
    with raises(
        ValueError,
        f"{name}: ordered=True needs {arg} on one device, got {arg} on 4 devices",
        whole=True,
    ):
        call(*args)
    message = (
        f"{name}: ordered=True needs {arg} on one device, got {arg} traced on a mesh of 4 "
        "devices: ordered effects are not supported for more than 1 device; pass "
        f"ordered=False, or put {arg} on one device"
    )
    with raises(ValueError, message, whole=True):
        jax.jit(call)(*args)


@needs_four_devices
@pytest.mark.skipif("jaxcb_debug" not in PACKAGES, reason="jaxcb_debug is not installed")
def test_debug_ordered_where_the_trace_names_no_mesh_is_refused_by_jax(x32: None) -> None:
    """What the contracts say of the case left to JAX: a NumPy `x0` that `jax.jit` places by
    `in_shardings` is traced with no mesh in its type, and XLA's refusal surfaces."""
    call, (x0,), _ = ordered_call("log_steps")
    sharding = NamedSharding(mesh("jax.sharding.Mesh"), PartitionSpec("d"))
    refusal = (
        r"The following ordered effects are not supported for more than 1 device: "
        r"\[<jax\._src\.debugging\.OrderedDebugEffect object at 0x[0-9a-f]+>\]"
    )
    with pytest.raises(ValueError, match=f"^{refusal}(\\n|$)"):  # then JAX's traceback note
        jax.jit(call, in_shardings=sharding)(x0)


@needs_four_devices
@pytest.mark.skipif("jaxcb_ffi" not in PACKAGES, reason="this JAX has no jax.ffi")
@pytest.mark.parametrize("where", PLACES[1:])
def test_ffi_logger_with_x0_on_a_mesh(where: str, x32: None) -> None:
    """The C++ logger is a side-effecting `ffi_call`, which XLA cannot partition (issue 53):
    eagerly, and under `jax.jit` from the mesh x0's traced type names, the package's
    `ValueError`, where XLA's "INTERNAL: RET_CHECK failure ... Side-effect HLO must have
    sharding" used to surface. Under `shard_map` each device logs its own shard."""
    import jaxcb_ffi

    x0 = place(np.zeros(8, np.float32), where)
    head = "log_steps: x0 must be on one device (XLA cannot partition a side-effecting FFI call)"
    with raises(ValueError, f"{head}, got x0 on 4 devices", whole=True):
        jaxcb_ffi.log_steps(x0, 2)
    with raises(ValueError, f"{head}, got x0 traced on a mesh of 4 devices", whole=True):
        jax.jit(lambda x: jaxcb_ffi.log_steps(x, 2))(x0)


# --- host_draw: shapes NumPy cannot draw (issue 53) ------------------------------------------

HOST_DRAW = [p for p in ("jaxcb_pure", "jaxcb_io") if p in PACKAGES]
NUMPY_2 = pytest.mark.skipif(
    np.lib.NumpyVersion(np.__version__) < "2.0.0", reason="NumPy 1 draws 32 axes at most"
)
UNDRAWABLE = {  # what used to surface instead, on JAX 0.10.2 and 0.12.0.1 (CPU)
    "65 axes": (1,) * 65,  # NumPy in the host call: "maximum supported dimension ... 64"
    "100 axes": (1,) * 100,
    "2 sizes of 2**31-1": (2**31 - 1,) * 2,  # XLA: "overflow in static extent product"
    "3 sizes of 2**31-1": (2**31 - 1,) * 3,  # beyond int64 even without the bytes
    "a 0 after them": (2**31 - 1,) * 3 + (0,),  # XLA multiplies up to the 0
    # io's host call: NumPy's "array is too big" (pure's result is empty: no host call)
    "a 0 before them": (0,) + (2**31 - 1,) * 3,
    "2**60 values and a 0": (2**30, 2**30, 0),
}


@NUMPY_2
@pytest.mark.parametrize("shape", list(UNDRAWABLE.values()), ids=list(UNDRAWABLE))
@pytest.mark.parametrize("package", HOST_DRAW)
def test_host_draw_of_a_shape_numpy_cannot_draw_raises(
    package: str, shape: tuple[int, ...]
) -> None:
    """A `ValueError` naming `shape` and the limits, before JAX sees it, eagerly and under
    `jax.jit`: it used to be XLA's `JaxRuntimeError`, or the host's inside the program."""
    f = public(package, "host_draw")
    message = (
        "host_draw: shape must have at most 64 axes, and its sizes other than 0 must multiply "
        f"to less than 2**60 (NumPy's limits for a float64 draw), got {shape!r}"
    )
    with raises(ValueError, message, whole=True):
        f(shape, rng=np.random.default_rng(0))
    with raises(ValueError, message, whole=True):
        jax.jit(lambda: f(shape, rng=np.random.default_rng(0)))()


@NUMPY_2
@pytest.mark.parametrize(
    "shape", [(1,) * 64, (0, 2**30, 2**30 - 1)], ids=["64 axes", "2**60-2**30 values and a 0"]
)
@pytest.mark.parametrize("package", HOST_DRAW)
def test_host_draw_at_the_limits(package: str, shape: tuple[int, ...]) -> None:
    """The largest shapes within the limits are drawn, eagerly and under `jax.jit`."""
    f = public(package, "host_draw")
    draw = lambda: f(shape, rng=np.random.default_rng(0))  # noqa: E731
    for out in (draw(), jax.jit(draw)()):
        assert out.shape == shape
        assert out.dtype == np.float32


# --- extreme rank (issue 53) ---------------------------------------------------------------

MAX_AXES = 64 if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else 32  # NumPy's, on the host
NO_HOST_NUMPY = {"jaxcb_ffi", "jaxcb_native", "jaxcb_compute_on"}  # C++ handlers, or XLA alone
HOST_NUMPY = [p for p in PACKAGES if p not in NO_HOST_NUMPY]
PROGRESS_FORMS = ("progress", "progress_print", "progress_log")
EFFECT_FORMS = [  # (package, function) of every logging form
    (p, n)
    for p in PACKAGES
    for n in ("log_steps", "log_steps_print", "log_steps_log", *PROGRESS_FORMS)
    if hasattr(importlib.import_module(p), n)
]


def raised(value: Any, rank: int) -> jax.Array:
    """`value` with leading axes of 1 up to `rank` (a JAX array: NumPy holds 64 at most)."""
    value = jnp.asarray(value)
    return jnp.reshape(value, (1,) * (rank - value.ndim) + value.shape)


def effect_call(package: str, name: str) -> Callable[..., Any]:
    """`name` of `package` on `x0` alone: 2 steps (reports every step), nothing logged."""
    f = getattr(importlib.import_module(package), name)
    counts = (2,) if name.startswith("log_steps") else (2, 1)
    sink = {"log_steps": {"log": quiet}, "progress": {"report": quiet}}.get(name, {})
    sink = {} if package == "jaxcb_ffi" else sink  # the C++ logger takes no log
    return lambda x0: f(x0, *counts, **sink)


@pytest.mark.parametrize(
    ("name", "i"), EACH_ARRAY, ids=[f"{n}-{ARRAYS[n][i]}" for n, i in EACH_ARRAY]
)
@pytest.mark.parametrize("package", PACKAGES)
def test_rank_beyond_numpy_on_the_host(package: str, name: str, i: int, x32: None) -> None:
    """One argument of `MAX_AXES + 1` axes (JAX holds it, NumPy cannot). Where it reaches
    NumPy on the host: the package's `ValueError` naming it, eagerly and under `jax.jit`;
    it used to be XLA's "number of dimensions must be within [0, 64]", "Error when calling
    buffer callback", or a crash of the process (`jaxcb_pyffi`). Where it does not (C++
    handlers, XLA alone): the right answer, or `sin_scale`'s own refusal of a `y` that is
    not a scalar."""
    c, arg = by_name(name), ARRAYS[name][i]
    args: list[Any] = list(c.make_args(np.dtype("float32")))
    ref = c.reference(*args)
    args[i] = raised(args[i], MAX_AXES + 1)
    for f in (public(package, name), jitted(package, name)):
        if package in HOST_NUMPY:
            message = (
                f"{name}: {arg} must have at most {MAX_AXES} axes (NumPy's limit on the host), "
                f"got {MAX_AXES + 1}"
            )
            with raises(ValueError, message, whole=True):
                f(*args)
        elif (name, arg) == ("sin_scale", "y"):
            with raises(ValueError, f"sin_scale: y must be a scalar, got shape {args[i].shape}"):
                f(*args)
        else:
            out = jax.tree.map(lambda o, r: jnp.reshape(o, np.shape(r)), f(*args), ref)
            assert_close(out, ref, c.tolerance(np.float32), np.float32)


@pytest.mark.parametrize(
    ("package", "name"), EFFECT_FORMS, ids=[f"{p}-{n}" for p, n in EFFECT_FORMS]
)
def test_rank_beyond_numpy_in_the_logging_forms(package: str, name: str, x32: None) -> None:
    """An `x0` of `MAX_AXES + 1` axes: the package's `ValueError` naming it, eagerly and
    under `jax.jit`, where the host would get it; the C++ logger logs it."""
    call = effect_call(package, name)
    x0 = raised(np.zeros(3, np.float32), MAX_AXES + 1)
    for f in (call, call if package in OUTSIDE_JIT else jax.jit(call)):
        if package in HOST_NUMPY:
            message = (
                f"{name}: x0 must have at most {MAX_AXES} axes (NumPy's limit on the host), "
                f"got {MAX_AXES + 1}"
            )
            with raises(ValueError, message, whole=True):
                f(x0)
        else:
            out = f(x0)
            assert out.shape == x0.shape
            expected = np.asarray(call(np.zeros(3, np.float32)))  # the same steps, rank 1
            np.testing.assert_array_equal(np.asarray(jnp.ravel(out)), expected)


@pytest.mark.skipif(MAX_AXES < 40, reason="NumPy 1 holds 32 axes at most")
@pytest.mark.parametrize("package", PACKAGES)
def test_cubic_root_of_rank_40(package: str, x32: None) -> None:
    """Ranks 33 to 64 used to fail on the host in `np.broadcast_arrays` ("this function only
    supports up to 32 dimensions but the array has 33"): `a` of shape (8, 1, ..., 1) and `b`
    of shape (1, ..., 1, 8), 40 axes, give the roots of the (8, 8) reference."""
    c = by_name("cubic_root")
    a, b = (np.asarray(v) for v in c.make_args(np.dtype("float32")))
    ref = c.reference(a[:, None], b[None, :])
    a40 = jnp.reshape(a, (8,) + (1,) * 39)
    b40 = jnp.reshape(b, (1,) * 39 + (8,))
    for f in (public(package, "cubic_root"), jitted(package, "cubic_root")):
        out = f(a40, b40)
        assert out.shape == (8,) + (1,) * 38 + (8,)
        assert_close(np.asarray(out).reshape(8, 8), ref, c.tolerance(np.float32), np.float32)
