"""The support matrix: run every variant × computation × transform and record what happens.

``run_cell`` executes one case and returns a :class:`Cell`: status (``ok`` /
``wrong`` / ``error`` / ``n/a``), the exception type and first line of its message,
how many times the host function ran and what it received, and for effect
computations whether every record arrived exactly once and in order. Results are
compared with the catalog's NumPy/SciPy reference, not just "did not raise".
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import multiprocessing
import os
import re
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import jax
import numpy as np

from . import environment
from .catalog import CATALOG, Computation, Record
from .mechanisms import Variant, discover
from .transforms import TRANSFORMS, Case, NotApplicable, Transform, Trial

__all__ = [
    "SCHEMA",
    "Cell",
    "Matrix",
    "compare",
    "data_path",
    "load",
    "merge_and_write",
    "run_cell",
    "run_cells",
    "run_matrix",
    "test_id",
]

SCHEMA = 1
TEST_FILE = "tests/matrix/test_matrix.py"
DRAW_SEED = 20260101


@dataclasses.dataclass
class Cell:
    """The measured outcome of one variant × computation × transform."""

    variant: str
    computation: str
    transform: str
    status: str
    reason: str | None = None
    error_type: str | None = None
    error: str | None = None
    host_calls: int | None = None
    shapes: list[str] | None = None
    effects: dict[str, Any] | None = None
    warning: str | None = None
    test: str = ""

    def key(self) -> tuple[str, str, str]:
        return (self.variant, self.computation, self.transform)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def test_id(variant: str, computation: str, transform: str) -> str:
    """The pytest id of the snapshot test that checks this cell."""
    return f"{TEST_FILE}::test_cell[{variant}|{computation}|{transform}]"


# --- host probes ------------------------------------------------------------------------------


def _type_str(a: Any) -> str | None:
    if not hasattr(a, "shape") or not hasattr(a, "dtype"):
        return None
    return f"{np.dtype(a.dtype).name}[{','.join(str(s) for s in a.shape)}]"


class HostProbe:
    """Counts calls of a pattern module's ``on_host`` and records argument types."""

    def __init__(self) -> None:
        self.calls = 0
        self.shapes: list[str] = []

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            for a in args:
                s = _type_str(a)
                if s is not None and s not in self.shapes and len(self.shapes) < 8:
                    self.shapes.append(s)
            return fn(*args, **kwargs)

        return counted

    @contextlib.contextmanager
    def patch(self, module: Any) -> Iterator[None]:
        original = getattr(module, "on_host", None)
        if original is None:
            yield
            return
        module.on_host = self.wrap(original)
        try:
            yield
        finally:
            module.on_host = original


class Recorder:
    """A host sink (``log`` / ``report``) that keeps every ``(step, state)`` it gets."""

    def __init__(self) -> None:
        self.records: list[tuple[np.ndarray, np.ndarray | None]] = []
        self.calls = 0

    def __call__(self, k: Any, x: Any) -> None:
        self.calls += 1
        self.records.append((np.array(k), np.array(x)))


class CountingGenerator:
    """A numpy Generator whose draws are counted (for ``host_draw``)."""

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


_PRINTED = re.compile(r"step (\d+): ")


# --- comparing results ------------------------------------------------------------------------


def _tolerance(
    comp: Computation, dtype: Any, derivative: bool, transform: str
) -> tuple[float, float]:
    rtol, atol = comp.tolerance(dtype)
    if derivative:
        rtol, atol = max(rtol * 20, 1e-4), max(atol * 20, 1e-5)
    if transform == "hessian":
        rtol, atol = max(rtol, 2e-3), max(atol, 2e-4)
    return rtol, atol


def _mismatch(out: Any, expected: Any, rtol: float, atol: float) -> str | None:
    out_leaves, _out_tree = jax.tree_util.tree_flatten(out)
    exp_leaves, _exp_tree = jax.tree_util.tree_flatten(expected)
    if len(out_leaves) != len(exp_leaves):
        return f"returned {len(out_leaves)} arrays, expected {len(exp_leaves)}"
    for i, (o, e) in enumerate(zip(out_leaves, exp_leaves, strict=True)):
        o, e = np.asarray(o), np.asarray(e)
        if o.shape != e.shape:
            return f"output {i}: shape {o.shape}, expected {e.shape}"
        if not np.allclose(o.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol):
            err = np.max(np.abs(o.astype(np.float64) - e.astype(np.float64)))
            return f"output {i}: values differ from the reference (max abs error {err:.3g})"
    return None


def _split(
    records: list[tuple[np.ndarray, np.ndarray | None]], state_ndim: int | None = None
) -> list[tuple[int, np.ndarray | None]]:
    """One record per (step, element).

    A host function that receives a whole batch at once (a batched step ``k``, or a
    state with one more axis than a record's state, as ``id_tap`` under ``vmap``
    delivers) is split along that axis, so each element's record can be matched.
    """
    out: list[tuple[int, np.ndarray | None]] = []
    for k, x in records:
        if k.ndim:
            n = k.size
        elif x is not None and state_ndim is not None and x.ndim == state_ndim + 1:
            n = x.shape[0]
            k = np.broadcast_to(k, (n,))
        else:
            out.append((int(k), x))
            continue
        ks = k.reshape(-1)
        for i in range(n):
            out.append((int(ks[i]), None if x is None else x.reshape(n, *x.shape[k.ndim :])[i]))
    return out


def _check_effects(
    expected_groups: list[list[Record]],
    actual: list[tuple[int, np.ndarray | None]],
    rtol: float,
    atol: float,
) -> dict[str, Any]:
    """Match arrived records to expected ones: each exactly once, in order within a call."""
    expected = [(g, r) for g, group in enumerate(expected_groups) for r in group]
    used = [False] * len(expected)
    matched: list[int] = []
    extra = 0
    for k, x in actual:
        for j, (_, (ek, ex)) in enumerate(expected):
            if used[j] or ek != k:
                continue
            if x is not None and (
                np.shape(x) != np.shape(ex) or not np.allclose(x, ex, rtol=rtol, atol=atol)
            ):
                continue
            used[j] = True
            matched.append(j)
            break
        else:
            extra += 1
    missing = used.count(False)
    in_order = True
    last: dict[int, int] = {}
    for j in matched:
        g = expected[j][0]
        if j < last.get(g, -1):
            in_order = False
        last[g] = j
    if expected and not actual:
        verdict = "none"
    elif missing:
        verdict = "missing"
    elif extra:
        verdict = "duplicated"
    elif not in_order:
        verdict = "reordered"
    else:
        verdict = "exact"
    return {
        "expected": len(expected),
        "arrived": len(actual),
        "missing": missing,
        "extra": extra,
        "in_order": in_order,
        "verdict": verdict,
    }


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or repr(e)
    line = text.splitlines()[0]
    line = re.sub(r"0x[0-9a-fA-F]+", "0x…", line)
    line = re.sub(r"(/[\w.\-]+)+\.py", "….py", line)
    return line[:240]


# --- one cell ---------------------------------------------------------------------------------


def _bind(
    comp: Computation, fn: Callable[..., Any], variant: Variant
) -> tuple[Callable[..., Any], Any]:
    """The implementation with its sink bound, and the sink (to read afterwards)."""
    if comp.sink in ("log", "report") and variant.mechanism != "debug.print":
        sink: Any = Recorder()
        return functools.partial(fn, **{comp.sink: sink}), sink
    if comp.sink == "rng":
        sink = CountingGenerator(DRAW_SEED)
        return functools.partial(fn, rng=sink), sink
    return fn, None


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

    if comp.kind == "impure":
        twin = np.random.default_rng(DRAW_SEED)

        def ref(*dyn: Any) -> Any:
            return comp.reference(*assemble(dyn), rng=twin)
    else:

        def ref(*dyn: Any) -> Any:
            return comp.reference(*assemble(dyn))

    return Case(comp=comp, g=g, ref=ref, dtype=np.dtype(dtype), full_args=tuple(full))


def run_cell(
    variant: Variant,
    comp: Computation,
    transform: Transform,
    dtype: Any = np.float32,
) -> Cell:
    """Run one variant × computation × transform and describe what happened."""
    cell = Cell(
        variant.id,
        comp.name,
        transform.id,
        status="n/a",
        test=test_id(variant.id, comp.name, transform.id),
    )
    fn = variant.implementation(comp.name)
    if fn is None:
        cell.reason = variant.unsupported.get(comp.name, "not implemented")
        return cell
    if variant.transforms is not None and transform.id not in variant.transforms:
        cell.reason = variant.scope
        return cell
    bound, sink = _bind(comp, fn, variant)
    case = _case(comp, bound, dtype)
    probe = HostProbe()
    module = variant.modules.get(comp.name)
    stdout = io.StringIO()
    trial: Trial | None = None
    caught: list[warnings.WarningMessage] = []
    try:
        with (
            probe.patch(module),
            contextlib.redirect_stdout(stdout),
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always")
            try:
                trial = transform.apply(case)
                jax.block_until_ready(trial.outputs)
            finally:
                jax.effects_barrier()
    except NotApplicable as e:
        cell.reason = str(e)
        return cell
    except Exception as e:  # the point of the matrix: record what JAX raises
        cell.status = "error"
        cell.error_type = type(e).__name__
        cell.error = _first_line(e)
    if caught:
        w = caught[0]
        cell.warning = f"{w.category.__name__}: {_first_line(Warning(str(w.message)))}"
    counted = _count(variant, comp, probe, sink, stdout)
    cell.host_calls = counted
    cell.shapes = probe.shapes or None
    if trial is None:
        return cell
    rtol, atol = _tolerance(comp, dtype, trial.derivative, transform.id)
    problem = _mismatch(trial.outputs, trial.expected, rtol, atol)
    if comp.kind == "effect":
        assert comp.records is not None
        groups = [comp.records(*case.full(c)) for c in trial.calls]
        if variant.mechanism == "debug.print":
            actual: list[tuple[int, np.ndarray | None]] = [
                (int(m.group(1)), None) for m in _PRINTED.finditer(stdout.getvalue())
            ]
        else:
            first = groups[0][0][1] if groups and groups[0] else None
            actual = _split(sink.records, None if first is None else np.ndim(first))
        cell.effects = _check_effects(groups, actual, rtol, atol)
    elif comp.kind == "impure":
        expected = len(trial.calls)
        cell.effects = {
            "expected": expected,
            "arrived": sink.draws,
            "missing": max(expected - sink.draws, 0),
            "extra": max(sink.draws - expected, 0),
            "in_order": True,
            "verdict": "exact"
            if sink.draws == expected
            else (
                "none" if sink.draws == 0 else "missing" if sink.draws < expected else "duplicated"
            ),
        }
    if cell.effects is not None and cell.effects["verdict"] != "exact":
        fx = cell.effects
        effect_problem = (
            f"effects: {fx['arrived']} of {fx['expected']} host records arrived "
            f"({fx['missing']} missing, {fx['extra']} extra"
            f"{'' if fx['in_order'] else ', out of order'})"
        )
        problem = effect_problem if problem is None else f"{problem}; {effect_problem}"
    if problem is None:
        cell.status = "ok"
    else:
        cell.status = "wrong"
        cell.reason = problem
    return cell


def _count(
    variant: Variant, comp: Computation, probe: HostProbe, sink: Any, stdout: io.StringIO
) -> int | None:
    if variant.mechanism == "native":
        return None
    if variant.mechanism == "debug.print":
        return len(_PRINTED.findall(stdout.getvalue()))
    module = variant.modules.get(comp.name)
    if module is not None and hasattr(module, "on_host"):
        return probe.calls
    if isinstance(sink, Recorder):
        return sink.calls
    if isinstance(sink, CountingGenerator):
        return sink.draws
    return None


# --- the whole matrix -------------------------------------------------------------------------


@dataclasses.dataclass
class Matrix:
    environment: dict[str, Any]
    variants: list[dict[str, Any]]
    computations: list[dict[str, Any]]
    transforms: list[dict[str, Any]]
    cells: list[Cell]

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "environment": self.environment,
            "variants": self.variants,
            "computations": self.computations,
            "transforms": self.transforms,
            "cells": [c.to_json() for c in self.cells],
        }

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )


def _select(items: Iterable[Any], names: Sequence[str] | None, attr: str) -> list[Any]:
    items = list(items)
    if not names:
        return items
    out = [
        i
        for i in items
        if any(n == getattr(i, attr) or getattr(i, attr).startswith(n + "/") for n in names)
    ]
    if not out:
        known = sorted({getattr(i, attr) for i in items})
        raise KeyError(f"nothing matches {list(names)}; known: {known}")
    return out


def _run_group(task: tuple[str, str, tuple[str, ...]]) -> list[Cell]:
    """Worker: every listed transform of one variant × computation."""
    variant_id, comp_name, transform_ids = task
    variant = {v.id: v for v in discover()}[variant_id]
    comp = {c.name: c for c in CATALOG}[comp_name]
    by_id = {t.id: t for t in TRANSFORMS}
    return [run_cell(variant, comp, by_id[t]) for t in transform_ids]


def _init_worker(devices: int) -> None:
    environment.use_cpu_devices(devices)


def default_workers() -> int:
    """One worker process per core (at most 4): cells compile small XLA programs."""
    return max(1, min(os.cpu_count() or 1, 4))


_FATAL = re.compile(r"\] (Check failed: .*|.*)$")


def _crash_cell(key: tuple[str, str, str], returncode: int, stderr: str) -> Cell:
    """The cell of a case that killed its process (an XLA check failure, a segfault)."""
    fatal = [
        line
        for line in stderr.splitlines()
        if re.match(r"^(\S+ )?\S*\s*F\d{4} |.* F external/", line)
    ]
    message = f"the process died with exit code {returncode}"
    if fatal:
        m = _FATAL.search(fatal[-1])
        message = (m.group(1) if m else fatal[-1]).strip()[:240]
    kind = {-6: "SIGABRT", -11: "SIGSEGV", 134: "SIGABRT", 139: "SIGSEGV"}.get(returncode, "crash")
    return Cell(
        *key,
        status="error",
        error_type=f"process crash ({kind})",
        error=message,
        test=test_id(*key),
    )


def _run_isolated(key: tuple[str, str, str], devices: int) -> Cell:
    """One cell in a fresh interpreter, so that a hard crash becomes a recorded result."""
    code = (
        "import json, sys\n"
        "from jaxcb_core import environment\n"
        f"environment.use_cpu_devices({devices})\n"
        "from jaxcb_core import matrix\n"
        f"cell = matrix._run_group(({key[0]!r}, {key[1]!r}, ({key[2]!r},)))[0]\n"
        "sys.stdout.write('\\nJAXCB-CELL ' + json.dumps(cell.to_json()) + '\\n')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=600
    )
    for line in proc.stdout.splitlines():
        if line.startswith("JAXCB-CELL "):
            return Cell(**json.loads(line[len("JAXCB-CELL ") :]))
    return _crash_cell(key, proc.returncode, proc.stderr)


def _rerun_broken(
    tasks: list[tuple[str, str, tuple[str, ...]]], devices: int, done: Callable[[list[Cell]], None]
) -> None:
    """Run the groups of a broken pool again, one at a time, in one worker.

    Most were only in flight when another group crashed and simply finish. A group that
    breaks the worker again runs cell by cell; the cell that breaks it is run once more
    in its own interpreter to capture its fatal message.
    """
    ctx = multiprocessing.get_context("spawn")
    pool: ProcessPoolExecutor | None = None

    def submit(task: tuple[str, str, tuple[str, ...]]) -> list[Cell] | None:
        nonlocal pool
        if pool is None:
            pool = ProcessPoolExecutor(
                1, mp_context=ctx, initializer=_init_worker, initargs=(devices,)
            )
        try:
            return pool.submit(_run_group, task).result()
        except BrokenProcessPool:
            pool.shutdown(wait=True)
            pool = None
            return None

    try:
        for task in tasks:
            cells = submit(task)
            if cells is not None:
                done(cells)
                continue
            variant_id, comp_name, transform_ids = task
            for t in transform_ids:
                one = submit((variant_id, comp_name, (t,)))
                done(
                    one if one is not None else [_run_isolated((variant_id, comp_name, t), devices)]
                )
    finally:
        if pool is not None:
            pool.shutdown(wait=True)


def run_cells(
    keys: Sequence[tuple[str, str, str]],
    workers: int | None = None,
    progress: Callable[[Cell], None] | None = None,
) -> list[Cell]:
    """Run the given (variant, computation, transform) cells and return them in order.

    ``workers=0`` runs in this process. Otherwise cells are grouped by variant ×
    computation and the groups run in ``workers`` fresh (spawned) processes that ask
    for as many CPU devices as this one has. A case that kills its process (JAX 0.4.30
    has XLA check failures that abort) is not allowed to take the run with it: the
    groups of a broken pool run again one by one, and a group that still crashes runs
    cell by cell, each in its own interpreter, so the crash is recorded as that cell's
    result.
    """
    workers = default_workers() if workers is None else workers
    groups: dict[tuple[str, str], list[str]] = {}
    for v, c, t in keys:
        groups.setdefault((v, c), []).append(t)
    tasks = [(v, c, tuple(ts)) for (v, c), ts in groups.items()]
    results: dict[tuple[str, str, str], Cell] = {}

    def done(cells: list[Cell]) -> None:
        for cell in cells:
            results[cell.key()] = cell
            if progress is not None:
                progress(cell)

    if workers <= 0:
        for task in tasks:
            done(_run_group(task))
        return [results[k] for k in keys]

    devices = len(jax.devices())
    ctx = multiprocessing.get_context("spawn")
    # Rounds: a crash breaks the whole pool, so the groups that had not finished run
    # again in a fresh pool; a group broken twice is isolated (one worker, then cell by cell).
    pending, strikes, broken = tasks, dict.fromkeys(tasks, 0), []
    while pending:
        failed = []
        with ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=_init_worker, initargs=(devices,)
        ) as pool:
            futures = {pool.submit(_run_group, task): task for task in pending}
            for future in as_completed(futures):
                try:
                    done(future.result())
                except BrokenProcessPool:
                    failed.append(futures[future])
        for task in failed:
            strikes[task] += 1
        broken += [t for t in failed if strikes[t] >= 2]
        pending = [t for t in failed if strikes[t] < 2]
    if broken:
        _rerun_broken(broken, devices, done)
    return [results[k] for k in keys]


def run_matrix(
    variants: Sequence[str] | None = None,
    computations: Sequence[str] | None = None,
    transforms: Sequence[str] | None = None,
    progress: Callable[[Cell], None] | None = None,
    workers: int | None = None,
) -> Matrix:
    """Run the selected part of the matrix (everything by default)."""
    start = time.perf_counter()
    vs = _select(discover(), variants, "id")
    cs = _select(CATALOG, computations, "name")
    ts = _select(TRANSFORMS, transforms, "id")
    keys = [(v.id, c.name, t.id) for v in vs for c in cs for t in ts]
    cells = run_cells(keys, workers, progress)
    env = environment.describe()
    env["duration_s"] = round(time.perf_counter() - start, 1)
    env["workers"] = default_workers() if workers is None else workers
    return Matrix(
        environment=env,
        variants=[_variant_json(v) for v in vs],
        computations=[_computation_json(c) for c in cs],
        transforms=[_transform_json(t) for t in ts],
        cells=cells,
    )


def _variant_json(v: Variant) -> dict[str, Any]:
    return {
        "id": v.id,
        "mechanism": v.mechanism,
        "label": v.label,
        "doc": v.doc,
        "package": v.package,
    }


def _computation_json(c: Computation) -> dict[str, Any]:
    return {
        "name": c.name,
        "kind": c.kind,
        "signature": c.signature,
        "summary": c.summary,
        "source": c.source,
    }


def _transform_json(t: Transform) -> dict[str, Any]:
    return {"id": t.id, "label": t.label, "group": t.group, "doc": t.doc, "legacy": t.legacy}


# --- committed data ---------------------------------------------------------------------------


def data_dir(root: Path | None = None) -> Path:
    """``docs/data/matrix`` of the checkout (found from the working directory upwards)."""
    here = (root or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / "packages" / "jaxcb-core").is_dir() and (d / "docs").is_dir():
            return d / "docs" / "data" / "matrix"
    return here / "docs" / "data" / "matrix"


def data_path(env: dict[str, Any] | None = None, root: Path | None = None) -> Path:
    """``docs/data/matrix/<jax>-<platform>-<ndevices>.json`` for this environment."""
    env = env or environment.describe()
    return data_dir(root) / f"{env['jax']}-{env['platform']}-{env['device_count']}.json"


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("schema") != SCHEMA:
        raise ValueError(f"{path}: schema {data.get('schema')!r}, expected {SCHEMA}")
    return data


COMPARED = ("status", "reason", "error_type", "error", "host_calls", "shapes", "effects", "warning")


def compare(committed: dict[str, Any], cell: Cell) -> list[str]:
    """Readable differences between a committed cell (dict) and a measured one."""
    now = cell.to_json()
    return [
        f"{field}: committed {committed.get(field)!r}, measured {now.get(field)!r}"
        for field in COMPARED
        if committed.get(field) != now.get(field)
    ]


def merge_and_write(path: Path, cells: Sequence[Cell]) -> int:
    """Replace ``cells`` in the file at ``path`` (creating it), tagging it with this environment.

    Cells not measured in this run are kept, so a run restricted with ``-k`` only
    rewrites what it measured. Returns the number of cells in the file.
    """
    kept: dict[tuple[str, str, str], dict[str, Any]] = {}
    if path.exists():
        kept = {(c["variant"], c["computation"], c["transform"]): c for c in load(path)["cells"]}
    for cell in cells:
        kept[cell.key()] = cell.to_json()
    variants = discover()
    order = {
        (v.id, c.name, t.id): n
        for n, (v, c, t) in enumerate(
            (v, c, t) for v in variants for c in CATALOG for t in TRANSFORMS
        )
    }
    ordered = sorted(
        kept.values(),
        key=lambda c: order.get((c["variant"], c["computation"], c["transform"]), 1 << 30),
    )
    Matrix(
        environment=environment.describe(),
        variants=[_variant_json(v) for v in variants],
        computations=[_computation_json(c) for c in CATALOG],
        transforms=[_transform_json(t) for t in TRANSFORMS],
        cells=[Cell(**c) for c in ordered],
    ).write(path)
    return len(ordered)
