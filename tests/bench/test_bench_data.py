"""The committed benchmark data is well formed, and the performance page is made from it.

Fast, no benchmark runs: part of the default test suite.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from jaxcb_core.bench import SUITES, validate

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "docs" / "data" / "bench"
PAGE = ROOT / "docs" / "performance.md"
HOOK = ROOT / "docs" / "hooks" / "bench.py"
FILES = sorted(DATA.glob("*.json"))


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("jaxcb_bench_hook", HOOK)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hook() -> ModuleType:
    return _hook()


@pytest.fixture(scope="module")
def docs() -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in FILES]


def test_a_cpu_file_is_committed() -> None:
    assert any(p.name.startswith("cpu-") for p in FILES), f"no cpu-*.json in {DATA}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_schema(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert validate(doc) == []
    assert path.stem == doc["device"]
    assert {r["suite"] for r in doc["results"]} == set(SUITES)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_content(path: Path) -> None:
    """What the page relies on: the reference columns exist, host calls are counted."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    mechanisms = {v["id"]: v["mechanism"] for v in doc["variants"]}
    by = {(r["suite"], r["computation"], r["variant"], r["n"]): r for r in doc["results"]}
    for r in doc["results"]:
        if r["suite"] == "calls":
            for ref in ("floor/numpy", "native/jax"):
                assert ("calls", r["computation"], ref, r["n"]) in by, (ref, r)
        # a host function ran for every callback case, none for native code and the floor
        if mechanisms[r["variant"]] in ("numpy", "native"):
            assert r["host_calls"] is None, r
        else:
            assert r["host_calls"] is not None, r
            assert r["host_calls"] >= 1, r
    sizes = sorted(n for (s, c, v, n) in by if (s, c, v) == ("calls", "sin_scale", "floor/numpy"))
    assert {1, 10**6} <= set(sizes), sizes
    one = by[("calls", "sin_scale", "pure_callback/default", 1)]
    assert one["host_calls"] == 1


def test_page_has_no_typed_tables() -> None:
    """Tables on the page come from the hook: the Markdown source has none of its own."""
    text = PAGE.read_text(encoding="utf-8")
    assert not [line for line in text.splitlines() if line.lstrip().startswith("|")]
    assert "<!-- bench:" in text


def _medians(text: str) -> list[str]:
    return re.findall(r'<span title="median of[^"]*">([^<]+)</span>', text)


def test_page_is_rendered_from_the_data(hook: ModuleType, docs: list[dict[str, Any]]) -> None:
    page = PAGE.read_text(encoding="utf-8")
    out = hook.render(page, docs)
    assert "<!-- bench:" not in out, "a placeholder was left unrendered"
    shown = set(_medians(out))
    for doc in docs:
        for r in doc["results"]:
            if r["suite"] in ("calls", "vmap", "grad", "loops"):
                assert hook.fmt_time(r["median_s"]) in shown, r
    if not any(d["environment"]["backend"] != "cpu" for d in docs):
        assert "not measured" in out.lower()


def test_page_follows_the_data(hook: ModuleType, docs: list[dict[str, Any]]) -> None:
    """Scale every time in the data: the page's times scale, its ratios do not move."""
    page = PAGE.read_text(encoding="utf-8")
    scaled = copy.deepcopy(docs)
    for doc in scaled:
        for r in doc["results"]:
            for k in ("median_s", "q1_s", "q3_s", "iqr_s", "min_s"):
                r[k] *= 7.0
    before, after = hook.render(page, docs), hook.render(page, scaled)
    assert before != after
    expected = {hook.fmt_time(r["median_s"]) for d in scaled for r in d["results"]}
    assert set(_medians(after)) <= expected
    ratios = re.compile(r"×[0-9.,]+")
    assert ratios.findall(before) == ratios.findall(after)


def test_derived_numbers(hook: ModuleType, docs: list[dict[str, Any]]) -> None:
    """The targets and the crossover on the page are the ones computed from the data."""
    page = PAGE.read_text(encoding="utf-8")
    out = hook.render(page, docs)
    for doc in docs:
        dev = hook.Device(doc)
        for r in hook.pattern_ratios(dev):
            assert hook.fmt_ratio(r["vs_minimal"]) in out
        for r in hook.vmap_targets(dev):
            assert hook.fmt_ratio(r["vs_unbatched"]) in out
        sizes = dev.sizes("calls", "sin_scale")
        floor = [dev.t("calls", "sin_scale", "floor/numpy", n) for n in sizes]
        t = [dev.t("calls", "sin_scale", "pure_callback/default", n) for n in sizes]
        assert hook.fmt_crossover(hook.crossover(sizes, t, floor), sizes) in out
        assert hook.fmt_crossover(hook.fixed_cost_crossover(sizes, t), sizes) in out


def test_crossover() -> None:
    hook = _hook()
    sizes = [1, 100, 10_000]
    ref = [1.0, 1.0, 100.0]
    assert hook.crossover(sizes, [1.5, 1.5, 150.0], ref) == ("below", None)
    what, r = hook.crossover(sizes, [10.0, 10.0, 1000.0], ref)
    assert what == "above"
    assert r == pytest.approx(10.0)
    # ratio 4 at n=100, 1 at n=10^4: the factor 2 is crossed half way, log-log
    what, n = hook.crossover(sizes, [4.0, 4.0, 100.0], ref)
    assert what == "at"
    assert n == pytest.approx(1_000.0)
    # the fixed cost (1.0) is half of the time where t reaches 2.0: log-log half way
    what, n = hook.fixed_cost_crossover(sizes, [1.0, 1.0, 4.0])
    assert what == "at"
    assert n == pytest.approx(1_000.0)
    # "from which size on": a noisy dip below the factor at a small size does not count
    what, n = hook.crossover(sizes, [1.5, 4.0, 100.0], ref)
    assert what == "at"
    assert n == pytest.approx(1_000.0)
    assert hook.fmt_approx(152.0) == "≈ 150"
    assert hook.fmt_approx(4.4e5) == "≈ 4.4 × 10⁵"


def test_plots(hook: ModuleType, docs: list[dict[str, Any]]) -> None:
    pytest.importorskip("matplotlib")
    out = hook.plots(docs)
    assert len(out) == len(hook.PLOTS) * len(docs)
    for path, svg in out.items():
        assert path.startswith(hook.ASSETS)
        assert path.endswith(".svg")
        assert b"<svg" in svg[:2000]
