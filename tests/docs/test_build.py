"""The site builds with ``mkdocs build --strict`` and renders the data it is given."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from jaxcb_site import code
from jaxcb_site import data as site_data

ROOT = Path(__file__).resolve().parents[2]
NAMES = [c["name"] for c in site_data.computations()]

pytestmark = pytest.mark.slow


def test_strict_build_succeeds(build: Any) -> None:
    assert build.returncode == 0, build.output[-4000:]
    warnings = [line for line in build.output.splitlines() if line.startswith("WARNING")]
    assert warnings == []
    print(f"mkdocs build --strict took {build.seconds:.1f} s")


def test_config_pins_and_checks() -> None:
    """The quality settings the site promises stay in mkdocs.yml."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    cfg = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    assert cfg["strict"] is True
    assert cfg["theme"]["font"] is False
    assert "content.tabs.link" in cfg["theme"]["features"]
    assert set(cfg["validation"].values()) == {"warn"}
    exts = {next(iter(e)) if isinstance(e, dict) else e: e for e in cfg["markdown_extensions"]}
    assert exts["pymdownx.snippets"]["pymdownx.snippets"]["check_paths"] is True
    assert cfg["hooks"] == ["docs/hooks/jaxcb.py"]  # one site engine


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_no_external_assets(site: Path) -> None:
    """The network is closed: no page loads a script, style or font from elsewhere."""
    pattern = re.compile(r"""<(?:script|link)[^>]+(?:src|href)=["']https?://""")
    offenders = [
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if pattern.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


@pytest.mark.parametrize("name", NAMES)
def test_computation_page_includes_every_package_file(site: Path, name: str) -> None:
    page = site / "computations" / name / "index.html"
    raw = page.read_text(encoding="utf-8")
    text = _text(page)
    for pkg in code.packages():
        label = code.tab_label(pkg)
        assert f">{label}</label>" in raw, f"no {label} tab on {name}"
        path = pkg.module(name)
        if path is None:
            assert f"{pkg.name} does not implement {name}" in text
            continue
        rel = path.relative_to(ROOT).as_posix()
        assert rel in text, f"{rel} is not on the {name} page"
        # the included code itself: the def line of each section the page shows (the whole
        # file loads when opened: test_usability checks it)
        shown = code.pattern_sections(path, name)
        for _, lines in shown or [("", path.read_text().splitlines())]:
            first_def = next((ln.strip() for ln in lines if ln.lstrip().startswith("def ")), None)
            if first_def:
                assert first_def.split("(")[0] in text


@pytest.mark.parametrize("name", NAMES)
def test_computation_page_has_the_newest_table_and_files_for_the_others(
    site: Path, name: str
) -> None:
    """The newest environment's slice is in the page; each other one is in the file its
    block names, with a row per variant, and not in the page."""
    from jaxcb_site.data import load_matrices

    page = site / "computations" / name / "index.html"
    raw = page.read_text(encoding="utf-8")
    ms = [m for m in load_matrices() if any(c["name"] == name for c in m.computations)]
    for i, m in enumerate(ms):
        caption = f"<caption>{html.escape(f'{name} on {m.label}')}</caption>"
        if i == 0:
            table = raw
        else:
            assert caption not in raw, m.key
            found = re.search(rf'data-env="{re.escape(m.key)}" data-src="([^"]+)"', raw)
            assert found, f"{name}: no block for {m.key}"
            table = json.loads((page.parent / found.group(1)).read_text("utf-8"))["html"]
        assert table.count(caption) == 1, m.key
        start = table.index(caption)
        rows = table[start : table.index("</table>", start)].count("<tr data-variant=")
        assert rows == len(m.variants), m.key


def _cell_count(html_text: str, key: str) -> int:
    start = html_text.index(f'data-env="{key}"')
    end = html_text.find('class="jx-env"', start + 1)
    block = html_text[start : end if end != -1 else len(html_text)]
    return block.count('class="jx-link"')


def test_matrix_page_has_every_cell(
    site: Path, matrix_files: list[tuple[Path, dict[str, Any]]]
) -> None:
    raw = (site / "matrix" / "index.html").read_text(encoding="utf-8")
    if not matrix_files:
        assert "No measured data yet" in raw
        return
    from jaxcb_site.data import load_matrices

    newest = load_matrices()[0].key  # in the page; the others load from matrix/envs/
    for path, data in matrix_files:
        env_file = json.loads((site / "matrix" / "envs" / f"{path.stem}.json").read_text())
        table = raw if path.stem == newest else env_file["html"]
        if path.stem == newest:
            assert _cell_count(raw, path.stem) == len(data["cells"]), path.name
        else:
            assert table.count('class="jx-link"') == len(data["cells"]), path.name
        env = data["environment"]
        for value in (env["jax"], env["jaxlib"], env["python"], env["platform"]):
            assert str(value) in table


def test_every_cell_links_its_test(
    site: Path, matrix_files: list[tuple[Path, dict[str, Any]]]
) -> None:
    """A cell's details (the test that measured it) are in its environment's file."""
    for path, data in matrix_files:
        env_file = json.loads((site / "matrix" / "envs" / f"{path.stem}.json").read_text())
        tests = {test for _, test in env_file["cells"].values()}
        missing = [c["test"] for c in data["cells"] if c["test"] not in tests]
        assert missing == []


def test_claim_verdicts_come_from_the_data(matrix_files: list[tuple[Path, dict[str, Any]]]) -> None:
    """Every claim names a cell; where its variant was measured, the cell exists."""
    text = (ROOT / "docs" / "claims.md").read_text(encoding="utf-8")
    keys = re.findall(r"<!-- jaxcb:verdict (\S+) (\S+) (\S+)(?: \S+=\S+)* -->", text)
    assert len(keys) >= 15
    for variant, computation, transform in keys:
        assert computation in NAMES
        for _, data in matrix_files:
            if any(v["id"] == variant for v in data["variants"]):
                assert any(
                    (c["variant"], c["computation"], c["transform"])
                    == (variant, computation, transform)
                    for c in data["cells"]
                ), f"{variant} × {transform} · {computation} is not in the data"


def test_claims_page_renders_verdicts(
    site: Path, matrix_files: list[tuple[Path, dict[str, Any]]]
) -> None:
    raw = (site / "claims" / "index.html").read_text(encoding="utf-8")
    text = _text(site / "claims" / "index.html")
    assert "jaxcb:verdict" not in text
    n = len(re.findall(r"^### \d+\. ", (ROOT / "docs" / "claims.md").read_text(), re.M))
    for i in range(1, n + 1):  # every claim has its anchor and a row in the overview
        assert f'id="claim-{i}"' in raw
        assert f'href="#claim-{i}"' in raw
    # each row of the overview names every file once: runs of releases, newest run first,
    # each run's tooltip listing its releases oldest first
    table = raw[: raw.index('id="claim-1"')]
    rows = re.findall(r'<tr>\s*<td><a href="#claim-\d+">.*?</tr>', table, re.S)
    assert len(rows) == n
    versions = sorted(
        (data["environment"]["jax"] for _, data in matrix_files if _one_process(data)),
        key=lambda v: tuple(int(x) for x in v.split(".")),
    )
    for row in rows:
        runs = [t.split(", ") for t in re.findall(r'<span title="JAX ([^"]+)">', row)]
        assert [v for run in reversed(runs) for v in run] == versions, row


def _one_process(data: dict[str, Any]) -> bool:
    return int(data["environment"].get("process_count", 1)) == 1


def test_contributing_guide_is_on_the_site_and_the_harness_api_is_not_a_reader_page(
    site: Path,
) -> None:
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    page = (site / "contributing" / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r"^#{1,2} (.+)$", guide, flags=re.M)
    shown = [
        html.unescape(re.sub(r"<[^>]+>", "", h))
        for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", page, flags=re.S)
    ]
    assert [h.replace("`", "") for h in headings] == [h.replace("¶", "").strip() for h in shown]
    # jaxcb_core's API is rendered under the contributors' section only
    rendered = sorted(
        p.relative_to(site).parent.as_posix()
        for p in site.rglob("index.html")
        if 'id="jaxcb_core.' in p.read_text(encoding="utf-8")
    )
    # (its rooms on pages of their own under it)
    assert "contributing/api/core" in rendered
    assert all(
        r.startswith(("contributing/api/core", "zh/contributing/api/core")) for r in rendered
    )
    reader_api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert "../contributing/api/core/" in reader_api


TRANSLATIONS = sorted((ROOT / "docs").rglob("*.zh.md"))
DIRECTIVE = re.compile(r"^<!-- jaxcb:.*-->$", re.M)
ANCHOR = re.compile(r"\{ #([\w-]+) \}")


@pytest.mark.parametrize("zh", TRANSLATIONS, ids=[p.name for p in TRANSLATIONS])
def test_a_translation_keeps_its_pages_directives_and_anchors(zh: Path) -> None:
    """A Chinese page shows the same generated code, tables and checked facts as its English
    page (the same directive lines, in the same order), and answers every link to a section
    of it (each explicit anchor of the English page)."""
    en = zh.with_name(zh.name.removesuffix(".zh.md") + ".md")
    assert en.is_file(), f"{zh.relative_to(ROOT)} translates no English page"
    en_text, zh_text = en.read_text(encoding="utf-8"), zh.read_text(encoding="utf-8")
    assert DIRECTIVE.findall(zh_text) == DIRECTIVE.findall(en_text), zh.name
    missing = set(ANCHOR.findall(en_text)) - set(ANCHOR.findall(zh_text))
    assert not missing, f"{zh.name} lacks the anchors {sorted(missing)}"


# ------------------------------------------------------------------ the learning path's headings

LEARN_SOURCES = sorted((ROOT / "docs" / "learn").glob("*.md"))
ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def source_headings(markdown: str) -> list[tuple[int, str]]:
    """``(level, text)`` of the headings a Markdown page means: ATX headings (``#`` and a space,
    as CommonMark has them) outside code fences and HTML comments, their text as a reader
    reads it (no attribute list, code ticks, link targets or emphasis marks)."""
    out: list[tuple[int, str]] = []
    fence: str | None = None
    comment = False
    for line in markdown.splitlines():
        if fence:
            if line.strip().startswith(fence):
                fence = None
            continue
        if comment:
            comment = "-->" not in line
            continue
        m = FENCE.match(line)
        if m:
            fence = m.group(1)
            continue
        if line.lstrip().startswith("<!--") and "-->" not in line:
            comment = True
            continue
        m = ATX.match(line)
        if m:
            text = re.sub(r"\s*\{[^{}]*\}\s*$", "", m.group(2))  # { #anchor }
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
            text = re.sub(r"(\*\*|__|\*|`)", "", text)
            out.append((len(m.group(1)), _plain(text)))
    return out


def built_headings(raw: str) -> list[tuple[int, str]]:
    """``(level, text)`` of the headings in a built page's article."""
    article = raw.split('<article class="md-content__inner', 1)[-1].split("</article>", 1)[0]
    out = []
    for level, inner in re.findall(r"<h([1-6])\b[^>]*>(.*?)</h\1>", article, flags=re.S):
        inner = re.sub(r'<a class="headerlink"[^>]*>.*?</a>', "", inner, flags=re.S)
        out.append((int(level), _plain(html.unescape(re.sub(r"<[^>]+>", "", inner)))))
    return out


def _built_page(site: Path, source: Path) -> Path:
    stem = source.name.removesuffix(".md")
    lang = ""
    if stem.endswith(".zh"):
        stem, lang = stem.removesuffix(".zh"), "zh/"
    folder = "learn" if stem == "index" else f"learn/{stem}"
    return site / f"{lang}{folder}" / "index.html"


def test_source_headings_are_the_atx_headings() -> None:
    """The reading of the source: a line that starts ``#0:`` (a sentence wrapped before an
    error text's "#0") is no heading, though Python-Markdown would make it one."""
    md = "# T { #t }\n\nA `x`\n#0: said\n\n```\n# not\n```\n<!--\n# no\n-->\n## [a](b) `c`\n"
    assert source_headings(md) == [(1, "T"), (2, "a c")]


@pytest.mark.parametrize("source", LEARN_SOURCES, ids=[p.name for p in LEARN_SOURCES])
def test_lesson_page_headings_are_its_sources(site: Path, source: Path) -> None:
    """Every heading of a built page of the learning path is one its Markdown means, in order:
    a prose line that starts with ``#`` (``#0: Expected: float32``) would be an ``<h1>``."""
    want = source_headings(source.read_text(encoding="utf-8"))
    have = built_headings(_built_page(site, source).read_text(encoding="utf-8"))
    extra = [h for h in have if h not in want]
    assert have == want, f"{source.name}: built headings {have}, source {want}; extra: {extra}"


# ------------------------------------------------------------ runnable answers for a practitioner

RECIPES = ("progress", "training-metrics")


def _recipe_links(raw: str) -> set[str]:
    return set(re.findall(r'href="(?:\.\./)*recipes/#([\w-]+)"', raw))


@pytest.mark.parametrize(
    ("page", "wanted"),
    [
        ("index.html", RECIPES),
        ("zh/index.html", RECIPES),
        ("computations/progress/index.html", RECIPES),
        ("mechanisms/debug/index.html", RECIPES),
    ],
)
def test_pages_for_looking_link_the_runnable_recipes(
    site: Path, page: str, wanted: tuple[str, ...]
) -> None:
    """The home page's cards (both languages), the progress computation and the debug
    mechanism link the recipes that answer the task with a program to run."""
    raw = (site / page).read_text(encoding="utf-8")
    missing = sorted(set(wanted) - _recipe_links(raw))
    assert missing == [], f"{page} does not link recipes/#{missing}"
    for lang in ("", "zh/"):
        recipes = (site / lang / "recipes" / "index.html").read_text(encoding="utf-8")
        for anchor in wanted:
            assert f'id="{anchor}"' in recipes, f"{lang}recipes has no #{anchor}"


def _tab_blocks(raw: str) -> list[str]:
    """The start of each tab's content (enough to see what it shows first)."""
    return [b[:4000] for b in raw.split('<div class="tabbed-block">')[1:]]


@pytest.mark.parametrize("name", NAMES)
def test_a_tab_without_the_computation_does_not_open_on_an_alarm(site: Path, name: str) -> None:
    """A package that lacks the computation: its tab shows one collapsed note whose title names
    the tabs where the computation is written, and inside it the reason; no red failure box
    anywhere on the page."""
    raw = (site / "computations" / name / "index.html").read_text(encoding="utf-8")
    assert 'class="admonition failure"' not in raw
    assert '<details class="failure"' not in raw
    lacking = [p for p in code.packages() if p.module(name) is None]
    done = [code.tab_label(p) for p in code.packages() if p.module(name) is not None]
    notes = [
        b.lstrip()
        for b in _tab_blocks(raw)
        if b.lstrip().startswith('<details class="note">\n<summary>Not in this tab: ')
    ]
    assert len(notes) == len(lacking), f"{name}: {len(notes)} tabs say where it is written"
    for block, pkg in zip(notes, lacking, strict=True):
        summary, _, rest = block.partition("</summary>")
        title = html.unescape(re.sub(r"<[^>]+>", "", summary)).strip()
        assert title.startswith(f"Not in this tab: {name} is written with "), title
        assert [t for t in done if re.search(rf"(?<![\w.]){re.escape(t)}\b", title)] == done
        assert "<a " not in summary, summary
        said = html.unescape(re.sub(r"<[^>]+>", "", rest.split("</details>", 1)[0]))
        assert f"{pkg.name} does not implement {name}" in said
