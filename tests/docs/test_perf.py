"""The performance page is the benchmark data, rendered by the one site engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jaxcb_core import bench
from jaxcb_site import data, directives, perfformat, perfsummary, plots

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "performance.md"
# the overview and its pages, one per measurement (docs/performance/*.md), in both languages
PAGES = [PAGE, *sorted((ROOT / "docs" / "performance").glob("*.md"))]
TARGETS = ROOT / "docs" / "contributing" / "performance-targets.md"


def _src(path: Path) -> str:
    return path.relative_to(ROOT / "docs").as_posix()


@pytest.fixture(scope="module")
def rendered() -> str:
    """The English performance pages, expanded, one after another."""
    english = [p for p in PAGES if not p.name.endswith(".zh.md")]
    return "\n".join(directives.expand(p.read_text(encoding="utf-8"), _src(p)) for p in english)


def _medians(text: str) -> list[str]:
    return re.findall(r'<span title="median of[^"]*">([^<]+)</span>', text)


@pytest.mark.parametrize("path", PAGES, ids=_src)
def test_page_has_no_typed_tables_or_numbers(path: Path) -> None:
    """Tables and numbers on the pages come from the engine: the sources have none of their own."""
    text = path.read_text(encoding="utf-8")
    assert not [line for line in text.splitlines() if line.lstrip().startswith("|")]
    assert "<!-- jaxcb:bench-" in text
    prose = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", text, flags=re.S))
    assert not re.findall(r"\d+(?:\.\d+)?\s*(?:µs|ms|×)", prose), "a typed timing or ratio"


def test_every_result_is_on_the_page(rendered: str) -> None:
    assert "jaxcb:bench" not in rendered, "a directive was left unrendered"
    shown = set(_medians(rendered))
    for file in data.bench_files():
        for r in file.results:
            assert perfformat.fmt_time(r.median_s) in shown, r.key()
    if not any(f.environment.backend != "cpu" for f in data.bench_files()):
        assert "not measured" in rendered.lower()


def test_every_target_is_on_the_page_with_its_verdict(rendered: str) -> None:
    """On the contributors' page; the reader's page does not count the project's targets."""
    assert "targets met" not in rendered
    rendered = directives.expand(
        TARGETS.read_text(encoding="utf-8"), "contributing/performance-targets.md"
    )
    for file in data.bench_files():
        for t in file.targets:
            assert perfformat.fmt_ratio(t.value) in rendered
        met = sum(t.met for t in file.targets)
        assert f"{met} of {len(file.targets)} targets met" in rendered


def test_a_busy_machine_is_said(rendered: str) -> None:
    for file in data.bench_files():
        warned = "measured on a busy machine" in rendered
        assert warned == (not file.environment.quiet) or any(
            not f.environment.quiet for f in data.bench_files()
        )


def test_derived_numbers(rendered: str) -> None:
    """The crossovers on the page are the ones computed from the data."""
    for file in data.bench_files():
        dev = bench.Device(file)
        sizes = dev.sizes("calls", "sin_scale")
        floor = [dev.t("calls", "sin_scale", "floor/numpy", n) for n in sizes]
        for v in dev.host_patterns():
            t = [dev.t("calls", "sin_scale", v.id, n) for n in sizes]
            if all(t):
                assert perfformat.fmt_crossover(bench.crossover(sizes, t, floor), sizes) in rendered  # type: ignore[arg-type]


def test_plots() -> None:
    pytest.importorskip("matplotlib")
    devs = perfformat.devices()
    out = plots.render(devs)
    assert len(out) == len(plots.PLOTS) * len(devs)
    for path, svg in out.items():
        assert path.startswith(plots.ASSETS)
        assert path.endswith(".svg")
        assert b"<svg" in svg[:2000]


def test_formats() -> None:
    assert perfformat.fmt_approx(152.0) == "≈ 150"
    assert perfformat.fmt_approx(4.4e5) == "≈ 4.4 × 10⁵"
    assert perfformat.fmt_time(1.83e-4) == "183 µs"


def test_every_cpu_side_by_side() -> None:
    """Each target of every CPU file, on the contributors' page, counted against the files."""
    rendered = directives.expand(
        TARGETS.read_text(encoding="utf-8"), "contributing/performance-targets.md"
    )
    cpus = [f for f in data.bench_files() if f.environment.backend == "cpu"]
    if len(cpus) < 2:
        assert "Only one CPU file is committed" in rendered
        return
    # one target per place where the run chose the subject (the best pattern at a size)
    one_per_place = {t.name for f in cpus for t in f.targets} - {
        t.name
        for f in cpus
        for t in f.targets
        if [(u.name, u.where) for u in f.targets].count((t.name, t.where)) > 1
    }
    keyed = [
        {(t.name, t.where, "" if t.name in one_per_place else t.subject): t for t in f.targets}
        for f in cpus
    ]
    common = [k for k in keyed[0] if all(k in m for m in keyed[1:])]
    assert common
    every = sum(all(m[k].met for m in keyed) for k in common)
    assert f"{every} of {len(common)} targets measured in all {len(cpus)} CPU files" in rendered
    for f in cpus:
        assert f"{f.environment.processor}, {f.environment.simd or 'no width recorded'}" in rendered


def test_a_fresh_output_buffer_is_decomposed_with_its_page_faults(rendered: str) -> None:
    """Where a file has the in-place form and page faults, the findings set the pattern's
    fresh output buffer against it; the sentence is built from that file's results."""
    from jaxcb_core.schema import BenchVariant

    committed = data.bench_files()[0]
    n, where = 10**7, ("calls", "sin_scale")
    base = next(r for r in committed.results if r.suite == "calls" and r.n == n)
    place = BenchVariant(
        id="buffer_callback/minimal-in-place",
        label="in place",
        role="minimal",
        mechanism="buffer_callback",
        form="call-in-place",
        doc="",
        order=57,
    )
    rows = {"buffer_callback/default": (0.025, 9766), "floor/numpy-into": (0.010, 0)}
    rows[place.id] = (0.011, 0)
    results = [r for r in committed.results if (r.suite, r.computation, r.n) != (*where, n)]
    for vid, (t, faults) in rows.items():
        results.append(
            base.model_copy(
                update={
                    "variant": vid,
                    "median_s": t,
                    "q1_s": t,
                    "q3_s": t,
                    "min_s": t,
                    "iqr_s": 0.0,
                    "page_faults": faults,
                }
            )
        )
    variants = [v for v in committed.variants if v.id != place.id] + [place]
    dev = bench.Device(committed.model_copy(update={"variants": variants, "results": results}))
    (sentence,) = perfsummary._fresh_outputs(dev)
    assert "`buffer_callback` pattern takes 25 ms with 9,766 page faults per call" in sentence
    assert "NumPy into a preallocated array 10 ms" in sentence
    assert "takes 11 ms (×1.1 NumPy into) with 0 page faults" in sentence
    # and on the page, for every committed file that recorded them
    for file in data.bench_files():
        for r in file.results:
            if (
                r.variant == place.id
                and r.page_faults is not None
                and r.n == max(x.n for x in file.results if x.variant == place.id)
            ):
                assert f"takes {perfformat.fmt_time(r.median_s)} (" in rendered
