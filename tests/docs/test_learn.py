"""The learning path on the built site, in English and Simplified Chinese.

Every lesson has a page in both languages that shows each of its steps once, in order, with
the output recorded for it; a Colab link to its committed notebook; glossary links on the first
use of each term, every one to a defined anchor; no harness words; a note to start a fresh
Python where a lesson sets the number of CPU devices (and its notebook setting it first). In a
real browser (chromium) every lesson page of both languages loads without a console error and
without sideways scroll at 1280 px and 390 px, and the language switcher leads to the same
lesson in the other language.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from visits import WIDTHS

from jaxcb_site import glossary, lessons

ROOT = Path(__file__).resolve().parents[2]
LEARN = ROOT / "docs" / "learn"
LESSON_IDS = sorted(p.stem for p in lessons.LESSONS_DIR.glob("[0-9][0-9]_*.py"))
PAGES = [f"{i[:2]}-{i[3:].replace('_', '-')}" for i in LESSON_IDS]
LANGS = {"en": "", "zh": "zh/"}
CELL = re.compile(r"<!-- jaxcb:cell (\S+) (\S+) -->")
HARNESS = re.compile(
    r"\b(variants?|registry|probe[sd]?|minimal form|floor|node ids?|jaxcb_\w+|docs/data|pytest)\b",
    re.I,
)
COLAB = re.compile(
    r'href="(https://colab\.research\.google\.com/github/([^/"]+)/([^/"]+)/blob/main/'
    r'docs/learn/notebooks/([0-9a-z_]+)\.ipynb)"'
)

pytestmark = pytest.mark.slow


def _source(page: str, lang: str) -> Path:
    return LEARN / (f"{page}.zh.md" if lang == "zh" else f"{page}.md")


def _html(site: Path, lang: str, path: str) -> str:
    path = path.removesuffix("index")  # learn/index.md is learn/
    return (site / LANGS[lang] / path / "index.html").read_text(encoding="utf-8")


def _text(raw: str) -> str:
    """What a reader reads: the article, without code blocks, tags or link targets."""
    main = raw.split('<article class="md-content__inner', 1)[-1].split("</article>", 1)[0]
    main = re.sub(r"<(script|style|pre)\b.*?</\1>", " ", main, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", main))


def test_the_path_has_lessons() -> None:
    assert len(LESSON_IDS) >= 7


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("page", PAGES)
def test_every_step_is_on_its_page_once_in_order(page: str, lang: str) -> None:
    source = _source(page, lang)
    assert source.is_file(), f"no page {source.relative_to(ROOT)}"
    lesson = LESSON_IDS[PAGES.index(page)]
    shown = [(m.group(1), m.group(2)) for m in CELL.finditer(source.read_text(encoding="utf-8"))]
    assert {lid for lid, _ in shown} <= {lesson}, f"{source.name} shows another lesson's steps"
    assert [t for _, t in shown] == list(lessons.cells(lesson)), source.name


@pytest.mark.parametrize("lang", list(LANGS))
def test_index_and_glossary_exist_in_both_languages(lang: str) -> None:
    for page in ("index", "glossary"):
        assert _source(page, lang).is_file()


def test_glossaries_define_the_same_terms() -> None:
    assert glossary.check() == []
    assert len(glossary.anchors("en")) >= 20


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("page", PAGES)
def test_lesson_page_links_colab_glossary_and_shows_outputs(
    site: Path, page: str, lang: str
) -> None:
    raw = _html(site, lang, f"learn/{page}")
    lesson = LESSON_IDS[PAGES.index(page)]
    colab = COLAB.findall(raw)
    assert len(colab) == 1, f"{lang} {page}: {len(colab)} Colab links"
    _, owner, repo, nb = colab[0]
    assert nb == lesson
    assert (ROOT / "docs" / "learn" / "notebooks" / f"{nb}.ipynb").is_file()
    assert f"github.com/{owner}/{repo}" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert (site / LANGS[lang] / "learn" / "notebooks" / f"{lesson}.ipynb").is_file() or (
        site / "learn" / "notebooks" / f"{lesson}.ipynb"
    ).is_file()
    assert 'class="jaxcb-term"' in raw, f"{lang} {page}: no glossary term linked"
    assert raw.count("Output ·" if lang == "en" else "输出 ·") >= 1


CPU_DEVICES = re.compile(r"""jax\.config\.update\(\s*["']jax_num_cpu_devices["']""")
FRESH_TITLE = {"en": "Start a fresh Python", "zh": "请在新的 Python 会话中运行"}
FRESH_NOTE = re.compile(
    r'<div class="admonition warning">\s*<p class="admonition-title">(?P<title>.*?)</p>\s*'
    r"<p>(?P<body>.*?)</p>",
    re.S,
)


@pytest.mark.parametrize("page", PAGES)
def test_a_lesson_that_sets_the_cpu_devices_says_to_start_fresh(site: Path, page: str) -> None:
    """``jax_num_cpu_devices`` is taken only before JAX has run anything: a lesson that sets it
    says, in both languages and before its first step, to run it in a fresh Python; its
    notebook says so too, and its first code cell sets it before anything but imports."""
    lesson = LESSON_IDS[PAGES.index(page)]
    sets = bool(CPU_DEVICES.search(lessons.script(lesson).read_text(encoding="utf-8")))
    for lang in LANGS:
        raw = _html(site, lang, f"learn/{page}")
        notes = [m for m in FRESH_NOTE.finditer(raw) if m.group("title") == FRESH_TITLE[lang]]
        if not sets:
            assert notes == [], f"{lang} {page}: a fresh-Python note, but no setting needs one"
            continue
        assert len(notes) == 1, f"{lang} {page}: no note to start a fresh Python"
        assert "jax_num_cpu_devices" in notes[0].group("body"), notes[0].group("body")
        first_step = raw.find('<div class="language-python')
        assert 0 < notes[0].start() < first_step, f"{lang} {page}: the note comes after a step"
    nb = json.loads((LEARN / "notebooks" / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"]]
    kinds = [c["cell_type"] for c in nb["cells"]]
    first = kinds.index("code")
    if not sets:
        assert not CPU_DEVICES.search(cells[first])
        return
    m = CPU_DEVICES.search(cells[first])
    assert m, f"notebook {lesson}: its first code cell does not set jax_num_cpu_devices"
    before = [ln.strip() for ln in cells[first][: m.start()].splitlines()]
    ran = [ln for ln in before if ln and not ln.startswith(("import ", "from ", "#"))]
    assert ran == [], f"notebook {lesson}: code runs before the setting: {ran}"
    assert any("fresh kernel" in cells[i] for i in range(first)), (
        f"notebook {lesson}: no note before its first code cell to start a fresh kernel"
    )


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_term_link_resolves(site: Path, lang: str) -> None:
    ids = set(re.findall(r'\bid="([^"]+)"', _html(site, lang, "learn/glossary")))
    bad = []
    root = site / LANGS[lang]
    for page in sorted(root.rglob("index.html")):
        rel = page.relative_to(site).as_posix()
        if lang == "en" and rel.startswith("zh/"):
            continue
        for anchor in re.findall(
            r'class="jaxcb-term" href="[^"#]*#([^"]+)"', page.read_text(encoding="utf-8")
        ):
            if anchor not in ids:
                bad.append(f"{rel}: #{anchor}")
    assert bad == []


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("page", ["index", "glossary", *PAGES])
def test_no_harness_words_on_the_path(site: Path, page: str, lang: str) -> None:
    found = sorted(
        {m.group(0) for m in HARNESS.finditer(_text(_html(site, lang, f"learn/{page}")))}
    )
    assert found == [], f"{lang} learn/{page}: {found}"


@pytest.mark.parametrize("page", ["gotchas", "edges", "errors", "recipes", "roads"])
def test_no_harness_words_on_the_pages_of_scripts(site: Path, page: str) -> None:
    """The pages that show a reader's scripts speak a reader's words, as the path does."""
    found = sorted({m.group(0) for m in HARNESS.finditer(_text(_html(site, "en", page)))})
    assert found == [], f"{page}: {found}"


def _mini_site(tmp_path: Path, anchor: str) -> subprocess.CompletedProcess[str]:
    docs = tmp_path / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text(
        f"# Home\n\nA [token](glossary.md#{anchor}).\n", encoding="utf-8"
    )
    (docs / "glossary.md").write_text(
        "# Glossary\n\n## token { #token }\nA value.\n", encoding="utf-8"
    )
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent(
            """\
            site_name: t
            strict: true
            validation:
              anchors: warn
            markdown_extensions:
              - attr_list
            """
        ),
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_link_to_an_undefined_term_fails_the_build(tmp_path: Path) -> None:
    """The site's own setting (strict, anchors: warn) turns an undefined term into a failure."""
    assert _mini_site(tmp_path / "a", "token").returncode == 0
    bad = _mini_site(tmp_path / "b", "ordered-effect")
    assert bad.returncode != 0
    assert "#ordered-effect" in bad.stdout + bad.stderr


def test_term_linker_links_first_use_only_outside_code() -> None:
    out = glossary.link_terms(
        "<p>The host and <code>host</code>.</p><h2>host</h2><p>the host again</p>"
        "<pre><code>host</code></pre><p><a href='x'>host</a></p>",
        "learn/01-first-pure-callback.md",
        "learn/01-first-pure-callback/",
    )
    assert out.count('class="jaxcb-term"') == 1
    assert '<a class="jaxcb-term" href="../glossary/#host"' in out
    assert out.startswith("<p>The <a ")


# ------------------------------------------------------------------------------- in a browser


@pytest.mark.browser
@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("lang", list(LANGS))
def test_lesson_pages_in_a_browser(visits: Any, lang: str, width: int) -> None:
    """The path's pages in each language, as the shared visit (``visits.py``) found them:
    each loads cleanly, fits the window's width and says its language."""
    seen = visits[width]
    for path in ["learn/", *[f"learn/{p}/" for p in PAGES], "learn/glossary/"]:
        visit = seen.get(LANGS[lang] + path)
        assert visit is not None, f"{LANGS[lang] + path} was not visited"
        assert visit.problems == [], (path, visit.problems)
        assert visit.width <= width, f"{lang} {path} scrolls sideways at {width} px ({visit.width})"
        assert visit.lang.startswith(lang), path


@pytest.mark.browser
def test_language_switcher_keeps_the_lesson(page: Any, site_url: str) -> None:
    page.goto(site_url + f"learn/{PAGES[1]}/")
    zh = page.locator('a[hreflang="zh"]').first
    page.goto(zh.evaluate("a => a.href"))
    assert page.url.endswith(f"zh/learn/{PAGES[1]}/")
    assert page.evaluate("document.documentElement.lang") == "zh"
    en = page.locator('a[hreflang="en"]').first
    page.goto(en.evaluate("a => a.href"))
    assert page.url.endswith(f"/learn/{PAGES[1]}/")
    assert "/zh/" not in page.url
