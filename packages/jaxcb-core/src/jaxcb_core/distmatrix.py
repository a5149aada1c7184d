"""The multi-process matrix: every process's view of a cell, merged into one cell.

:func:`run` launches a job (:mod:`jaxcb_core.distributed`) over every variant × computation
× multi-process transform (:mod:`jaxcb_core.spmd`) and returns a
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

from . import checks
from .distributed import Launch, Layout, launch
from .schema import (
    Cell,
    CostResult,
    Delivered,
    MatrixEnvironment,
    MatrixFile,
    ProcessCell,
    ShardingCost,
    VariantInfo,
)

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
        view.unmatched = [k for (k, _), j in zip(records, mine, strict=True) if j is None] or None
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
        view = ProcessCell(process=p, **{f: line.get(f) for f in FIELDS})
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


def _missing(launch_: Launch, job_index: int, key: Key) -> dict[int, Any]:
    from .pool import _crash_cell

    job = launch_.jobs[job_index]
    assert job.fault is not None
    out: dict[int, Any] = {}
    for p in job.procs:
        rc = p.popen.returncode
        if job.fault.kind == "crash" and (p.index == job.fault.culprit or rc not in (None, -9)):
            crash = _crash_cell(key, rc, p.log_text())
            out[p.index] = (crash.error_type, crash.error)
        elif job.fault.kind == "timeout":
            out[p.index] = ("process timeout", f"no result in {launch_.cell_timeout:.0f} s")
        else:
            out[p.index] = ("process killed", f"torn down when process {job.fault.culprit} died")
    return out


def collect(launch_: Launch) -> tuple[list[Cell], dict[str, Any], ShardingCost | None]:
    """The merged cells in key order, process 0's environment, and the timings (if any)."""
    cells: dict[Key, Cell] = {}
    for j, job in enumerate(launch_.jobs):
        keys = launch_.keys[job.first :]
        per = [p.get("cell") for p in job.procs]
        done = min(len(x) for x in per)
        for i in range(done):
            cells[keys[i]] = merge(keys[i], [x[i] for x in per], {})
        if job.fault is not None and job.fault.index < len(keys):
            key = keys[job.fault.index]
            lines = [x[done] if len(x) > done else None for x in per]
            cells[key] = merge(key, lines, _missing(launch_, j, key))
    env = launch_.jobs[0].procs[0].get("ready")[0]
    timings = [p.get("costs") for p in launch_.jobs[-1].procs]
    return [cells[k] for k in launch_.keys], env, _costs(timings)


def _costs(timings: list[list[dict[str, Any]]]) -> ShardingCost | None:
    if not all(timings):
        return None
    runs = [t[0] for t in timings]
    first = runs[0]
    results = [
        CostResult(
            variant=r["variant"],
            form=r["form"],
            n=r["n"],
            median_s=[run["results"][i]["median_s"] for run in runs],
            host_calls=[run["results"][i]["host_calls"] for run in runs],
            shapes=[run["results"][i]["shape"] for run in runs],
        )
        for i, r in enumerate(first["results"])
    ]
    return ShardingCost(
        sizes=first["sizes"],
        repeats=first["repeats"],
        load_start=first["load_start"],
        load_end=first["load_end"],
        duration_s=first["duration_s"],
        results=results,
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
    from .catalog import CATALOG
    from .matrix import computation_info, select, transform_info
    from .mechanisms import discover, from_file
    from .spmd import TRANSFORMS

    start = time.perf_counter()
    every = [*discover(), *(v for spec in registries for v in from_file(spec))]
    vs = select(every, variants, "id")
    cs = select(CATALOG, computations, "name")
    ts = select(TRANSFORMS, transforms, "id")
    keys = [(v.id, c.name, t.id) for v in vs for c in cs for t in ts]
    done = launch(layout, keys, registries=registries, costs=costs, progress=progress, **options)
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
