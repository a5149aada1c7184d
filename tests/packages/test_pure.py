"""jaxcb_pure: results against the catalog, derivative rules, batching, host calls,
and the measured failures of the two counter-examples.

Host calls are counted through the registry's probe (``pkg_support.host_calls``); every
traced function is a fresh lambda, so no cached trace hides the probe. Validation
errors are checked for every package at once in test_validation.py. Exception messages
and counter-example behaviour were measured on JAX 0.10.2 and 0.12.0.1 (CPU), where
they are identical.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pkg_support import (
    BATCH,
    assert_close,
    diff_argnum,
    host_calls,
    in_axes,
    module,
    partial_in,
    raises,
    stacked_reference,
    tangent,
)

import jaxcb_pure
from jaxcb_core import references
from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_pure import bessel_jv, cubic_root, expm, host_draw, log_steps, sum_mean

PURE = ["sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root"]
CUSTOM_JVP = ["sin_scale", "sum_mean", "bessel_jv", "cubic_root"]
METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
VARIANT = "pure_callback/default"  # every row shares the modules, and so the probe

NO_JVP = "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients."
NO_FORWARD = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
NO_VMAP = (
    "vmap is only supported for the pure_callback primitive when vmap_method is one of "
    "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
    "'legacy_vectorized'. Got vmap_method=None."
)


def fn(name: str) -> Callable[..., Any]:
    return getattr(jaxcb_pure, name)


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


# --- results -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_jit_matches_reference_in_one_host_call(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    with host_calls(VARIANT, name) as tally:
        out = jax.jit(fresh(fn(name)))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize("name", PURE)
def test_callback_matches_reference_and_has_no_rule(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    bare = getattr(jaxcb_pure, f"{name}_callback")
    out = jax.jit(fresh(bare))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    loss = partial_in(c, lambda *a: jax.tree.leaves(bare(*a))[0].sum(), args)
    with raises(ValueError, NO_JVP):
        jax.grad(loss)(args[diff_argnum(c)])


# --- derivatives ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", CUSTOM_JVP)
def test_jvp_matches_reference(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    t = tangent(c, args)
    g = partial_in(c, fn(name), args)
    _, out = jax.jit(lambda x, t: jax.jvp(g, (x,), (t,)))(args[diff_argnum(c)], t)
    assert_close(out, references.jvp(c, args, t), c.tolerance(dtype), dtype)


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

    out = jax.jit(jax.grad(loss))(args[diff_argnum(c)])
    assert_close(out, references.grad(c, args, w), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("name", ["sin_scale", "bessel_jv", "cubic_root"])
def test_hessian_matches_finite_differences(name: str, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jax.hessian(partial_in(c, fn(name), args)))(args[diff_argnum(c)])
    ref = references.hessian(c, args, summed=False)
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


def test_expm_jacrev_one_host_call(dtype: np.dtype[Any]) -> None:
    """jacrev = the backward rule vmapped over 16 cotangents: one host call.

    The forward host call is removed under jit: jacrev never uses the primal output
    (measured: zero calls), the pure-callback contract at work.
    """
    c = by_name("expm")
    (a,) = c.make_args(dtype)
    with host_calls(VARIANT, "expm") as tally:
        out = jax.jit(jax.jacrev(fresh(expm)))(a)
    assert out.shape == (4, 4, 4, 4)
    assert_close(out, references.jacobian(c, (a,)), c.tolerance(dtype), dtype)
    assert tally.by_function == {"on_host_vjp": 1}  # no forward call
    assert f"{dtype.name}[16,4,4]" in tally.shapes  # the cotangents, batched on the host


def test_expm_vjp_of_a_stack(x64: None) -> None:
    a = 0.3 * np.random.default_rng(2).standard_normal((2, 3, 3))
    g = np.random.default_rng(3).standard_normal((2, 3, 3))
    _, vjp = jax.vjp(expm, a)
    (out,) = vjp(g)
    ref = references.vjp(by_name("expm"), (a,), g)
    np.testing.assert_allclose(out, ref, rtol=1e-9, atol=1e-11)


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
    assert_close(dx, ref, c.tolerance(dtype), dtype)


# --- batching ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_vmap_default_method_one_host_call(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    assert module("jaxcb_pure", name).VMAP_METHOD == "expand_dims"
    batched = c.batched_args(dtype, BATCH)
    with host_calls(VARIANT, name) as tally:
        out = jax.jit(jax.vmap(fresh(fn(name)), in_axes=in_axes(c, batched)))(*batched)
    assert_close(out, stacked_reference(c, batched), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize("method", [*METHODS, None])
@pytest.mark.parametrize("name", PURE)
def test_vmap_methods(name: str, method: str | None, x32: None) -> None:
    c = by_name(name)
    dtype = np.dtype("float32")
    batched = c.batched_args(dtype, BATCH)
    f = jax.jit(jax.vmap(fresh(fn(name), vmap_method=method), in_axes=in_axes(c, batched)))
    if method is None:
        with raises(NotImplementedError, NO_VMAP):
            f(*batched)
        return
    with host_calls(VARIANT, name) as tally:
        out = f(*batched)
    assert_close(out, stacked_reference(c, batched), c.tolerance(dtype), dtype)
    assert tally.calls == (BATCH if method.startswith("sequential") else 1)


CASES_OTHER_AXES = [
    # (function, in_axes, batched arguments)
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


@pytest.mark.parametrize(("name", "axes", "make"), CASES_OTHER_AXES)
def test_vmap_any_argument_batched(
    name: str, axes: tuple[Any, ...], make: Any, dtype: np.dtype[Any]
) -> None:
    """expand_dims lines the batch axes up whichever argument carries the batch."""
    c = by_name(name)
    args = make(dtype)
    with host_calls(VARIANT, name) as tally:
        out = jax.jit(jax.vmap(fresh(fn(name)), in_axes=axes))(*args)
    elements = [
        [a[i] if ax == 0 else a for a, ax in zip(args, axes, strict=True)] for i in range(BATCH)
    ]
    ref = np.stack([c.reference(*e) for e in elements])
    assert_close(out, ref, c.tolerance(dtype), dtype)
    assert tally.calls == 1


# --- counter-example: log_steps ------------------------------------------------------------


def test_log_steps_result_right_but_log_never_called(dtype: np.dtype[Any]) -> None:
    c = by_name("log_steps")
    x0, n = c.make_args(dtype)
    assert c.records is not None
    assert len(c.records(x0, n)) == n  # what a correct log would receive: n records
    records: list[tuple[Any, Any]] = []

    def log(k: Any, x: Any) -> None:
        records.append((k, x))

    def run(x: Any) -> jax.Array:
        return log_steps(x, n, log=log)

    ref, tol = c.reference(x0, n), c.tolerance(dtype)
    batched = c.batched_args(dtype, BATCH)[0]
    with host_calls(VARIANT, "log_steps") as tally:
        assert_close(run(x0), ref, tol, dtype)  # no jit: the scan is compiled anyway
        assert_close(jax.jit(run)(x0), ref, tol, dtype)
        out = jax.vmap(run)(batched)
    assert_close(out, np.stack([c.reference(b, n) for b in batched]), tol, dtype)
    assert records == []  # the pure callback was removed from the scan body every time
    assert tally.calls == 0


def test_log_steps_default_log_never_logs(x32: None, caplog: pytest.LogCaptureFixture) -> None:
    name = "jaxcb_pure.log_steps"
    with caplog.at_level(logging.INFO, logger=name):
        out = jax.jit(lambda x: log_steps(x, 3))(np.zeros(2, np.float32))
        np.testing.assert_allclose(out, [1.75, 1.75])
        assert [r for r in caplog.records if r.name == name] == []
        module("jaxcb_pure", "log_steps")._log_to_logging(np.int32(1), np.ones(2))  # would log
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
    monkeypatch.setattr(module("jaxcb_pure", "host_draw"), "_RNG", np.random.default_rng(11))
    np.testing.assert_array_equal(host_draw((2, 3)), draws(11, 1, (2, 3))[0])


def test_host_draw_jit_unused_draw_never_happens() -> None:
    rng = np.random.default_rng(7)
    with host_calls(VARIANT, "host_draw") as tally:
        out = jax.jit(lambda x: (host_draw((8,), rng=rng), x)[1])(1.0)  # the draw is unused
    assert float(out) == 1.0
    assert tally.calls == 0
    np.testing.assert_array_equal(host_draw((8,), rng=rng), draws(7, 1)[0])  # not advanced


def test_host_draw_two_draws_in_one_jit_not_merged() -> None:
    """JAX may merge identical pure calls; measured: it does not merge these two."""
    rng = np.random.default_rng(7)
    with host_calls(VARIANT, "host_draw") as tally:
        a, b = jax.jit(lambda: (host_draw((8,), rng=rng), host_draw((8,), rng=rng)))()
    assert tally.calls == 2
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
def test_host_draw_vmap_repeats_one_draw(method: str | None) -> None:
    """No operand is batched, so vmap never batches the call, whatever vmap_method says."""
    rng = np.random.default_rng(7)
    with host_calls(VARIANT, "host_draw") as tally:
        out = jax.vmap(lambda _: host_draw((8,), rng=rng, vmap_method=method))(jnp.arange(4.0))
    assert out.shape == (4, 8)
    assert tally.calls == 1
    np.testing.assert_array_equal(out, np.broadcast_to(draws(7, 1)[0], (4, 8)))


# --- the registry --------------------------------------------------------------------------


def test_registry_rows(x32: None) -> None:
    from jaxcb_pure._registry import variants

    rows = [from_dict(d) for d in variants()]
    assert [r.id for r in rows] == [
        "pure_callback/default",
        "pure_callback/no_rule",
        "pure_callback/sharding",
        "pure_callback/sequential",
        "pure_callback/sequential_unrolled",
        "pure_callback/expand_dims",
        "pure_callback/broadcast_all",
        "pure_callback/none",
    ]
    for row in rows:
        # the sharding= row measures the pure computations only (no counter-examples)
        extra = set() if row.id == "pure_callback/sharding" else {"log_steps", "host_draw"}
        assert set(row.implementations) == {*PURE, *extra}
        for name in PURE:  # every implementation runs (unbatched) and is right
            c = by_name(name)
            args = c.make_args(np.dtype("float32"))
            out = row.implementations[name](*args)
            assert_close(out, c.reference(*args), c.tolerance(np.float32), np.float32)
    no_rule = rows[1].implementations
    assert {n: no_rule[n].__name__ for n in PURE} == {n: f"{n}_callback" for n in PURE}
