"""The Chinese site speaks Chinese around its content: the navigation, the footer and the
labels the site engine writes (table headings, fact names, folded blocks' titles, captions).

A sample of ``/zh/`` pages is read from the built site; the text of the primary navigation,
of the footer and of the generated labels (outside code) must hold none of the English
strings the site's chrome is known to have had (``ENGLISH``). Code, measured output and the
names of APIs stay as they are.
"""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from jaxcb_site import behaviour, i18n
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
