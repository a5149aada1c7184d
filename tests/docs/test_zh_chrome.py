"""The Chinese site speaks Chinese around its content: the navigation, the footer and the
labels the site engine writes (table headings, fact names, folded blocks' titles, captions).

A sample of ``/zh/`` pages is read from the built site; the text of the primary navigation,
of the footer and of the generated labels (outside code) must hold none of the English
strings the site's chrome is known to have had (``ENGLISH``). Code, measured output and the
names of APIs stay as they are.
"""

from __future__ import annotations

import html
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from jaxcb_site import behaviour, i18n, render
from jaxcb_site.data import load_distributed, load_matrices
from jaxcb_site.directives import DIRECTIVE

pytestmark = pytest.mark.slow

# Where the English used to show on /zh/ (issue 47): the sections of the navigation, the
# footer's links and credit, the gotchas' table headings and fact names, the matrix's
# environment switch, the recipes' benchmark caption, the lesson pages' buttons.
ENGLISH = (
    "Mechanisms",
    "Computations",
    "Performance",
    "Claims checked",
    "API reference",
    "Across shards and processes",
    "Run it yourself",
    "Check your code",
    "Contributors",
    "Made with",
    "An unused pure_callback under jit",
    "host calls",
    "not measured",
    "JAX version / platform",
    "What it printed",
    "The trap:",
    "Instead:",
    "The program:",
    "Measured with JAX",
    "added per step",
    "Download the notebook",
    "type kept",
    "message kept",
    "next call fails",
)

# page: the parts checked. The edge cases' tables name their facts in Chinese (their headings,
# the observations' titles, stay in English); the performance pages' generated sentences and
# headings are Chinese too (test_perf_zh.py checks them in full).
ALL = ("navigation", "footer", "labels")
SAMPLE = {
    "zh/": ALL,
    "zh/learn/01-first-pure-callback/": ALL,
    "zh/learn/05-observing/": ALL,
    "zh/gotchas/": ALL,
    "zh/matrix/": ALL,
    "zh/recipes/": ALL,
    "zh/performance/": ALL,
    "zh/performance/calls/": ALL,
    "zh/edges/": ALL,
    "zh/errors/": ALL,
}


def _text(fragment: str) -> str:
    """The visible text of an HTML fragment, code and preformatted output left out."""
    fragment = re.sub(r"<(pre|code|script|style)\b.*?</\1>", " ", fragment, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _parts(page: str) -> dict[str, str]:
    """The navigation, the footer and the generated labels of a built page, as text."""
    nav = re.search(r'<nav class="md-nav md-nav--primary".*?</nav>\s*</div>', page, flags=re.S)
    footer = re.search(r"<footer\b.*?</footer>", page, flags=re.S)
    article = re.search(r"<article\b.*?</article>", page, flags=re.S)
    body = article.group(0) if article else ""
    labels = [
        *re.findall(r"<summary\b.*?</summary>", body, flags=re.S),  # folded blocks' titles
        *re.findall(r"<th\b.*?</th>", body, flags=re.S),  # table headings
        *re.findall(r"<tr>\s*<td\b.*?</td>", body, flags=re.S),  # a table row's first cell
        *re.findall(
            r'<p class="jx-switch">.*?</label>', body, flags=re.S
        ),  # the environment switch
        *re.findall(r'<a [^>]*class="md-button[^"]*"[^>]*>.*?</a>', body, flags=re.S),
        *re.findall(r"<p>[^<]*(?:Measured with JAX|What it printed)[^<]*", body),
    ]
    return {
        "navigation": _text(nav.group(0) if nav else ""),
        "footer": _text(footer.group(0) if footer else ""),
        "labels": _text(" | ".join(labels)),
    }


@pytest.mark.parametrize("path", list(SAMPLE))
def test_chinese_chrome_has_no_english_label(site: Path, path: str) -> None:
    page = (site / path / "index.html").read_text(encoding="utf-8")
    parts = _parts(page)
    assert parts["navigation"], f"{path}: no navigation found"
    found = {
        part: [e for e in ENGLISH if re.search(rf"(?<![\w-]){re.escape(e)}(?![\w-])", text)]
        for part, text in parts.items()
        if part in SAMPLE[path]
    }
    assert {k: v for k, v in found.items() if v} == {}, path


def test_the_english_site_keeps_its_labels(site: Path) -> None:
    """The same parts of the English pages do show the English words (the test above would
    pass on an empty page otherwise)."""
    gotchas = _parts((site / "gotchas" / "index.html").read_text(encoding="utf-8"))
    assert "Mechanisms" in gotchas["navigation"]
    assert "Made with" in gotchas["footer"]
    assert "host calls" in gotchas["labels"]
    assert "The trap:" in gotchas["labels"]
    matrix = _parts((site / "matrix" / "index.html").read_text(encoding="utf-8"))
    assert "JAX version / platform" in matrix["labels"]


def test_every_gotcha_fact_has_a_chinese_name() -> None:
    """The build fails on a fact without a Chinese name (``i18n.fact``, strict)."""
    with pytest.raises(i18n.LabelError, match="no Chinese name"):
        i18n.fact("gotchas.zh.md", "a_fact_nobody_measured", strict=True)
    assert i18n.fact("gotchas.zh.md", "host_calls", strict=True) == "主机调用次数"
    assert i18n.fact("gotchas.md", "host_calls", strict=True) == "host calls"


def _shown_on_chinese_pages() -> dict[tuple[str, str], tuple[Any, str]]:
    """Every observation of the committed behaviour data that a Chinese page's tables show
    (``gotcha``, ``gotcha-fix``, ``program``, ``behaviour-table``, ``compare``), by (group,
    id): the observation and the page."""
    shown: dict[tuple[str, str], tuple[Any, str]] = {}
    for page in sorted((Path(__file__).resolve().parents[2] / "docs").rglob("*.zh.md")):
        for m in DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            name, args = m.group(2), shlex.split(m.group(3))
            wanted = {
                "gotcha": [("gotcha", *args)],
                "gotcha-fix": [("fix", *args)],
                "program": [tuple(args[1:])],
                "behaviour-table": [(args[0], p) for p in args[1:]],
                "compare": [("compare", p) for p in args],
            }.get(name, [])
            for _, f in behaviour.files():
                for o in f.observations:
                    if any(
                        o.group == g
                        and (o.id == p or (p.endswith("*") and o.id.startswith(p[:-1])))
                        for g, p in wanted
                    ):
                        shown[(o.group, o.id)] = (o, page.name)
    return shown


def test_every_fact_a_chinese_page_shows_has_a_chinese_name() -> None:
    """Every fact (outcome key) of an observation a Chinese page shows has a Chinese name in
    ``i18n.FACTS``: the page's build would fail without it."""
    shown = {k: page for o, page in _shown_on_chinese_pages().values() for k in o.outcome}
    assert "host_calls" in shown  # the pages were read
    assert {k: p for k, p in shown.items() if k not in i18n.FACTS} == {}


def test_every_observation_a_chinese_page_shows_has_a_chinese_title() -> None:
    """The heading of each observation's table (a column, in a comparison) is in Chinese on
    a Chinese page: ``i18n.TITLES`` has every observation those pages show, and none they do
    not (a title left behind by a page that no longer shows it goes)."""
    shown = {f"{g}:{oid}": page for (g, oid), (_, page) in _shown_on_chinese_pages().items()}
    assert "edge:int4" in shown
    assert "compare:progress/recipe" in shown
    gotchas = {k for k in shown if k.startswith(("gotcha:", "fix:"))}  # headed by i18n.WORDS
    assert {k: p for k, p in shown.items() if k not in i18n.TITLES and k not in gotchas} == {}
    assert set(i18n.TITLES) - set(shown) == set()
    with pytest.raises(i18n.LabelError, match="no Chinese title"):
        i18n.title("edges.zh.md", "edge", "nobody-measured-this", "A title")
    assert i18n.title("edges.md", "edge", "int4", "A title") == "A title"


# The words the site engine writes around the matrix tables (issue: the support matrix on
# /zh/matrix/ and /zh/ kept its English chrome): the environments table's headings and x64
# values, the transform groups, the legend, the captions, the environment lines, the filters,
# the short table's corner, kinds and note.
MATRIX_ENGLISH = (
    "file",
    "platform",
    "device kind",
    "devices",
    "cells",
    "run took",
    "on",
    "off",
    "compile",
    "batch",
    "autodiff",
    "control flow",
    "custom rules",
    "parallel",
    "loops under grad",
    "export",
    "runs and matches the NumPy/SciPy reference",
    "runs, but the result",
    "raises",
    "does not apply to this row",
    "not measured in this row",
    "host calls counted in that cell",
    "all computations",
    "pure computations",
    "effects and impure inputs",
    "pure",
    "effects",
    "no row applies",
    "loading its table",
    "Mechanism",
    "Computation",
    "all",
    "variants",
    "transform",
    "In each cell",
)
# The tooltips of the aggregated cells (``render.aggregate``): the rest of a tooltip is the
# data's (computation names, error lines, reasons).
TOOLTIP_ENGLISH = (r"not applicable to any computation", r"\[host calls \d+\]")


def _all(pattern: str, page: str) -> list[str]:
    return [_text(x) for x in re.findall(pattern, page, flags=re.S)]


def _matrix_chrome(page: str) -> dict[str, list[str]]:
    """The words the site engine writes around a page's matrix tables (the data's names,
    variants, transforms and computations, left out where they stand apart), by part."""
    envs = re.search(r'id="environments".*?(<table>.*?</table>)', page, flags=re.S)
    table = envs.group(1) if envs else ""
    return {
        "environments": _all(r"<th\b.*?</th>", table),
        "x64": [
            _all(r"<td\b.*?</td>", row)[9]
            for row in re.findall(r"<tr>.*?</tr>", table, flags=re.S)[1:]
        ],
        "groups": _all(r'<th class="jx-group"[^>]*>.*?</th>', page),
        "legend": _all(r'<ul class="jx-legend">.*?</ul>', page),
        "captions": _all(r"<caption>.*?</caption>", page),
        "envlines": _all(r'<p class="jx-envline[^"]*">.*?</p>', page),
        "filters": _all(r'<p class="jx-filters">.*?</p>', page),
        "corner": _all(r'<th class="jx-corner">.*?</th>', page),
        "kinds": _all(r'<span class="jx-qwhat">.*?</span>', page),
        "note": _all(r'<p class="jx-narrow-note"[^>]*>.*?</p>', page),
    }


def _english_in(
    parts: dict[str, list[str]], words: dict[str, tuple[str, ...]] | None = None
) -> dict[str, list[str]]:
    """The English words found in each part's texts: ``words[part]``, by default
    ``MATRIX_ENGLISH`` for every part; only the parts where some were found."""
    found = {
        part: sorted(
            {
                e
                for e in (MATRIX_ENGLISH if words is None else words.get(part, ()))
                for text in texts
                if re.search(rf"(?<![\w-]){re.escape(e)}(?![\w-])", text)
            }
        )
        for part, texts in parts.items()
    }
    return {k: v for k, v in found.items() if v}


def _tooltips(page: str) -> list[str]:
    return [
        html.unescape(t)
        for t in re.findall(r'<button type="button" class="jx-tip[^"]*" title="([^"]*)"', page)
    ]


def _deferred(site: Path, page: str) -> list[str]:
    """The tables a page loads from files (``deferred``, ``matrixpage.env_file``)."""
    out = []
    for src in re.findall(r'data-src="((?:\.\./)+)([^"]+\.json)"', page):
        out.append(json.loads((site / src[1]).read_text(encoding="utf-8"))["html"])
    return out


def _groups_of_newest() -> list[str]:
    groups: list[str] = []
    for t in load_matrices()[0].transforms:
        if not groups or groups[-1] != t["group"]:
            groups.append(t["group"])
    return groups


@pytest.mark.parametrize("path", ["zh/matrix/", "zh/"])
def test_chinese_matrix_tables_have_no_english_chrome(site: Path, path: str) -> None:
    """The matrix tables of /zh/matrix/ and /zh/ (the full matrix, the environments, the short
    table, the summaries) and the tables those pages load from files speak Chinese."""
    page = (site / path / "index.html").read_text(encoding="utf-8")
    parts = _matrix_chrome(page)
    deferred_tables = _deferred(site, page)
    assert len(deferred_tables) >= 2, f"{path}: no table loaded from a file"
    for i, table in enumerate(deferred_tables):
        for part, texts in _matrix_chrome(table).items():
            parts[f"file {i}: {part}"] = texts
    assert parts["groups"]
    assert parts["captions"]
    assert parts["envlines"]
    assert _english_in(parts) == {}, path
    tips = "\n".join(_tooltips(page) + [t for x in deferred_tables for t in _tooltips(x)])
    assert [p for p in TOOLTIP_ENGLISH if re.search(p, tips)] == [], path
    zh = [i18n.GROUPS[g] for g in _groups_of_newest()]
    assert parts["groups"][: len(zh)] == zh


def test_the_chinese_matrix_page_names_its_parts_in_chinese(site: Path) -> None:
    page = (site / "zh" / "matrix" / "index.html").read_text(encoding="utf-8")
    parts = _matrix_chrome(page)
    assert parts["environments"] == [
        "文件",
        "JAX",
        "jaxlib",
        "Python",
        "NumPy",
        "SciPy",
        "平台",
        "设备类型",
        "设备数",
        "x64",
        "单元格数",
        "运行用时",
    ]
    assert set(parts["x64"]) == {"关闭"}
    assert parts["legend"] == [
        "✅ 运行了，结果与 NumPy/SciPy 的参考值一致 "
        "⚠️ 运行了，但结果或主机上的副作用与参考值不一致 "
        "❌ 抛出异常 "
        "— 不适用于这一行（详细信息里说明了原因） "
        "↗ 不在这一行中测量：同一机制的另一行测量了它 "
        "n 这个单元格中数到的主机调用次数"
    ]
    newest, older = load_matrices()[:2]
    assert parts["envlines"][0].endswith(" · 平台 cpu · 设备类型 cpu · 4 个设备 · x64 关闭")
    assert parts["envlines"][1] == f"JAX {older.env['jax']} · cpu · 4 个设备：正在加载它的表格…"
    assert parts["captions"] == [
        f"JAX {newest.env['jax']} · cpu · 4 个设备：{len(newest.cells)} 个单元格"
    ]
    assert parts["filters"][0].startswith("机制 全部 native：全部 1 个变体 pure_callback：全部 ")
    assert f'data-src="../../matrix/envs/zh/{older.key}.json"' in page
    home = _matrix_chrome((site / "zh" / "index.html").read_text(encoding="utf-8"))
    assert [c for c in home["corner"] if c] == ["变换"]
    assert set(home["kinds"]) == {"纯计算", "副作用"}
    assert home["captions"][1].startswith(f"JAX {newest.env['jax']} · cpu · 4 个设备 · 纯计算：")


def test_the_english_matrix_keeps_its_words(site: Path) -> None:
    """The same parts of the English pages and files hold the English words (the tests
    above would pass on a page without tables otherwise)."""
    page = (site / "matrix" / "index.html").read_text(encoding="utf-8")
    parts = _matrix_chrome(page)
    assert parts["environments"] == [
        "file",
        "JAX",
        "jaxlib",
        "Python",
        "NumPy",
        "SciPy",
        "platform",
        "device kind",
        "devices",
        "x64",
        "cells",
        "run took",
    ]
    assert set(parts["x64"]) == {"off"}
    assert parts["groups"][: len(_groups_of_newest())] == _groups_of_newest()
    assert "n host calls counted in that cell" in parts["legend"][0]
    newest, older = load_matrices()[:2]
    assert parts["captions"] == [
        f"JAX {newest.env['jax']} · cpu · 4 devices: {len(newest.cells)} cells"
    ]
    assert parts["envlines"][1] == f"JAX {older.env['jax']} · cpu · 4 devices: loading its table…"
    assert parts["filters"][0].startswith("Mechanism all native: all 1 variant pure_callback: all ")
    assert f'data-src="../matrix/envs/{older.key}.json"' in page
    english = _english_in(parts)
    assert {"file", "platform", "control flow", "Mechanism", "all"} <= {
        w for words in english.values() for w in words
    }
    home = (site / "index.html").read_text(encoding="utf-8")
    parts = _matrix_chrome(home)
    assert [c for c in parts["corner"] if c] == ["transform"]
    assert set(parts["kinds"]) == {"pure", "effects"}
    assert parts["captions"][1].startswith(
        f"JAX {newest.env['jax']} · cpu · 4 devices · pure computations: "
    )
    assert re.search(TOOLTIP_ENGLISH[1], "\n".join(_tooltips(home)))


def test_every_transform_group_has_a_chinese_name() -> None:
    """The transform groups of the committed matrix files are named in ``i18n.GROUPS``
    (a Chinese page's build fails on one without its name: ``i18n.group``, ``render``)."""
    used = {t["group"] for m in (*load_matrices(), *load_distributed()) for t in m.transforms}
    assert "control flow" in used
    assert set(i18n.GROUPS) == used
    assert i18n.group("zh", "control flow") == "控制流"
    assert i18n.group("en", "control flow") == "control flow"
    with pytest.raises(i18n.LabelError, match="'a group nobody named' has no Chinese name"):
        i18n.group("zh", "a group nobody named")
    strange = [{"id": "t", "label": "t", "group": "a group nobody named"}]
    with pytest.raises(i18n.LabelError, match="GROUPS"):
        render.transform_header(strange, lang="zh")
    assert render.transform_header(strange)[0] == (
        '<th class="jx-group" colspan="1">a group nobody named</th>'
    )


def _timeline_chrome(site: Path, path: str) -> dict[str, list[str]]:
    """The words the site engine writes on a timeline page and in the tables it loads from
    files: the files line, the releases' headings and lines, the filters, the summaries, the
    tables' captions and headings, and the before/after cells' texts."""
    page = (site / path / "index.html").read_text(encoding="utf-8")
    article = page[page.index("<article") : page.index("</article>")]
    tables = _deferred(site, page)
    assert len(tables) > 5, f"{path}: the releases' tables are not loaded from files"
    loaded = "".join(tables)
    return {
        "lines": _all(r"<p>(?:Matrix|对照表).*?</p>", article),
        "headings": _all(r'<h2 id="jax-[^"]*">.*?</h2>', article),
        "filters": _all(r'<p class="jx-filters">.*?</p>', article),
        "summaries": _all(r"<summary>.*?</summary>", article),
        "loading": _all(r'<p class="jx-loading">.*?</p>', article),
        "captions": _all(r"<caption>.*?</caption>", loaded),
        "heads": _all(r"<th>.*?</th>", loaded),
        "cells": _all(r'<td class="jx-tl-(?:before|after)">.*?</td>', loaded),
    }


# what the timeline wrote in English before it followed the page's language
TIMELINE_ENGLISH = {
    "lines": ("Matrix files", "one process", "cells differ from", "Behaviour:", "facts differ"),
    "headings": ("from",),
    "filters": ("Mechanism", "Transform", "all"),
    "summaries": ("What differs, row by row",),
    "loading": ("loading",),
    "captions": ("cells differ from", "facts of the behaviour observations"),
    "heads": ("row", "transform", "computations", "observation", "fact", "on JAX"),
    # (a cell's reason and a fact's value are the data's own words, in English)
    "cells": (
        "✅ works",
        "wrong result",
        "host calls:",
        "host received:",
        "warning:",
        "no such row",
        "not observed",
    ),
}


def test_the_chinese_timeline_speaks_chinese(site: Path) -> None:
    """/zh/timeline/ and the tables it loads: the generated lines, headings (their anchors
    kept), filters, captions and cell texts in Chinese; the English page keeps its words."""
    zh = _timeline_chrome(site, "zh/timeline/")
    assert all(zh[part] for part in TIMELINE_ENGLISH), {k: len(v) for k, v in zh.items()}
    assert _english_in(zh, TIMELINE_ENGLISH) == {}
    newest, older = load_matrices()[:2]
    new, old = newest.env["jax"], older.env["jax"]
    assert zh["headings"][0].removesuffix(" ¶") == f"JAX {new}，相对于 {old}"
    assert zh["summaries"][0] == f"逐行列出的差异（JAX {old} → {new}）"
    assert zh["filters"][0].startswith("机制 全部 ")
    assert any(c.startswith("✅ 可以运行 · 主机调用次数：") for c in zh["cells"])
    en = _timeline_chrome(site, "timeline/")
    assert set(_english_in(en, TIMELINE_ENGLISH)) == set(TIMELINE_ENGLISH)
    assert en["headings"][0].removesuffix(" ¶") == f"JAX {new}, from {old}"
    page = (site / "zh" / "timeline" / "index.html").read_text(encoding="utf-8")
    assert f'id="jax-{new.replace(".", "-")}"' in page  # the links to a release still land
