"""Running many cells in worker processes, so that a case that kills its process is a result.

Cells are grouped by variant × computation and the groups run in fresh (spawned)
processes that ask for as many CPU devices as this one has. The workers of one call share
one temporary compilation cache (:func:`environment.share_compilations`): a program that
another cell already compiled (the same XLA program, whatever variant built it) is loaded,
not compiled again. Measured on the 0.12.0.1 matrix (2 workers): a third less CPU time,
every cell the same. A case that aborts its
process (JAX 0.4.30 has XLA check failures that do) breaks the pool. Only as many groups
as there are workers are in flight at a time, so only those can have broken it: they run
again in a fresh pool, with the groups not yet started; a group broken twice runs in one
worker, then cell by cell, and the cell that still kills its worker runs once more in its
own interpreter to capture XLA's fatal message as a ``process crash`` cell.
"""

from __future__ import annotations

import collections
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .. import environment
from ..schema import Cell

__all__ = ["crash_cell", "default_workers", "load_registries", "run_cells", "run_group"]

Key = tuple[str, str, str]
Task = tuple[str, str, tuple[str, ...]]
_FATAL = re.compile(r"\] (Check failed: .*|.*)$")
_MARK = "JAXCB-CELL "


def default_workers() -> int:
    """One worker process per core (at most 4): cells compile small XLA programs."""
    return max(1, min(os.cpu_count() or 1, 4))


#: variants of registries outside any installed package (``load_registries``): a test's rows
_EXTRA: dict[str, Any] = {}


def load_registries(specs: Sequence[str]) -> None:
    """Add the variants of ``path/to/file.py:function`` registries to those this process runs
    (a test's deliberately failing rows; :func:`jaxcb_core.mechanisms.from_file`)."""
    from ..mechanisms import from_file

    for spec in specs:
        _EXTRA.update((v.id, v) for v in from_file(spec))


def run_group(task: Task) -> list[Cell]:
    """Every listed transform of one variant × computation, in this process."""
    from ..catalog import by_name
    from ..mechanisms import by_id as variant
    from .cell import run_cell
    from .transforms import by_id as transform

    variant_id, comp_name, transform_ids = task
    v, c = _EXTRA.get(variant_id) or variant(variant_id), by_name(comp_name)
    return [run_cell(v, c, transform(t)) for t in transform_ids]


def _init_worker(devices: int, cache: str | None = None, registries: Sequence[str] = ()) -> None:
    environment.use_cpu_devices(devices)
    if cache is not None:
        environment.share_compilations(cache)
    load_registries(registries)


def crash_cell(key: Key, returncode: int, stderr: str) -> Cell:
    """The cell of a case that killed its process (an XLA check failure, a segfault)."""
    from .cell import test_id

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
        variant=key[0],
        computation=key[1],
        transform=key[2],
        status="error",
        error_type=f"process crash ({kind})",
        error=message,
        test=test_id(*key),
    )


def _run_isolated(key: Key, devices: int, registries: Sequence[str] = ()) -> Cell:
    """One cell in a fresh interpreter, so that a hard crash becomes a recorded result."""
    code = (
        "import json, sys\n"
        "from jaxcb_core import environment\n"
        f"environment.use_cpu_devices({devices})\n"
        "from jaxcb_core.matrix import pool\n"
        f"pool.load_registries({list(registries)!r})\n"
        f"cell = pool.run_group(({key[0]!r}, {key[1]!r}, ({key[2]!r},)))[0]\n"
        f"sys.stdout.write('\\n{_MARK}' + json.dumps(cell.to_json()) + '\\n')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=600
    )
    for line in proc.stdout.splitlines():
        if line.startswith(_MARK):
            return Cell.model_validate(json.loads(line[len(_MARK) :]))
    return crash_cell(key, proc.returncode, proc.stderr)


def _rerun_broken(
    tasks: list[Task],
    devices: int,
    done: Callable[[list[Cell]], None],
    cache: str | None = None,
    registries: Sequence[str] = (),
) -> None:
    """The groups of a broken pool again, one at a time in one worker; cell by cell
    for a group that breaks it again, in its own interpreter for the cell that does."""
    ctx = multiprocessing.get_context("spawn")
    pool: ProcessPoolExecutor | None = None

    def submit(task: Task) -> list[Cell] | None:
        nonlocal pool
        if pool is None:
            pool = ProcessPoolExecutor(
                1, mp_context=ctx, initializer=_init_worker, initargs=(devices, cache, registries)
            )
        try:
            return pool.submit(run_group, task).result()
        except BrokenProcessPool:
            pool.shutdown(wait=True)
            pool = None
            return None

    try:
        for task in tasks:
            variant_id, comp_name, transform_ids = task
            cells = submit(task) if len(transform_ids) > 1 else None  # else: cell by cell
            if cells is not None:
                done(cells)
                continue
            for t in transform_ids:
                one = submit((variant_id, comp_name, (t,))) if len(transform_ids) > 1 else None
                done(one or [_run_isolated((variant_id, comp_name, t), devices, registries)])
    finally:
        if pool is not None:
            pool.shutdown(wait=True)


def run_cells(
    keys: Sequence[Key],
    workers: int | None = None,
    progress: Callable[[Cell], None] | None = None,
    devices: int | None = None,
    isolate: Collection[Key] = (),
    registries: Sequence[str] = (),
) -> list[Cell]:
    """Run the given (variant, computation, transform) cells; return them in ``keys`` order.

    ``workers=0`` runs in this process; otherwise in ``workers`` spawned processes with
    ``devices`` CPU devices each (default: as many as this process has). The cells in
    ``isolate`` (those the committed data says kill their process) run each in a fresh
    interpreter from the start, beside the pool, as a cell that breaks the pool ends up
    running anyway: measured the same way, without breaking the pool first. ``registries``:
    rows of registry files outside the installed packages (:func:`load_registries`).
    """
    workers = default_workers() if workers is None else workers
    alone = [k for k in keys if k in set(isolate)]
    groups: dict[tuple[str, str], list[str]] = {}
    for v, c, t in keys:
        if (v, c, t) not in alone:
            groups.setdefault((v, c), []).append(t)
    tasks = [(v, c, tuple(ts)) for (v, c), ts in groups.items()]
    results: dict[Key, Cell] = {}

    def done(cells: list[Cell]) -> None:
        for cell in cells:
            results[cell.key()] = cell
            if progress is not None:
                progress(cell)

    if devices is None:
        import jax

        devices = len(jax.devices())
    with ThreadPoolExecutor(1) as side:  # the isolated cells' interpreters, one at a time
        apart = [side.submit(_run_isolated, k, devices, registries) for k in alone]
        if workers <= 0:
            load_registries(registries)
            for task in tasks:
                done(run_group(task))
        else:
            with tempfile.TemporaryDirectory(prefix="jaxcb-xla-cache-") as cache:
                _run_pools(tasks, workers, devices, cache, done, registries)
        for future in apart:
            done([future.result()])
    return [results[k] for k in keys]


def _run_pools(
    tasks: list[Task],
    workers: int,
    devices: int,
    cache: str,
    done: Callable[[list[Cell]], None],
    registries: Sequence[str] = (),
) -> None:
    ctx = multiprocessing.get_context("spawn")
    # Rounds: a crash breaks the whole pool. Only `workers` groups are ever in flight, so
    # only those can have broken it: they take a strike and run again in the next round's
    # pool, before the groups not yet started; a group struck twice, or alone in flight when
    # the pool broke, is isolated (one worker, then cell by cell). (Submitting every group at once struck every queued group at each
    # crash: on JAX 0.4.30, two crashes sent the rest of the matrix to one worker.)
    queue, strikes, broken = collections.deque(tasks), dict.fromkeys(tasks, 0), []
    while queue:
        struck: list[Task] = []
        with ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=_init_worker, initargs=(devices, cache, registries)
        ) as pool:
            running: dict[Future[list[Cell]], Task] = {}
            while queue or running:
                while queue and len(running) < workers and not struck:
                    task = queue.popleft()
                    running[pool.submit(run_group, task)] = task
                if not running:
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = running.pop(future)
                    try:
                        done(future.result())
                    except BrokenProcessPool:
                        struck.append(task)
        for task in struck:  # a group alone in flight broke the pool itself: no second chance
            strikes[task] += 2 if len(struck) == 1 else 1
        broken += [t for t in struck if strikes[t] >= 2]
        queue.extendleft(reversed([t for t in struck if strikes[t] < 2]))
    if broken:
        _rerun_broken(broken, devices, done, cache, registries)
