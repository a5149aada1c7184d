"""Launch a multi-process job on this machine: N processes that JAX's own runtime joins.

:func:`launch` starts ``layout.processes`` interpreters running :mod:`jaxcb_core.distributed.worker`,
each with ``layout.local_devices`` CPU devices. They join through ``jax.distributed.initialize``
with the coordinator on ``127.0.0.1:<port>`` (a free port unless one is given) and talk through
gloo, JAX's CPU collectives. Each runs the same cells in the same order and appends what it
saw to a JSON-lines file. The harness only starts the processes, watches those files, times
out, kills and collects: nothing of its own passes between the processes.

Faults: a cell that some process does not get past within ``cell_timeout`` seconds is a
timeout; a process that dies is a crash (with XLA's fatal line where there is one). Either way
every process of that job is killed (its process group, then reaped), and a fresh job on a
fresh port carries on with the next cell. Layouts and ports are checked before anything starts;
this module imports no JAX.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .layout import Layout, check_loopback, check_port, free_port

__all__ = ["Launch", "LaunchError", "launch", "stop"]

CELL_TIMEOUT = 120.0  # seconds without a cell that every process finished
COST_TIMEOUT = 30.0  # the same for one timing
START_TIMEOUT = 180.0  # import JAX and join the job
MAX_FAULTS = 16  # timeouts and crashes in one launch before it gives up
Key = tuple[str, str, str]


class LaunchError(RuntimeError):
    """The job could not run (a process failed to start or join, too many faults)."""


@dataclasses.dataclass
class Proc:
    """One started worker and what it wrote so far."""

    index: int
    popen: subprocess.Popen[bytes]
    out: Path
    log: Path
    lines: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    _offset: int = 0

    def read(self) -> None:
        if not self.out.exists():
            return
        with self.out.open("rb") as f:
            f.seek(self._offset)
            data = f.read()
        complete = data[: data.rfind(b"\n") + 1]
        self._offset += len(complete)
        self.lines += [json.loads(line) for line in complete.splitlines() if line.strip()]

    def get(self, kind: str) -> list[Any]:
        return [line[kind] for line in self.lines if kind in line]

    def results(self) -> list[dict[str, Any]]:
        """What this process wrote for each item of its plan: its cells, then its timings."""
        return [*self.get("cell"), *self.get("cost")]

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""


@dataclasses.dataclass
class Fault:
    """An item (index into the job's plan: cells, then timings) a process hung or died in."""

    index: int
    kind: str  # "timeout" or "crash"
    processes: list[int]  # the processes that did not finish it
    culprit: int | None = None  # the process that died (crash)


@dataclasses.dataclass
class Job:
    """One start of every process (a launch restarts after each fault)."""

    port: int
    items: list[int]  # what its plan holds: indices into the launch's items, in order
    procs: list[Proc]
    seconds: float = 0.0
    fault: Fault | None = None

    @property
    def pids(self) -> list[int]:
        return [p.popen.pid for p in self.procs]


@dataclasses.dataclass
class Launch:
    """What a launch collected: every job, in order (each with its processes' lines)."""

    layout: Layout
    keys: list[Key]
    costs: list[list[Any]]  # the timings after the cells: [variant id, form, n]
    timeouts: tuple[float, float]  # seconds for a cell, for a timing
    jobs: list[Job] = dataclasses.field(default_factory=list)
    skipped: dict[int, str] = dataclasses.field(default_factory=dict)  # item index: why

    @property
    def items(self) -> list[tuple[str, Any]]:
        return [*(("cell", k) for k in self.keys), *(("cost", c) for c in self.costs)]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # XLA's notes off; fatal lines still come
    env["JAX_PLATFORMS"] = "cpu"
    flags = [f for f in env.get("XLA_FLAGS", "").split() if "device_count" not in f]
    env["XLA_FLAGS"] = " ".join(flags)  # the worker asks for its own device count
    for name in ("JAX_NUM_CPU_DEVICES", "JAX_COORDINATOR_ADDRESS", "JAX_PROCESS_ID"):
        env.pop(name, None)
    return env


def _start(layout: Layout, port: int, plan: dict[str, Any], folder: Path) -> list[Proc]:
    folder.mkdir(parents=True)
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    procs: list[Proc] = []
    try:
        for i in range(layout.processes):
            out, log = folder / f"process-{i}.jsonl", folder / f"process-{i}.log"
            argv = [sys.executable, "-m", "jaxcb_core.distributed.worker", "--process-id", str(i)]
            argv += ["--processes", str(layout.processes), "--port", str(port)]
            argv += ["--local-devices", str(layout.local_devices), "--out", str(out)]
            with log.open("wb") as f:
                popen = subprocess.Popen(
                    [*argv, "--plan", str(folder / "plan.json")],
                    stdin=subprocess.DEVNULL,
                    stdout=f,
                    stderr=subprocess.STDOUT,
                    env=_env(),
                    start_new_session=True,  # its own process group: killed as a whole
                )
            procs.append(Proc(i, popen, out, log))
    except BaseException:
        stop(procs)
        raise
    return procs


def stop(procs: Sequence[Proc], grace: float = 0.0) -> None:
    """Kill every process group still running (after ``grace`` seconds), then reap them all."""
    deadline = time.monotonic() + grace
    for p in procs:
        if p.popen.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
        if p.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.popen.pid, signal.SIGKILL)
    for p in procs:
        p.popen.wait()


def _watch(
    procs: list[Proc], cells: int, timeouts: tuple[float, float], start_timeout: float
) -> Fault | None:
    """Wait until every process is done (``None``) or one hangs or dies in an item."""
    last, finished, joined = time.monotonic(), 0, False
    while True:
        time.sleep(0.1)
        for p in procs:
            p.read()
        counts = [len(p.results()) for p in procs]
        ready = all(p.get("ready") for p in procs)
        if min(counts) > finished or (ready and not joined):
            last, finished, joined = time.monotonic(), min(counts), ready
        if all(p.get("done") for p in procs):
            return None
        dead = [p for p in procs if p.popen.poll() is not None and not p.get("done")]
        if not ready and (dead or time.monotonic() - last > start_timeout):
            culprit = dead[0] if dead else next(p for p in procs if not p.get("ready"))
            raise LaunchError(
                f"process {culprit.index} did not join the job "
                f"(exit code {culprit.popen.poll()}):\n{culprit.log_text()[-3000:]}"
            )
        if dead:
            first = min(dead, key=lambda p: (not _fatal(p), counts[p.index], p.index))
            stuck = [p.index for p in procs if counts[p.index] <= counts[first.index]]
            return Fault(counts[first.index], "crash", stuck, first.index)
        if time.monotonic() - last > timeouts[min(counts) >= cells]:
            return Fault(
                finished, "timeout", [p.index for p in procs if counts[p.index] == finished]
            )


def _fatal(p: Proc) -> bool:
    rc = p.popen.poll()
    return rc is not None and (rc < 0 or " F" in p.log_text() or "Fatal Python" in p.log_text())


def launch(
    layout: Layout,
    keys: Sequence[Key],
    *,
    port: int | None = None,
    registries: Sequence[str] = (),
    costs: Sequence[Sequence[Any]] = (),
    cell_timeout: float = CELL_TIMEOUT,
    cost_timeout: float = COST_TIMEOUT,
    start_timeout: float = START_TIMEOUT,
    progress: Callable[[str], None] | None = None,
) -> Launch:
    """Run ``keys``, then time ``costs`` (:mod:`jaxcb_core.distributed.shardcost`), in every process of
    ``layout``; restart after each fault (see above)."""
    check_loopback()
    if port is not None:
        check_port(port)
    out = Launch(layout, list(keys), [list(c) for c in costs], (cell_timeout, cost_timeout))
    items, n_keys = out.items, len(out.keys)
    todo = list(range(len(items)))
    with tempfile.TemporaryDirectory(prefix="jaxcb-distributed-") as tmp:
        while True:
            job_port = port if port is not None and not out.jobs else free_port()
            plan: dict[str, Any] = {"registries": list(registries), "init_timeout": start_timeout}
            plan["keys"] = [out.keys[i] for i in todo if i < n_keys]
            plan["costs"] = [out.costs[i - n_keys] for i in todo if i >= n_keys]
            began = time.monotonic()
            procs = _start(layout, job_port, plan, Path(tmp) / f"job-{len(out.jobs)}")
            job = Job(job_port, todo, procs)
            out.jobs.append(job)
            finished = False
            try:
                job.fault = _watch(procs, len(plan["keys"]), out.timeouts, start_timeout)
                finished = job.fault is None
            finally:  # a finished job may still be shutting down; anything else is killed
                stop(procs, grace=30.0 if finished else 0.0)
                for p in procs:
                    p.read()
                job.seconds = round(time.monotonic() - began, 1)
            if job.fault is None or job.fault.index >= len(todo):
                return out  # done, or a fault after the last item (shutting down)
            failed = todo[job.fault.index]
            if progress is not None:
                what = " | ".join(str(x) for x in items[failed][1])
                progress(f"{job.fault.kind} in {what}; restarting every process after it")
            if sum(j.fault is not None for j in out.jobs) >= MAX_FAULTS:
                raise LaunchError(f"{MAX_FAULTS} faults in one launch: giving up")
            todo = todo[job.fault.index + 1 :]
            if failed >= n_keys:  # a timing that failed is not tried again at a larger n
                variant, form, n = out.costs[failed - n_keys]
                for i in todo:
                    v, f, m = out.costs[i - n_keys] if i >= n_keys else (None, None, 0)
                    if (v, f) == (variant, form) and m > n:
                        out.skipped[i] = f"not run: the same form failed at n = {n}"
                todo = [i for i in todo if i not in out.skipped]
            if not todo:
                return out
