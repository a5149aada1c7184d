"""The "what changed when" page (``docs/timeline.md``, ``jaxcb_site/timeline.py``) against the
data files: its "changed in" entries are exactly the differences between consecutive measured
releases, recomputed here from the JSON files (no site code), in both languages."""

from __future__ import annotations

import html
import itertools
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jaxcb_site import i18n

ROOT = Path(__file__).resolve().parents[2]
MATRIX = ROOT / "docs" / "data" / "matrix"
BEHAVIOUR = ROOT / "docs" / "data" / "behaviour"
PAGES = ("timeline/index.html", "zh/timeline/index.html")
FIELDS = ("status", "error_type", "error", "host_calls", "shapes", "effects", "warning")


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split(".") if p.isdigit())


def _series(directory: Path) -> list[list[dict[str, Any]]]:
    """The files of one process, by platform and device count, oldest JAX first."""
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for path in sorted(directory.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        e = doc["environment"]
        if e.get("process_count", 1) == 1:
            groups.setdefault((e["platform"], e["device_count"]), []).append(doc)
    return [sorted(g, key=lambda d: _version(d["environment"]["jax"])) for g in groups.values()]


def _same(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    if a is None or b is None:
        return a is b
    if a["status"] == b["status"] == "n/a":
        return True
    if a["status"] == b["status"] == "wrong" and a.get("reason") != b.get("reason"):
        return False
    return all(a.get(f) == b.get(f) for f in FIELDS)


def expected_cells() -> Counter[tuple[str, ...]]:
    """(since, release, variant, computation, transform, status before, status after) of
    every cell that differs between consecutive files."""
    out: Counter[tuple[str, ...]] = Counter()
    for files in _series(MATRIX):
        for older, newer in itertools.pairwise(files):
            a = {(c["variant"], c["computation"], c["transform"]): c for c in older["cells"]}
            b = {(c["variant"], c["computation"], c["transform"]): c for c in newer["cells"]}
            for key in a.keys() | b.keys():
                x, y = a.get(key), b.get(key)
                if not _same(x, y):
                    out[
                        (
                            older["environment"]["jax"],
                            newer["environment"]["jax"],
                            *key,
                            x["status"] if x else "absent",
                            y["status"] if y else "absent",
                        )
                    ] += 1
    return out


def expected_facts() -> Counter[tuple[str, ...]]:
    """(since, release, group:id, fact, before, after) of every fact that differs."""
    out: Counter[tuple[str, ...]] = Counter()
    absent = "absent"
    for files in _series(BEHAVIOUR):
        for older, newer in itertools.pairwise(files):
            a = {f"{o['group']}:{o['id']}": o["outcome"] for o in older["observations"]}
            b = {f"{o['group']}:{o['id']}": o["outcome"] for o in newer["observations"]}
            for key in a.keys() | b.keys():
                fa, fb = a.get(key, {}), b.get(key, {})
                for fact in fa.keys() | fb.keys():
                    x = fa.get(fact, absent)
                    y = fb.get(fact, absent)
                    if (fact in fa) != (fact in fb) or x != y:
                        out[
                            (
                                older["environment"]["jax"],
                                newer["environment"]["jax"],
                                key,
                                fact,
                                json.dumps(x),
                                json.dumps(y),
                            )
                        ] += 1
    return out


ROW = re.compile(r"<tr ([^>]*\bdata-release=[^>]*)>(.*?)</tr>", re.S)
ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def _rows(page: str) -> list[tuple[dict[str, str], str]]:
    out = []
    for attrs, body in ROW.findall(page):
        a = {k: html.unescape(v) for k, v in ATTR.findall(attrs)}
        out.append((a, body))
    return out


def shown_cells(page: str) -> Counter[tuple[str, ...]]:
    out: Counter[tuple[str, ...]] = Counter()
    for a, _ in _rows(page):
        if "data-cells" not in a:
            continue
        for cell in a["data-cells"].split(";"):
            comp, transform = cell.split("|")
            out[
                (
                    a["data-since"],
                    a["data-release"],
                    a["data-variant"],
                    comp,
                    transform,
                    a["data-from"],
                    a["data-to"],
                )
            ] += 1
    return out


def shown_facts(page: str) -> Counter[tuple[str, ...]]:
    out: Counter[tuple[str, ...]] = Counter()
    for a, _ in _rows(page):
        if "data-fact" in a:
            before, after = json.loads(a["data-from"]), json.loads(a["data-to"])
            out[
                (
                    a["data-since"],
                    a["data-release"],
                    a["data-observation"],
                    a["data-fact"],
                    json.dumps(before),
                    json.dumps(after),
                )
            ] += 1
    return out


def _diff(want: Counter[tuple[str, ...]], got: Counter[tuple[str, ...]]) -> str:
    missing, extra = want - got, got - want
    return f"missing from the page: {list(missing)[:5]}; on the page, not in the data: {list(extra)[:5]}"


BODY = re.compile(r'<div class="jx-tl-body"[^>]*\bdata-src="([^"]+)"')


@pytest.fixture(scope="module", params=PAGES)
def page(request: pytest.FixtureRequest, site: Path) -> str:
    """The page with each release's tables, which it loads from their files, put back in."""
    path = site / request.param
    text = path.read_text(encoding="utf-8")
    bodies = BODY.findall(text)
    assert bodies, f"{request.param}: no release's tables to load"
    loaded = [
        json.loads((path.parent / html.unescape(src)).resolve().read_text("utf-8"))["html"]
        for src in bodies
    ]
    return text + "".join(loaded)


def test_the_cells_changed_are_the_differences_between_the_files(page: str) -> None:
    want, got = expected_cells(), shown_cells(page)
    assert want, "no two matrix files of one layout differ: nothing to check"
    assert got == want, _diff(want, got)


def test_the_facts_changed_are_the_differences_between_the_behaviour_files(page: str) -> None:
    want, got = expected_facts(), shown_facts(page)
    assert got == want, _diff(want, got)


def test_each_line_names_what_it_became(page: str) -> None:
    """The text of a line says the new state, in the page's language: the exception type of
    an error, the host calls."""
    lang = "zh" if '<html lang="zh"' in page else "en"
    files = {d["environment"]["jax"]: d for s in _series(MATRIX) for d in s}
    for a, body in _rows(page):
        if "data-cells" not in a:
            continue
        after = re.search(r'class="jx-tl-after">(.*?)</td>', body, re.S)
        assert after is not None
        shown = html.unescape(after.group(1))
        comp, transform = a["data-cells"].split(";")[0].split("|")
        cells = {
            (c["variant"], c["computation"], c["transform"]): c
            for c in files[a["data-release"]]["cells"]
        }
        cell = cells.get((a["data-variant"], comp, transform))
        if cell is None:
            assert a["data-to"] == "absent"
            assert i18n.say(lang, "tl-no-row", release=a["data-release"]) in shown
            continue
        if cell["status"] == "error":
            assert f"{cell['error_type']}: " in shown, (a, shown)
        if cell.get("host_calls") is not None:
            assert i18n.say(lang, "cell-calls", n=cell["host_calls"]) in shown, (a, shown)


def test_every_measured_release_has_its_section(site: Path) -> None:
    page = (site / "timeline" / "index.html").read_text(encoding="utf-8")
    for files in _series(MATRIX):
        for d in files[1:]:
            v = d["environment"]["jax"]
            assert f'id="jax-{v.replace(".", "-")}"' in page, v
