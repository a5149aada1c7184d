"""The JAX behaviour `jaxcb check` rules state as seen, checked on the installed JAX.

The rule table (`jaxcb_check.checker.RULES`) cites what JAX does when code breaks the rule;
where a fact says "seen on" a version, it is run here and must still hold. Every rule's claim
about what the code does on a newer JAX is run here, as is each fact the rules rely on to
stay silent (an operand vmap cannot batch, a result whose kind matches).
"""

from __future__ import annotations

import ctypes
import importlib
import re
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.experimental import io_callback

from jaxcb_check.checker import RULE, RULES, SEEN, VMAP_METHODS

VERSION = tuple(int(p) for p in re.findall(r"\d+", jax.__version__)[:3])
pytestmark = pytest.mark.skipif(
    VERSION < (0, 8, 0), reason=f"the facts are about JAX >= 0.8; this is {jax.__version__}"
)
OUT = jax.ShapeDtypeStruct((3,), np.float32)
X = np.ones(3, np.float32)
XS = np.ones((2, 3), np.float32)  # a batch of two


def measured(rule: str, *words: str) -> str:
    """The rule's measured fact that holds all these words (it must say where it was seen)."""
    facts = [f.text for f in RULE[rule].facts if all(w in f.text for w in words)]
    assert len(facts) == 1, (rule, words, [f.text for f in RULE[rule].facts])
    return facts[0]


def test_every_measured_fact_names_the_versions_tested_here() -> None:
    for r in RULES:
        for f in r.facts:
            if f.source.startswith("measured"):
                assert "seen on" in f.text, (r.id, f.text)
    assert SEEN == "seen on 0.10.2 and 0.12.0.1"


# ---------------------------------------------------------------------------- modules gone


@pytest.mark.parametrize(
    ("rule", "module"),
    [
        ("JXC005", "jax.experimental.host_callback"),
        ("JXC008", "jax.experimental.export"),
        ("JXC013", "jax.extend.ffi"),
        ("JXC016", "jax.lib.xla_client"),
    ],
)
def test_module_is_gone(rule: str, module: str) -> None:
    assert f"`import {module}` raises ModuleNotFoundError" in measured(rule, "ModuleNotFound")
    with pytest.raises(ModuleNotFoundError, match=rf"No module named '{re.escape(module)}'"):
        importlib.import_module(module)


def test_host_callback_functions_go_with_it() -> None:
    for rule in ("JXC001", "JXC002", "JXC003", "JXC004"):
        assert RULE[rule].facts[:4] == RULE["JXC005"].facts  # the same measured fact
    with pytest.raises(ImportError):
        from jax.experimental import host_callback  # noqa: F401


def test_jax_extend_ffi_is_gone() -> None:
    assert "`jax.extend.ffi` an AttributeError" in measured("JXC013", "AttributeError")
    import jax.extend

    with pytest.raises(AttributeError, match="has no attribute 'ffi'"):
        jax.extend.ffi  # type: ignore[attr-defined]


def test_jax_lib_xla_client_is_gone() -> None:
    assert "`from jax.lib import xla_client` raises ImportError" in measured("JXC016", "seen")
    with pytest.raises(ImportError, match=r"cannot import name 'xla_client' from 'jax\.lib'"):
        exec("from jax.lib import xla_client")


def test_register_ffi_target_takes_an_old_style_kernel() -> None:
    """JXC016's replacement: jax.ffi registers a custom-call kernel with api_version=0."""
    assert "api_version=0" in measured("JXC016", "seen")
    assert "api_version=0" in RULE["JXC016"].replacement
    libc = ctypes.CDLL(None)
    capsule = jax.ffi.pycapsule(libc.abs)  # any C function: it is registered, never called
    jax.ffi.register_ffi_target("jaxcb_check_old_style", capsule, platform="cpu", api_version=0)


# ---------------------------------------------------------------------------- vectorized, ffi_call, vmap_method


def test_vectorized_reaches_the_host_function() -> None:
    assert "TypeError inside a JaxRuntimeError" in RULE["JXC006"].facts[-1].text
    with pytest.raises(
        jax.errors.JaxRuntimeError, match="unexpected keyword argument 'vectorized'"
    ):
        jax.pure_callback(lambda x: x, OUT, X, vectorized=True)  # type: ignore[call-arg]


def test_ffi_call_takes_no_operands() -> None:
    assert "takes 2 positional arguments but 3 were given" in RULE["JXC014"].facts[-1].text
    with pytest.raises(
        TypeError, match=r"ffi_call\(\) takes 2 positional arguments but 3 were given"
    ):
        jax.ffi.ffi_call("jaxcb_no_such_target", OUT, X)  # type: ignore[call-arg]


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_vmap_method_values(jit: bool) -> None:
    def call(method: str) -> object:
        def f(x: object) -> object:
            return jax.pure_callback(np.sin, OUT, x, vmap_method=method)

        return (jax.jit(f) if jit else f)(X)

    for method in VMAP_METHODS:
        call(method)  # accepted
    allowed = [*VMAP_METHODS, None]
    message = f"vmap_method must be on of the allowed methods {allowed}, but got: expand_dim"
    assert f"ValueError: {message.split(', but')[0]}" in RULE["JXC015"].facts[0].text
    with pytest.raises(ValueError, match="vmap_method must be on of the allowed") as info:
        call("expand_dim")
    assert str(info.value) == message


# ---------------------------------------------------------------------------- JXC007: which operands vmap batches


def _host(a: np.ndarray) -> np.ndarray:
    return np.asarray(np.sin(a), np.float32)


def _call(operand: object) -> jax.Array:
    return jax.pure_callback(_host, OUT, operand)  # no vmap_method


NO_VMAP_METHOD = (
    "vmap is only supported for the pure_callback primitive when vmap_method is one of "
    "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
    "'legacy_vectorized'. Got vmap_method=None."
)
BATCHED: dict[str, Callable[[jax.Array], object]] = {
    "the parameter": _call,
    "lax.stop_gradient": lambda x: _call(lax.stop_gradient(x)),
    "jnp.max inside": lambda x: jax.pure_callback(
        lambda a: np.float32(a), jax.ShapeDtypeStruct((), np.float32), jnp.max(x)
    ),
}
UNBATCHED: dict[str, Callable[[jax.Array], object]] = {
    "a closed-over constant": lambda x: _call(X) + x,
    "a NumPy array": lambda x: _call(np.full(3, 2.0, np.float32)) + x,
    "jnp.arange": lambda x: _call(jnp.arange(3.0, dtype=jnp.float32)) + x,
    "a shape": lambda x: _call(jnp.zeros(x.shape, jnp.float32)) + x,
    "no operands": lambda x: jax.pure_callback(lambda: np.ones(3, np.float32), OUT) + x,
}
OVER_THE_AXIS: dict[str, Callable[[jax.Array], object]] = {
    "lax.pmax": lambda x: _call(lax.pmax(x, "batch")) + x,
    "lax.psum": lambda x: _call(lax.psum(x, "batch")) + x,
}


def test_the_vmap_facts_are_stated() -> None:
    fact = measured("JXC007", "only a batched operand raises")
    for words in ("lax.pmax", "lax.psum", "no operands", "stop_gradient", "jnp.max", "impl"):
        assert words in fact


@pytest.mark.parametrize("what", list(BATCHED))
def test_a_batched_operand_raises(what: str) -> None:
    with pytest.raises(NotImplementedError) as info:
        jax.vmap(BATCHED[what])(XS)
    assert str(info.value) == NO_VMAP_METHOD


@pytest.mark.parametrize("what", list(UNBATCHED))
def test_an_unbatched_operand_runs_under_vmap(what: str) -> None:
    assert np.asarray(jax.vmap(UNBATCHED[what])(XS)).shape == (2, 3)


@pytest.mark.parametrize("what", list(OVER_THE_AXIS))
def test_an_operand_reduced_over_the_vmapped_axis_runs(what: str) -> None:
    assert np.asarray(jax.vmap(OVER_THE_AXIS[what], axis_name="batch")(XS)).shape == (2, 3)


def test_a_primitive_impl_is_behind_its_batching_rule() -> None:
    """Equinox's old error_if: pure_callback without vmap_method in a primitive's impl and
    lowering; its batching rule reduces the index over the batch (unvmap_max), so vmap
    never reaches the callback."""
    from jax.extend.core import Primitive
    from jax.interpreters import batching, mlir

    def impl(index: jax.Array, x: jax.Array) -> jax.Array:
        y = jax.pure_callback(lambda i: np.int32(i), jax.ShapeDtypeStruct((), jnp.int32), index)
        return x + y.astype(x.dtype)

    p = Primitive("jaxcb_check_unvmap")
    p.def_impl(impl)
    p.def_abstract_eval(lambda index, x: x)

    def batch(args: tuple[jax.Array, jax.Array], dims: tuple[int | None, int | None]) -> object:
        index, x = args
        if dims[0] is not None:
            index = jnp.max(jnp.moveaxis(index, dims[0], 0), axis=0)
        return p.bind(index, x), dims[1]

    batching.primitive_batchers[p] = batch
    mlir.register_lowering(p, mlir.lower_fun(impl, multiple_results=False))
    index = jnp.arange(4, dtype=jnp.int32)
    xs = jnp.zeros((4, 3), jnp.float32)
    for f in (jax.vmap(p.bind), jax.jit(jax.vmap(p.bind))):
        assert np.asarray(f(index, xs)).tolist() == [[3.0] * 3] * 4


# ---------------------------------------------------------------------------- debug.print, raise, ordered io_callback


def test_fstring_in_debug_print_prints_the_tracer(capsys: pytest.CaptureFixture[str]) -> None:
    assert "`x=JitTracer(float32[3])`" in measured("JXC009", "seen")

    @jax.jit
    def f(x: jax.Array) -> None:
        jax.debug.print(f"x={x}")

    f(X)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x=JitTracer(float32[3])\n"


@pytest.mark.parametrize("statement", ["raise", "assert"])
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_raise_in_pure_callback_on_cpu(statement: str, jit: bool) -> None:
    assert "reaches the caller as a JaxRuntimeError" in measured("JXC010", "seen")
    assert RULE["JXC011"].facts == RULE["JXC010"].facts

    def host(x: np.ndarray) -> np.ndarray:
        if statement == "raise":
            raise ValueError("from the host")
        assert np.all(x < 0), "from the host"
        return x

    def f(x: object) -> object:
        return jax.pure_callback(host, OUT, x, vmap_method="sequential")

    with pytest.raises(jax.errors.JaxRuntimeError, match="from the host") as info:
        np.asarray((jax.jit(f) if jit else f)(X))
    assert not isinstance(info.value, ValueError | AssertionError)


def test_ordered_io_callback_under_vmap() -> None:
    assert "ValueError: Cannot `vmap` ordered IO callback." in measured("JXC012", "seen")
    with pytest.raises(ValueError, match=r"^Cannot `vmap` ordered IO callback\.\n"):
        jax.vmap(lambda x: io_callback(lambda a: a, OUT, x, ordered=True))(XS)


# ---------------------------------------------------------------------------- complex results


COMPLEX_HOSTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "np.fft.fft": np.fft.fft,
    "np.exp(1j * x)": lambda a: np.exp(1j * a),
    "complex64": lambda a: np.exp(1j * a).astype(np.complex64),
}


@pytest.mark.parametrize("host", list(COMPLEX_HOSTS))
@pytest.mark.parametrize("api", ["pure_callback", "io_callback"])
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_complex_values_for_a_real_result_fail(host: str, api: str, jit: bool) -> None:
    message = "Incorrect output dtype for return value #0: Expected: float32, Actual: complex64"
    assert message in measured("JXC017", "Incorrect output dtype")
    fn = COMPLEX_HOSTS[host]

    def f(x: object) -> object:
        if api == "io_callback":
            return io_callback(fn, OUT, x)
        return jax.pure_callback(fn, OUT, x, vmap_method="sequential")

    with pytest.raises(jax.errors.JaxRuntimeError, match=re.escape(message)):
        np.asarray((jax.jit(f) if jit else f)(X))


REAL_HOSTS: dict[str, tuple[Callable[[np.ndarray], np.ndarray], np.dtype]] = {
    ".real": (lambda a: np.fft.fft(a).real, np.dtype(np.float32)),
    "np.abs": (lambda a: np.abs(np.fft.fft(a)), np.dtype(np.float32)),
    "np.fft.irfft": (lambda a: np.fft.irfft(np.fft.rfft(a), n=3), np.dtype(np.float32)),
    "float64 for float32": (lambda a: np.asarray(a, np.float64) * 2, np.dtype(np.float32)),
    "complex128 for complex64": (np.fft.fft, np.dtype(np.complex64)),
}


@pytest.mark.parametrize("host", list(REAL_HOSTS))
def test_a_result_of_the_declared_kind_passes(host: str) -> None:
    fact = measured("JXC017", "only the kind must match")
    for words in (".real", "np.abs", "np.fft.irfft", "astype(np.float32)", "complex128"):
        assert words in fact
    fn, dtype = REAL_HOSTS[host]
    out = jax.ShapeDtypeStruct((3,), dtype)
    got = jax.jit(lambda x: jax.pure_callback(fn, out, x, vmap_method="sequential"))(X)
    assert got.dtype == dtype


def test_a_cast_to_real_passes_with_a_warning() -> None:
    """`z.astype(np.float32)` on the host: JAX takes it; NumPy warns that the imaginary part
    is dropped (the rule takes the cast as meant and stays silent)."""
    assert "with NumPy's ComplexWarning" in measured("JXC017", "only the kind must match")
    fn = lambda a: np.fft.fft(a).astype(np.float32)  # noqa: E731
    with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
        got = jax.pure_callback(fn, OUT, X, vmap_method="sequential")
    assert got.dtype == np.float32
