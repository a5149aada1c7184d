"""jaxcb_pure: results against the catalog, derivative rules, batching, host calls,
validation, and the measured failures of the two counter-examples.

Host calls are counted by wrapping the pattern module's `on_host` (looked up at trace
time); every traced function is a fresh lambda, so no cached trace hides the wrapper.
Exception messages and counter-example behaviour were measured on JAX 0.10.2 and
0.12.0.1 (CPU), where they are identical.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import jaxcb_pure
from jaxcb_core.catalog import Computation, by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_pure import (
    bessel_jv,
    bessel_jv_callback,
    cubic_root,
    cubic_root_callback,
    expm,
    expm_callback,
    host_draw,
    log_steps,
    sin_scale,
    sin_scale_callback,
    sum_mean,
    sum_mean_callback,
)

PURE = ["sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root"]
CUSTOM_JVP = ["sin_scale", "sum_mean", "bessel_jv", "cubic_root"]
METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
BATCH = 3

NO_JVP = "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients."
NO_FORWARD = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
NO_VMAP = (
    "vmap is only supported for the pure_callback primitive when vmap_method is one of "
    "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
    "'legacy_vectorized'. Got vmap_method=None."
)


@pytest.fixture(params=["float32", "float64"])
def dtype(request: pytest.FixtureRequest) -> Iterator[np.dtype[Any]]:
    """The float width; float64 runs with jax_enable_x64, float32 without."""
    with jax.enable_x64(request.param == "float64"):
        yield np.dtype(request.param)


@pytest.fixture
def x64() -> Iterator[None]:
    with jax.enable_x64(True):
        yield


@pytest.fixture
def x32() -> Iterator[None]:
    with jax.enable_x64(False):
        yield


def fn(name: str) -> Callable[..., Any]:
    return getattr(jaxcb_pure, name)


def argnum(c: Computation) -> int:
    assert c.diff_argnum is not None
    return c.diff_argnum


def jvp_ref(c: Computation) -> Callable[[tuple[Any, ...], np.ndarray], Any]:
    assert c.jvp_reference is not None
    return c.jvp_reference


def module(name: str) -> Any:
    # `jaxcb_pure.<name>` is the function (re-exported by __init__), not the module.
    return importlib.import_module(f"jaxcb_pure.{name}")


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so a patched `on_host` is used."""
    return lambda *a: f(*a, **kw)


def count(monkeypatch: pytest.MonkeyPatch, name: str, attr: str = "on_host") -> list[Any]:
    """Wrap `jaxcb_pure.<name>.<attr>`; the returned list grows by one per host call."""
    mod = module(name)
    real, calls = getattr(mod, attr), []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(mod, attr, counting)
    return calls


def assert_close(out: Any, ref: Any, dtype: Any, tol: tuple[float, float]) -> None:
    """Same tree structure, every leaf of `dtype` and within `(rtol, atol)` of `ref`."""
    outs, refs = jax.tree.leaves(out), jax.tree.leaves(ref)
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs, strict=True):
        assert o.dtype == dtype
        np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=tol[0], atol=tol[1])


def partial_in(c: Computation, f: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """`f` as a function of its differentiable argument only."""

    def g(x: Any) -> Any:
        a = list(args)
        a[argnum(c)] = x
        return f(*a)

    return g


def basis(shape: tuple[int, ...]) -> Iterator[np.ndarray]:
    for i in range(int(np.prod(shape))):
        e = np.zeros(int(np.prod(shape)))
        e[i] = 1.0
        yield e.reshape(shape)


def jacobian_reference(c: Computation, args: tuple[Any, ...]) -> Any:
    """The full Jacobian `J[out..., in...]` from the catalog's jvp_reference."""
    shape = np.shape(args[argnum(c)])
    cols = [jvp_ref(c)(args, e) for e in basis(shape)]
    return jax.tree.map(lambda *cs: np.stack(cs, axis=-1).reshape(cs[0].shape + shape), *cols)


def hessian_reference(c: Computation, args: tuple[Any, ...], h: float = 1e-5) -> np.ndarray:
    """Hessian `H[out..., i, j]` by central differences of the analytic jvp_reference."""
    x = np.asarray(args[argnum(c)], np.float64)
    cols = []
    for step in basis(x.shape):
        plus, minus = list(args), list(args)
        plus[argnum(c)], minus[argnum(c)] = x + h * step, x - h * step
        jp, jm = jacobian_reference(c, tuple(plus)), jacobian_reference(c, tuple(minus))
        cols.append((jp - jm) / (2 * h))
    return np.stack(cols, axis=-1).reshape(cols[0].shape + x.shape)


def exact(message: str) -> str:
    return "^" + re.escape(message) + "$"


def first_line(info: pytest.ExceptionInfo[BaseException]) -> str:
    return str(info.value).splitlines()[0]  # JAX may append a traceback note


@contextlib.contextmanager
def raises(exc: type[Exception], message: str) -> Iterator[None]:
    """Raises `exc` whose message is `message` (plus, maybe, JAX's traceback note)."""
    with pytest.raises(exc) as info:
        yield
    assert first_line(info) == message


def stacked_reference(c: Computation, batched: tuple[Any, ...]) -> Any:
    refs = [c.reference(*c.element(batched, i)) for i in range(BATCH)]
    return jax.tree.map(lambda *r: np.stack(r), *refs)


# --- results -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_jit_matches_reference_in_one_host_call(
    name: str, dtype: np.dtype[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    calls = count(monkeypatch, name)
    out = jax.jit(fresh(fn(name)))(*args)
    assert_close(out, c.reference(*args), dtype, c.tolerance(dtype))
    assert len(calls) == 1


@pytest.mark.parametrize("name", PURE)
def test_callback_matches_reference_and_has_no_rule(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    bare = getattr(jaxcb_pure, f"{name}_callback")
    assert_close(jax.jit(fresh(bare))(*args), c.reference(*args), dtype, c.tolerance(dtype))
    loss = partial_in(c, lambda *a: jax.tree.leaves(bare(*a))[0].sum(), args)
    with raises(ValueError, NO_JVP):
        jax.grad(loss)(args[argnum(c)])


# --- derivatives ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", CUSTOM_JVP)
def test_jvp_matches_reference(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    x = np.asarray(args[argnum(c)])
    t = np.asarray(np.random.default_rng(0).standard_normal(x.shape), dtype)
    g = partial_in(c, fn(name), args)
    _, out = jax.jit(lambda x, t: jax.jvp(g, (x,), (t,)))(x, t)
    assert_close(out, jvp_ref(c)(args, t), dtype, c.tolerance(dtype))


@pytest.mark.parametrize("name", PURE)
def test_grad_matches_reference(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    g = partial_in(c, fn(name), args)
    w = jax.tree.map(lambda o: np.linspace(-1, 1, o.size).reshape(o.shape), c.reference(*args))

    def loss(x: jax.Array) -> jax.Array:
        return sum(  # type: ignore[return-value]
            jnp.sum(wl * ol)
            for wl, ol in zip(jax.tree.leaves(w), jax.tree.leaves(g(x)), strict=True)
        )

    out = jax.jit(jax.grad(loss))(args[argnum(c)])
    jac = jacobian_reference(c, args)  # J^T w, leaf by leaf
    ref = sum(
        np.tensordot(wl, jl, axes=wl.ndim)
        for wl, jl in zip(jax.tree.leaves(w), jax.tree.leaves(jac), strict=True)
    )
    assert_close(out, ref, dtype, c.tolerance(dtype))


@pytest.mark.parametrize("name", ["sin_scale", "bessel_jv", "cubic_root"])
def test_hessian_matches_finite_differences(name: str, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jax.hessian(partial_in(c, fn(name), args)))(args[argnum(c)])
    ref = hessian_reference(c, args)
    assert out.shape == ref.shape == (8, 8, 8)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-8)


def test_sum_mean_jacobians_and_hessian(x64: None) -> None:
    x = by_name("sum_mean").make_args(np.dtype("float64"))[0]
    for jac in (jax.jacfwd, jax.jacrev):
        ds, dm = jax.jit(jac(fresh(sum_mean)))(x)
        np.testing.assert_array_equal(ds, np.ones(8))
        np.testing.assert_allclose(dm, np.full(8, 1 / 8), rtol=1e-15)
    hs, hm = jax.jit(jax.hessian(fresh(sum_mean)))(x)  # the map is linear
    np.testing.assert_array_equal(hs, np.zeros((8, 8)))
    np.testing.assert_array_equal(hm, np.zeros((8, 8)))


def test_expm_jacrev_one_host_call(dtype: np.dtype[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """jacrev = the backward rule vmapped over 16 cotangents: one host call.

    The forward host call is removed under jit: jacrev never uses the primal output
    (measured: zero calls), the pure-callback contract at work.
    """
    c = by_name("expm")
    (a,) = c.make_args(dtype)
    fwd, bwd = count(monkeypatch, "expm"), count(monkeypatch, "expm", "on_host_vjp")
    out = jax.jit(jax.jacrev(fresh(expm)))(a)
    assert out.shape == (4, 4, 4, 4)
    assert_close(out, jacobian_reference(c, (a,)), dtype, c.tolerance(dtype))
    assert (len(fwd), len(bwd)) == (0, 1)
    assert np.shape(bwd[0][1]) == (16, 4, 4)  # the cotangents, batched on the host


def test_expm_vjp_of_a_stack(x64: None) -> None:
    a = 0.3 * np.random.default_rng(2).standard_normal((2, 3, 3))
    g = np.random.default_rng(3).standard_normal((2, 3, 3))
    _, vjp = jax.vjp(expm, a)
    (out,) = vjp(g)
    c = by_name("expm")
    ref = [jvp_ref(c)((np.swapaxes(a, -1, -2),), g)]  # L(a^T, g), per matrix
    np.testing.assert_allclose(out, ref[0], rtol=1e-9, atol=1e-11)


def test_expm_has_no_forward_mode_or_second_derivative(x32: None) -> None:
    (a,) = by_name("expm").make_args(np.dtype("float32"))
    with raises(TypeError, NO_FORWARD):
        jax.jvp(expm, (a,), (a,))
    with raises(TypeError, NO_FORWARD):
        jax.jacfwd(expm)(a)
    with raises(ValueError, NO_JVP):
        jax.hessian(lambda a: expm(a).sum())(a)
    with raises(ValueError, NO_JVP):
        jax.grad(lambda a: jax.grad(lambda a: expm(a).sum())(a).sum())(a)


def test_bessel_jv_derivative_of_order_zero(x64: None) -> None:
    """dJ_0/dz = (J_{-1} - J_1) / 2 = -J_1: the rule needs no special case."""
    import scipy.special

    z = np.linspace(0.5, 8.0, 6)
    out = jax.vmap(jax.grad(bessel_jv, argnums=1), in_axes=(None, 0))(0, z)
    np.testing.assert_allclose(out, -scipy.special.jv(1, z), rtol=1e-12, atol=1e-14)


def test_cubic_root_derivative_in_a(dtype: np.dtype[Any]) -> None:
    c = by_name("cubic_root")
    a, b = c.make_args(dtype)
    t = np.linspace(-1, 1, a.size).astype(dtype)
    x, dx = jax.jit(lambda a, t: jax.jvp(lambda a: cubic_root(a, b), (a,), (t,)))(a, t)
    x64 = np.asarray(x, np.float64)
    ref = -x64 * t / (3 * x64**2 + np.asarray(a, np.float64))
    assert_close(dx, ref, dtype, c.tolerance(dtype))


# --- batching ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_vmap_default_method_one_host_call(
    name: str, dtype: np.dtype[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    c = by_name(name)
    assert module(name).VMAP_METHOD == "expand_dims"
    batched = c.batched_args(dtype, BATCH)
    in_axes = [0 if i in c.batch_argnums else None for i in range(len(batched))]
    calls = count(monkeypatch, name)
    out = jax.jit(jax.vmap(fresh(fn(name)), in_axes=in_axes))(*batched)
    assert_close(out, stacked_reference(c, batched), dtype, c.tolerance(dtype))
    assert len(calls) == 1


@pytest.mark.parametrize("method", [*METHODS, None])
@pytest.mark.parametrize("name", PURE)
def test_vmap_methods(
    name: str, method: str | None, x32: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = by_name(name)
    dtype = np.dtype("float32")
    batched = c.batched_args(dtype, BATCH)
    in_axes = [0 if i in c.batch_argnums else None for i in range(len(batched))]
    calls = count(monkeypatch, name)
    f = jax.jit(jax.vmap(fresh(fn(name), vmap_method=method), in_axes=in_axes))
    if method is None:
        with pytest.raises(NotImplementedError) as info:
            f(*batched)
        assert first_line(info) == NO_VMAP
        return
    assert_close(f(*batched), stacked_reference(c, batched), dtype, c.tolerance(dtype))
    assert len(calls) == (BATCH if method.startswith("sequential") else 1)


CASES_OTHER_AXES = [
    # (function, in_axes, batched arguments, reference of element i)
    (
        "bessel_jv",
        (0, None),
        lambda dt: (np.array([-2, 0, 3], np.int32), np.linspace(0.5, 6.0, 5).astype(dt)),
    ),
    (
        "cubic_root",
        (0, None),
        lambda dt: (np.array([[0.5], [1.0], [2.0]], dt), np.linspace(-2.0, 3.0, 4).astype(dt)),
    ),
    (
        "cubic_root",
        (None, 0),
        lambda dt: (np.float32(1.5).astype(dt), np.linspace(-2.0, 3.0, 6).reshape(3, 2).astype(dt)),
    ),
    (
        "sin_scale",
        (None, 0),
        lambda dt: (np.linspace(-2, 2, 4).astype(dt), np.arange(3.0, dtype=dt)),
    ),
]


@pytest.mark.parametrize(("name", "in_axes", "make"), CASES_OTHER_AXES)
def test_vmap_any_argument_batched(
    name: str,
    in_axes: tuple[Any, ...],
    make: Any,
    dtype: np.dtype[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """expand_dims lines the batch axes up whichever argument carries the batch."""
    c = by_name(name)
    args = make(dtype)
    calls = count(monkeypatch, name)
    out = jax.jit(jax.vmap(fresh(fn(name)), in_axes=in_axes))(*args)
    elements = [
        [a[i] if ax == 0 else a for a, ax in zip(args, in_axes, strict=True)] for i in range(BATCH)
    ]
    ref = np.stack([c.reference(*e) for e in elements])
    assert_close(out, ref, dtype, c.tolerance(dtype))
    assert len(calls) == 1


# --- validation ----------------------------------------------------------------------------

F32 = np.float32
ERRORS = [
    (
        sin_scale,
        (np.arange(3), 1.0),
        TypeError,
        "sin_scale: x must have a floating dtype, got int32",
    ),
    (
        sin_scale,
        (np.ones(3, F32), np.ones(2)),
        ValueError,
        "sin_scale: y must be a scalar, got shape (2,)",
    ),
    (sum_mean, (np.arange(3),), TypeError, "sum_mean: x must have a floating dtype, got int32"),
    (sum_mean, (F32(1.0),), ValueError, "sum_mean: x must have at least one axis, got shape ()"),
    (
        bessel_jv,
        (1.0, np.ones(3, F32)),
        TypeError,
        "bessel_jv: v must have an integer dtype, got float32",
    ),
    (
        bessel_jv,
        (True, np.ones(3, F32)),
        TypeError,
        "bessel_jv: v must have an integer dtype, got bool",
    ),
    (
        bessel_jv,
        (1, np.ones(3, np.complex64)),
        TypeError,
        "bessel_jv: z must have a real dtype, got complex64",
    ),
    (
        bessel_jv,
        (np.ones(2, np.int32), np.ones(3, F32)),
        ValueError,
        "bessel_jv: v and z must be broadcastable, got shapes (2,) and (3,)",
    ),
    (
        expm,
        (np.eye(3, dtype=np.int32),),
        TypeError,
        "expm: a must have a floating dtype, got int32",
    ),
    (expm, (np.ones(3, F32),), ValueError, "expm: a must have shape (..., n, n), got shape (3,)"),
    (
        expm,
        (np.ones((2, 3), F32),),
        ValueError,
        "expm: a must have shape (..., n, n), got shape (2, 3)",
    ),
    (
        cubic_root,
        (np.arange(3), np.ones(3, F32)),
        TypeError,
        "cubic_root: a must have a floating dtype, got int32",
    ),
    (
        cubic_root,
        (np.ones(3, F32), np.arange(3)),
        TypeError,
        "cubic_root: b must have a floating dtype, got int32",
    ),
    (
        cubic_root,
        (np.ones(3, F32), np.ones(2, F32)),
        ValueError,
        "cubic_root: a and b must be broadcastable, got shapes (3,) and (2,)",
    ),
]
ERRORS += [
    (getattr(jaxcb_pure, f"{f.__name__}_callback"), args, exc, msg) for f, args, exc, msg in ERRORS
]
assert {f for f, *_ in ERRORS} >= {sin_scale_callback, sum_mean_callback, bessel_jv_callback}
assert {f for f, *_ in ERRORS} >= {expm_callback, cubic_root_callback}
ERRORS += [
    (
        log_steps,
        (np.arange(3), 2),
        TypeError,
        "log_steps: x0 must have a floating dtype, got int32",
    ),
    (log_steps, (np.ones(3, F32), 2.0), TypeError, "log_steps: n must be a Python int, got float"),
    (log_steps, (np.ones(3, F32), True), TypeError, "log_steps: n must be a Python int, got bool"),
    (
        log_steps,
        (np.ones(3, F32), np.int32(2)),
        TypeError,
        "log_steps: n must be a Python int, got int32",
    ),
    (log_steps, (np.ones(3, F32), -1), ValueError, "log_steps: n must be >= 0, got -1"),
    (
        host_draw,
        ((8, -1),),
        ValueError,
        "host_draw: shape must be a tuple of non-negative ints, got (8, -1)",
    ),
    (
        host_draw,
        ([8],),
        ValueError,
        "host_draw: shape must be a tuple of non-negative ints, got [8]",
    ),
    (host_draw, (8,), ValueError, "host_draw: shape must be a tuple of non-negative ints, got 8"),
    (
        host_draw,
        ((2.0,),),
        ValueError,
        "host_draw: shape must be a tuple of non-negative ints, got (2.0,)",
    ),
    (
        host_draw,
        ((True,),),
        ValueError,
        "host_draw: shape must be a tuple of non-negative ints, got (True,)",
    ),
]


@pytest.mark.parametrize(
    ("f", "args", "exc", "message"),
    ERRORS,
    ids=[f"{f.__name__}-{i}" for i, (f, *_) in enumerate(ERRORS)],
)
def test_validation_error(
    f: Callable[..., Any], args: tuple[Any, ...], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=exact(message)):
        f(*args)
    if f in (log_steps, host_draw):
        return  # their bad arguments are Python values: nothing to trace
    with pytest.raises(exc) as info:  # raised at trace time, before anything reaches XLA
        jax.jit(fresh(f))(*args)
    assert first_line(info) == message


# --- counter-example: log_steps ------------------------------------------------------------


def test_log_steps_result_right_but_log_never_called(
    dtype: np.dtype[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    c = by_name("log_steps")
    x0, n = c.make_args(dtype)
    assert c.records is not None
    assert len(c.records(x0, n)) == n  # what a correct log would receive: n records
    calls = count(monkeypatch, "log_steps")
    records: list[tuple[Any, Any]] = []

    def log(k: Any, x: Any) -> None:
        records.append((k, x))

    def run(x: Any) -> jax.Array:
        return log_steps(x, n, log=log)

    ref = c.reference(x0, n)
    assert_close(run(x0), ref, dtype, c.tolerance(dtype))  # no jit: the scan is compiled anyway
    assert_close(jax.jit(run)(x0), ref, dtype, c.tolerance(dtype))
    batched = c.batched_args(dtype, BATCH)[0]
    out = jax.vmap(run)(batched)
    assert_close(out, np.stack([c.reference(b, n) for b in batched]), dtype, c.tolerance(dtype))
    assert records == []  # the pure callback was removed from the scan body every time
    assert calls == []


def test_log_steps_default_log_never_logs(x32: None, caplog: pytest.LogCaptureFixture) -> None:
    name = "jaxcb_pure.log_steps"
    with caplog.at_level(logging.INFO, logger=name):
        out = jax.jit(lambda x: log_steps(x, 3))(np.zeros(2, np.float32))
        np.testing.assert_allclose(out, [1.75, 1.75])
        assert [r for r in caplog.records if r.name == name] == []
        module("log_steps")._log_to_logging(np.int32(1), np.ones(2))  # what it would log
        assert [r.getMessage() for r in caplog.records if r.name == name] == ["step 1: [1. 1.]"]


def test_log_steps_zero_steps(x32: None) -> None:
    x0 = np.linspace(-1, 1, 4).astype(np.float32)
    out = log_steps(x0, 0, log=lambda k, x: None)
    np.testing.assert_array_equal(out, x0)


def test_log_steps_is_not_differentiable(x32: None) -> None:
    x0 = np.linspace(-1, 1, 4).astype(np.float32)
    with raises(ValueError, NO_JVP):
        jax.grad(lambda x: log_steps(x, 2, log=lambda k, x: None).sum())(x0)
    with raises(ValueError, NO_JVP):
        jax.jvp(lambda x: log_steps(x, 2, log=lambda k, x: None), (x0,), (x0,))


# --- counter-example: host_draw ------------------------------------------------------------


def draws(seed: int, k: int, shape: tuple[int, ...] = (8,)) -> list[np.ndarray]:
    """The first `k` draws of a twin generator, through the catalog's reference."""
    twin, ref = np.random.default_rng(seed), by_name("host_draw").reference
    return [ref(shape, twin) for _ in range(k)]


def test_host_draw_eager_calls_advance(dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(7)
    a, b = host_draw((8,), rng=rng), host_draw((8,), rng=rng)
    assert a.dtype == np.float32  # float32 under x64 too
    assert b.dtype == np.float32
    first, second = draws(7, 2)
    np.testing.assert_array_equal(a, first)
    np.testing.assert_array_equal(b, second)


def test_host_draw_default_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module("host_draw"), "_RNG", np.random.default_rng(11))
    np.testing.assert_array_equal(host_draw((2, 3)), draws(11, 1, (2, 3))[0])


def test_host_draw_jit_unused_draw_never_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    calls = count(monkeypatch, "host_draw")
    out = jax.jit(lambda x: (host_draw((8,), rng=rng), x)[1])(1.0)  # the draw is unused
    assert float(out) == 1.0
    assert calls == []
    np.testing.assert_array_equal(host_draw((8,), rng=rng), draws(7, 1)[0])  # not advanced


def test_host_draw_two_draws_in_one_jit_not_merged(monkeypatch: pytest.MonkeyPatch) -> None:
    """JAX may merge identical pure calls; measured: it does not merge these two."""
    rng = np.random.default_rng(7)
    calls = count(monkeypatch, "host_draw")
    a, b = jax.jit(lambda: (host_draw((8,), rng=rng), host_draw((8,), rng=rng)))()
    assert len(calls) == 2
    first, second = draws(7, 2)
    assert {a.tobytes(), b.tobytes()} == {first.tobytes(), second.tobytes()}


def test_host_draw_jit_calls_again_each_run() -> None:
    rng = np.random.default_rng(7)
    f = jax.jit(lambda: host_draw((8,), rng=rng))
    a, b = f(), f()
    first, second = draws(7, 2)
    np.testing.assert_array_equal(a, first)
    np.testing.assert_array_equal(b, second)


@pytest.mark.parametrize("method", [*METHODS, None])
def test_host_draw_vmap_repeats_one_draw(
    method: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No operand is batched, so vmap never batches the call, whatever vmap_method says."""
    rng = np.random.default_rng(7)
    calls = count(monkeypatch, "host_draw")
    out = jax.vmap(lambda _: host_draw((8,), rng=rng, vmap_method=method))(jnp.arange(4.0))
    assert out.shape == (4, 8)
    assert len(calls) == 1
    np.testing.assert_array_equal(out, np.broadcast_to(draws(7, 1)[0], (4, 8)))


# --- the registry --------------------------------------------------------------------------


def test_registry_rows(x32: None) -> None:
    from jaxcb_pure._registry import variants

    rows = [from_dict(d) for d in variants()]
    assert [r.id for r in rows] == [
        "pure_callback/default",
        "pure_callback/no_rule",
        "pure_callback/sequential",
        "pure_callback/sequential_unrolled",
        "pure_callback/expand_dims",
        "pure_callback/broadcast_all",
        "pure_callback/none",
    ]
    for row in rows:
        assert set(row.implementations) == {*PURE, "log_steps", "host_draw"}
        for name in PURE:  # every implementation runs (unbatched) and is right
            c = by_name(name)
            args = c.make_args(np.dtype("float32"))
            out = row.implementations[name](*args)
            assert_close(out, c.reference(*args), np.float32, c.tolerance(np.float32))
    no_rule = rows[1].implementations
    assert {n: no_rule[n].__name__ for n in PURE} == {n: f"{n}_callback" for n in PURE}
