"""jaxcb_buffer, what only it does: the ``Buffer`` a host function is handed (why the
patterns take read-only views of it, what a log that keeps views sees), what the registry's
reasons rest on, and the registry.

The contract it shares with ``jaxcb_pyffi`` (results, in-place outputs, derivative rules,
batching, host calls, argument errors, the bare forms) is one body over both packages:
``test_in_place.py``. Everything asserted here was measured on JAX 0.10.2 and 0.12.0.1
(CPU), where it is identical. On a JAX without ``buffer_callback`` (0.4.30) only the
registry's fallback is checked; every other test is skipped, saying why.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from pkg_support import (
    PURE,
    assert_close,
    module,
)

import jaxcb_buffer
from jaxcb_buffer import _registry
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


READ_ONLY = "assignment destination is read-only"
NO_COPY = "Buffer.__array__ with copy=True is not supported."


def fresh(f: Callable[..., Any], **kw: Any) -> Callable[..., Any]:
    """A new function object per use: a fresh trace, so the probe's wrapper is used."""
    return lambda *a: f(*a, **kw)


def buffer_callback(*args: Any, **kw: Any) -> Any:
    from jax.experimental.buffer_callback import buffer_callback as bc

    return bc(*args, **kw)


# --- in place: why the patterns take read-only views -------------------------------------


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
        assert set(row.bare) == {"call", "call_in_place", "noop"}
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


def test_bare_call_in_place_writes_into_the_donated_input(x32: None) -> None:
    """The benchmarks' in-place minimal form: the result is right, and under a jit that
    donates the first argument the output is that argument's memory (no fresh buffer)."""
    bare = _registry.variants()[0]["bare"]["call_in_place"]
    c = by_name("sin_scale")
    x, y = c.make_args(np.dtype("float32"))
    into = c.numpy_into
    assert into is not None
    spec = jax.ShapeDtypeStruct(x.shape, x.dtype)
    f = jax.jit(lambda x, y: bare(into, spec, x, y), donate_argnums=0)
    xd = jnp.array(x)
    where = xd.unsafe_buffer_pointer()
    out = f(xd, y)
    assert xd.is_deleted()
    assert out.unsafe_buffer_pointer() == where
    assert_close(out, c.reference(x, y), c.tolerance(np.float32), np.float32)
    again = f(out, y)  # the previous result in its place, as the benchmark calls it
    twice = c.reference(np.asarray(c.reference(x, y), np.float32), y)
    assert_close(again, twice, c.tolerance(np.float32), np.float32)
