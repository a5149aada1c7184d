"""What every package test file needs: comparisons, exact errors, host calls, effect records.

Host calls are counted only through the probe each registry entry declares
(:mod:`jaxcb_core.probe`): :func:`host_calls` observes one computation of one variant.
A probe replaces the pattern module's host functions while it observes, and pattern
modules look them up when they trace, so the function traced inside must be a fresh
one (a new lambda, or :func:`call`), never one whose trace is cached from before.

Imports no mechanism package: ``test_legacy.py`` uses it in the legacy env too.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import jax
import numpy as np
import pytest

from jaxcb_core.catalog import CATALOG, Computation, by_name
from jaxcb_core.mechanisms import Variant, by_id, discover
from jaxcb_core.probe import Tally, observe

BATCH = 3  # batch size of the vmap tests
# The catalog's pure computations, in its order: the test files run over these, so a
# computation added to the catalog is tested in every package (one that cannot compute it
# says so in its registry, and its test file leaves it out by name).
PURE = tuple(c.name for c in CATALOG if c.kind == "pure")


def arguments(name: str) -> tuple[str, ...]:
    """The positional arguments of a computation, from its catalog signature
    (``"cubic_root(a, b)"``: ``("a", "b")``; keyword-only ones after ``*`` are not)."""
    inside = by_name(name).signature.split("(", 1)[1].split(")", 1)[0]
    return tuple(a.strip() for a in inside.split("*", 1)[0].split(",") if a.strip())


def results(name: str) -> tuple[str, ...]:
    """The names of a computation's results, from its catalog signature
    (``"sum_mean(x) -> (sum, mean)"``: ``("sum", "mean")``; one unnamed result is ``out``)."""
    _, arrow, names = by_name(name).signature.partition("->")
    return tuple(n.strip() for n in names.strip(" ()").split(",")) if arrow else ("out",)


# vmap with the batch on one argument and not the other, as a reader batches:
# (computation, in_axes, the batched arguments of a float dtype)
OTHER_AXES: list[tuple[str, tuple[int | None, ...], Callable[[Any], tuple[Any, ...]]]] = [
    (
        "bessel_jv",
        (0, None),
        lambda dt: (np.array([-2, 0, 3], np.int32), np.linspace(0.5, 6.0, 5).astype(dt)),
    ),
    (
        "cubic_root",
        (0, None),
        lambda dt: (np.array([[0.5], [1.0], [2.0]], dt), np.linspace(-2.0, 3.0, 4).astype(dt)),
    ),
    (
        "cubic_root",
        (None, 0),
        lambda dt: (np.float32(1.5).astype(dt), np.linspace(-2.0, 3.0, 6).reshape(3, 2).astype(dt)),
    ),
    (
        "sin_scale",
        (None, 0),
        lambda dt: (np.linspace(-2, 2, 4).astype(dt), np.arange(3.0, dtype=dt)),
    ),
]

Records = list[tuple[Any, Any]]


def module(package: str, name: str) -> Any:
    """The pattern module ``<package>.<name>`` (the package re-exports the function)."""
    return importlib.import_module(f"{package}.{name}")


def first_rows() -> dict[str, Variant]:
    """``{package: its first row (lowest order)}`` of every installed mechanism package, by
    package name: what a test over the packages discovers them from."""
    first: dict[str, Variant] = {}
    for v in sorted(discover(), key=lambda v: v.order):
        first.setdefault(v.package, v)
    return dict(sorted(first.items()))


# --- results -------------------------------------------------------------------------------


def assert_close(out: Any, ref: Any, tol: tuple[float, float], dtype: Any = None) -> None:
    """Same structure and shapes as ``ref``, every leaf of ``dtype`` (default: the dtype of
    ``ref``'s leaf) and within ``(rtol, atol)`` of it."""
    outs, refs = jax.tree.leaves(out), jax.tree.leaves(ref)
    assert isinstance(out, tuple) == isinstance(ref, tuple)
    assert len(outs) == len(refs)
    for o, r in zip(outs, refs, strict=True):
        o, r = np.asarray(o), np.asarray(r)
        assert o.dtype == (r.dtype if dtype is None else np.dtype(dtype))
        assert o.shape == r.shape
        np.testing.assert_allclose(o, r, rtol=tol[0], atol=tol[1])


def in_axes(c: Computation, args: Sequence[Any]) -> list[int | None]:
    """``vmap``'s ``in_axes`` for arguments made by ``c.batched_args``."""
    return [0 if i in c.batch_argnums else None for i in range(len(args))]


def stacked_reference(c: Computation, batched: Sequence[Any], n: int = BATCH) -> Any:
    """The reference of every batch element, stacked along a new leading axis."""
    refs = [c.reference(*c.element(batched, i)) for i in range(n)]
    return jax.tree.map(lambda *r: np.stack(r), *refs)


def diff_argnum(c: Computation) -> int:
    assert c.diff_argnum is not None
    return c.diff_argnum


def partial_in(c: Computation, f: Callable[..., Any], args: Sequence[Any]) -> Any:
    """``f`` as a function of its differentiable argument only."""

    def g(x: Any) -> Any:
        a = list(args)
        a[diff_argnum(c)] = x
        return f(*a)

    return g


def tangent(c: Computation, args: Sequence[Any], seed: int = 0) -> np.ndarray:
    """A random tangent for the differentiable argument, in its dtype."""
    x = np.asarray(args[diff_argnum(c)])
    return np.asarray(np.random.default_rng(seed).standard_normal(x.shape), x.dtype)


def close_static(
    fn: Callable[..., Any], c: Computation, args: Sequence[Any], **kw: Any
) -> tuple[Callable[..., Any], list[Any]]:
    """A fresh function of the traced arguments only, and those arguments.

    ``c.static_argnums`` (Python ints, shapes) are closed over; ``kw`` is passed on.
    """
    static = {i: args[i] for i in c.static_argnums}
    dynamic = [a for i, a in enumerate(args) if i not in static]

    def f(*dyn: Any) -> Any:
        it = iter(dyn)
        full = [static[i] if i in static else next(it) for i in range(len(args))]
        return fn(*full, **kw)

    return f, dynamic


def call(
    fn: Callable[..., Any], c: Computation, args: Sequence[Any], *, jit: bool = True, **kw: Any
) -> Any:
    """``fn(*args, **kw)``, under ``jax.jit`` of a fresh function if ``jit``, the static
    arguments closed over (:func:`close_static`)."""
    f, dynamic = close_static(fn, c, args, **kw)
    return (jax.jit(f) if jit else f)(*dynamic)


# --- errors --------------------------------------------------------------------------------


def first_line(error: BaseException | pytest.ExceptionInfo[BaseException]) -> str:
    """The message without the traceback note JAX may append under jit."""
    value = error.value if isinstance(error, pytest.ExceptionInfo) else error
    return str(value).splitlines()[0]


@contextlib.contextmanager
def raises(
    exc: type[Exception], message: str, *, whole: bool = False
) -> Iterator[pytest.ExceptionInfo[Exception]]:
    """Raises exactly ``exc`` (not a subclass) whose first line is ``message``; with
    ``whole``, the whole message is ``message``."""
    with pytest.raises(exc) as info:
        yield info
    assert type(info.value) is exc
    assert (str(info.value) if whole else first_line(info)) == message


# --- host calls, through the probe ---------------------------------------------------------


@contextlib.contextmanager
def host_calls(variant_id: str, computation: str) -> Iterator[Tally]:
    """Observe the host side of ``computation`` in variant ``variant_id``.

    Yields the probe's :class:`~jaxcb_core.probe.Tally` (``calls``, ``by_function``,
    ``shapes``), complete once the block ends: the block is followed by
    ``jax.effects_barrier()``, so asynchronous host calls are counted too.
    """
    v = by_id(variant_id)
    assert v.probe is not None, f"{variant_id} has no host side to observe"
    with observe(v.probe, computation) as tally:
        yield tally
        jax.effects_barrier()


@contextlib.contextmanager
def host_order(variant_id: str, computations: Sequence[str]) -> Iterator[list[str]]:
    """The computations of ``variant_id`` in the order their host functions ran.

    One probe observation per computation, each tally watched: every host call the
    probe adds to a tally appends that computation's name.
    """
    order: list[str] = []
    with contextlib.ExitStack() as stack:
        for name in computations:
            _watch(stack.enter_context(host_calls(variant_id, name)), name, order)
        yield order


def _watch(tally: Tally, name: str, order: list[str]) -> None:
    add = tally.add

    def watched(key: str, args: Sequence[Any]) -> None:
        order.append(name)
        add(key, args)

    tally.add = watched  # type: ignore[method-assign,assignment]


# --- effects -------------------------------------------------------------------------------


def records(c: Computation, *args: Any) -> list[tuple[int, np.ndarray]]:
    """The catalog's expected host records for an effect computation."""
    assert c.records is not None
    return c.records(*args)


def sink_of(c: Computation) -> tuple[Records, dict[str, Any]]:
    """A list the records arrive in, and the keyword that sends them there."""
    got: Records = []
    assert c.sink is not None
    return got, {c.sink: lambda k, x: got.append((k, x))}


def by_step(got: Records) -> Records:
    """Records sorted by their step (unordered callbacks may deliver them in any order)."""
    return sorted(got, key=lambda r: int(r[0]))


def assert_records(
    got: Records, expected: list[tuple[int, Any]], tol: tuple[float, float] | None = None
) -> None:
    """``got`` are the ``expected`` records, in order: each step an int32 scalar array and
    each state an array of the expected dtype, within ``tol`` (``None``: exactly)."""
    assert [int(k) for k, _ in got] == [k for k, _ in expected]
    for (k, x), (_, ref) in zip(got, expected, strict=True):
        assert isinstance(k, np.ndarray)
        assert k.dtype == np.int32
        assert k.shape == ()
        assert isinstance(x, np.ndarray)
        assert x.dtype == ref.dtype
        if tol is None:
            np.testing.assert_array_equal(x, ref)
        else:
            np.testing.assert_allclose(x, ref, rtol=tol[0], atol=tol[1])


def assert_batched_records(got: Records, expected: list[tuple[int, Any]]) -> None:
    """One record per element per step, in any order, each with that element's state."""
    want = sorted((k, np.asarray(x).tolist()) for k, x in expected)
    received = sorted((int(k), np.asarray(x).tolist()) for k, x in got)
    assert [k for k, _ in received] == [k for k, _ in want]
    np.testing.assert_allclose([x for _, x in received], [x for _, x in want], rtol=2e-6)


# --- compilations --------------------------------------------------------------------------

BACKEND_COMPILE = "/jax/core/compile/backend_compile_duration"  # one event per XLA compile


@contextlib.contextmanager
def compilations() -> Iterator[list[str]]:
    """The XLA compilations made inside the block, one entry each, through
    ``jax.monitoring`` (the event JAX 0.10 and 0.12 record for every backend compile)."""
    seen: list[str] = []

    def listener(event: str, duration: float, **kwargs: Any) -> None:
        if event == BACKEND_COMPILE:
            seen.append(str(kwargs.get("fun_name", "?")))

    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        yield seen
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)
