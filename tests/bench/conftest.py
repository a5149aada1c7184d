"""Benchmark session: off by default, never under xdist, one JSON file per device.

`tox -e bench` runs ``pytest tests/bench -m bench --benchmark-only``. That one command
times every case and, when the whole suite ran and passed, writes
``docs/data/bench/<device>.json`` (``cpu-<cpu model>-<widest SIMD>`` or ``gpu-<device kind>``):
summary statistics only (median, quartiles, rounds, host calls per call). A partial
run (``-k``, a single file, a failure) writes ``.benchmarks/jaxcb/<device>.partial.json``
instead, so the committed file only ever holds complete runs.

Before the first case the session waits (at most ``JAXCB_BENCH_WAIT`` seconds, default
300) for the 1-minute load average to fall to ``QUIET_LOAD`` (1.5) or below, and records
the load at the start and at the end. A run that was not quiet at both ends writes only
the partial file, unless ``JAXCB_BENCH_ALLOW_LOAD=1``: then the committed file is written
with ``"quiet": false`` and the performance page shows a warning. The session measures
one CPU device (``JAX_NUM_CPU_DEVICES=1`` in the tox env).

Environment variables:

``JAXCB_BENCH_BACKEND``
    ``cpu`` or ``cuda`` (alias ``gpu``): the backend to measure. With ``cuda`` and no
    GPU the session stops at once with a message saying so. Unset: JAX's default.
``JAXCB_BENCH_OUT``
    directory for the data file instead of ``docs/data/bench`` (the GPU script uses it).
``JAXCB_BENCH_SCALE``
    multiplies the time budget of every case (default 1; 0.2 for a quick look).
``JAXCB_BENCH_BLOCKS``
    in how many interleaved blocks each case is measured (default 4).
``JAXCB_BENCH_WAIT``, ``JAXCB_BENCH_ALLOW_LOAD``
    the bounded wait for a quiet machine, and writing the committed file anyway.

Timing rules: compile time is excluded (two untimed calls first), every timed call
ends in ``jax.block_until_ready``, and host calls are counted in a separate, untimed
run by wrapping the pattern module's ``on_host``.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATA_DIR = ROOT / "docs" / "data" / "bench"
PARTIAL_DIR = ROOT / ".benchmarks" / "jaxcb"

# subjects and seeds (the columns) are imported by the test modules whatever pytest's
# import mode.
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

BACKEND_ENV = "JAXCB_BENCH_BACKEND"
_BACKENDS = {"cpu": "cpu", "cuda": "cuda", "gpu": "cuda"}

#: seconds of timed calls per case, before JAXCB_BENCH_SCALE
BUDGET_S = 0.4
#: a round lasts at least this long (fast calls are repeated within a round)
ROUND_S = 0.002
MIN_ROUNDS = 6
#: slow cases (a call over SLOW_S) get this many rounds only
SLOW_ROUNDS, SLOW_S = 4, 0.25
MAX_ROUNDS = 200

_STATE = pytest.StashKey[dict[str, Any]]()


def _active(config: pytest.Config) -> bool:
    """Benchmarks run only with --benchmark-only (tests/conftest.py skips them otherwise)."""
    return bool(config.getoption("benchmark_only", default=False))


def _xdist(config: pytest.Config) -> bool:
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return True
    if config.getoption("dist", default="no") not in ("no", None):
        return True
    return bool(config.getoption("numprocesses", default=None))


def _select_backend() -> str:
    """Put JAX on the requested backend, or stop the session saying why it cannot."""
    import jax

    wanted = os.environ.get(BACKEND_ENV, "").strip().lower()
    if wanted and wanted not in _BACKENDS:
        raise pytest.UsageError(f"{BACKEND_ENV}={wanted!r}: expected one of {sorted(_BACKENDS)}")
    platform_name = _BACKENDS.get(wanted)
    if platform_name == "cuda":
        try:
            gpus = jax.devices("gpu")
        except Exception as e:  # RuntimeError, or an assertion inside JAX's backend setup
            raise pytest.UsageError(
                f"{BACKEND_ENV}=cuda, but JAX finds no GPU on this machine "
                f"({type(e).__name__}: {str(e) or 'no detail'}). The GPU benchmarks need an NVIDIA "
                "GPU and jax[cuda12] (`tox -e bench-cuda12`, or tests/bench/run_gpu.sh); "
                "`tox -e bench` measures the CPU."
            ) from None
        if not gpus or jax.default_backend() != "gpu":
            raise pytest.UsageError(
                f"{BACKEND_ENV}=cuda, but JAX runs on {jax.default_backend()!r} "
                f"(jax.devices() = {jax.devices()})"
            )
        return "gpu"
    if platform_name == "cpu":
        with contextlib.suppress(RuntimeError):  # a backend already started: checked below
            jax.config.update("jax_platforms", "cpu")
        if jax.default_backend() != "cpu":
            raise pytest.UsageError(
                f"{BACKEND_ENV}=cpu, but JAX already started on {jax.default_backend()!r}; "
                "set JAX_PLATFORMS=cpu before pytest starts"
            )
    return jax.default_backend()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "bench: a benchmark; off by default")
    if not _active(config):
        return
    if _xdist(config):
        raise pytest.UsageError(
            "jaxcb benchmarks never run under pytest-xdist (parallel workers share the "
            "cores being measured): drop -n/--dist"
        )
    backend = _select_backend()
    waited = _wait_for_quiet()
    config.stash[_STATE] = {
        "start": time.perf_counter(),
        "load_start": _load(),
        "waited_s": waited,
        "backend": backend,
        "raw": {},
        "checks": [],
        "pairs": [],
        "failed": 0,
        "deselected": 0,
        "written": None,
    }


def _wait_for_quiet() -> float:
    """Wait, boundedly, until the 1-minute load is at most QUIET_LOAD; seconds waited."""
    from jaxcb_core.schema import QUIET_LOAD

    limit = float(os.environ.get("JAXCB_BENCH_WAIT", "300"))
    start = time.monotonic()
    while (load := _load()) is not None and load > QUIET_LOAD:
        waited = time.monotonic() - start
        if waited >= limit:
            print(f"jaxcb bench: load {load:.2f} after waiting {waited:.0f} s; measuring anyway")
            break
        time.sleep(5)
    return round(time.monotonic() - start, 1)


def pytest_deselected(items: list[pytest.Item]) -> None:
    """Count deselected *benchmarks* (``-m bench`` deselects the data tests: that is fine)."""
    benches = [item for item in items if item.get_closest_marker("bench")]
    if benches:
        state = benches[0].config.stash.get(_STATE, None)
        if state is not None:
            state["deselected"] += len(benches)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    state = item.config.stash.get(_STATE, None)
    if state is not None and report.failed:
        state["failed"] += 1
    return report


class Measure:
    """Times one case with pytest-benchmark, in blocks, and pools the rounds.

    A case is measured in ``blocks`` blocks, each a test of its own; the test order
    runs every case of a table row in block 0, then every case of the row in block 1,
    and so on, so that a slow drift of the machine's load affects all columns of a
    row alike. The rounds of all blocks are pooled into one set of statistics.
    """

    def __init__(self, benchmark: Any, state: dict[str, Any] | None) -> None:
        self.benchmark = benchmark
        self.state = state

    def __call__(
        self,
        call: Callable[[], Any],
        *,
        suite: str,
        computation: str,
        variant: dict[str, Any],
        n: int,
        host_calls: int | None,
        nbytes: int | None,
        page_faults: int | None = None,
        block: int = 0,
        blocks: int = 1,
        budget: float = 1.0,
        check_loop: bool = False,
        pair: tuple[str, Callable[[], Any]] | None = None,
    ) -> None:
        """Calibrate and time ``call``, which must block until its result is ready
        (the caller has compiled it and run it once already). ``pair``, ``(id, call)`` of
        the pattern's minimal form, is timed too, one round after each round of ``call``."""
        key = (suite, computation, variant["id"], int(n))
        raw = self.state["raw"] if self.state is not None else {}
        entry = raw.get(key)
        if entry is None:
            per_call = _estimate(call)
            entry = {
                "per_call": per_call,
                "iterations": max(1, min(10_000, int(ROUND_S / per_call))),
                "data": [],
                "variant": dict(variant),
                "host_calls": host_calls,
                "bytes": nbytes,
                "page_faults": page_faults,
            }
        per_call, iterations = entry["per_call"], entry["iterations"]
        scale = float(os.environ.get("JAXCB_BENCH_SCALE", "1")) * budget
        rounds = int(BUDGET_S * scale / blocks / (per_call * iterations))
        least = SLOW_ROUNDS if per_call > SLOW_S else MIN_ROUNDS
        rounds = max(math.ceil(least / blocks), min(MAX_ROUNDS // blocks, rounds))
        self.benchmark.group = f"{suite}:{computation}:{n}"
        self.benchmark.extra_info.update(
            suite=suite,
            computation=computation,
            variant=variant["id"],
            n=n,
            block=block,
            host_calls=host_calls,
        )
        # One round of the bare loop after each of the harness's rounds, in every block,
        # pooled as the harness's are: the two alternate and see the same moments of the run,
        # so the check compares two ways of timing, not the machine's speed at two moments
        # (on a virtual machine whose speed moves within minutes). A pattern's minimal form
        # is timed the same way beside it: one of its rounds after each of the pattern's.
        loop: list[float] | None = entry.setdefault("loop", []) if check_loop else None
        if pair is not None and "pair" not in entry:
            entry["pair"] = (pair[0], max(1, min(10_000, int(ROUND_S / _estimate(pair[1])))), [])
        between: tuple[Callable[[], Any], int, list[float]] | None = None
        if loop is not None:
            between = (call, iterations, loop)
        elif pair is not None:
            between = (pair[1], entry["pair"][1], entry["pair"][2])

        def one_round() -> None:  # pytest-benchmark calls it after each round, untimed
            assert between is not None
            fn, its, into = between
            into.extend(_tight_loop(fn, its, 1))

        self.benchmark.pedantic(
            call,
            rounds=rounds,
            iterations=iterations,
            warmup_rounds=0,
            teardown=one_round if between is not None else None,
        )
        if self.state is None or self.benchmark.disabled:
            return
        if host_calls != entry["host_calls"]:
            raise AssertionError(
                f"{key}: {host_calls} host calls in block {block}, {entry['host_calls']} before"
            )
        entry["data"].extend(self.benchmark.stats.stats.data)
        raw[key] = entry
        if loop is not None and block == blocks - 1:
            self.state["checks"].append((key, sorted(loop)[len(loop) // 2]))
        if pair is not None and block == blocks - 1:
            self.state["pairs"].append((key, pair[0], entry["pair"][2]))


def _tight_loop(call: Callable[[], Any], iterations: int, repeats: int) -> list[float]:
    """Seconds per call in each of ``repeats`` rounds of a bare perf_counter loop."""
    rounds = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(iterations):
            call()
        rounds.append((time.perf_counter() - t0) / iterations)
    return rounds


def _summaries(raw: dict[tuple[Any, ...], dict[str, Any]]) -> list[dict[str, Any]]:
    """One result per case: statistics over the pooled rounds of all its blocks."""
    from pytest_benchmark.stats import Stats

    out = []
    for (suite, computation, variant, n), entry in raw.items():
        stats = Stats()
        for d in entry["data"]:
            stats.update(d)
        out.append(
            {
                "suite": suite,
                "computation": computation,
                "variant": variant,
                "n": n,
                "median_s": float(stats.median),
                "q1_s": float(stats.q1),
                "q3_s": float(stats.q3),
                "iqr_s": float(stats.q3) - float(stats.q1),
                "min_s": float(stats.min),
                "rounds": int(stats.rounds),
                "iterations": int(entry["iterations"]),
                "host_calls": entry["host_calls"],
                "bytes": entry["bytes"],
                "page_faults": entry.get("page_faults"),
            }
        )
    return out


def _estimate(call: Callable[[], Any]) -> float:
    """Seconds per call: the median of up to 9 calls, stopping after ~30 ms."""
    times: list[float] = []
    while len(times) < 9 and sum(times) < 0.03:
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return max(sorted(times)[len(times) // 2], 1e-7)


@pytest.fixture
def measure(benchmark: Any, request: pytest.FixtureRequest) -> Measure:
    return Measure(benchmark, request.config.stash.get(_STATE, None))


def _environment(state: dict[str, Any]) -> dict[str, Any]:
    import importlib.metadata

    import jax
    import numpy as np
    import scipy

    from jaxcb_core.environment import cpu_model, cpu_simd
    from jaxcb_core.schema import QUIET_LOAD

    devices = jax.devices()
    start, end = state["load_start"], _load()
    quiet = start is not None and end is not None and max(start, end) <= QUIET_LOAD
    return {
        "jax": jax.__version__,
        "jaxlib": importlib.metadata.version("jaxlib"),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "backend": jax.default_backend(),
        "device_kind": devices[0].device_kind,
        "device_count": len(devices),
        "process_count": jax.process_count(),
        "processor": cpu_model(),
        "simd": cpu_simd(),
        "cores": os.cpu_count() or 1,
        "machine": platform.machine(),
        "x64": bool(jax.config.read("jax_enable_x64")),
        "blas": _blas_info(),
        "date": datetime.date.today().isoformat(),
        "duration_s": round(time.perf_counter() - state["start"], 1),
        "load_start": None if start is None else round(start, 2),
        "load_end": None if end is None else round(end, 2),
        "waited_s": state["waited_s"],
        "quiet": quiet,
    }


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def _blas_info() -> str:
    blas = sys.modules.get("blas")
    return blas.info() if blas is not None else "not recorded"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is None or not state["raw"]:
        return
    from jaxcb_core.schema import BENCH_SCHEMA, SUITES, device_stem, validate_bench

    env = _environment(state)
    stem = device_stem(env["backend"], env["device_kind"], env["processor"], env["simd"])
    results = sorted(
        _summaries(state["raw"]), key=lambda r: (SUITES.index(r["suite"]), r["computation"], r["n"])
    )
    variants: dict[str, dict[str, Any]] = {}
    described_twice = []
    for e in state["raw"].values():
        seen = variants.setdefault(e["variant"]["id"], e["variant"])
        if seen != e["variant"]:  # one id, one column: the file keeps one description of it
            described_twice.append(f"column {seen['id']!r} is described two ways in this run")
    medians = {(r["suite"], r["computation"], r["variant"], r["n"]): r["median_s"] for r in results}
    checks = [
        {
            "suite": key[0],
            "computation": key[1],
            "variant": key[2],
            "n": key[3],
            "harness_s": medians[key],
            "loop_s": loop,
        }
        for key, loop in state["checks"]
    ]
    pairs = [
        {
            "suite": key[0],
            "computation": key[1],
            "variant": key[2],
            "minimal": minimal,
            "n": key[3],
            "pattern_s": medians[key],
            "minimal_s": statistics.median(rounds),
        }
        for key, minimal, rounds in state["pairs"]
    ]
    doc = {
        "schema": BENCH_SCHEMA,
        "device": stem,
        "environment": env,
        "variants": sorted(variants.values(), key=lambda v: (v["order"], v["id"])),
        "results": results,
        "checks": checks,
        "pairs": pairs,
    }
    errors = sorted(set(described_twice)) + validate_bench(doc)
    if not errors:  # the targets, measured in this run, go into the file beside the results
        from jaxcb_core.bench import Device, targets
        from jaxcb_core.schema import BenchFile

        doc["targets"] = [t.model_dump() for t in targets(Device(BenchFile.model_validate(doc)))]
    allowed = os.environ.get("JAXCB_BENCH_ALLOW_LOAD", "") not in ("", "0")
    state["loud"] = not env["quiet"] and not allowed
    complete = (
        not errors
        and state["failed"] == 0
        and state["deselected"] == 0
        and {r["suite"] for r in results} == set(SUITES)
        and exitstatus == 0
        and not state["loud"]
    )
    out_dir = Path(os.environ.get("JAXCB_BENCH_OUT") or DATA_DIR)
    path = out_dir / f"{stem}.json" if complete else PARTIAL_DIR / f"{stem}.partial.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    state["written"] = (path, complete, errors, len(results), env["duration_s"])


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if not state or not state.get("written"):
        return
    path, complete, errors, count, duration = state["written"]
    try:
        shown = path.relative_to(ROOT)
    except ValueError:
        shown = path
    what = "data file" if complete else "PARTIAL run (not the committed file)"
    terminalreporter.write_line(
        f"jaxcb bench: {count} results in {duration:.0f} s -> {shown} ({what})", bold=True
    )
    if state.get("loud"):
        terminalreporter.write_line(
            "jaxcb bench: the machine was not quiet (1-minute load above 1.5 at the start or "
            "the end): not written as the committed file. JAXCB_BENCH_ALLOW_LOAD=1 writes it "
            "anyway, marked as measured under load.",
            red=True,
        )
    for e in errors[:10]:
        terminalreporter.write_line(f"jaxcb bench: schema error: {e}", red=True)
