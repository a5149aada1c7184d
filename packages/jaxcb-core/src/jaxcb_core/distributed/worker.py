"""One process of a multi-process matrix job: ``python -m jaxcb_core.distributed.worker``.

:mod:`jaxcb_core.distributed.launcher` starts N of these. Each asks for its CPU devices, turns on
CPU collectives (gloo), joins the job with ``jax.distributed.initialize`` (the coordinator
on 127.0.0.1), then runs the planned cells in the plan's order (the same in every process,
as SPMD programs must) and appends one JSON line per cell to its results file: what this
process saw, through the variant's probe. Whether the job as a whole got it right is
decided by the harness from every process's lines (:mod:`jaxcb_core.distributed.matrix`). After
the cells it may time the sharded host calls (:mod:`jaxcb_core.distributed.shardcost`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import IO, Any

import numpy as np

from .. import environment
from ..matrix import checks

__all__ = ["enable_cpu_collectives", "main", "run"]


def enable_cpu_collectives() -> str:
    """Cross-process collectives on CPU through gloo; says which option did it.

    JAX 0.4.3x and later (0.10, 0.12): ``jax_cpu_collectives_implementation="gloo"`` (gloo
    is already the default there); before: ``jax_cpu_enable_gloo_collectives=True``.
    """
    import jax

    for name, value in (
        ("jax_cpu_collectives_implementation", "gloo"),
        ("jax_cpu_enable_gloo_collectives", True),
    ):
        try:
            jax.config.update(name, value)
        except AttributeError:  # "Unrecognized config option"
            continue
        return f"{name}={value}"
    raise RuntimeError(f"JAX {jax.__version__} has no option for CPU collectives")


def _plain(x: Any) -> Any:
    return None if x is None else np.asarray(x).tolist()


def run(variant: Any, comp: Any, transform: Any, dtype: Any = np.float32) -> dict[str, Any]:
    """One cell in this process: what it returned, what its host side got, as JSON data."""
    import jax

    from ..matrix.cell import Recorder, execute, prepare
    from ..matrix.transforms import NotApplicable
    from . import spmd

    out: dict[str, Any] = {"process": jax.process_index(), "status": "n/a"}
    prepared = prepare(variant, comp, transform, dtype, spmd.KEYWORDS.get(transform.id))
    if isinstance(prepared, str):
        out["reason"] = prepared
        return out
    case, sink = prepared
    try:
        ran = execute(variant, comp, transform, case, sink, after=lambda t: spmd.read(t.outputs))
    except NotApplicable as e:
        out["reason"] = str(e)
        return out
    if (err := ran.error) is not None:
        out.update(status="error", error_type=type(err).__name__, error=checks.first_line(err))
    if ran.warning is not None:
        out["warning"] = ran.warning
    tally, trial, seen = ran.tally, ran.trial, ran.read
    if tally is not None:
        out["host_calls"] = tally.calls
        out["shapes"] = sorted(set(getattr(tally, "shapes", None) or [])) or None
    if trial is None:
        return out
    out["placement"] = spmd.placement(trial.outputs)
    if seen is None:  # reading the result raised
        return out
    rtol, atol = checks.tolerance(comp, dtype, trial.derivative, transform.id)
    out.update(status="ok", rtol=rtol, atol=atol)
    out["mismatch"] = checks.mismatch(seen, trial.expected, rtol, atol)
    if comp.kind == "effect":
        groups = [comp.records(*case.full(c)) for c in trial.calls]
        records = getattr(tally, "records", None)
        if records is None:
            assert isinstance(sink, Recorder)
            first = groups[0][0][1] if groups and groups[0] else None
            records = checks.split(sink.records, None if first is None else np.ndim(first))
        out["expected"] = [[[int(k), _plain(x)] for k, x in g] for g in groups]
        out["records"] = [[int(k), _plain(x)] for k, x in records]
    elif comp.kind == "impure":
        out.update(calls=len(trial.calls), draws=getattr(sink, "draws", 0))
    elif variant.owes_runs and tally is not None:
        out["runs"] = trial.runs  # executions owed: graded against every process's host calls
    return out


def _emit(f: IO[str], record: dict[str, Any]) -> None:
    f.write(json.dumps(record) + "\n")
    f.flush()
    os.fsync(f.fileno())  # the harness reads while this process runs, and may kill it


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m jaxcb_core.distributed.worker", description=__doc__)
    p.add_argument("--process-id", type=int, required=True)
    p.add_argument("--processes", type=int, required=True)
    p.add_argument("--local-devices", type=int, required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--plan", required=True, help="JSON: keys, costs, registries, init_timeout")
    p.add_argument("--out", required=True, help="JSON-lines file this process appends to")
    args = p.parse_args(argv)
    with open(args.plan, encoding="utf-8") as f:
        plan = json.load(f)

    import jax

    environment.use_cpu_devices(args.local_devices)
    collectives = enable_cpu_collectives()
    address = f"127.0.0.1:{args.port}"
    jax.distributed.initialize(
        coordinator_address=address,
        coordinator_bind_address=address,  # the default binds every interface
        num_processes=args.processes,
        process_id=args.process_id,
        initialization_timeout=int(plan.get("init_timeout", 120)),
    )
    from ..catalog import by_name
    from ..mechanisms import discover, from_file
    from .spmd import by_id

    variants = {v.id: v for v in discover()}
    for spec in plan.get("registries", ()):
        variants.update((v.id, v) for v in from_file(spec))
    with open(args.out, "a", encoding="utf-8") as f:
        ready = {**environment.describe(), "collectives": collectives, "pid": os.getpid()}
        _emit(f, {"ready": ready})
        for v, c, t in plan["keys"]:
            _emit(f, {"cell": run(variants[v], by_name(c), by_id(t))})
        if plan.get("costs"):
            from . import shardcost

            for v, form, n in plan["costs"]:
                _emit(f, {"cost": shardcost.measure(variants[v], form, n)})
        _emit(f, {"done": True})
    jax.distributed.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
