"""jaxcb_pyffi: results against the catalog, in-place outputs and read-only inputs, what the
ctypes bridge makes of an exception or a buffer NumPy cannot view, derivative rules,
batching, host calls, validation, and the registry.

Host calls are counted through the registry's probe (``pkg_support.host_calls``); every
traced function is a fresh lambda, so no cached trace hides the probe. What a handler
receives (flags, addresses, shapes) is seen by wrapping the module's ``on_host`` the same
way: the registered handler looks it up at each call. Everything asserted here was
measured on JAX 0.10.2 and 0.12.0.1 (CPU), where it is identical. On a JAX without
``jax.ffi`` (0.4.30) only the registry's fallback is checked; every other test is
skipped, saying why.
"""

from __future__ import annotations

import importlib
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

import jaxcb_pyffi
from jaxcb_core import references
from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_pyffi import _handler, _registry

UNAVAILABLE = (
    f"jax.ffi is not in JAX {jax.__version__} (added in 0.4.32 as jax.extend.ffi, "
    "jax.ffi since 0.5.0)"
)
RUN_WITHOUT_FFI = {"test_registry_without_ffi"}


@pytest.fixture(autouse=True)
def _needs_ffi(request: pytest.FixtureRequest) -> None:
    """Every test but the registry's fallback needs jax.ffi."""
    if not jaxcb_pyffi.HAS_FFI and request.node.originalname not in RUN_WITHOUT_FFI:
        pytest.skip(UNAVAILABLE)


PURE = ["sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root"]
CUSTOM_JVP = ["sin_scale", "sum_mean", "bessel_jv", "cubic_root"]
METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
VARIANT = "ffi_python/default"

NO_FORWARD = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."
NO_VMAP = (
    "vmap is only supported for the ffi_call primitive when vmap_method is one of "
    "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
    "'legacy_vectorized'. Got vmap_method=None."
)


def no_jvp(target: str) -> Any:
    """JAX's error for an ffi_call without a rule, by its first sentence (measured: its tail
    differs between JAX 0.10.2 and 0.12.0.1)."""
    first = f"The FFI call to `{target}` cannot be differentiated."
    return pytest.raises(ValueError, match="^" + re.escape(first))


def fn(name: str) -> Callable[..., Any]:
    return getattr(jaxcb_pyffi, name)


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


def handled(host: Callable[..., None], name: str) -> Callable[[jax.Array], jax.Array]:
    """A jitted ffi_call of ``host`` registered as the handler ``name`` (output like x)."""
    _handler.register(name, host)
    return jax.jit(lambda x: jax.ffi.ffi_call(name, jax.ShapeDtypeStruct(x.shape, x.dtype))(x))


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], list[dict[str, Any]]]:
    """``seen(name)`` wraps ``on_host`` of ``name``'s module; each call appends what the
    handler received: NumPy's flags and the addresses of its inputs and outputs."""

    def spy(name: str) -> list[dict[str, Any]]:
        mod = module("jaxcb_pyffi", name)
        original, calls = mod.on_host, []
        n_in = len(by_name(name).make_args(np.dtype("float32")))

        def on_host(*buffers: np.ndarray) -> None:
            ins, outs = buffers[:n_in], buffers[n_in:]
            calls.append(
                {
                    "returned": original(*buffers),
                    "in_writeable": [b.flags.writeable for b in ins],
                    "out_writeable": [b.flags.writeable for b in outs],
                    "in_ptr": [b.ctypes.data for b in ins],
                    "out_ptr": [b.ctypes.data for b in outs],
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
    bare = getattr(jaxcb_pyffi, f"{name}_callback")
    out = jax.jit(fresh(bare))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    loss = partial_in(c, lambda *a: jax.tree.leaves(bare(*a))[0].sum(), args)
    with no_jvp(module("jaxcb_pyffi", name).TARGET):
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


# --- in place: what the bridge hands the handler -------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_host_writes_in_place_and_leaves_inputs_unchanged(
    name: str, seen: Callable[[str], list[dict[str, Any]]], x32: None
) -> None:
    """The handler gets read-only input views and writable output views, returns None,
    and the inputs keep their values."""
    c = by_name(name)
    args = [jnp.asarray(a) for a in c.make_args(np.dtype("float32"))]
    before = [np.array(a) for a in args]
    calls = seen(name)
    out = jax.jit(fresh(fn(name)))(*args)
    assert_close(out, c.reference(*before), c.tolerance(np.float32), np.float32)
    (call,) = calls
    assert call["returned"] is None
    assert call["in_writeable"] == [False] * len(args)
    assert call["out_writeable"] == [True] * len(jax.tree.leaves(out))
    for a, b in zip(args, before, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["sin_scale", "sum_mean", "expm"])
def test_no_copies_on_cpu(
    name: str, seen: Callable[[str], list[dict[str, Any]]], x32: None
) -> None:
    """Under jit, the handler reads the argument's own memory and writes the result's."""
    c = by_name(name)
    x = jnp.asarray(c.make_args(np.dtype("float32"))[0])
    rest = c.make_args(np.dtype("float32"))[1:]
    calls = seen(name)
    out = jax.jit(lambda x: fn(name)(x, *rest))(x)
    (call,) = calls
    assert call["in_ptr"][0] == x.unsafe_buffer_pointer()
    assert call["out_ptr"] == [o.unsafe_buffer_pointer() for o in jax.tree.leaves(out)]


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
    assert tally.shapes == [f"{dtype.name}[1,4,4]", f"{dtype.name}[16,4,4]"]  # a, then g and out


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
    forward = module("jaxcb_pyffi", "expm").TARGET  # the forward call, differentiated again
    with no_jvp(forward):
        jax.hessian(lambda a: expm(a).sum())(a)
    with no_jvp(forward):
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
    assert module("jaxcb_pyffi", name).VMAP_METHOD == "expand_dims"
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
    # (function, in_axes, batched arguments, what the handler receives: inputs, then out)
    (
        "bessel_jv",
        (0, None),
        lambda dt: (np.array([-2, 0, 3], np.int32), np.linspace(0.5, 6.0, 5).astype(dt)),
        ["int32[3,1]", "{dt}[1,5]", "{dt}[3,5]"],
    ),
    (
        "cubic_root",
        (0, None),
        lambda dt: (np.array([[0.5], [1.0], [2.0]], dt), np.linspace(-2.0, 3.0, 4).astype(dt)),
        ["{dt}[3,1]", "{dt}[1,4]", "{dt}[3,4]"],
    ),
    (
        "cubic_root",
        (None, 0),
        lambda dt: (np.float32(1.5).astype(dt), np.linspace(-2.0, 3.0, 6).reshape(3, 2).astype(dt)),
        ["{dt}[1,1]", "{dt}[3,2]"],
    ),
    (
        "sin_scale",
        (None, 0),
        lambda dt: (np.linspace(-2, 2, 4).astype(dt), np.arange(3.0, dtype=dt)),
        ["{dt}[1,4]", "{dt}[3,1]", "{dt}[3,4]"],
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
        assert error_of(getattr(jaxcb_pyffi, name), *args) == expected
        with raises(expected[0], expected[1]):  # raised while tracing, before XLA compiles
            jax.jit(fresh(getattr(jaxcb_pyffi, name))).lower(*args)
    assert tally.calls == 0


# --- the bridge: errors, types, empty buffers -----------------------------------------------


def test_a_write_to_an_input_view_raises_in_the_caller(x32: None) -> None:
    """The bridge's input views are read-only: a handler that writes one fails the call
    (JaxRuntimeError with the ValueError NumPy raised), and the argument is unchanged."""

    def host(x: np.ndarray, out: np.ndarray) -> None:
        x[0] = 99.0  # what no handler may do
        np.copyto(out, x)

    x = jnp.arange(4.0)
    with raises(
        jax.errors.JaxRuntimeError, "UNKNOWN: ValueError: assignment destination is read-only"
    ):
        jax.block_until_ready(handled(host, "jaxcb_test_writes_input")(x))
    np.testing.assert_array_equal(x, np.arange(4.0))


def test_an_exception_in_the_handler_reaches_the_caller_and_the_process_goes_on(
    x32: None,
) -> None:
    def host(x: np.ndarray, out: np.ndarray) -> None:
        raise KeyError("no such table")

    f = handled(host, "jaxcb_test_raises")
    x = jnp.arange(3.0)
    for _ in range(2):  # and again: the handler and the process are still there
        with raises(jax.errors.JaxRuntimeError, "UNKNOWN: KeyError: 'no such table'"):
            jax.block_until_ready(f(x))
    np.testing.assert_allclose(jax.jit(fresh(fn("sin_scale")))(x, 2.0), np.sin(x) * 2 + 1, 1e-6)


def test_a_buffer_numpy_cannot_view_is_refused_with_its_dtype(x32: None) -> None:
    calls: list[int] = []

    def host(x: np.ndarray, out: np.ndarray) -> None:
        calls.append(1)

    f = handled(host, "jaxcb_test_bfloat16")
    with raises(
        jax.errors.JaxRuntimeError,
        "INVALID_ARGUMENT: argument 0 is bfloat16, which NumPy cannot view",
    ):
        jax.block_until_ready(f(jnp.ones(3, jnp.bfloat16)))
    assert calls == []  # refused before the Python function runs


def test_an_empty_input_reaches_the_handler_and_an_empty_result_calls_nothing(x32: None) -> None:
    """An empty argument arrives as an empty array (the handler still fills its result);
    a call whose result is empty is not made at all (measured: XLA skips it)."""
    seen: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def host(x: np.ndarray, out: np.ndarray) -> None:
        seen.append((x.shape, out.shape))
        out[...] = 7.0

    _handler.register("jaxcb_test_empty", host)

    def call(x: jax.Array, shape: tuple[int, ...]) -> jax.Array:
        result = jax.ShapeDtypeStruct(shape, x.dtype)
        return jax.jit(lambda x: jax.ffi.ffi_call("jaxcb_test_empty", result)(x))(x)

    np.testing.assert_array_equal(call(jnp.zeros((2, 0)), (2,)), [7.0, 7.0])
    assert seen == [((2, 0), (2,))]
    assert call(jnp.zeros(3), (0,)).shape == (0,)
    assert seen == [((2, 0), (2,))]  # no second call


def test_a_name_is_registered_once(x32: None) -> None:
    """A second registration of a name keeps the first handler (JAX keeps one per name)."""
    first = _handler.register("jaxcb_test_once", lambda x, out: np.copyto(out, x))
    second = _handler.register("jaxcb_test_once", lambda x, out: np.copyto(out, -x))
    assert first == second == "jaxcb_test_once"
    f = jax.jit(lambda x: jax.ffi.ffi_call(first, jax.ShapeDtypeStruct(x.shape, x.dtype))(x))
    np.testing.assert_array_equal(f(jnp.arange(3.0)), np.arange(3.0))


# --- the registry --------------------------------------------------------------------------


def test_registry_rows(x32: None) -> None:
    (row,) = [from_dict(d) for d in _registry.variants()]
    assert (row.id, row.mechanism, row.order) == ("ffi_python/default", "ffi_python", 57)
    assert set(row.implementations) == set(PURE)
    assert set(row.unsupported) == {"log_steps", "host_draw", "progress"}
    assert all(row.unsupported.values())
    assert set(row.bare) == {"call", "noop"}
    for name in PURE:  # every implementation runs (unbatched), is right, and is the public one
        c = by_name(name)
        args = c.make_args(np.dtype("float32"))
        out = row.implementations[name](*args)
        assert_close(out, c.reference(*args), c.tolerance(np.float32), np.float32)
        assert row.implementations[name].__name__ == name
    probe = _registry.variants()[0]["probe"]
    for name in PURE:  # the probe names every host function the module defines
        mod = module("jaxcb_pyffi", name)
        hosts = {a for a in dir(mod) if a.startswith("on_host") and callable(getattr(mod, a))}
        assert set(probe[name]) == hosts


def test_registry_without_ffi(monkeypatch: pytest.MonkeyPatch) -> None:
    """What JAX 0.4.30 gets (simulated on a newer JAX): a valid row, every computation
    unsupported, with the reason."""
    if jaxcb_pyffi.HAS_FFI:
        monkeypatch.setattr(_registry, "HAS_FFI", False)
    (row,) = [from_dict(d) for d in _registry.variants()]
    assert (row.id, row.order) == ("ffi_python/default", 57)
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
