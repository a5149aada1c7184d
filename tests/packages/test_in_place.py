"""The two mechanisms whose host code writes its results in place, one body over both:
``jaxcb_buffer`` (``jax.experimental.buffer_callback``) and ``jaxcb_pyffi`` (a Python
function registered as an XLA FFI handler through ctypes).

Both packages implement the same five pure computations with the same contract. What they
share with jaxcb_pure and jaxcb_ffi (results against the catalog in one host call, the
derivative rules, batching by ``vmap_method``) is tested over all four in
``test_pure_computations.py``; here, what writing in place adds: in-place outputs and
read-only inputs, no copies, the buffers a host call receives, host calls per execution, the
same argument errors as ``jaxcb_pure``, and the same bare forms in the registry. What differs
is named once, in :class:`InPlace`: how a host function receives its buffers
(``buffer_callback``: the outputs, then the inputs; the FFI bridge: the inputs, then the
outputs), and the version that added the mechanism. What only one package does (the
``Buffer`` object, the ctypes bridge's errors, each registry) is tested in
``test_buffer.py`` and ``test_pyffi.py``.

Host calls are counted through the registry's probe (``pkg_support.host_calls``); every
traced function is a fresh lambda, so no cached trace hides the probe. What a host
function receives (flags, addresses) is seen by wrapping the module's ``on_host`` the same
way. Everything asserted here was measured on JAX 0.10.2 and 0.12.0.1 (CPU), where it is
identical; on JAX 0.4.30, which has neither mechanism, every test is skipped, saying why.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pkg_support import OTHER_AXES, PURE, assert_close, host_calls, module, raises

from jaxcb_core import references
from jaxcb_core.catalog import by_name


@dataclasses.dataclass(frozen=True)
class InPlace:
    """What differs between the two in-place mechanisms, as measured."""

    package: str
    variant: str  # the registry row whose probe counts the host calls
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
    outputs_first=True,
    numpy_inputs_writeable=True,  # a Buffer says writeable=False; NumPy's view ignores it
    unavailable=(
        f"jax.experimental.buffer_callback was added in JAX 0.6.1; this is JAX {jax.__version__}"
    ),
)
PYFFI = InPlace(
    package="jaxcb_pyffi",
    variant="ffi_python/default",
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


# --- batching ------------------------------------------------------------------------------


# what the host receives with expand_dims, for each case of OTHER_AXES: inputs, outputs
RECEIVED = {
    ("bessel_jv", (0, None)): (["int32[3,1]", "{dt}[1,5]"], ["{dt}[3,5]"]),
    ("cubic_root", (0, None)): (["{dt}[3,1]", "{dt}[1,4]"], ["{dt}[3,4]"]),
    ("cubic_root", (None, 0)): (["{dt}[1,1]", "{dt}[3,2]"], ["{dt}[3,2]"]),
    ("sin_scale", (None, 0)): (["{dt}[1,4]", "{dt}[3,1]"], ["{dt}[3,4]"]),
}


@pytest.mark.parametrize(("name", "axes", "make"), OTHER_AXES)
def test_vmap_any_argument_batched_nothing_tiled(
    pkg: InPlace, name: str, axes: tuple[Any, ...], make: Any, dtype: np.dtype[Any]
) -> None:
    """expand_dims: the unbatched argument arrives with a size-1 axis, not tiled (the values
    and the one host call: ``test_pure_computations.py``)."""
    with host_calls(pkg.variant, name) as tally:
        jax.jit(jax.vmap(fresh(pkg.fn(name)), in_axes=axes))(*make(dtype))
    ins, outs = ([s.format(dt=dtype.name) for s in part] for part in RECEIVED[name, axes])
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
