"""jaxcb_io: results against the catalog, effects delivered, limitations, validation.

Every exception message asserted here was measured on JAX 0.10.2 and 0.12.0.1,
where they are identical.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterator
from typing import Any

import jax
import numpy as np
import pytest

import jaxcb_io
from jaxcb_core.catalog import Computation, by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_io import _registry

PURE = ("sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root")
EFFECTS = ("log_steps", "progress")
DIFFERENTIABLE = PURE + EFFECTS

VMAP_ORDERED = (ValueError, "Cannot `vmap` ordered IO callback.")
NO_JVP = (ValueError, "IO callbacks do not support JVP.")
VMAP_OF_COND = (NotImplementedError, "IO effect not supported in vmap-of-cond.")


def module(name: str) -> Any:
    # `jaxcb_io.<name>` is the function (re-exported by __init__), not the module.
    return importlib.import_module(f"jaxcb_io.{name}")


@pytest.fixture(params=["float32", "float64"])
def dtype(request: pytest.FixtureRequest) -> Iterator[np.dtype[Any]]:
    with jax.enable_x64(request.param == "float64"):
        yield np.dtype(request.param)


def call(c: Computation, args: tuple[Any, ...], *, jit: bool = True, **kw: Any) -> Any:
    """Call jaxcb_io.<c.name>(*args, **kw), under a fresh `jax.jit` if `jit`.

    Static arguments (Python ints, shapes) are closed over; a fresh function per
    call means a fresh trace, so a patched `on_host` is always the one used.
    """
    fn = getattr(jaxcb_io, c.name)
    static = {i: args[i] for i in c.static_argnums}
    dynamic = [a for i, a in enumerate(args) if i not in static]

    def f(*dyn: Any) -> Any:
        it = iter(dyn)
        full = [static[i] if i in static else next(it) for i in range(len(args))]
        return fn(*full, **kw)

    return (jax.jit(f) if jit else f)(*dynamic)


def assert_tree_close(out: Any, ref: Any, tol: tuple[float, float]) -> None:
    if isinstance(ref, tuple):
        assert isinstance(out, tuple)
        assert len(out) == len(ref)
        for o, r in zip(out, ref, strict=True):
            assert_tree_close(o, r, tol)
        return
    out = np.asarray(out)
    assert out.dtype == ref.dtype
    assert out.shape == ref.shape
    np.testing.assert_allclose(out, ref, rtol=tol[0], atol=tol[1])


def assert_records(got: list[tuple[Any, Any]], expected: list[tuple[int, Any]], tol: Any) -> None:
    assert [int(k) for k, _ in got] == [k for k, _ in expected]
    for (k, x), (_, ref) in zip(got, expected, strict=True):
        assert isinstance(k, np.ndarray)
        assert k.dtype == np.int32
        assert k.shape == ()
        assert isinstance(x, np.ndarray)
        assert x.dtype == ref.dtype
        np.testing.assert_allclose(x, ref, rtol=tol[0], atol=tol[1])


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Replace module <name>'s on_host with a wrapper counting host calls."""
    mod = module(name)
    calls: list[int] = []
    original = mod.on_host

    def wrapper(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(mod, "on_host", wrapper)
    return calls


def records(c: Computation, *args: Any) -> list[tuple[int, np.ndarray]]:
    """The catalog's expected host records for an effect computation."""
    assert c.records is not None
    return c.records(*args)


def sink_of(c: Computation) -> tuple[list[tuple[Any, Any]], dict[str, Any]]:
    got: list[tuple[Any, Any]] = []
    assert c.sink is not None
    return got, {c.sink: lambda k, x: got.append((k, x))}


# --- results -----------------------------------------------------------------------------------


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("ordered", [False, True], ids=["unordered", "ordered"])
@pytest.mark.parametrize("name", PURE)
def test_pure_matches_reference(name: str, ordered: bool, jit: bool, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    out = call(c, args, jit=jit, ordered=ordered)
    assert_tree_close(out, c.reference(*args), c.tolerance(dtype))


@pytest.mark.parametrize("name", PURE)
def test_pure_runs_once_even_when_unused(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    calls = counting(monkeypatch, name)
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    fn = getattr(jaxcb_io, name)

    def unused(*a: Any) -> Any:
        fn(*a)
        return a[-1]

    jax.jit(unused)(*args)
    jax.effects_barrier()
    assert len(calls) == 1


def test_ordered_calls_keep_program_order(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    for name in ("sum_mean", "expm", "cubic_root"):
        original = module(name).on_host

        def wrapper(*args: Any, name: str = name, original: Any = original) -> Any:
            seen.append(name)
            return original(*args)

        monkeypatch.setattr(module(name), "on_host", wrapper)

    def program(x: jax.Array) -> jax.Array:
        # independent calls: only ordered=True fixes the order in which the host sees them
        jaxcb_io.cubic_root(x, x, ordered=True)
        jaxcb_io.expm(jax.numpy.diag(x), ordered=True)
        jaxcb_io.sum_mean(x, ordered=True)
        return jaxcb_io.cubic_root(x, x, ordered=True)

    jax.jit(program)(np.linspace(0.5, 1.0, 3).astype(np.float32))
    jax.effects_barrier()
    assert seen == ["cubic_root", "expm", "sum_mean", "cubic_root"]


@pytest.mark.parametrize("name", PURE)
def test_vmap_unordered_is_a_loop(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    calls = counting(monkeypatch, name)
    c = by_name(name)
    batched = c.batched_args(np.float32, 3)
    in_axes = tuple(0 if i in c.batch_argnums else None for i in range(len(batched)))
    fn = getattr(jaxcb_io, name)
    out = jax.jit(jax.vmap(lambda *a: fn(*a, ordered=False), in_axes))(*batched)
    for i in range(3):
        element = jax.tree.map(lambda o, i=i: np.asarray(o)[i], out)
        ref = c.reference(*c.element(batched, i))
        assert_tree_close(element, ref, c.tolerance(np.float32))
    assert len(calls) == 3  # one host call per batch element


@pytest.mark.parametrize("name", [*PURE, "log_steps"])
def test_vmap_ordered_raises(name: str) -> None:
    c = by_name(name)
    batched = c.batched_args(np.float32, 2)
    static = {i: batched[i] for i in c.static_argnums}
    dynamic = [a for i, a in enumerate(batched) if i not in static]
    in_axes = tuple(
        0 if i in c.batch_argnums else None for i in range(len(batched)) if i not in static
    )
    fn = getattr(jaxcb_io, name)

    def f(*dyn: Any) -> Any:
        it = iter(dyn)
        return fn(
            *[static[i] if i in static else next(it) for i in range(len(batched))], ordered=True
        )

    with pytest.raises(VMAP_ORDERED[0]) as info:
        jax.vmap(f, in_axes)(*dynamic)
    assert type(info.value) is VMAP_ORDERED[0]
    assert str(info.value) == VMAP_ORDERED[1]


@pytest.mark.parametrize("ordered", [False, True], ids=["unordered", "ordered"])
def test_vmap_progress_raises(ordered: bool) -> None:
    x = np.ones((2, 3), np.float32)
    with pytest.raises(VMAP_OF_COND[0]) as info:
        jax.vmap(lambda x0: jaxcb_io.progress(x0, 4, 2, ordered=ordered))(x)
    assert type(info.value) is VMAP_OF_COND[0]
    assert str(info.value) == VMAP_OF_COND[1]


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_grad_raises(name: str) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    fn = getattr(jaxcb_io, name)
    d = c.diff_argnum
    assert d is not None

    def loss(a: Any) -> Any:
        out = fn(*args[:d], a, *args[d + 1 :])
        return sum(o.sum() for o in jax.tree.leaves(out))

    with pytest.raises(NO_JVP[0]) as info:
        jax.grad(loss)(args[d])
    assert type(info.value) is NO_JVP[0]
    assert str(info.value) == NO_JVP[1]


# --- effects -----------------------------------------------------------------------------------


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("name", EFFECTS)
def test_effect_records_in_order(name: str, jit: bool, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    got, sink = sink_of(c)
    out = call(c, args, jit=jit, **sink)  # default: ordered=True
    jax.effects_barrier()
    assert_records(got, records(c, *args), c.tolerance(dtype))
    assert_tree_close(out, c.reference(*args), c.tolerance(dtype))


@pytest.mark.parametrize("name", EFFECTS)
def test_effect_records_unordered_exactly_once(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    got, sink = sink_of(c)
    call(c, args, ordered=False, **sink)
    jax.effects_barrier()
    assert_records(sorted(got, key=lambda r: int(r[0])), records(c, *args), c.tolerance(dtype))


@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "unordered"])
@pytest.mark.parametrize("name", EFFECTS)
def test_effect_delivered_when_result_unused(name: str, ordered: bool) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    got, sink = sink_of(c)
    fn = getattr(jaxcb_io, name)

    def unused(x0: Any) -> Any:
        fn(x0, *args[1:], ordered=ordered, **sink)
        return x0

    jax.jit(unused)(args[0])
    jax.effects_barrier()
    got.sort(key=lambda r: int(r[0]))
    assert_records(got, records(c, *args), c.tolerance(np.float32))


def test_zero_steps_reach_nothing() -> None:
    got: list[Any] = []
    x0 = np.linspace(-1.0, 1.0, 4).astype(np.float32)
    out = jax.jit(lambda x: jaxcb_io.log_steps(x, 0, log=lambda k, x: got.append(k)))(x0)
    jax.effects_barrier()
    assert got == []
    np.testing.assert_array_equal(out, x0)


def test_vmap_unordered_log_steps_calls_each_element() -> None:
    c = by_name("log_steps")
    x0s, n = c.batched_args(np.float32, 2)
    got: list[tuple[Any, Any]] = []
    fn = jax.vmap(lambda x0: jaxcb_io.log_steps(x0, n, log=lambda *r: got.append(r), ordered=False))
    jax.jit(fn)(x0s)
    jax.effects_barrier()
    # one host call per element per step, each with that element's state
    expected = sorted((k, x.tolist()) for x0 in x0s for k, x in records(c, x0, n))
    received = sorted((int(k), x.tolist()) for k, x in got)
    assert [k for k, _ in received] == [k for k, _ in expected]
    np.testing.assert_allclose([x for _, x in received], [x for _, x in expected], rtol=2e-6)


def test_cubic_root_outside_documented_domain_returns_a_root() -> None:
    a = np.array([-3.0, -3.0, 0.0], np.float32)
    b = np.array([0.0, 1.0, 8.0], np.float32)
    x = np.asarray(jaxcb_io.cubic_root(a, b), np.float64)
    np.testing.assert_allclose(x**3 + a * x - b, 0.0, atol=1e-5)


@pytest.mark.parametrize("name", EFFECTS)
def test_host_reached_only_on_reported_steps(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    calls = counting(monkeypatch, name)
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    got, sink = sink_of(c)
    call(c, args, **sink)
    jax.effects_barrier()
    # log_steps: every step; progress: gated by lax.cond, n // every host calls, not n
    assert len(calls) == len(records(c, *args)) == len(got)
    if name == "progress":
        assert len(calls) == args[1] // args[2] < args[1]


@pytest.mark.parametrize("name", EFFECTS)
def test_default_sink_logs(name: str, caplog: pytest.LogCaptureFixture) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    with caplog.at_level(logging.INFO, logger="jaxcb_io"):
        call(c, args)
        jax.effects_barrier()
    lines = [r.getMessage() for r in caplog.records if r.name == "jaxcb_io"]
    assert [line.split(":")[0] for line in lines] == [f"step {k}" for k, _ in records(c, *args)]


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
    first, second = np.asarray(f()), np.asarray(f())
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

    jax.jit(unused)(np.float32(0.0))
    jax.effects_barrier()
    twin.standard_normal((8,))
    np.testing.assert_array_equal(
        jaxcb_io.host_draw((8,), rng=rng), twin.standard_normal((8,)).astype(np.float32)
    )


def test_host_draw_default_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module("host_draw"), "_DEFAULT_RNG", np.random.default_rng(11))
    twin = np.random.default_rng(11)
    for _ in range(2):
        np.testing.assert_array_equal(
            jaxcb_io.host_draw((3,)), twin.standard_normal((3,)).astype(np.float32)
        )


# --- validation --------------------------------------------------------------------------------

F32 = np.ones(3, np.float32)
I32 = np.arange(3, dtype=np.int32)
VALIDATION = [
    ("sum_mean", (I32,), TypeError, "sum_mean: x must have a floating dtype, got int32"),
    (
        "sum_mean",
        (np.float32(1),),
        ValueError,
        "sum_mean: x must have at least one axis, got shape ()",
    ),
    ("bessel_jv", (1.0, F32), TypeError, "bessel_jv: v must have an integer dtype, got float32"),
    (
        "bessel_jv",
        (1, np.ones(3, np.complex64)),
        TypeError,
        "bessel_jv: z must have a real dtype, got complex64",
    ),
    (
        "bessel_jv",
        (I32[:2], F32),
        ValueError,
        "bessel_jv: v and z must be broadcastable, got shapes (2,) and (3,)",
    ),
    (
        "expm",
        (np.eye(2, dtype=np.int32),),
        TypeError,
        "expm: a must have a floating dtype, got int32",
    ),
    ("expm", (F32,), ValueError, "expm: a must have shape (..., n, n), got shape (3,)"),
    (
        "expm",
        (np.ones((2, 3), np.float32),),
        ValueError,
        "expm: a must have shape (..., n, n), got shape (2, 3)",
    ),
    ("cubic_root", (I32, F32), TypeError, "cubic_root: a must have a floating dtype, got int32"),
    ("cubic_root", (F32, I32), TypeError, "cubic_root: b must have a floating dtype, got int32"),
    (
        "cubic_root",
        (F32[:2], F32),
        ValueError,
        "cubic_root: a and b must be broadcastable, got shapes (2,) and (3,)",
    ),
    ("log_steps", (I32, 2), TypeError, "log_steps: x0 must have a floating dtype, got int32"),
    ("log_steps", (F32, 2.0), TypeError, "log_steps: n must be a Python int, got float"),
    ("log_steps", (F32, True), TypeError, "log_steps: n must be a Python int, got bool"),
    ("log_steps", (F32, -1), ValueError, "log_steps: n must be >= 0, got -1"),
    ("progress", (I32, 4, 2), TypeError, "progress: x0 must have a floating dtype, got int32"),
    ("progress", (F32, np.int64(4), 2), TypeError, "progress: n must be a Python int, got int64"),
    ("progress", (F32, -4, 2), ValueError, "progress: n must be >= 0, got -4"),
    ("progress", (F32, 4, 2.0), TypeError, "progress: every must be a Python int, got float"),
    ("progress", (F32, 4, 0), ValueError, "progress: every must be >= 1, got 0"),
    (
        "host_draw",
        ([8],),
        ValueError,
        "host_draw: shape must be a tuple of non-negative ints, got [8]",
    ),
    (
        "host_draw",
        ((2, -1),),
        ValueError,
        "host_draw: shape must be a tuple of non-negative ints, got (2, -1)",
    ),
    (
        "host_draw",
        ((2.0,),),
        ValueError,
        "host_draw: shape must be a tuple of non-negative ints, got (2.0,)",
    ),
]


@pytest.mark.parametrize(("name", "args", "exc", "message"), VALIDATION)
def test_validation(name: str, args: tuple[Any, ...], exc: type, message: str) -> None:
    with pytest.raises(exc) as info:
        getattr(jaxcb_io, name)(*args)
    assert type(info.value) is exc
    assert str(info.value) == message


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
