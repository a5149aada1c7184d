"""One cell of the support matrix: run a variant × computation × transform, say what happened.

``run_cell`` returns a :class:`~jaxcb_core.schema.Cell`: status (``ok`` / ``wrong`` /
``error`` / ``n/a``), the exception type and first line of its message, how many times
the host ran and what it received (through the variant's probe), and for effects
whether every record arrived exactly once and in order. Results are compared with the
catalog's NumPy/SciPy reference, not just "did not raise".
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np

from ..catalog import Computation
from ..mechanisms import Variant
from ..probe import observe
from ..schema import Cell
from . import checks
from .case import Case, NotApplicable
from .transforms import Transform, Trial

__all__ = [
    "DRAW_SEED",
    "TEST_FILE",
    "CountingGenerator",
    "Recorder",
    "Run",
    "execute",
    "prepare",
    "run_cell",
    "test_id",
]

TEST_FILE = "tests/matrix/test_matrix.py"
DRAW_SEED = 20260101
# The harness's shared compilation cache (``environment.share_compilations``), not the cell:
# a worker may read an entry another is still writing; JAX warns and compiles it itself.
SHARED_CACHE_WARNINGS = (
    "Error reading persistent compilation cache entry",
    "Error writing persistent compilation cache entry",
)


def test_id(variant: str, computation: str, transform: str) -> str:
    """The pytest id of the snapshot test that checks this cell."""
    return f"{TEST_FILE}::test_cell[{variant}|{computation}|{transform}]"


class Recorder:
    """The catalog's host sink (``log`` / ``report``): keeps every ``(step, state)`` it gets."""

    def __init__(self) -> None:
        self.records: list[tuple[np.ndarray, np.ndarray | None]] = []
        _RECORDERS[id(self)] = self

    def __call__(self, k: Any, x: Any) -> None:
        self.records.append((np.array(k), np.array(x)))

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        """Pickled as a reference to this recorder: a host that unpickles it in this process
        (colocated_python sends its function pickled, with the sink) records into it."""
        return _recorder, (id(self),)


_RECORDERS: weakref.WeakValueDictionary[int, Recorder] = weakref.WeakValueDictionary()


def _recorder(key: int) -> Recorder:
    return _RECORDERS[key]


class CountingGenerator:
    """A NumPy Generator whose draws are counted (the ``rng`` sink of ``host_draw``)."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.draws = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._rng, name)
        if not callable(attr):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.draws += 1
            return attr(*args, **kwargs)

        return counted


def _sink(comp: Computation) -> Recorder | CountingGenerator | None:
    if comp.sink == "rng":
        return CountingGenerator(DRAW_SEED)
    return Recorder() if comp.sink else None


def _case(comp: Computation, fn: Callable[..., Any], dtype: Any) -> Case:
    full = comp.make_args(np.dtype(dtype))
    statics = {i: full[i] for i in comp.static_argnums}
    dyn_pos = [i for i in range(len(full)) if i not in comp.static_argnums]

    def assemble(dyn: Sequence[Any]) -> list[Any]:
        args: list[Any] = [None] * len(full)
        for i, v in statics.items():
            args[i] = v
        for p, v in zip(dyn_pos, dyn, strict=True):
            args[p] = v
        return args

    def g(*dyn: Any) -> Any:
        return fn(*assemble(dyn))

    twin = np.random.default_rng(DRAW_SEED) if comp.kind == "impure" else None

    def ref(*dyn: Any) -> Any:
        if twin is not None:
            return comp.reference(*assemble(dyn), rng=twin)
        return comp.reference(*assemble(dyn))

    return Case(comp=comp, g=g, ref=ref, dtype=np.dtype(dtype), full_args=tuple(full))


@dataclasses.dataclass
class Run:
    """One execution of a case under its variant's probe (:func:`execute`)."""

    case: Case
    sink: Any
    tally: Any = None
    trial: Trial | None = None
    error: Exception | None = None  # what JAX raised (the point of the matrix: recorded)
    warning: str | None = None  # the first Python warning, as "Category: first line"
    read: Any = None  # what ``after(trial)`` returned, inside the probe


def prepare(
    variant: Variant,
    comp: Computation,
    transform: Transform,
    dtype: Any,
    keywords: dict[str, Any] | None = None,
) -> tuple[Case, Any] | str:
    """``(case, host sink)`` for this cell, or the reason it does not apply: the variant
    does not implement the computation, is not measured under the transform, or takes no
    ``keywords`` option."""
    fn = variant.implementation(comp.name)
    if fn is None:
        return variant.unsupported.get(comp.name, "not implemented")
    if not variant.measured_under(transform.id):
        return variant.scope
    for keyword, value in (keywords or {}).items():
        if not variant.takes(comp.name, keyword):
            return f"{variant.mechanism} here takes no {keyword}= option"
        fn = functools.partial(fn, **{keyword: value})
    sink = _sink(comp)
    if sink is not None and comp.sink and variant.takes(comp.name, comp.sink):
        fn = functools.partial(fn, **{comp.sink: sink})
    return _case(comp, fn, dtype), sink


def execute(
    variant: Variant,
    comp: Computation,
    transform: Transform,
    case: Case,
    sink: Any,
    after: Callable[[Trial], Any] | None = None,
) -> Run:
    """Apply ``transform`` to ``case`` under the variant's probe, stdout captured and
    warnings recorded; ``after(trial)`` runs inside the probe too. Raises NotApplicable."""
    run = Run(case=case, sink=sink)
    caught: list[warnings.WarningMessage] = []
    try:
        with (
            contextlib.redirect_stdout(io.StringIO()),  # outside the probe: it may read stdout
            observe(variant.probe, comp.name) as tally,
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always")
            run.tally = tally
            try:
                run.trial = transform.apply(case)
                jax.block_until_ready(run.trial.outputs)
            finally:
                jax.effects_barrier()
            if after is not None:
                run.read = after(run.trial)
    except NotApplicable:
        raise
    except Exception as e:
        run.error = e
    caught = [w for w in caught if not str(w.message).startswith(SHARED_CACHE_WARNINGS)]
    if caught:
        w = caught[0]
        run.warning = f"{w.category.__name__}: {checks.first_line(Warning(str(w.message)))}"
    return run


def run_cell(
    variant: Variant,
    comp: Computation,
    transform: Transform,
    dtype: Any = np.float32,
) -> Cell:
    """Run one variant × computation × transform and describe what happened."""
    cell = Cell(
        variant=variant.id,
        computation=comp.name,
        transform=transform.id,
        status="n/a",
        test=test_id(variant.id, comp.name, transform.id),
    )
    prepared = prepare(variant, comp, transform, dtype)
    if isinstance(prepared, str):
        cell.reason = prepared
        return cell
    case, sink = prepared
    try:
        run = execute(variant, comp, transform, case, sink)
    except NotApplicable as e:
        cell.reason = str(e)
        return cell
    if run.error is not None:
        cell.status = "error"
        cell.error_type = type(run.error).__name__
        cell.error = checks.first_line(run.error)
    cell.warning = run.warning
    tally, trial = run.tally, run.trial
    if tally is not None:
        cell.host_calls = tally.calls
        cell.shapes = list(getattr(tally, "shapes", None) or []) or None
    if trial is None:
        return cell
    rtol, atol = checks.tolerance(comp, dtype, trial.derivative, transform.id)
    problems = [checks.mismatch(trial.outputs, trial.expected, rtol, atol)]
    if comp.kind == "effect":
        assert comp.records is not None
        groups = [comp.records(*case.full(c)) for c in trial.calls]
        seen = getattr(tally, "records", None)
        if seen is None:
            if not isinstance(sink, Recorder) or not variant.takes(comp.name, comp.sink or ""):
                raise TypeError(
                    f"{variant.id}.{comp.name} takes no {comp.sink!r} sink and its probe "
                    "records nothing: the effects cannot be checked"
                )
            first = groups[0][0][1] if groups and groups[0] else None
            seen = checks.split(sink.records, None if first is None else np.ndim(first))
        cell.effects = checks.effects(groups, seen, rtol, atol)
        problems.append(checks.effects_problem(cell.effects))
    elif comp.kind == "impure":
        assert isinstance(sink, CountingGenerator)
        cell.effects = checks.draws(len(trial.calls), sink.draws)
        problems.append(checks.effects_problem(cell.effects))
    elif variant.owes_runs and tally is not None and run.error is None:
        cell.effects = checks.runs(trial.runs, tally.calls)
        problems.append(checks.runs_problem(cell.effects))
    found = [p for p in problems if p]
    cell.status = "wrong" if found else "ok"
    cell.reason = "; ".join(found) if found else None
    return cell
