"""The two mechanisms whose host code writes its results in place, one body over both:
``jaxcb_buffer`` (``jax.experimental.buffer_callback``) and ``jaxcb_pyffi`` (a Python
function registered as an XLA FFI handler through ctypes).

Both packages implement the same five pure computations with the same contract: results
against the catalog, in-place outputs and read-only inputs, a ``custom_jvp``/``custom_vjp``
rule or none, batching by ``vmap_method``, host calls, the same argument errors as
``jaxcb_pure``, and the same bare forms in the registry. What differs is named once, in
:class:`InPlace`: how a host function receives its buffers (``buffer_callback``: the
outputs, then the inputs; the FFI bridge: the inputs, then the outputs), what JAX says
when a call without a rule is differentiated, and the version that added the mechanism.
What only one package does (the ``Buffer`` object, the ctypes bridge's errors, each
registry) is tested in ``test_buffer.py`` and ``test_pyffi.py``.

Host calls are counted through the registry's probe (``pkg_support.host_calls``); every
traced function is a fresh lambda, so no cached trace hides the probe. What a host
function receives (flags, addresses) is seen by wrapping the module's ``on_host`` the same
way. Everything asserted here was measured on JAX 0.10.2 and 0.12.0.1 (CPU), where it is
identical; on JAX 0.4.30, which has neither mechanism, every test is skipped, saying why.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import re
from collections.abc import Callable, Sequence
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

from jaxcb_core import references
from jaxcb_core.catalog import by_name

PURE = ["sin_scale", "sum_mean", "bessel_jv", "expm", "cubic_root"]
CUSTOM_JVP = ["sin_scale", "sum_mean", "bessel_jv", "cubic_root"]
METHODS = ["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
NO_FORWARD = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."


def _no_vmap(primitive: str) -> str:
    return (
        f"vmap is only supported for the {primitive} primitive when vmap_method is one of "
        "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
        "'legacy_vectorized'. Got vmap_method=None."
    )


@dataclasses.dataclass(frozen=True)
class InPlace:
    """What differs between the two in-place mechanisms, as measured."""

    package: str
    variant: str  # the registry row whose probe counts the host calls
    primitive: str  # as JAX names it in its batching error
    outputs_first: bool  # the order in which a host function receives its buffers
    numpy_inputs_writeable: bool  # np.asarray(input).flags.writeable inside the host
    unavailable: str  # why the tests skip on a JAX without the mechanism

    @property
    def mod(self) -> Any:
        return importlib.import_module(self.package)

    @property
    def available(self) -> bool:
        mod = self.mod
        return bool(getattr(mod, "HAS_BUFFER_CALLBACK", getattr(mod, "HAS_FFI", False)))

    def fn(self, name: str) -> Callable[..., Any]:
        return getattr(self.mod, name)

    def no_jvp(self, name: str) -> contextlib.AbstractContextManager[Any]:
        """JAX's error for differentiating ``name``'s call without a rule."""
        if self.package == "jaxcb_buffer":
            return raises(
                ValueError,
                "Buffer callbacks do not support JVP. Please use `jax.custom_jvp` to use "
                "callbacks while taking gradients.",
            )
        # its first sentence only: the tail differs between JAX 0.10.2 and 0.12.0.1
        first = f"The FFI call to `{module(self.package, name).TARGET}` cannot be differentiated."
        return pytest.raises(ValueError, match="^" + re.escape(first))

    def buffers(self, ins: Sequence[str], outs: Sequence[str]) -> list[str]:
        """The shapes a host call receives, in this mechanism's order, each once (as the
        probe lists them)."""
        ordered = [*outs, *ins] if self.outputs_first else [*ins, *outs]
        return list(dict.fromkeys(ordered))

    def writeable(self, buffer: Any) -> bool:
        """The flag the host function is shown: a ``Buffer``'s own, or the array's."""
        return bool(buffer.writeable if self.outputs_first else buffer.flags.writeable)

    def split(self, name: str, buffers: Sequence[Any]) -> tuple[Sequence[Any], Sequence[Any]]:
        """``(inputs, outputs)`` of a host function's positional arguments."""
        if self.outputs_first:  # (ctx, out, *ins); out is one Buffer or a tuple of them
            return buffers[2:], jax.tree.leaves(buffers[1])
        n_in = len(by_name(name).make_args(np.dtype("float32")))
        return buffers[:n_in], buffers[n_in:]


BUFFER = InPlace(
    package="jaxcb_buffer",
    variant="buffer_callback/default",
    primitive="buffer_callback",
    outputs_first=True,
    numpy_inputs_writeable=True,  # a Buffer says writeable=False; NumPy's view ignores it
    unavailable=(
        f"jax.experimental.buffer_callback was added in JAX 0.6.1; this is JAX {jax.__version__}"
    ),
)
PYFFI = InPlace(
    package="jaxcb_pyffi",
    variant="ffi_python/default",
    primitive="ffi_call",
    outputs_first=False,
    numpy_inputs_writeable=False,  # the bridge hands read-only views
    unavailable=(
        f"jax.ffi is not in JAX {jax.__version__} (added in 0.4.32 as jax.extend.ffi, "
        "jax.ffi since 0.5.0)"
    ),
)


@pytest.fixture(params=[BUFFER, PYFFI], ids=lambda p: p.package)
def pkg(request: pytest.FixtureRequest) -> InPlace:
    p: InPlace = request.param
    if not p.available:
        pytest.skip(p.unavailable)
    return p


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


@pytest.fixture
def seen(pkg: InPlace, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], list[dict[str, Any]]]:
    """``seen(name)`` wraps ``on_host`` of ``name``'s module; each call appends what the
    host function received: the flags it reports, NumPy's flags and the addresses."""

    def spy(name: str) -> list[dict[str, Any]]:
        mod = module(pkg.package, name)
        original, calls = mod.on_host, []

        def on_host(*buffers: Any) -> None:
            ins, outs = pkg.split(name, buffers)
            calls.append(
                {
                    "returned": original(*buffers),
                    "in_writeable": [pkg.writeable(b) for b in ins],
                    "out_writeable": [pkg.writeable(b) for b in outs],
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
def test_matches_reference_in_one_host_call(
    pkg: InPlace, name: str, jit: bool, dtype: np.dtype[Any]
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    f = fresh(pkg.fn(name))
    with host_calls(pkg.variant, name) as tally:
        out = (jax.jit(f) if jit else f)(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize("name", PURE)
def test_callback_matches_reference_and_has_no_rule(
    pkg: InPlace, name: str, dtype: np.dtype[Any]
) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    bare = pkg.fn(f"{name}_callback")
    out = jax.jit(fresh(bare))(*args)
    assert_close(out, c.reference(*args), c.tolerance(dtype), dtype)
    loss = partial_in(c, lambda *a: jax.tree.leaves(bare(*a))[0].sum(), args)
    with pkg.no_jvp(name):
        jax.grad(loss)(args[diff_argnum(c)])


@pytest.mark.parametrize("name", PURE)
def test_host_runs_each_execution_and_an_unused_call_is_removed(
    pkg: InPlace, name: str, x32: None
) -> None:
    """has_side_effect=False: pure to JAX, so dead code under jit, else once per run."""
    c = by_name(name)
    args = c.make_args(np.dtype("float32"))
    f = jax.jit(fresh(pkg.fn(name)))
    with host_calls(pkg.variant, name) as tally:
        f(*args)
        f(*args)
    assert tally.calls == 2
    with host_calls(pkg.variant, name) as tally:
        out = jax.jit(lambda *a: (pkg.fn(name)(*a), a[-1])[1])(*args)
    np.testing.assert_array_equal(out, args[-1])
    assert tally.calls == 0


# --- in place: what the host function is handed ---------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_host_writes_in_place_and_leaves_inputs_unchanged(
    pkg: InPlace, name: str, seen: Callable[[str], list[dict[str, Any]]], x32: None
) -> None:
    """Inputs are flagged read-only and outputs writable; the host function returns None
    and the inputs keep their values. NumPy's view of a ``buffer_callback`` input ignores
    the flag (measured; why the patterns take read-only views: ``test_buffer.py``)."""
    c = by_name(name)
    args = [jnp.asarray(a) for a in c.make_args(np.dtype("float32"))]
    before = [np.array(a) for a in args]
    calls = seen(name)
    out = jax.jit(fresh(pkg.fn(name)))(*args)
    assert_close(out, c.reference(*before), c.tolerance(np.float32), np.float32)
    (call,) = calls
    assert call["returned"] is None
    assert call["in_writeable"] == [False] * len(args)
    assert call["in_numpy_writeable"] == [pkg.numpy_inputs_writeable] * len(args)
    assert call["out_writeable"] == [True] * len(jax.tree.leaves(out))
    for a, b in zip(args, before, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["sin_scale", "sum_mean", "expm"])
def test_no_copies_on_cpu(
    pkg: InPlace, name: str, seen: Callable[[str], list[dict[str, Any]]], x32: None
) -> None:
    """Under jit, the host reads the argument's own memory and writes the result's."""
    c = by_name(name)
    x = jnp.asarray(c.make_args(np.dtype("float32"))[0])
    rest = c.make_args(np.dtype("float32"))[1:]
    calls = seen(name)
    out = jax.jit(lambda x: pkg.fn(name)(x, *rest))(x)
    (call,) = calls
    assert call["in_ptr"][0] == x.unsafe_buffer_pointer()
    assert call["out_ptr"] == [o.unsafe_buffer_pointer() for o in jax.tree.leaves(out)]


# --- derivatives ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", CUSTOM_JVP)
def test_jvp_matches_reference(pkg: InPlace, name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    t = tangent(c, args)
    g = partial_in(c, pkg.fn(name), args)
    _, out = jax.jit(lambda x, t: jax.jvp(g, (x,), (t,)))(args[diff_argnum(c)], t)
    assert_close(out, references.jvp(c, args, t), c.tolerance(dtype), dtype)


@pytest.mark.parametrize("name", PURE)
def test_grad_matches_reference(pkg: InPlace, name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    args = c.make_args(dtype)
    g = partial_in(c, pkg.fn(name), args)
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
def test_jacobian_matches_reference(pkg: InPlace, name: str, jac: Any, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jac(partial_in(c, pkg.fn(name), args)))(args[diff_argnum(c)])
    assert_close(out, references.jacobian(c, args), c.tolerance(np.float64), np.float64)


@pytest.mark.parametrize("name", ["sin_scale", "bessel_jv", "cubic_root"])
def test_hessian_matches_finite_differences(pkg: InPlace, name: str, x64: None) -> None:
    c = by_name(name)
    args = c.make_args(np.dtype("float64"))
    out = jax.jit(jax.hessian(partial_in(c, pkg.fn(name), args)))(args[diff_argnum(c)])
    ref = references.hessian(c, args, summed=False)
    assert out.shape == ref.shape == (8, 8, 8)
    np.testing.assert_allclose(out, ref, rtol=1e-6, atol=1e-8)


def test_sum_mean_hessian_is_zero(pkg: InPlace, x64: None) -> None:
    x = by_name("sum_mean").make_args(np.dtype("float64"))[0]
    hs, hm = jax.jit(jax.hessian(fresh(pkg.fn("sum_mean"))))(x)  # the map is linear
    np.testing.assert_array_equal(hs, np.zeros((8, 8)))
    np.testing.assert_array_equal(hm, np.zeros((8, 8)))


def test_expm_jacrev_one_host_call(pkg: InPlace, dtype: np.dtype[Any]) -> None:
    """jacrev = the backward rule vmapped over 16 cotangents: one host call, the saved
    matrix arriving with a size-1 batch axis. The forward call is removed under jit."""
    c = by_name("expm")
    (a,) = c.make_args(dtype)
    with host_calls(pkg.variant, "expm") as tally:
        out = jax.jit(jax.jacrev(fresh(pkg.fn("expm"))))(a)
    assert out.shape == (4, 4, 4, 4)
    assert_close(out, references.jacobian(c, (a,)), c.tolerance(dtype), dtype)
    assert tally.by_function == {"on_host_vjp": 1}  # no forward call
    saved, cotangents = f"{dtype.name}[1,4,4]", f"{dtype.name}[16,4,4]"
    assert tally.shapes == pkg.buffers([saved, cotangents], [cotangents])


def test_expm_vjp_of_a_stack(pkg: InPlace, x64: None) -> None:
    a = 0.3 * np.random.default_rng(2).standard_normal((2, 3, 3))
    g = np.random.default_rng(3).standard_normal((2, 3, 3))
    _, vjp = jax.vjp(pkg.fn("expm"), a)
    (out,) = vjp(g)
    ref = references.vjp(by_name("expm"), (a,), g)
    np.testing.assert_allclose(out, ref, rtol=1e-9, atol=1e-11)


def test_expm_has_no_forward_mode_or_second_derivative(pkg: InPlace, x32: None) -> None:
    expm = pkg.fn("expm")
    (a,) = by_name("expm").make_args(np.dtype("float32"))
    with raises(TypeError, NO_FORWARD):
        jax.jvp(expm, (a,), (a,))
    with raises(TypeError, NO_FORWARD):
        jax.jacfwd(expm)(a)
    with pkg.no_jvp("expm"):  # the forward call, differentiated again
        jax.hessian(lambda a: expm(a).sum())(a)
    with pkg.no_jvp("expm"):
        jax.grad(lambda a: jax.grad(lambda a: expm(a).sum())(a).sum())(a)


def test_bessel_jv_derivative_of_order_zero(pkg: InPlace, x64: None) -> None:
    """dJ_0/dz = (J_{-1} - J_1) / 2 = -J_1: the rule needs no special case."""
    import scipy.special

    z = np.linspace(0.5, 8.0, 6)
    out = jax.vmap(jax.grad(pkg.fn("bessel_jv"), argnums=1), in_axes=(None, 0))(0, z)
    np.testing.assert_allclose(out, -scipy.special.jv(1, z), rtol=1e-12, atol=1e-14)


def test_cubic_root_derivative_in_a(pkg: InPlace, dtype: np.dtype[Any]) -> None:
    c = by_name("cubic_root")
    a, b = c.make_args(dtype)
    t = np.linspace(-1, 1, a.size).astype(dtype)
    x, dx = jax.jit(lambda a, t: jax.jvp(lambda a: pkg.fn("cubic_root")(a, b), (a,), (t,)))(a, t)
    x64 = np.asarray(x, np.float64)
    ref = -x64 * t / (3 * x64**2 + np.asarray(a, np.float64))
    assert_close(dx, ref, c.tolerance(dtype), dtype)


# --- batching ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PURE)
def test_vmap_default_method_one_host_call(pkg: InPlace, name: str, dtype: np.dtype[Any]) -> None:
    c = by_name(name)
    assert module(pkg.package, name).VMAP_METHOD == "expand_dims"
    batched = c.batched_args(dtype, BATCH)
    with host_calls(pkg.variant, name) as tally:
        out = jax.jit(jax.vmap(fresh(pkg.fn(name)), in_axes=in_axes(c, batched)))(*batched)
    assert_close(out, stacked_reference(c, batched), c.tolerance(dtype), dtype)
    assert tally.calls == 1


@pytest.mark.parametrize("method", [*METHODS, None])
@pytest.mark.parametrize("name", PURE)
def test_vmap_methods(pkg: InPlace, name: str, method: str | None, x32: None) -> None:
    c = by_name(name)
    dtype = np.dtype("float32")
    batched = c.batched_args(dtype, BATCH)
    f = jax.jit(jax.vmap(fresh(pkg.fn(name), vmap_method=method), in_axes=in_axes(c, batched)))
    if method is None:
        with raises(NotImplementedError, _no_vmap(pkg.primitive)):
            f(*batched)
        return
    with host_calls(pkg.variant, name) as tally:
        out = f(*batched)
    assert_close(out, stacked_reference(c, batched), c.tolerance(dtype), dtype)
    assert tally.calls == (BATCH if method.startswith("sequential") else 1)


CASES_OTHER_AXES = [
    # (function, in_axes, batched arguments, what the host receives: inputs, outputs)
    (
        "bessel_jv",
        (0, None),
        lambda dt: (np.array([-2, 0, 3], np.int32), np.linspace(0.5, 6.0, 5).astype(dt)),
        (["int32[3,1]", "{dt}[1,5]"], ["{dt}[3,5]"]),
    ),
    (
        "cubic_root",
        (0, None),
        lambda dt: (np.array([[0.5], [1.0], [2.0]], dt), np.linspace(-2.0, 3.0, 4).astype(dt)),
        (["{dt}[3,1]", "{dt}[1,4]"], ["{dt}[3,4]"]),
    ),
    (
        "cubic_root",
        (None, 0),
        lambda dt: (np.float32(1.5).astype(dt), np.linspace(-2.0, 3.0, 6).reshape(3, 2).astype(dt)),
        (["{dt}[1,1]", "{dt}[3,2]"], ["{dt}[3,2]"]),
    ),
    (
        "sin_scale",
        (None, 0),
        lambda dt: (np.linspace(-2, 2, 4).astype(dt), np.arange(3.0, dtype=dt)),
        (["{dt}[1,4]", "{dt}[3,1]"], ["{dt}[3,4]"]),
    ),
]


@pytest.mark.parametrize(("name", "axes", "make", "shapes"), CASES_OTHER_AXES)
def test_vmap_any_argument_batched_nothing_tiled(
    pkg: InPlace,
    name: str,
    axes: tuple[Any, ...],
    make: Any,
    shapes: tuple[list[str], list[str]],
    dtype: np.dtype[Any],
) -> None:
    """expand_dims: the unbatched argument arrives with a size-1 axis, not tiled."""
    c = by_name(name)
    args = make(dtype)
    with host_calls(pkg.variant, name) as tally:
        out = jax.jit(jax.vmap(fresh(pkg.fn(name)), in_axes=axes))(*args)
    elements = [
        [a[i] if ax == 0 else a for a, ax in zip(args, axes, strict=True)] for i in range(BATCH)
    ]
    ref = np.stack([c.reference(*e) for e in elements])
    assert_close(out, ref, c.tolerance(dtype), dtype)
    assert tally.calls == 1
    ins, outs = ([s.format(dt=dtype.name) for s in part] for part in shapes)
    assert tally.shapes == pkg.buffers(ins, outs)


def test_broadcast_all_tiles_the_unbatched_argument(pkg: InPlace, x32: None) -> None:
    x, y = np.linspace(-2, 2, 4).astype(np.float32), np.arange(3.0, dtype=np.float32)
    f = fresh(pkg.fn("sin_scale"), vmap_method="broadcast_all")
    with host_calls(pkg.variant, "sin_scale") as tally:
        jax.jit(jax.vmap(f, in_axes=(None, 0)))(x, y)
    # x tiled to the batch, like the output
    assert tally.shapes == pkg.buffers(["float32[3,4]", "float32[3,1]"], ["float32[3,4]"])


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
def test_same_errors_as_jaxcb_pure_before_xla(
    pkg: InPlace, name: str, args: tuple[Any, ...], x32: None
) -> None:
    pure = importlib.import_module("jaxcb_pure")
    expected = error_of(getattr(pure, name), *args)
    computation = name.removesuffix("_callback")
    with host_calls(pkg.variant, computation) as tally:
        assert error_of(pkg.fn(name), *args) == expected
        with raises(expected[0], expected[1]):  # raised while tracing, before XLA compiles
            jax.jit(fresh(pkg.fn(name))).lower(*args)
    assert tally.calls == 0


# --- the registry's bare forms -------------------------------------------------------------


def test_bare_call_and_noop(pkg: InPlace, x32: None) -> None:
    bare = importlib.import_module(f"{pkg.package}._registry").variants()[0]["bare"]
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
