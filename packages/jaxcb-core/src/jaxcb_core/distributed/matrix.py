"""The multi-process matrix: every process's view of a cell, merged into one cell.

:func:`run` launches a job (:mod:`jaxcb_core.distributed.launcher`) over every variant × computation
× multi-process transform (:mod:`jaxcb_core.distributed.spmd`) and returns a
:class:`~jaxcb_core.schema.MatrixFile` whose cells carry one :class:`ProcessCell` each per
process. :func:`merge` decides a cell from those: it errs if any process erred, hung or
died; it is wrong if any process read a wrong result, or if the records that reached all the
processes' sinks together are not each owed record exactly once, in order within its call.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..matrix import checks
from ..schema import (
    Cell,
    CostResult,
    Delivered,
    MatrixEnvironment,
    MatrixFile,
    ProcessCell,
    ShardingCost,
    VariantInfo,
)
from .launcher import Launch, launch
from .layout import Layout

__all__ = ["collect", "merge", "run"]

Key = tuple[str, str, str]
FIELDS = ("status", "reason", "error_type", "error", "host_calls", "shapes", "placement")


def _records(raw: list[list[Any]]) -> list[tuple[int, Any]]:
    return [(int(k), None if x is None else np.asarray(x, np.float64)) for k, x in raw]


def _effects(
    key: Key, lines: list[dict[str, Any]], views: list[ProcessCell]
) -> tuple[Any, list[str]]:
    """The job's effects (every process's records against what the job owed) and problems."""
    local = key[2] in _local()
    if "draws" in lines[0]:
        calls = sum(x["calls"] for x in lines) if local else lines[0]["calls"]
        for view, x in zip(views, lines, strict=True):
            view.draws = x["draws"]
        fx = checks.draws(calls, sum(x["draws"] for x in lines))
        return fx, [p for p in [checks.effects_problem(fx)] if p]
    if "runs" in lines[0]:
        owed = sum(x["runs"] for x in lines) if local else lines[0]["runs"]
        fx = checks.runs(owed, sum(x.get("host_calls") or 0 for x in lines))
        return fx, [p for p in [checks.runs_problem(fx)] if p]
    if "records" not in lines[0]:
        return None, []
    owed = [g for x in lines for g in x["expected"]] if local else lines[0]["expected"]
    groups = [_records(g) for g in owed]
    got = [_records(x["records"]) for x in lines]
    flat = [r for rs in got for r in rs]
    rtol, atol = lines[0]["rtol"], lines[0]["atol"]
    found = checks.assign(groups, flat, rtol, atol)
    group_of = [g for g, group in enumerate(groups) for _ in group]
    at = 0
    for view, records in zip(views, got, strict=True):
        mine = found[at : at + len(records)]
        at += len(records)
        steps: dict[int, list[int]] = {}
        for (k, _), j in zip(records, mine, strict=True):
            if j is not None:
                steps.setdefault(group_of[j], []).append(k)
        view.delivered = [Delivered(call=g, steps=s) for g, s in sorted(steps.items())]
        # sorted: records owed to no call come from every device's thread, in no fixed order
        unmatched = [k for (k, _), j in zip(records, mine, strict=True) if j is None]
        view.unmatched = sorted(unmatched) or None
    fx = checks.effects(groups, flat, rtol, atol)
    return fx, [p for p in [checks.effects_problem(fx)] if p]


def _local() -> frozenset[str]:
    from .spmd import LOCAL

    return LOCAL


def merge(key: Key, lines: Sequence[dict[str, Any] | None], missing: dict[int, Any]) -> Cell:
    """One cell from each process's line (``None`` where it has none: ``missing[p]`` then
    gives ``(error_type, error)`` for that process)."""
    from .spmd import test_id

    views = []
    for p, line in enumerate(lines):
        if line is None:
            error_type, error = missing[p]
            views.append(ProcessCell(process=p, status="error", error_type=error_type, error=error))
            continue
        view = ProcessCell.model_validate({"process": p, **{f: line.get(f) for f in FIELDS}})
        if line.get("mismatch"):
            view.status, view.reason = "wrong", line["mismatch"]
        views.append(view)
    cell = Cell(variant=key[0], computation=key[1], transform=key[2], status="n/a")
    cell.test = test_id(*key)
    cell.processes = views
    calls = [v.host_calls for v in views if v.host_calls is not None]
    cell.host_calls = sum(calls) if calls else None
    cell.shapes = sorted({s for v in views for s in v.shapes or ()}) or None
    cell.warning = next((x["warning"] for x in lines if x and x.get("warning")), None)
    failed = next((v for v in views if v.status == "error"), None)
    if failed is not None:
        cell.status, cell.error_type = "error", failed.error_type
        cell.error = f"process {failed.process}: {failed.error}"
        return cell
    if all(v.status == "n/a" for v in views):
        cell.reason = views[0].reason
        return cell
    ran = [x for x in lines if x is not None]
    problems = [f"process {v.process}: {v.reason}" for v in views if v.status != "ok"]
    if len(ran) == len(views) and all(v.status != "n/a" for v in views):
        cell.effects, found = _effects(key, ran, views)
        problems += found
    cell.status = "wrong" if problems else "ok"
    cell.reason = "; ".join(problems) if problems else None
    return cell


def _missing(launch_: Launch, job_index: int, what: Any) -> dict[int, Any]:
    """``(error_type, error)`` for each process of a job that ended in a fault."""
    from ..matrix.pool import crash_cell

    job = launch_.jobs[job_index]
    assert job.fault is not None
    limit = launch_.timeouts[job.items[job.fault.index] >= len(launch_.keys)]
    key = tuple(str(x) for x in what)[:3]
    out: dict[int, Any] = {}
    for p in job.procs:
        rc = p.popen.returncode
        if job.fault.kind == "crash" and (p.index == job.fault.culprit or rc not in (None, -9)):
            crash = crash_cell(key, rc, p.log_text())  # type: ignore[arg-type]
            out[p.index] = (crash.error_type, crash.error)
        elif job.fault.kind == "timeout":
            out[p.index] = ("process timeout", f"no result in {limit:.0f} s")
        else:
            out[p.index] = ("process killed", f"torn down when process {job.fault.culprit} died")
    return out


def collect(launch_: Launch) -> tuple[list[Cell], dict[str, Any], ShardingCost | None]:
    """The merged cells in key order, process 0's environment, and the timings (if any)."""
    items = launch_.items
    results: dict[int, Cell | CostResult] = {}
    for j, job in enumerate(launch_.jobs):
        per = [p.results() for p in job.procs]
        done = min(len(x) for x in per)
        for i in range(done):
            results[job.items[i]] = _one(items[job.items[i]], [x[i] for x in per], {})
        if job.fault is not None and job.fault.index < len(job.items):
            i = job.fault.index
            kind, what = items[job.items[i]]
            lines = [x[i] if len(x) > i else None for x in per]
            results[job.items[i]] = _one((kind, what), lines, _missing(launch_, j, what))
    for i, why in launch_.skipped.items():
        variant, form, n = items[i][1]
        results[i] = CostResult(
            variant=variant, form=form, n=n, median_s=[], host_calls=[], shapes=[], error=why
        )
    cells = [r for r in (results[i] for i in range(len(launch_.keys))) if isinstance(r, Cell)]
    timings = [r for i, r in sorted(results.items()) if isinstance(r, CostResult)]
    env = launch_.jobs[0].procs[0].get("ready")[0]
    return cells, env, _costs(launch_, timings)


def _one(item: tuple[str, Any], lines: list[Any], missing: dict[int, Any]) -> Cell | CostResult:
    kind, what = item
    if kind == "cell":
        return merge(tuple(what), lines, missing)
    variant, form, n = what
    if any(x is None for x in lines):
        p = next(i for i, x in enumerate(lines) if x is None)
        error_type, error = missing[p]
        failed = f"process {p}: {error_type}: {error}"
        empty: list[Any] = []
        return CostResult(
            variant=variant, form=form, n=n, median_s=empty, host_calls=[], shapes=[], error=failed
        )
    return CostResult(
        variant=variant,
        form=form,
        n=lines[0]["n"],
        median_s=[x["median_s"] for x in lines],
        host_calls=[x["host_calls"] for x in lines],
        shapes=[x["shape"] for x in lines],
    )


def _costs(launch_: Launch, timings: list[CostResult]) -> ShardingCost | None:
    if not launch_.costs:
        return None
    from .shardcost import REPEATS

    lines = [x for job in launch_.jobs for x in job.procs[0].get("cost")]
    return ShardingCost(
        sizes=sorted({int(c[2]) for c in launch_.costs}),
        repeats=lines[0]["repeats"] if lines else REPEATS,
        load_start=lines[0]["load"] if lines else None,
        load_end=lines[-1]["load"] if lines else None,
        duration_s=round(sum(x["seconds"] for x in lines), 1),
        results=timings,
    )


def run(
    layout: Layout,
    variants: Sequence[str] | None = None,
    computations: Sequence[str] | None = None,
    transforms: Sequence[str] | None = None,
    *,
    registries: Sequence[str] = (),
    costs: bool = True,
    progress: Callable[[str], None] | None = None,
    **options: Any,
) -> MatrixFile:
    """Measure (part of) the multi-process matrix in a fresh job of ``layout``."""
    from ..catalog import CATALOG
    from ..matrix.run import computation_info, select, transform_info
    from ..mechanisms import discover, from_file
    from .shardcost import plan
    from .spmd import TRANSFORMS

    start = time.perf_counter()
    every = [*discover(), *(v for spec in registries for v in from_file(spec))]
    vs = select(every, variants, "id")
    cs = select(CATALOG, computations, "name")
    ts = select(TRANSFORMS, transforms, "id")
    keys = [(v.id, c.name, t.id) for v in vs for c in cs for t in ts]
    timings = plan(vs) if costs else []
    done = launch(layout, keys, registries=registries, costs=timings, progress=progress, **options)
    cells, env, timing = collect(done)
    described = {k: v for k, v in env.items() if k not in ("collectives", "pid")}
    return MatrixFile(
        environment=MatrixEnvironment.model_validate(
            {**described, "duration_s": round(time.perf_counter() - start, 1)}
        ),
        variants=[VariantInfo.model_validate(v.to_json()) for v in vs],
        computations=[computation_info(c) for c in cs],
        transforms=[transform_info(t) for t in ts],
        cells=cells,
        sharding_cost=timing,
    )
