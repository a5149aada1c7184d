"""jaxcb_io: results against the catalog, effects delivered, limitations.

What it shares with jaxcb_debug (the effects' records, ordered or not, delivered when the
result is unused, the host reached only on reported steps, the default sink) is tested over
both in test_effects.py. Host calls are counted through the registry's probe
(``pkg_support.host_calls``). Validation errors are checked for every package at once in
test_validation.py. Every
exception message asserted here was measured on JAX 0.10.2 and 0.12.0.1, where they
are identical.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np
import pytest
from pkg_support import (
    PURE,
    assert_batched_records,
    assert_close,
    call,
    close_static,
    diff_argnum,
    host_calls,
    host_order,
    in_axes,
    module,
    raises,
    records,
)

import jaxcb_io
from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_io import _registry

EFFECTS = ("log_steps", "progress")
DIFFERENTIABLE = PURE + EFFECTS

VMAP_ORDERED = (ValueError, "Cannot `vmap` ordered IO callback.")
NO_JVP = (ValueError, "IO callbacks do not support JVP.")
VMAP_OF_COND = (NotImplementedError, "IO effect not supported in vmap-of-cond.")


def variant(ordered: bool) -> str:
    return "io_callback/ordered" if ordered else "io_callback/unordered"


def fn(name: str) -> Any:
    return getattr(jaxcb_io, name)


# --- results -----------------------------------------------------------------------------------


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("ordered", [False, True], ids=["unordered", "ordered"])
@pytest.mark.parametrize("name", PURE)
def test_pure_matches_reference(name: str, ordered: bool, jit: bool, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    out = call(fn(name), c, args, jit=jit, ordered=ordered)
    assert_close(out, c.reference(*args), c.tolerance(dtype))


@pytest.mark.parametrize("name", PURE)
def test_pure_runs_once_even_when_unused(name: str) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))

    def unused(*a: Any) -> Any:
        fn(name)(*a)
        return a[-1]

    with host_calls(variant(False), name) as tally:
        jax.jit(unused)(*args)
    assert tally.calls == 1


def test_ordered_calls_keep_program_order() -> None:
    def program(x: jax.Array) -> jax.Array:
        # independent calls: only ordered=True fixes the order in which the host sees them
        jaxcb_io.cubic_root(x, x, ordered=True)
        jaxcb_io.expm(jax.numpy.diag(x), ordered=True)
        jaxcb_io.sum_mean(x, ordered=True)
        return jaxcb_io.cubic_root(x, x, ordered=True)

    with host_order(variant(True), ("sum_mean", "expm", "cubic_root")) as order:
        jax.jit(program)(np.linspace(0.5, 1.0, 3).astype(np.float32))
    assert order == ["cubic_root", "expm", "sum_mean", "cubic_root"]


@pytest.mark.parametrize("name", PURE)
def test_vmap_unordered_is_a_loop(name: str) -> None:
    c = by_name(name)
    batched = c.batched_args(np.float32, 3)
    with host_calls(variant(False), name) as tally:
        f = jax.vmap(lambda *a: fn(name)(*a, ordered=False), in_axes(c, batched))
        out = jax.jit(f)(*batched)
    for i in range(3):
        element = jax.tree.map(lambda o, i=i: np.asarray(o)[i], out)
        assert_close(element, c.reference(*c.element(batched, i)), c.tolerance(np.float32))
    assert tally.calls == 3  # one host call per batch element


@pytest.mark.parametrize("name", [*PURE, "log_steps"])
def test_vmap_ordered_raises(name: str) -> None:
    c = by_name(name)
    batched = c.batched_args(np.float32, 2)
    f, dynamic = close_static(fn(name), c, batched, ordered=True)
    axes = [ax for i, ax in enumerate(in_axes(c, batched)) if i not in c.static_argnums]
    with raises(*VMAP_ORDERED, whole=True):
        jax.vmap(f, axes)(*dynamic)


@pytest.mark.parametrize("ordered", [False, True], ids=["unordered", "ordered"])
def test_vmap_progress_raises(ordered: bool) -> None:
    x = np.ones((2, 3), np.float32)
    with raises(*VMAP_OF_COND, whole=True):
        jax.vmap(lambda x0: jaxcb_io.progress(x0, 4, 2, ordered=ordered))(x)


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_grad_raises(name: str) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    d = diff_argnum(c)

    def loss(a: Any) -> Any:
        out = fn(name)(*args[:d], a, *args[d + 1 :])
        return sum(o.sum() for o in jax.tree.leaves(out))

    with raises(*NO_JVP, whole=True):
        jax.grad(loss)(args[d])


# --- effects -----------------------------------------------------------------------------------


def test_zero_steps_reach_nothing() -> None:
    got: list[Any] = []
    x0 = np.linspace(-1.0, 1.0, 4).astype(np.float32)
    with host_calls(variant(True), "log_steps") as tally:
        out = jax.jit(lambda x: jaxcb_io.log_steps(x, 0, log=lambda k, x: got.append(k)))(x0)
    assert got == []
    assert tally.calls == 0
    np.testing.assert_array_equal(out, x0)


def test_vmap_unordered_log_steps_calls_each_element() -> None:
    c = by_name("log_steps")
    x0s, n = c.batched_args(np.float32, 2)
    got: list[tuple[Any, Any]] = []
    f = jax.vmap(lambda x0: jaxcb_io.log_steps(x0, n, log=lambda *r: got.append(r), ordered=False))
    with host_calls(variant(False), "log_steps") as tally:
        jax.jit(f)(x0s)
    # one host call per element per step, each with that element's state
    assert tally.calls == 2 * n
    assert_batched_records(got, [r for x0 in x0s for r in records(c, x0, n)])


def test_cubic_root_outside_documented_domain_returns_a_root() -> None:
    a = np.array([-3.0, -3.0, 0.0], np.float32)
    b = np.array([0.0, 1.0, 8.0], np.float32)
    x = np.asarray(jaxcb_io.cubic_root(a, b), np.float64)
    np.testing.assert_allclose(x**3 + a * x - b, 0.0, atol=1e-5)


# --- host_draw ---------------------------------------------------------------------------------


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "unordered"])
def test_host_draw_advances_generator(ordered: bool, jit: bool, dtype: np.dtype[Any]) -> None:
    c = by_name("host_draw")
    (shape,) = c.make_args(dtype)
    rng, twin = np.random.default_rng(7), np.random.default_rng(7)

    def draw() -> jax.Array:
        return jaxcb_io.host_draw(shape, rng=rng, ordered=ordered)

    f = jax.jit(draw) if jit else draw
    with host_calls(variant(ordered), "host_draw") as tally:
        first, second = np.asarray(f()), np.asarray(f())
    assert tally.calls == 2
    for out in (first, second):
        expected = c.reference(shape, twin)  # float32 under jax_enable_x64 too
        assert out.dtype == expected.dtype == np.float32
        np.testing.assert_array_equal(out, expected)


def test_host_draw_in_one_program_keeps_order() -> None:
    rng, twin = np.random.default_rng(3), np.random.default_rng(3)
    a, b = jax.jit(
        lambda: (jaxcb_io.host_draw((4,), rng=rng), jaxcb_io.host_draw((2, 3), rng=rng))
    )()
    np.testing.assert_array_equal(a, twin.standard_normal((4,)).astype(np.float32))
    np.testing.assert_array_equal(b, twin.standard_normal((2, 3)).astype(np.float32))


def test_host_draw_advances_when_result_unused() -> None:
    rng, twin = np.random.default_rng(5), np.random.default_rng(5)

    def unused(x: jax.Array) -> jax.Array:
        jaxcb_io.host_draw((8,), rng=rng)
        return x

    with host_calls(variant(True), "host_draw") as tally:
        jax.jit(unused)(np.float32(0.0))
    assert tally.calls == 1
    twin.standard_normal((8,))
    np.testing.assert_array_equal(
        jaxcb_io.host_draw((8,), rng=rng), twin.standard_normal((8,)).astype(np.float32)
    )


def test_host_draw_default_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module("jaxcb_io", "host_draw"), "_DEFAULT_RNG", np.random.default_rng(11))
    twin = np.random.default_rng(11)
    for _ in range(2):
        np.testing.assert_array_equal(
            jaxcb_io.host_draw((3,)), twin.standard_normal((3,)).astype(np.float32)
        )


def test_bessel_promotes_integer_z(dtype: np.dtype[Any]) -> None:
    v, z = np.arange(3, dtype=np.int32)[:, None], np.arange(1, 5, dtype=np.int32)
    out = jax.jit(jaxcb_io.bessel_jv)(v, z)
    assert out.dtype == dtype
    assert out.shape == (3, 4)
    ref = by_name("bessel_jv").reference(v, z.astype(dtype))
    np.testing.assert_allclose(out, ref, *by_name("bessel_jv").tolerance(dtype))


# --- package -----------------------------------------------------------------------------------


def test_registry_is_valid_and_complete() -> None:
    variants = [from_dict(d) for d in _registry.variants()]
    assert [v.id for v in variants] == ["io_callback/unordered", "io_callback/ordered"]
    for v in variants:
        assert set(v.implementations) == set(_registry.NAMES) == set(jaxcb_io.__all__)
        for name, m in v.modules.items():
            assert callable(m.on_host)
            assert getattr(m, name) is getattr(jaxcb_io, name)
