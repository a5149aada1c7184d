"""The committed benchmark data is well formed and its stored targets are the analysis's.

Fast, no benchmark runs: part of the default test suite. How the performance page is
made from the data is tested in tests/docs/test_perf.py; the analysis itself in
tests/core/test_bench_analysis.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxcb_core import bench
from jaxcb_core.schema import LATER_SUITES, SUITES, BenchFile, load_bench

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "data" / "bench"
FILES = sorted(DATA.glob("*.json"))
NOT_COUNTED = ("noop", "noop-per-step")  # the registries' own no-op host side: not counted


def test_a_cpu_file_is_committed() -> None:
    assert any(p.name.startswith("cpu-") for p in FILES), f"no cpu-*.json in {DATA}"


@pytest.fixture(params=FILES, ids=[p.name for p in FILES])
def file(request: pytest.FixtureRequest) -> BenchFile:
    return load_bench(request.param)


def test_schema(file: BenchFile) -> None:
    """Every suite, but those added after the file was measured."""
    suites = {r.suite for r in file.results}
    assert set(SUITES) - set(LATER_SUITES) <= suites <= set(SUITES)
    assert file.environment.process_count == 1


def test_content(file: BenchFile) -> None:
    """What the page relies on: the reference columns exist, host calls are counted."""
    by = {r.key(): r for r in file.results}
    forms = {v.id: v.form for v in file.variants}
    # NumPy and XLA run without a host call, whatever the column's role (the default-BLAS
    # floor and the native no-op are references)
    mechanisms = {v.id: v.mechanism for v in file.variants}
    # (compute_on: XLA code on the host's processor, no Python either)
    hostless = {v.id for v in file.variants if v.mechanism in ("numpy", "native", "compute_on")}
    # a check that passes runs nothing on the host (checkify has no host side; error_if
    # calls the host only when its check fails)
    hostless |= {v.id for v in file.variants if v.form in ("checkify", "error_if")}
    # copying results to the host runs no host function either
    hostless |= {v.id for v in file.variants if v.mechanism == "copy_to_host_async"}
    for r in file.results:
        if r.suite == "calls":
            assert ("calls", r.computation, "floor/numpy", r.n) in by, r
        # a host function ran for every callback column, none for native code and the floor
        if r.variant in hostless or forms[r.variant] in NOT_COUNTED:
            assert r.host_calls is None, r
        else:
            assert r.host_calls is not None, r
            if mechanisms[r.variant] == "pure_callback" and r.computation == "log_steps":
                assert r.host_calls == 0, r  # an unused pure result is removed: no log
            else:
                assert r.host_calls >= 1, r
    sizes = sorted(n for (s, c, v, n) in by if (s, c, v) == ("calls", "sin_scale", "floor/numpy"))
    assert {1, 10**6} <= set(sizes), sizes
    for v in file.variants:
        if v.role == "pattern" and ("calls", "sin_scale", v.id, 1) in by:
            assert by[("calls", "sin_scale", v.id, 1)].host_calls == 1, v.id


def test_tools_report_as_asked(file: BenchFile) -> None:
    """In the tools suite's scan, the recipe reported every EVERY steps and jax-tqdm opened
    its bar once and updated it as often: the columns compare the same number of reports."""
    from subjects import EVERY, STEPS

    forms = {v.id: v.form for v in file.variants}
    calls = {
        forms[r.variant]: r.host_calls
        for r in file.results
        if r.suite == "tools" and r.computation == "progress"
    }
    if not calls:
        pytest.skip(f"{file.device} predates the tools suite")
    assert calls.get("recipe") == STEPS // EVERY
    assert calls.get("jax-tqdm", 1 + STEPS // EVERY) == 1 + STEPS // EVERY


def test_stored_targets_are_the_analysis(file: BenchFile) -> None:
    assert file.targets, "the benchmark session stores its targets in the file"
    assert file.targets == bench.targets(bench.Device(file))


def test_harness_adds_nothing(file: BenchFile) -> None:
    """Every minimal form was timed against a tight perf_counter loop in the same run."""
    minimal = {v.id for v in file.variants if v.role == "minimal"}
    assert minimal <= {c.variant for c in file.checks}


def installed_doc(row: str) -> str | None:
    """How the installed registries describe a pattern row (or its jitted form); None for
    the other columns (floors, minimal forms, references), which the bench builds itself."""
    from subjects import JIT_NOTE

    from jaxcb_core.mechanisms import discover

    base = row.removesuffix("/jit")
    doc = next((v.doc for v in discover() if v.id == base), None)
    return None if doc is None else doc + (JIT_NOTE if row != base else "")


def test_rows_are_described_as_the_installed_registries_do(file: BenchFile) -> None:
    """A sentence corrected in a registry reaches the published file: its rows' docs are
    descriptions, not measurements, and must say what the registries say now."""
    stale = [
        f"{v.id}: committed {v.doc!r}, installed {doc!r}"
        for v in file.variants
        if (doc := installed_doc(v.id)) is not None and v.doc != doc
    ]
    assert not stale, "\n".join(stale)
