"""jaxcb_buffer: results against the catalog, in-place outputs and read-only inputs,
derivative rules, batching, host calls, validation, and the registry.

Host calls are counted through the registry's probe (``pkg_support.host_calls``); every
traced function is a fresh lambda, so no cached trace hides the probe. What a host
function receives (``Buffer`` flags, addresses, shapes) is seen by wrapping the module's
``on_host`` the same way. Everything asserted here was measured on JAX 0.10.2 and
0.12.0.1 (CPU), where it is identical. On a JAX without ``buffer_callback`` (0.4.30)
only the registry's fallback is checked; every other test is skipped, saying why.
"""

from __future__ import annotations

import importlib
import inspect
import re
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

import jaxcb_buffer
from jaxcb_buffer import _registry
from jaxcb_core import references
from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.mechanisms import from_dict

UNAVAILABLE = (
    f"jax.experimental.buffer_callback was added in JAX 0.6.1; this is JAX {jax.__version__}"
)
RUN_WITHOUT_BUFFER_CALLBACK = {"test_registry_without_buffer_callback"}


@pytest.fixture(autouse=True)
def _needs_buffer_callback(request: pytest.FixtureRequest) -> None:
    """Every test but the registry's fallback needs buffer_callback (JAX >= 0.6.1)."""
    if not jaxcb_buffer.HAS_BUFFER_CALLBACK and request.node.originalname not in (
        RUN_WITHOUT_BUFFER_CALLBACK
    ):
        pytest.skip(UNAVAILABLE)


PURE = ["sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root"]
CUSTOM_JVP = ["sin_scale", "sum_mean", "bessel_jv", "cubic_root"]
METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
VARIANT = "buffer_callback/default"  # both rows share the modules, and so the probe

NO_JVP = "Buffer callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients."
NO_FORWARD = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
NO_VMAP = (
    "vmap is only supported for the buffer_callback primitive when vmap_method is one of "
    "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
    "'legacy_vectorized'. Got vmap_method=None."
)
READ_ONLY = "assignment destination is read-only"
NO_COPY = "Buffer.__array__ with copy=True is not supported."


def fn(name: str) -> Callable[..., Any]:
    return getattr(jaxcb_buffer, name)


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


def buffer_callback(*args: Any, **kw: Any) -> Any:
    from jax.experimental.buffer_callback import buffer_callback as bc

    return bc(*args, **kw)


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], list[dict[str, Any]]]:
    """``seen(name)`` wraps ``on_host`` of ``name``'s module; each call appends what the
    host function received: the ``Buffer`` flags, NumPy's flags and the addresses."""

    def spy(name: str) -> list[dict[str, Any]]:
        mod = module("jaxcb_buffer", name)
        original, calls = mod.on_host, []

        def on_host(ctx: Any, out: Any, *ins: Any) -> None:
            outs = jax.tree.leaves(out)
            calls.append(
                {
                    "returned": original(ctx, out, *ins),
                    "in_writeable": [b.writeable for b in ins],
                    "out_writeable": [b.writeable for b in outs],
                    "in_numpy_writeable": [np.asarray(b).flags.writeable for b in ins],
                    "in_ptr": [np.asarray(b).ctypes.data for b in ins],
                    "out_ptr": [np.asarray(b).ctypes.data for b in outs],
                }
            )

        monkeypatch.setattr(mod, "on_host", on_host)
        return calls

    return spy


# --- results -------------------------------------------------------------------------------


@pytest.mark.parametrize("jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("name", PURE)
def test_matches_reference_in_one_host_call(name: str, jit: bool, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    f = fresh(fn(name))
    with host_calls(VARIANT, name) as tally:
        out = (jax.jit(f) if jit else f)(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize("name", PURE)
def test_callback_matches_reference_and_has_no_rule(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    bare = getattr(jaxcb_buffer, f"{name}_callback")
    out = jax.jit(fresh(bare))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    loss = partial_in(c, lambda *a: jax.tree.leaves(bare(*a))[0].sum(), args)
    with raises(ValueError, NO_JVP):
        jax.grad(loss)(args[diff_argnum(c)])


@pytest.mark.parametrize("name", PURE)
def test_host_runs_each_execution_and_an_unused_call_is_removed(name: str, x32: None) -> None:
    """has_side_effect=False: pure to JAX, so dead code under jit, else once per run."""
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    f = jax.jit(fresh(fn(name)))
    with host_calls(VARIANT, name) as tally:
        f(*args)
        f(*args)
    assert tally.calls == 2
    with host_calls(VARIANT, name) as tally:
        out = jax.jit(lambda *a: (fn(name)(*a), a[-1])[1])(*args)
    np.testing.assert_array_equal(out, args[-1])
    assert tally.calls == 0


# --- in place: what buffer_callback hands the host -----------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_host_writes_in_place_and_leaves_inputs_unchanged(
    name: str, seen: Callable[[str], list[dict[str, Any]]], x32: None
) -> None:
    """Measured: an input Buffer says writeable=False, but np.asarray of it is writable;
    outputs are writable. The host function returns None, the inputs keep their values."""
    c = by_name(name)
    args = [jnp.asarray(a) for a in c.make_args(np.dtype("float32"))]
    before = [np.array(a) for a in args]
    calls = seen(name)
    out = jax.jit(fresh(fn(name)))(*args)
    assert_close(out, c.reference(*before), c.tolerance(np.float32), np.float32)
    (call,) = calls
    assert call["returned"] is None
    assert call["in_writeable"] == [False] * len(args)
    assert call["in_numpy_writeable"] == [True] * len(args)  # NumPy ignores the flag
    assert call["out_writeable"] == [True] * len(jax.tree.leaves(out))
    for a, b in zip(args, before, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["sin_scale", "sum_mean", "expm"])
def test_no_copies_on_cpu(
    name: str, seen: Callable[[str], list[dict[str, Any]]], x32: None
) -> None:
    """Under jit, the host reads the argument's own memory and writes the result's."""
    c = by_name(name)
    x = jnp.asarray(c.make_args(np.dtype("float32"))[0])
    rest = c.make_args(np.dtype("float32"))[1:]
    calls = seen(name)
    out = jax.jit(lambda x: fn(name)(x, *rest))(x)
    (call,) = calls
    assert call["in_ptr"][0] == x.unsafe_buffer_pointer()
    assert call["out_ptr"] == [o.unsafe_buffer_pointer() for o in jax.tree.leaves(out)]


def test_a_write_to_an_input_view_reaches_the_callers_array(x32: None) -> None:
    """Why the patterns make their input views read-only: measured, a raw write through
    np.asarray(input) changes the jax.Array that was passed in."""

    def host(ctx: Any, out: Any, x: Any) -> None:
        np.asarray(x)[0] = 99.0  # what no pattern may do
        np.copyto(np.asarray(out), np.asarray(x))

    x = jnp.arange(4.0)
    out = jax.jit(buffer_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype)))(x)
    np.testing.assert_array_equal(out, [99.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(x, [99.0, 1.0, 2.0, 3.0])  # the "immutable" argument


@pytest.mark.parametrize("name", PURE)
def test_input_views_of_the_patterns_are_read_only(name: str, x32: None) -> None:
    """Each module's ``_read_only`` view of a real input Buffer raises on a write."""
    mod = module("jaxcb_buffer", name)
    errors: list[str] = []

    def host(ctx: Any, out: Any, x: Any) -> None:
        view = mod._read_only(x)
        assert not view.flags.writeable
        assert view.ctypes.data == np.asarray(x).ctypes.data  # a view, not a copy
        try:
            view[...] = 0
        except ValueError as e:
            errors.append(str(e))
        np.copyto(np.asarray(out), view)

    x = jnp.arange(4.0)
    out = jax.jit(buffer_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype)))(x)
    assert errors == [READ_ONLY]
    np.testing.assert_array_equal(out, np.arange(4.0))
    np.testing.assert_array_equal(x, np.arange(4.0))


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


@pytest.mark.parametrize("jac", [jax.jacfwd, jax.jacrev], ids=["jacfwd", "jacrev"])
@pytest.mark.parametrize("name", CUSTOM_JVP)
def test_jacobian_matches_reference(name: str, jac: Any, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jac(partial_in(c, fn(name), args)))(args[diff_argnum(c)])
    assert_close(out, references.jacobian(c, args), c.tolerance(np.float64), np.float64)


@pytest.mark.parametrize("name", ["sin_scale", "bessel_jv", "cubic_root"])
def test_hessian_matches_finite_differences(name: str, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jax.hessian(partial_in(c, fn(name), args)))(args[diff_argnum(c)])
    ref = references.hessian(c, args, summed=False)
    assert out.shape == ref.shape == (8, 8, 8)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-8)


def test_sum_mean_hessian_is_zero(x64: None) -> None:
    x = by_name("sum_mean").make_args(np.dtype("float64"))[0]
    hs, hm = jax.jit(jax.hessian(fresh(fn("sum_mean"))))(x)  # the map is linear
    np.testing.assert_array_equal(hs, np.zeros((8, 8)))
    np.testing.assert_array_equal(hm, np.zeros((8, 8)))


def test_expm_jacrev_one_host_call(dtype: np.dtype[Any]) -> None:
    """jacrev = the backward rule vmapped over 16 cotangents: one host call, the saved
    matrix arriving with a size-1 batch axis. The forward call is removed under jit."""
    c = by_name("expm")
    (a,) = c.make_args(dtype)
    with host_calls(VARIANT, "expm") as tally:
        out = jax.jit(jax.jacrev(fresh(fn("expm"))))(a)
    assert out.shape == (4, 4, 4, 4)
    assert_close(out, references.jacobian(c, (a,)), c.tolerance(dtype), dtype)
    assert tally.by_function == {"on_host_vjp": 1}  # no forward call
    assert tally.shapes == [f"{dtype.name}[16,4,4]", f"{dtype.name}[1,4,4]"]  # out, a (g: out)


def test_expm_vjp_of_a_stack(x64: None) -> None:
    a = 0.3 * np.random.default_rng(2).standard_normal((2, 3, 3))
    g = np.random.default_rng(3).standard_normal((2, 3, 3))
    _, vjp = jax.vjp(fn("expm"), a)
    (out,) = vjp(g)
    ref = references.vjp(by_name("expm"), (a,), g)
    np.testing.assert_allclose(out, ref, rtol=1e-9, atol=1e-11)


def test_expm_has_no_forward_mode_or_second_derivative(x32: None) -> None:
    expm = fn("expm")
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
    out = jax.vmap(jax.grad(fn("bessel_jv"), argnums=1), in_axes=(None, 0))(0, z)
    np.testing.assert_allclose(out, -scipy.special.jv(1, z), rtol=1e-12, atol=1e-14)


def test_cubic_root_derivative_in_a(dtype: np.dtype[Any]) -> None:
    c = by_name("cubic_root")
    a, b = c.make_args(dtype)
    t = np.linspace(-1, 1, a.size).astype(dtype)
    x, dx = jax.jit(lambda a, t: jax.jvp(lambda a: fn("cubic_root")(a, b), (a,), (t,)))(a, t)
    x64 = np.asarray(x, np.float64)
    ref = -x64 * t / (3 * x64**2 + np.asarray(a, np.float64))
    assert_close(dx, ref, c.tolerance(dtype), dtype)


# --- batching ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_vmap_default_method_one_host_call(name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    assert module("jaxcb_buffer", name).VMAP_METHOD == "expand_dims"
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
    # (function, in_axes, batched arguments, what the host receives: out, then the inputs)
    (
        "bessel_jv",
        (0, None),
        lambda dt: (np.array([-2, 0, 3], np.int32), np.linspace(0.5, 6.0, 5).astype(dt)),
        ["{dt}[3,5]", "int32[3,1]", "{dt}[1,5]"],
    ),
    (
        "cubic_root",
        (0, None),
        lambda dt: (np.array([[0.5], [1.0], [2.0]], dt), np.linspace(-2.0, 3.0, 4).astype(dt)),
        ["{dt}[3,4]", "{dt}[3,1]", "{dt}[1,4]"],
    ),
    (
        "cubic_root",
        (None, 0),
        lambda dt: (np.float32(1.5).astype(dt), np.linspace(-2.0, 3.0, 6).reshape(3, 2).astype(dt)),
        ["{dt}[3,2]", "{dt}[1,1]"],
    ),
    (
        "sin_scale",
        (None, 0),
        lambda dt: (np.linspace(-2, 2, 4).astype(dt), np.arange(3.0, dtype=dt)),
        ["{dt}[3,4]", "{dt}[1,4]", "{dt}[3,1]"],
    ),
]


@pytest.mark.parametrize(("name", "axes", "make", "shapes"), CASES_OTHER_AXES)
def test_vmap_any_argument_batched_nothing_tiled(
    name: str, axes: tuple[Any, ...], make: Any, shapes: list[str], dtype: np.dtype[Any]
) -> None:
    """expand_dims: the unbatched argument arrives with a size-1 axis, not tiled."""
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
    assert tally.shapes == [s.format(dt=dtype.name) for s in shapes]


def test_broadcast_all_tiles_the_unbatched_argument(x32: None) -> None:
    x, y = np.linspace(-2, 2, 4).astype(np.float32), np.arange(3.0, dtype=np.float32)
    f = fresh(fn("sin_scale"), vmap_method="broadcast_all")
    with host_calls(VARIANT, "sin_scale") as tally:
        jax.jit(jax.vmap(f, in_axes=(None, 0)))(x, y)
    assert tally.shapes == ["float32[3,4]", "float32[3,1]"]  # x tiled to the batch, like out


# --- validation ----------------------------------------------------------------------------

f32, i32 = np.ones(3, np.float32), np.arange(3, dtype=np.int32)
BAD: dict[str, list[tuple[Any, ...]]] = {
    "sin_scale": [(i32, 1.0), (f32, np.ones(2))],
    "sum_mean": [(i32,), (np.float32(1.0),)],
    "bessel_jv": [
        (1.0, f32),
        (True, f32),
        (1, np.ones(3, np.complex64)),
        (np.ones(2, np.int32), f32),
    ],
    "expm": [(np.eye(3, dtype=np.int32),), (f32,), (np.ones((2, 3), np.float32),)],
    "cubic_root": [(i32, f32), (f32, i32), (f32, np.ones(2, np.float32))],
}
BAD_CASES = [
    pytest.param(f"{name}{suffix}", args, id=f"{name}{suffix}-{i}")
    for name, cases in BAD.items()
    for suffix in ("", "_callback")
    for i, args in enumerate(cases)
]


def error_of(f: Callable[..., Any], *args: Any) -> tuple[type[Exception], str]:
    with pytest.raises((TypeError, ValueError)) as info:
        f(*args)
    return type(info.value), str(info.value)


@pytest.mark.parametrize(("name", "args"), BAD_CASES)
def test_same_errors_as_jaxcb_pure_before_xla(name: str, args: tuple[Any, ...], x32: None) -> None:
    pure = importlib.import_module("jaxcb_pure")
    expected = error_of(getattr(pure, name), *args)
    computation = name.removesuffix("_callback")
    with host_calls(VARIANT, computation) as tally:
        assert error_of(getattr(jaxcb_buffer, name), *args) == expected
        with raises(expected[0], expected[1]):  # raised while tracing, before XLA compiles
            jax.jit(fresh(getattr(jaxcb_buffer, name))).lower(*args)
    assert tally.calls == 0


# --- what the registry's reasons rest on ---------------------------------------------------


def test_no_ordered_mode_and_has_side_effect_keeps_unused_calls(x32: None) -> None:
    from jax.experimental.buffer_callback import buffer_callback as bc

    assert "ordered" not in inspect.signature(bc).parameters
    calls: list[int] = []

    def host(ctx: Any, out: Any, k: Any) -> None:
        calls.append(int(np.asarray(k)))

    for keep, expected in ((False, []), (True, [1, 2, 3, 4, 5])):
        calls.clear()
        send = buffer_callback(host, (), has_side_effect=keep)

        def step(c: jax.Array, k: jax.Array, send: Any = send) -> tuple[jax.Array, None]:
            send(k)  # the result (an empty tuple) is unused
            return c + 1, None

        jax.jit(lambda x: jax.lax.scan(step, x, jnp.arange(1, 6, dtype=jnp.int32))[0])(0.0)
        jax.effects_barrier()
        assert sorted(calls) == expected


def test_a_log_keeping_input_views_keeps_one_buffer_not_five_states(x32: None) -> None:
    """Every step hands the host the same memory, which XLA goes on reusing: views kept
    past the call all alias it, and only copies made during the call are the states."""
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    copied: list[np.ndarray] = []

    def host(ctx: Any, out: Any, k: Any, x: Any) -> None:
        kept.append((np.asarray(k), np.asarray(x)))  # views of XLA's buffers: no copy
        copied.append(np.asarray(x).copy())
        with pytest.raises(ValueError, match=re.escape(NO_COPY)):
            np.array(x)  # a Buffer refuses to be copied by NumPy

    def step(x: jax.Array, k: jax.Array) -> tuple[jax.Array, None]:
        x = 0.5 * x + 1
        buffer_callback(host, (), has_side_effect=True)(k, x)
        return x, None

    steps = jnp.arange(1, 6, dtype=jnp.int32)
    jax.jit(lambda x: jax.lax.scan(step, x, steps)[0])(jnp.zeros(2))
    jax.effects_barrier()
    states = [np.full(2, s, np.float32) for s in (1.0, 1.5, 1.75, 1.875, 1.9375)]
    np.testing.assert_array_equal(copied, states)
    assert len({k.ctypes.data for k, _ in kept}) == 1
    assert len({x.ctypes.data for _, x in kept}) == 1
    later = [x.tolist() for _, x in kept]
    assert later == [later[0]] * 5  # one buffer seen five times, not five states


# --- the registry --------------------------------------------------------------------------


def test_registry_rows(x32: None) -> None:
    rows = [from_dict(d) for d in _registry.variants()]
    assert [(r.id, r.mechanism, r.order) for r in rows] == [
        ("buffer_callback/default", "buffer_callback", 50),
        ("buffer_callback/no_rule", "buffer_callback", 51),
    ]
    for row in rows:
        assert set(row.implementations) == set(PURE)
        assert set(row.unsupported) == {"log_steps", "host_draw", "progress"}
        assert all(row.unsupported.values())
        assert set(row.bare) == {"call", "noop"}
        for name in PURE:  # every implementation runs (unbatched) and is right
            c = by_name(name)
            args = c.make_args(np.dtype("float32"))
            out = row.implementations[name](*args)
            assert_close(out, c.reference(*args), c.tolerance(np.float32), np.float32)
    default, no_rule = (r.implementations for r in rows)
    assert {n: default[n].__name__ for n in PURE} == {n: n for n in PURE}
    assert {n: no_rule[n].__name__ for n in PURE} == {n: f"{n}_callback" for n in PURE}
    probe = _registry.variants()[0]["probe"]
    for name in PURE:  # the probe names every host function the module defines
        mod = module("jaxcb_buffer", name)
        hosts = {a for a in dir(mod) if a.startswith("on_host") and callable(getattr(mod, a))}
        assert set(probe[name]) == hosts


def test_registry_without_buffer_callback(monkeypatch: pytest.MonkeyPatch) -> None:
    """What JAX 0.4.30 gets (simulated on a newer JAX): two valid rows, every
    computation unsupported, with the reason."""
    if jaxcb_buffer.HAS_BUFFER_CALLBACK:
        monkeypatch.setattr(_registry, "available", lambda: False)
    rows = [from_dict(d) for d in _registry.variants()]
    assert [(r.id, r.order) for r in rows] == [
        ("buffer_callback/default", 50),
        ("buffer_callback/no_rule", 51),
    ]
    for row in rows:
        assert dict(row.implementations) == {}
        assert dict(row.unsupported) == {c.name: UNAVAILABLE for c in CATALOG}


def test_bare_call_and_noop(x32: None) -> None:
    bare = _registry.variants()[0]["bare"]
    c = by_name("sin_scale")
    x, y = c.make_args(np.dtype("float32"))

    def host(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.sin(x) * y + 1

    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    out = jax.jit(lambda x, y: bare["call"](host, spec, x, y))(x, y)
    assert_close(out, c.reference(x, y), c.tolerance(np.float32), np.float32)
    (s,) = by_name("sum_mean").make_args(np.dtype("float32"))
    pair = (jax.ShapeDtypeStruct((), np.float32),) * 2
    total, mean = jax.jit(lambda s: bare["call"](lambda s: (s.sum(), s.mean()), pair, s))(s)
    np.testing.assert_allclose([total, mean], [s.sum(), s.mean()], rtol=1e-6)
    batched = jax.jit(jax.vmap(lambda x: bare["call"](host, spec, x, y)))(np.stack([x, x]))
    assert_close(batched, np.stack([c.reference(x, y)] * 2), c.tolerance(np.float32), np.float32)
    for f in (jax.jit(bare["noop"]), jax.jit(jax.vmap(bare["noop"]))):
        z = f(np.ones((2, 3), np.float32))
        assert (z.shape, z.dtype) == ((2, 3), np.float32)
