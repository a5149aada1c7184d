"""Property tests: every pure pattern of every package against the catalog's reference.

For each package and each pure computation, hypothesis draws arguments of random shapes
(`()`, `(1,)`, `(0,)` and small ones, broadcasting pairs where the function broadcasts)
and values from the computation's domain. Each example is checked under `jax.jit` and
under `jax.vmap` (a batch of two, inside the same jitted function) against the NumPy /
SciPy reference of `jaxcb_core.catalog`, in float32 and in float64 (a package that runs
outside `jit` only, eagerly, the batch element by element); in float64 the
gradient of a weighted sum of the outputs is checked against central finite differences
along a random direction, at the same random points.

float64 runs inside `jax.enable_x64(True)` (the `x64` fixture, as the rest of the package
tests do); `test_x64_context_does_not_leak` shows that nothing of it survives the
context: the default dtypes, the module-level jitted loops and new traces are float32
again afterwards.

The example budget is fixed and small (`MAX_EXAMPLES` per package and computation,
derandomized, no example database), so the run is the same every time and fast.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from pkg_support import PURE

from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import discover

PACKAGES = sorted({v.package for v in discover() if v.implementations} - {"jaxcb_legacy"})
CASES = [(p, n) for p in PACKAGES for n in PURE]
OUTSIDE_JIT = {"jaxcb_colocated"}  # colocated_python takes concrete arrays: called eagerly
# io_callback has no JVP rule; colocated_python runs outside every transform
GRADIENT_CASES = [(p, n) for p, n in CASES if p != "jaxcb_io" and p not in OUTSIDE_JIT]
MAX_EXAMPLES = 3
SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def public(package: str, name: str) -> Callable[..., Any]:
    f = getattr(importlib.import_module(package), name)
    if package == "jaxcb_debug":
        return lambda *a: f(*a, report=lambda *r: None)
    return lambda *a: f(*a)  # a fresh function: a fresh trace


# --- strategies: arguments from each computation's domain ----------------------------------

SHAPES = hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3)


def floats(dtype: Any, low: float, high: float) -> st.SearchStrategy[float]:
    width = 32 if np.dtype(dtype) == np.float32 else 64
    return st.floats(low, high, width=width, allow_nan=False, allow_infinity=False)


@st.composite
def arguments(draw: st.DrawFn, name: str, dtype: Any) -> tuple[Any, ...]:
    """Arguments of `name`, of random shapes, inside its domain."""
    if name == "sin_scale":
        x = draw(hnp.arrays(dtype, SHAPES, elements=floats(dtype, -10, 10)))
        return x, np.asarray(draw(floats(dtype, -5, 5)), dtype)
    if name == "sum_mean":
        shape = hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=4)
        return (draw(hnp.arrays(dtype, shape, elements=floats(dtype, -100, 100))),)
    if name == "expm":
        n = draw(st.integers(0, 3))
        batch = draw(hnp.array_shapes(min_dims=0, max_dims=1, min_side=1, max_side=2))
        return (draw(hnp.arrays(dtype, (*batch, n, n), elements=floats(dtype, -1, 1))),)
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3))
    first, second = shapes.input_shapes
    if name == "bessel_jv":  # |v| + |z| <= 60: inside the native range (80)
        v = draw(hnp.arrays(np.int32, first, elements=st.integers(-20, 20)))
        return v, draw(hnp.arrays(dtype, second, elements=floats(dtype, -40, 40)))
    assert name == "cubic_root"  # the documented domain a > 0
    a = draw(hnp.arrays(dtype, first, elements=floats(dtype, 0.125, 10)))
    return a, draw(hnp.arrays(dtype, second, elements=floats(dtype, -10, 10)))


def batched(name: str, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[int | None]]:
    """Two batch elements along a new leading axis of the catalog's batch arguments: the
    arguments and a copy scaled by 0.5 (still inside the domain)."""
    c = by_name(name)
    out, axes = [], []
    for i, a in enumerate(args):
        if i in c.batch_argnums:
            a = np.asarray(a)
            out.append(np.stack([a, (a * 0.5).astype(a.dtype)]))
            axes.append(0)
        else:
            out.append(a)
            axes.append(None)
    return tuple(out), axes


def tolerance(name: str, args: tuple[Any, ...], dtype: Any) -> tuple[float, float]:
    rtol, atol = by_name(name).tolerance(dtype)
    if name == "sum_mean":  # cancellation: the error scales with the sum of |x|, not with it
        x = np.abs(np.asarray(args[0], np.float64))
        atol += 4 * np.finfo(dtype).eps * float(x.sum(axis=-1, initial=0.0).max(initial=0.0))
    return rtol, atol


def check_results(
    package: str, name: str, args: tuple[Any, ...], dtype: Any, *, gradient: bool = False
) -> None:
    """jit and vmap against the reference; with `gradient`, also <grad L, t> against the
    central difference (L(x + h t) - L(x - h t)) / 2h, L a weighted sum of the outputs.
    Everything of one example is one jitted function: one compilation."""
    c = by_name(name)
    f = public(package, name)
    many, axes = batched(name, args)
    ref = reference(name, *args)
    d = c.diff_argnum
    assert d is not None
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(np.shape(r)) for r in jax.tree.leaves(ref)]
    x = np.asarray(args[d], dtype)
    h, t = 1e-6, rng.standard_normal(x.shape)

    def loss(x: jax.Array) -> jax.Array:
        outs = jax.tree.leaves(f(*args[:d], x, *args[d + 1 :]))
        return sum((jnp.sum(w * o) for w, o in zip(weights, outs, strict=True)), jnp.zeros(()))

    def everything(a: Any, m: Any) -> Any:
        out = (f(*a), jax.vmap(f, in_axes=axes)(*m))
        if not gradient:
            return out
        return (*out, jax.grad(loss)(x), jax.vmap(loss)(jnp.stack([x + h * t, x - h * t])))

    if package in OUTSIDE_JIT:  # eagerly, the batch one element at a time
        each = [f(*c.element(many, i)) for i in range(2)]
        results = (f(*args), jax.tree.map(lambda *e: jnp.stack(e), *each))
    else:
        results = jax.jit(everything)(args, many)
    out, out_many = results[:2]
    rtol, atol = tolerance(name, many, dtype)
    refs = [reference(name, *c.element(many, i)) for i in range(2)]
    for o, r in zip(jax.tree.leaves(out), jax.tree.leaves(ref), strict=True):
        assert o.dtype == dtype
        assert o.shape == np.shape(r)
        np.testing.assert_allclose(o, r, rtol=rtol, atol=atol)
    for i, r_i in enumerate(refs):
        for o, r in zip(jax.tree.leaves(out_many), jax.tree.leaves(r_i), strict=True):
            np.testing.assert_allclose(np.asarray(o)[i], r, rtol=rtol, atol=atol)
    if gradient and all(np.isfinite(r).all() for r in jax.tree.leaves(ref)):
        grad, (up, down) = np.asarray(results[2]), np.asarray(results[3])
        np.testing.assert_allclose(np.vdot(grad, t), (up - down) / (2 * h), rtol=1e-5, atol=1e-7)


def reference(name: str, *args: Any) -> Any:
    """The catalog's reference; NumPy warns about the mean of an empty axis (it is NaN)."""
    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
        warnings.filterwarnings("ignore", "Mean of empty slice", RuntimeWarning)
        return by_name(name).reference(*args)


# --- the properties ------------------------------------------------------------------------


@pytest.mark.parametrize(("package", "name"), CASES)
def test_matches_reference_float32(package: str, name: str, x32: None) -> None:
    @SETTINGS
    @given(arguments(name, np.float32))
    def check(args: tuple[Any, ...]) -> None:
        check_results(package, name, args, np.float32)

    check()


@pytest.mark.parametrize(("package", "name"), CASES)
def test_matches_reference_and_finite_differences_float64(
    package: str, name: str, x64: None
) -> None:
    @SETTINGS
    @given(arguments(name, np.float64))
    def check(args: tuple[Any, ...]) -> None:
        check_results(package, name, args, np.float64, gradient=(package, name) in GRADIENT_CASES)

    check()


def test_x64_context_does_not_leak() -> None:
    """What ran under jax.enable_x64(True) leaves float32 behind, cached loops included."""
    import jaxcb_io
    import jaxcb_native

    x0 = np.zeros(2, np.float32)
    with jax.enable_x64(True):
        assert jaxcb_native.bessel_jv(1, 1.0).dtype == np.float64  # the default float
        assert jaxcb_io.log_steps(x0.astype(np.float64), 2, log=print).dtype == np.float64
    assert not jax.config.jax_enable_x64
    assert jnp.zeros(()).dtype == np.float32
    assert jaxcb_native.bessel_jv(1, 1.0).dtype == np.float32
    assert jaxcb_io.log_steps(np.zeros(2), 2, log=print).dtype == np.float32  # a new trace
