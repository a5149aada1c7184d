"""Faults in a multi-process job: a process that hangs or dies in a cell is a recorded cell,
and every process of that job is killed and reaped, its port freed, before the next job
carries on; nothing listens or connects outside 127.0.0.1 meanwhile.

The faults come from a test-only row (``faulty.py``): under ``local_jit`` process 1 sleeps
for an hour in ``sin_scale``'s host function and aborts in ``sum_mean``'s.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from procfs import Socket, alive, listening, session_members, sockets, workers

from jaxcb_core.distributed import Launch, launch
from jaxcb_core.distributed import matrix as distmatrix
from jaxcb_core.distributed.layout import Layout, port_free

pytestmark = pytest.mark.multiprocess

FAULTY = f"{Path(__file__).with_name('faulty.py')}:variants"  # the registry the workers load
KEYS = [
    ("faulty/test", "sin_scale", "local_jit"),  # process 1 hangs
    ("faulty/test", "sum_mean", "local_jit"),  # process 1 aborts
    ("faulty/test", "bessel_jv", "local_jit"),  # fine
    ("native/jax", "sin_scale", "sharded_jit"),  # fine, and needs both processes
]
CELL_TIMEOUT = 10.0


@pytest.fixture(scope="module")
def run() -> tuple[Launch, list[Socket], float]:
    """The launch (in a thread) and every socket its workers held while it ran."""
    done: dict[str, Any] = {}

    def go() -> None:
        try:
            done["launch"] = launch(
                Layout(2, 2), KEYS, registries=[FAULTY], cell_timeout=CELL_TIMEOUT
            )
        except BaseException as e:  # re-raised in the test
            done["error"] = e

    start = time.monotonic()
    thread = threading.Thread(target=go)
    thread.start()
    seen: list[Socket] = []
    while thread.is_alive():
        seen += sockets(workers(os.getpid()))
        time.sleep(0.2)
    thread.join()
    if "error" in done:
        raise done["error"]
    return done["launch"], seen, time.monotonic() - start


def test_a_hang_and_a_crash_are_cells_and_the_job_carries_on(
    run: tuple[Launch, list[Socket], float],
) -> None:
    out, _, seconds = run
    cells, env, _ = distmatrix.collect(out)
    hang, crash, after, sharded = cells
    assert [j.fault.kind if j.fault else None for j in out.jobs] == ["timeout", "crash", None]

    assert (hang.status, hang.error_type) == ("error", "process timeout")
    assert hang.error == f"process 1: no result in {CELL_TIMEOUT:.0f} s"
    assert hang.processes is not None
    assert [p.status for p in hang.processes] == ["ok", "error"]  # process 0 was fine
    assert hang.processes[0].host_calls == 1

    assert crash.status == "error"
    assert crash.error_type == "process crash (SIGABRT)"
    assert crash.processes is not None
    assert crash.processes[1].error_type == "process crash (SIGABRT)"

    assert (after.status, sharded.status) == ("ok", "ok")
    assert after.host_calls == 2  # one per process
    assert env["process_count"] == 2
    assert seconds < 120


def test_every_process_is_reaped_and_nothing_is_left_behind(
    run: tuple[Launch, list[Socket], float],
) -> None:
    out, _, _ = run
    pids = [pid for job in out.jobs for pid in job.pids]
    assert len(pids) == 6
    assert [pid for pid in pids if alive(pid)] == []  # no process, not even a zombie
    assert session_members(set(pids)) == []  # nothing they started either
    assert [p.popen.returncode for p in out.jobs[0].procs] == [-9, -9]  # killed: the hang
    assert out.jobs[1].procs[1].popen.returncode == -6  # SIGABRT: the crash
    assert [p.popen.returncode for p in out.jobs[2].procs] == [0, 0]  # finished


def test_no_port_is_left_bound(run: tuple[Launch, list[Socket], float]) -> None:
    out, _, _ = run
    ports = [job.port for job in out.jobs]
    assert len(set(ports)) == 3  # a fresh port for each job
    assert [p for p in ports if listening(p)] == []
    assert all(port_free(p) for p in ports)


def test_nothing_outside_127_0_0_1(run: tuple[Launch, list[Socket], float]) -> None:
    _, seen, _ = run
    ports = {job.port for job in run[0].jobs}
    assert any(s.state == "0A" and s.local_port in ports for s in seen)  # the coordinator
    assert [s for s in seen if not s.loopback_only] == []
