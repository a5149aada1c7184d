"""Eager calls hit the compile cache: compilations counted over 100 eager calls.

Before, every eager call of an effect pattern built a fresh closure (a new
``functools.partial`` per call), which JAX's cache cannot recognise: one XLA
compilation per call (2,500 eager ``jaxcb_io.host_draw`` calls made 2,500). The
patterns now hold one module-level ``jax.jit`` with the Python arguments static, so a
signature (static arguments, input shapes and dtypes) compiles once. Compilations are
counted through ``jax.monitoring`` (``pkg_support.compilations``).
"""

from __future__ import annotations

import importlib
from typing import Any

import jax
import numpy as np
import pytest
from pkg_support import PURE, compilations

from jaxcb_core.catalog import by_name
from jaxcb_core.mechanisms import discover

CALLS = 100
PACKAGES = sorted({v.package for v in discover() if v.implementations} - {"jaxcb_legacy"})


class Sink:
    """A sink whose bound method is a new object on every access, equal to the last one."""

    def __init__(self) -> None:
        self.records: list[tuple[int, Any]] = []

    def log(self, k: Any, x: Any) -> None:
        self.records.append((int(k), x))


def effect_calls() -> tuple[dict[str, tuple[Any, int]], Sink]:
    """{id: (call, records per call)} for a fresh sink, so each signature is new."""
    import jaxcb_debug
    import jaxcb_io
    import jaxcb_pure

    x0 = np.linspace(-1.0, 1.0, 5).astype(np.float32)
    rng = np.random.default_rng(0)
    sink = Sink()
    cases = {
        "io-host_draw": (lambda: jaxcb_io.host_draw((7,), rng=rng), 0),
        "io-log_steps": (lambda: jaxcb_io.log_steps(x0, 11, log=sink.log), 11),
        "io-log_steps-unordered": (
            lambda: jaxcb_io.log_steps(x0, 12, log=sink.log, ordered=False),
            12,
        ),
        "io-progress": (lambda: jaxcb_io.progress(x0, 13, 4, report=sink.log), 3),
        "debug-log_steps": (lambda: jaxcb_debug.log_steps(x0, 11, log=sink.log), 11),
        "debug-progress": (lambda: jaxcb_debug.progress(x0, 13, 4, report=sink.log), 3),
        "debug-log_steps_print": (lambda: jaxcb_debug.log_steps_print(x0, 3), 0),
        "debug-progress_print": (lambda: jaxcb_debug.progress_print(x0, 6, 3), 0),
        "pure-host_draw": (lambda: jaxcb_pure.host_draw((7,), rng=rng), 0),
        "pure-log_steps": (lambda: jaxcb_pure.log_steps(x0, 11, log=sink.log), 0),  # never logs
    }
    return cases, sink


EFFECTS = list(effect_calls()[0])


@pytest.mark.parametrize("name", EFFECTS)
def test_effect_pattern_compiles_once_per_signature(
    name: str, x32: None, capsys: pytest.CaptureFixture[str]
) -> None:
    warm, _ = effect_calls()  # a first call of another signature: one-time setup compiles
    jax.block_until_ready(warm[name][0]())  # (the runtime token of ordered effects, ...)
    cases, sink = effect_calls()
    f, records = cases[name]
    with compilations() as compiled:
        for _ in range(CALLS):
            jax.block_until_ready(f())
        jax.effects_barrier()
    assert len(compiled) <= 1, (name, compiled)
    assert len(sink.records) == CALLS * records  # every call still ran its effect


def test_two_signatures_compile_twice(x32: None) -> None:
    import jaxcb_io

    rng = np.random.default_rng(1)
    with compilations() as compiled:
        for i in range(CALLS):
            jaxcb_io.host_draw((2, 3) if i % 2 else (17,), rng=rng)
    assert len(compiled) == 2


@pytest.mark.parametrize("package", ["jaxcb_io", "jaxcb_debug", "jaxcb_pure"])
def test_unhashable_sink_works_compiled_every_call(package: str, x32: None) -> None:
    """A callable that cannot be a static argument falls back to tracing on every call."""

    class Unhashable(Sink):
        __hash__ = None  # type: ignore[assignment]

        def __call__(self, k: Any, x: Any) -> None:
            self.log(k, x)

    sink = Unhashable()
    x0 = np.zeros(2, np.float32)
    log_steps = importlib.import_module(package).log_steps
    with compilations() as compiled:
        outs = [log_steps(x0, 2, log=sink) for _ in range(3)]
        jax.effects_barrier()
    np.testing.assert_array_equal(outs[-1], [1.5, 1.5])
    logged = [] if package == "jaxcb_pure" else [1, 2] * 3  # the counter-example never logs
    assert [k for k, _ in sink.records] == logged
    assert len(compiled) >= 3


@pytest.mark.parametrize("package", PACKAGES)
def test_pure_computation_eager_calls_do_not_recompile(package: str, x32: None) -> None:
    """The first eager call may compile the small eager ops of the checks; none of 20 after."""
    module = importlib.import_module(package)
    for name in PURE:
        c = by_name(name)
        args = c.make_args(np.dtype("float32"))
        kw: dict[str, Any] = {"report": lambda *r: None} if package == "jaxcb_debug" else {}
        f = getattr(module, name)
        jax.block_until_ready(f(*args, **kw))
        with compilations() as compiled:
            for _ in range(20):
                jax.block_until_ready(f(*args, **kw))
        assert compiled == [], (package, name)


def ignore(*args: Any) -> None:
    pass


@pytest.mark.parametrize(
    ("package", "variant", "name"),
    [
        ("jaxcb_io", "io_callback/ordered", "log_steps"),
        ("jaxcb_io", "io_callback/ordered", "host_draw"),
        ("jaxcb_debug", "debug.callback/ordered", "progress"),
    ],
)
def test_probe_sees_calls_of_a_cached_signature(
    package: str, variant: str, name: str, x32: None
) -> None:
    """The probe wrapped the module's on_host when the variants were discovered, before
    anything was traced: a loop compiled before the observation began reaches it, and
    observing compiles nothing."""
    from pkg_support import host_calls

    module = importlib.import_module(package)
    x0 = np.zeros(2, np.float32)
    rng = np.random.default_rng(2)
    calls = {
        "log_steps": lambda: module.log_steps(x0, 3, log=ignore),
        "host_draw": lambda: module.host_draw((2,), rng=rng),
        "progress": lambda: module.progress(x0, 4, 2, report=ignore),
    }
    f = calls[name]
    jax.block_until_ready(f())  # compiled, and cached, before the probe
    with compilations() as compiled, host_calls(variant, name) as tally:
        jax.block_until_ready(f())
    expected = {"log_steps": 3, "host_draw": 1, "progress": 2}[name]
    assert tally.calls == expected
    assert compiled == []  # the program compiled before the observation
    with compilations() as compiled, host_calls(variant, name) as again:
        jax.block_until_ready(f())
    assert again.calls == tally.calls == expected  # a closed observation counts no more
    assert compiled == []


@pytest.mark.parametrize(
    ("package", "name"),
    [("jaxcb_io", "log_steps"), ("jaxcb_io", "host_draw"), ("jaxcb_debug", "progress")],
)
def test_inside_another_jit_the_pattern_is_traced_in_not_nested(
    package: str, name: str, x32: None
) -> None:
    """inline=True: the outer program has no nested call of the cached jit (no function of
    its name in the lowered module)."""
    module = importlib.import_module(package)
    rng = np.random.default_rng(4)
    calls = {
        "log_steps": lambda x: module.log_steps(x, 2, log=ignore),
        "host_draw": lambda x: module.host_draw((2,), rng=rng) + x,
        "progress": lambda x: module.progress(x, 4, 2, report=ignore),
    }
    text = jax.jit(calls[name]).lower(np.zeros(2, np.float32)).as_text()
    assert "@_loop" not in text
    assert "@_draw" not in text


def test_ordered_draw_inside_a_jitted_cond(x32: None) -> None:
    """The matrix's lax.cond column for io host_draw: the draw happens once, in order."""
    import jaxcb_io

    rng, twin = np.random.default_rng(5), np.random.default_rng(5)

    @jax.jit
    def f(p: jax.Array) -> jax.Array:
        draw = lambda: jaxcb_io.host_draw((3,), rng=rng)  # noqa: E731
        return jax.lax.cond(p, draw, lambda: jax.numpy.zeros(3, np.float32))

    np.testing.assert_array_equal(f(True), twin.standard_normal(3).astype(np.float32))
