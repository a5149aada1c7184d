"""jaxcb_native: every pure computation against the catalog's NumPy/SciPy reference."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.linalg
import scipy.special

import jaxcb_native
from jaxcb_core.catalog import Computation, by_name
from jaxcb_native import bessel_jv, cubic_root, expm, sin_scale, sum_mean

NAMES = ["sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root"]


@pytest.fixture(params=["float32", "float64"])
def dtype(request: pytest.FixtureRequest) -> Iterator[np.dtype[Any]]:
    """The float width; float64 runs with jax_enable_x64, float32 without."""
    with jax.enable_x64(request.param == "float64"):
        yield np.dtype(request.param)


@pytest.fixture
def x64() -> Iterator[None]:
    with jax.enable_x64(True):
        yield


def fn(name: str) -> Callable[..., Any]:
    return getattr(jaxcb_native, name)


def argnum(c: Computation) -> int:
    assert c.diff_argnum is not None
    return c.diff_argnum


def jvp_ref(c: Computation) -> Callable[[tuple[Any, ...], np.ndarray], Any]:
    assert c.jvp_reference is not None
    return c.jvp_reference


def assert_close(out: Any, ref: Any, dtype: Any, tol: tuple[float, float]) -> None:
    """Same tree structure, every leaf of `dtype` and within `(rtol, atol)` of `ref`."""
    outs, refs = jax.tree.leaves(out), jax.tree.leaves(ref)
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs, strict=True):
        assert o.dtype == dtype
        np.testing.assert_allclose(np.asarray(o), np.asarray(r), rtol=tol[0], atol=tol[1])


def tangent(c: Computation, args: tuple[Any, ...], seed: int = 0) -> np.ndarray:
    x = np.asarray(args[argnum(c)])
    return np.asarray(np.random.default_rng(seed).standard_normal(x.shape), x.dtype)


def partial_in(c: Computation, f: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """`f` as a function of its differentiable argument only."""

    def g(x: Any) -> Any:
        a = list(args)
        a[argnum(c)] = x
        return f(*a)

    return g


def grad_reference(c: Computation, args: tuple[Any, ...], w: Any) -> np.ndarray:
    """`J^T w` from the catalog's jvp_reference applied to every basis tangent."""
    x = np.asarray(args[argnum(c)], np.float64)
    out = np.zeros(x.size)
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = 1.0
        d = jvp_ref(c)(args, e.reshape(x.shape))
        out[i] = sum(
            np.sum(wl * dl) for wl, dl in zip(jax.tree.leaves(w), jax.tree.leaves(d), strict=True)
        )
    return out.reshape(x.shape)


def hessian_reference(c: Computation, args: tuple[Any, ...], h: float = 1e-5) -> np.ndarray:
    """Hessian `H[out..., i, j]` by central differences of the analytic jvp_reference."""
    x = np.asarray(args[argnum(c)], np.float64)
    cols = []
    for j in range(x.size):
        step = np.zeros(x.size)
        step[j] = h
        step = step.reshape(x.shape)
        plus, minus = list(args), list(args)
        plus[argnum(c)], minus[argnum(c)] = x + step, x - step
        rows = []
        for i in range(x.size):
            e = np.zeros(x.size)
            e[i] = 1.0
            e = e.reshape(x.shape)
            rows.append((jvp_ref(c)(tuple(plus), e) - jvp_ref(c)(tuple(minus), e)) / 2 / h)
        cols.append(np.stack(rows, axis=-1))
    return np.stack(cols, axis=-1).reshape(cols[0].shape[:-1] + x.shape + x.shape)


def exact(message: str) -> str:
    return "^" + re.escape(message) + "$"


# --- the catalog cases ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_jit_matches_reference(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    out = jax.jit(fn(name))(*args)
    assert_close(out, c.reference(*args), dtype, c.tolerance(dtype))


@pytest.mark.parametrize("name", NAMES)
def test_jvp_matches_reference(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    t = tangent(c, args)
    g = partial_in(c, fn(name), args)
    _, out = jax.jit(lambda x, t: jax.jvp(g, (x,), (t,)))(args[argnum(c)], t)
    assert_close(out, jvp_ref(c)(args, t), dtype, c.tolerance(dtype))


@pytest.mark.parametrize("name", NAMES)
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
    assert_close(out, grad_reference(c, args, w), dtype, c.tolerance(dtype))


@pytest.mark.parametrize("name", ["sin_scale", "bessel_jv"])
def test_hessian_matches_finite_differences(name: str, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jax.hessian(partial_in(c, fn(name), args)))(args[argnum(c)])
    ref = hessian_reference(c, args)
    assert out.shape == ref.shape == (8, 8, 8)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", NAMES)
def test_vmap_matches_stacked_reference(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    batched = c.batched_args(dtype, 3)
    in_axes = [0 if i in c.batch_argnums else None for i in range(len(batched))]
    out = jax.jit(jax.vmap(fn(name), in_axes=in_axes))(*batched)
    refs = [c.reference(*c.element(batched, i)) for i in range(3)]
    ref = jax.tree.map(lambda *r: np.stack(r), *refs)
    assert_close(out, ref, dtype, c.tolerance(dtype))


# --- beyond the catalog inputs ---------------------------------------------------------------


def test_bessel_jv_accuracy_range(dtype: np.dtype[Any]) -> None:
    """The range the docstring states: |z| <= 60, |n| <= 20, values and two derivatives."""
    n = np.arange(-20, 21, dtype=np.int32)[:, None]
    z = np.linspace(-60, 60, 601).astype(dtype)[None, :]
    bound = 1e-14 if dtype == np.float64 else 1e-6
    d1 = jax.vmap(jax.vmap(jax.grad(bessel_jv, argnums=1)))
    d2 = jax.vmap(jax.vmap(jax.grad(jax.grad(bessel_jv, argnums=1), argnums=1)))
    nn, zz = np.broadcast_arrays(n, z)
    z64 = zz.astype(np.float64)
    for order, f in enumerate([bessel_jv, d1, d2]):
        out = jax.jit(f)(nn, zz)
        assert out.dtype == dtype
        err = np.abs(np.asarray(out, np.float64) - scipy.special.jvp(nn, z64, order))
        assert err.max() < bound, (order, err.max())


def test_bessel_jv_broadcasts_orders_and_promotes_int_z(dtype: np.dtype[Any]) -> None:
    v = np.array([[-3], [0], [2]], np.int32)
    z = np.linspace(0.5, 5.0, 5).astype(dtype)
    out = jax.jit(bessel_jv)(v, z)
    assert out.shape == (3, 5)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, scipy.special.jv(v, z.astype(np.float64)), atol=1e-6)
    out = bessel_jv(np.int8(2), np.arange(1, 4))  # small int order, integer z
    assert out.dtype == dtype  # the default float of the mode
    np.testing.assert_allclose(out, scipy.special.jv(2, [1.0, 2.0, 3.0]), atol=1e-6)


def test_cubic_root_wide_range(dtype: np.dtype[Any]) -> None:
    a = np.geomspace(1e-3, 1e2, 12).astype(dtype)[:, None]
    b = np.concatenate([-np.geomspace(1e3, 1e-3, 13), [0.0], np.geomspace(1e-3, 1e3, 13)])
    b = b.astype(dtype)[None, :]
    x = np.asarray(jax.jit(cubic_root)(a, b), np.float64)
    assert x.shape == (12, 27)
    c = by_name("cubic_root")
    rtol, atol = c.tolerance(dtype)
    np.testing.assert_allclose(x, c.reference(a.astype(np.float64), b), rtol=4 * rtol, atol=atol)
    assert np.all(x[:, 13] == 0.0)  # b = 0: the root is exactly 0


def test_cubic_root_derivative_in_a(dtype: np.dtype[Any]) -> None:
    """Autodiff through Cardano + Newton gives the implicit derivative in `a` too."""
    c = by_name("cubic_root")
    a, b = c.make_args(dtype)
    t = np.linspace(-1, 1, a.size).astype(dtype)
    x, dx = jax.jit(lambda a, t: jax.jvp(lambda a: cubic_root(a, b), (a,), (t,)))(a, t)
    x64 = np.asarray(x, np.float64)
    ref = -x64 * t / (3 * x64**2 + np.asarray(a, np.float64))
    rtol, atol = c.tolerance(dtype)
    np.testing.assert_allclose(dx, ref, rtol=rtol, atol=atol)


def test_expm_stack_of_matrices(dtype: np.dtype[Any]) -> None:
    a = 0.5 * np.random.default_rng(1).standard_normal((2, 3, 4, 4)).astype(dtype)
    out = jax.jit(expm)(a)
    assert out.shape == a.shape
    assert out.dtype == dtype
    ref = np.stack([scipy.linalg.expm(m) for m in a.reshape(-1, 4, 4).astype(np.float64)])
    rtol, atol = by_name("expm").tolerance(dtype)
    np.testing.assert_allclose(out, ref.reshape(a.shape), rtol=rtol, atol=atol)


# --- validation ------------------------------------------------------------------------------

ERRORS = [
    (
        sin_scale,
        (np.arange(3), 1.0),
        TypeError,
        "sin_scale: x must have a floating dtype, got int32",
    ),
    (
        sin_scale,
        (np.ones(3, np.float32), np.ones(2)),
        ValueError,
        "sin_scale: y must be a scalar, got shape (2,)",
    ),
    (sum_mean, (np.arange(3),), TypeError, "sum_mean: x must have a floating dtype, got int32"),
    (
        sum_mean,
        (np.float32(1.0),),
        ValueError,
        "sum_mean: x must have at least one axis, got shape ()",
    ),
    (
        bessel_jv,
        (1.0, np.ones(3, np.float32)),
        TypeError,
        "bessel_jv: v must have an integer dtype, got float32",
    ),
    (
        bessel_jv,
        (True, np.ones(3, np.float32)),
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
        (np.ones(2, np.int32), np.ones(3, np.float32)),
        ValueError,
        "bessel_jv: v and z must be broadcastable, got shapes (2,) and (3,)",
    ),
    (
        expm,
        (np.eye(3, dtype=np.int32),),
        TypeError,
        "expm: a must have a floating dtype, got int32",
    ),
    (
        expm,
        (np.ones(3, np.float32),),
        ValueError,
        "expm: a must have shape (..., n, n), got shape (3,)",
    ),
    (
        expm,
        (np.ones((2, 3), np.float32),),
        ValueError,
        "expm: a must have shape (..., n, n), got shape (2, 3)",
    ),
    (
        cubic_root,
        (np.arange(3), np.ones(3, np.float32)),
        TypeError,
        "cubic_root: a must have a floating dtype, got int32",
    ),
    (
        cubic_root,
        (np.ones(3, np.float32), np.arange(3)),
        TypeError,
        "cubic_root: b must have a floating dtype, got int32",
    ),
    (
        cubic_root,
        (np.ones(3, np.float32), np.ones(2, np.float32)),
        ValueError,
        "cubic_root: a and b must be broadcastable, got shapes (3,) and (2,)",
    ),
]


@pytest.mark.parametrize(
    ("f", "args", "exc", "message"), ERRORS, ids=lambda p: getattr(p, "__name__", None)
)
def test_validation_error(
    f: Callable[..., Any], args: tuple[Any, ...], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=exact(message)):
        f(*args)
    with pytest.raises(exc) as info:  # raised at trace time, before anything reaches XLA
        jax.jit(f)(*args)
    assert str(info.value).splitlines()[0] == message  # jit appends a traceback note


def test_registry_row() -> None:
    from jaxcb_core.mechanisms import from_dict
    from jaxcb_native._registry import variants

    (row,) = [from_dict(d) for d in variants()]
    assert row.id == "native/jax"
    assert {n: f.__name__ for n, f in row.implementations.items()} == {n: n for n in NAMES}
    assert set(row.unsupported) == {"log_steps", "host_draw", "progress"}
