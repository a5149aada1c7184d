"""jaxcb_pyffi, what only it does: what the ctypes bridge makes of a handler's exception,
a write to an input, a buffer NumPy cannot view and an empty buffer; one registration per
name; and the registry. Each pattern module holds its own copy of the bridge (it runs
copied alone): every test of the bridge runs over each copy.

The contract it shares with ``jaxcb_buffer`` (results, in-place outputs, derivative rules,
batching, host calls, argument errors, the bare forms) is one body over both packages:
``test_in_place.py``. Everything asserted here was measured on JAX 0.10.2 and 0.12.0.1
(CPU), where it is identical. On a JAX without ``jax.ffi`` (0.4.30) only the registry's
fallback is checked; every other test is skipped, saying why.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pkg_support import (
    PURE,
    assert_close,
    module,
    raises,
)

import jaxcb_pyffi
from jaxcb_core.catalog import CATALOG, by_name
from jaxcb_core.mechanisms import from_dict
from jaxcb_pyffi import _registry

UNAVAILABLE = (
    f"jax.ffi is not in JAX {jax.__version__} (added in 0.4.32 as jax.extend.ffi, "
    "jax.ffi since 0.5.0)"
)
RUN_WITHOUT_FFI = {"test_registry_without_ffi", "test_each_module_holds_the_same_bridge"}
# the pattern modules, each with its bridge (from the files: nothing lists them by hand)
MODULES = sorted(p.stem for p in Path(jaxcb_pyffi.__file__).parent.glob("[a-z]*.py"))


@pytest.fixture(autouse=True)
def _needs_ffi(request: pytest.FixtureRequest) -> None:
    """Every test but the registry's fallback needs jax.ffi."""
    if not jaxcb_pyffi.HAS_FFI and request.node.originalname not in RUN_WITHOUT_FFI:
        pytest.skip(UNAVAILABLE)


def fn(name: str) -> Callable[..., Any]:
    return getattr(jaxcb_pyffi, name)


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


Register = Callable[[str, Callable[..., None]], str]


@pytest.fixture(params=MODULES)
def register(request: pytest.FixtureRequest) -> Register:
    """One module's bridge; the names it registers end with the module's name, as XLA
    keeps one handler per name and each copy registers its own."""
    bridge = importlib.import_module(f"jaxcb_pyffi.{request.param}")._register
    return lambda name, host: bridge(f"{name}_{request.param}", host)


def handled(
    register: Register, host: Callable[..., None], name: str
) -> Callable[[jax.Array], jax.Array]:
    """A jitted ffi_call of ``host`` registered as the handler ``name`` (output like x)."""
    name = register(name, host)
    return jax.jit(lambda x: jax.ffi.ffi_call(name, jax.ShapeDtypeStruct(x.shape, x.dtype))(x))


# --- the bridge: errors, types, empty buffers -----------------------------------------------


def test_a_write_to_an_input_view_raises_in_the_caller(x32: None, register: Register) -> None:
    """The bridge's input views are read-only: a handler that writes one fails the call
    (JaxRuntimeError with the ValueError NumPy raised), and the argument is unchanged."""

    def host(x: np.ndarray, out: np.ndarray) -> None:
        x[0] = 99.0  # what no handler may do
        np.copyto(out, x)

    x = jnp.arange(4.0)
    with raises(
        jax.errors.JaxRuntimeError, "UNKNOWN: ValueError: assignment destination is read-only"
    ):
        jax.block_until_ready(handled(register, host, "jaxcb_test_writes_input")(x))
    np.testing.assert_array_equal(x, np.arange(4.0))


def test_an_exception_in_the_handler_reaches_the_caller_and_the_process_goes_on(
    x32: None, register: Register
) -> None:
    def host(x: np.ndarray, out: np.ndarray) -> None:
        raise KeyError("no such table")

    f = handled(register, host, "jaxcb_test_raises")
    x = jnp.arange(3.0)
    for _ in range(2):  # and again: the handler and the process are still there
        with raises(jax.errors.JaxRuntimeError, "UNKNOWN: KeyError: 'no such table'"):
            jax.block_until_ready(f(x))
    np.testing.assert_allclose(jax.jit(fresh(fn("sin_scale")))(x, 2.0), np.sin(x) * 2 + 1, 1e-6)


def test_a_buffer_numpy_cannot_view_is_refused_with_its_dtype(
    x32: None, register: Register
) -> None:
    calls: list[int] = []

    def host(x: np.ndarray, out: np.ndarray) -> None:
        calls.append(1)

    f = handled(register, host, "jaxcb_test_bfloat16")
    with raises(
        jax.errors.JaxRuntimeError,
        "INVALID_ARGUMENT: argument 0 is bfloat16, which NumPy cannot view",
    ):
        jax.block_until_ready(f(jnp.ones(3, jnp.bfloat16)))
    assert calls == []  # refused before the Python function runs


def test_an_empty_input_reaches_the_handler_and_an_empty_result_calls_nothing(
    x32: None, register: Register
) -> None:
    """An empty argument arrives as an empty array (the handler still fills its result);
    a call whose result is empty is not made at all (measured: XLA skips it)."""
    seen: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def host(x: np.ndarray, out: np.ndarray) -> None:
        seen.append((x.shape, out.shape))
        out[...] = 7.0

    name = register("jaxcb_test_empty", host)

    def call(x: jax.Array, shape: tuple[int, ...]) -> jax.Array:
        result = jax.ShapeDtypeStruct(shape, x.dtype)
        return jax.jit(lambda x: jax.ffi.ffi_call(name, result)(x))(x)

    np.testing.assert_array_equal(call(jnp.zeros((2, 0)), (2,)), [7.0, 7.0])
    assert seen == [((2, 0), (2,))]
    assert call(jnp.zeros(3), (0,)).shape == (0,)
    assert seen == [((2, 0), (2,))]  # no second call


def test_a_name_is_registered_once(x32: None, register: Register) -> None:
    """A second registration of a name keeps the first handler (JAX keeps one per name)."""
    first = register("jaxcb_test_once", lambda x, out: np.copyto(out, x))
    second = register("jaxcb_test_once", lambda x, out: np.copyto(out, -x))
    assert first == second
    f = jax.jit(lambda x: jax.ffi.ffi_call(first, jax.ShapeDtypeStruct(x.shape, x.dtype))(x))
    np.testing.assert_array_equal(f(jnp.arange(3.0)), np.arange(3.0))


def test_threads_registering_one_new_name_at_once_register_it_once(
    x32: None, register: Register, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two threads tracing their first call at once both ask for the name: the check and
    the registration are one step (a lock), so JAX registers it once, and it works."""
    threads = 8
    calls: list[str] = []
    jax_register = jax.ffi.register_ffi_target

    def counting(target: str, *args: Any, **kwargs: Any) -> None:
        calls.append(target)
        time.sleep(0.05)  # a slow registration: a second thread would get in meanwhile
        if calls.count(target) == 1:  # never register twice, even where the check fails
            jax_register(target, *args, **kwargs)

    monkeypatch.setattr(jax.ffi, "register_ffi_target", counting)
    start = threading.Barrier(threads)
    names: list[str] = []

    def work() -> None:
        start.wait()
        names.append(register("jaxcb_test_threads", lambda x, out: np.copyto(out, x)))

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    name = names[0]
    assert names == [name] * threads
    assert calls == [name]
    f = jax.jit(lambda x: jax.ffi.ffi_call(name, jax.ShapeDtypeStruct(x.shape, x.dtype))(x))
    np.testing.assert_array_equal(f(jnp.arange(3.0)), np.arange(3.0))


def test_each_module_holds_the_same_bridge() -> None:
    """The bridge is a section of each module (each runs copied alone), the same text in
    each: a fix to one copy is made to all."""
    start, end = "# ---- the bridge", "# ---- end of the bridge"
    texts = {}
    for name in MODULES:
        source = (Path(jaxcb_pyffi.__file__).parent / f"{name}.py").read_text(encoding="utf-8")
        assert source.count(start) == source.count(end) == 1, name
        texts[name] = source[source.index(start) : source.index(end)]
    first = texts[MODULES[0]]
    assert [n for n, text in texts.items() if text != first] == []


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


def test_registry_where_the_metadata_request_has_no_api(monkeypatch: pytest.MonkeyPatch) -> None:
    """What JAX 0.5 to 0.7 get (simulated here): no pattern is imported there (registering
    one fails, and with it the CPU backend), and every computation is unsupported with the
    reason, as the timeline's 0.5.3, 0.6.2 and 0.7.2 files record."""
    monkeypatch.setattr(_registry, "HAS_FFI", True)
    monkeypatch.setattr(_registry, "NO_METADATA_API", True)
    (row,) = [from_dict(d) for d in _registry.variants()]
    assert dict(row.implementations) == {}
    assert set(row.unsupported) == {c.name for c in CATALOG}
    assert all("metadata request without the FFI API table" in r for r in row.unsupported.values())


def test_a_buffer_numpy_cannot_hold_is_an_error_not_a_crash() -> None:
    """Under `vmap` a rank-64 argument reaches the handler with 65 axes, more than NumPy
    holds (issue 53): the bridge reports NumPy's error to XLA instead of letting the
    exception escape the ctypes callback, which crashed the process ("free(): invalid size")."""
    x = jnp.ones((2,) + (1,) * 64, jnp.float32)
    with pytest.raises(jax.errors.JaxRuntimeError, match="maximum supported dimension"):
        jax.vmap(lambda x: jaxcb_pyffi.sin_scale(x, 2.0))(x).block_until_ready()
