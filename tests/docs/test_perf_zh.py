"""The performance sections' generated words (``jaxcb_site.perfwords``) in the language of
their page: a built Chinese page shows none of the English sentences, captions and table
headings, the built English page shows them."""

from __future__ import annotations

import html
import re
import string
from pathlib import Path

import pytest

from jaxcb_site import data, directives, perfwords

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# the overview and its pages, one per measurement
PAGES = [DOCS / "performance.zh.md", *sorted((DOCS / "performance").glob("*.zh.md"))]
# and the reader's pages that show a table of the tools suite
ZH_PAGES = [*PAGES, DOCS / "recipes.zh.md", DOCS / "errors.zh.md", DOCS / "roads.zh.md"]
# the words that are table headings (``a|b|c``) or a table's cell
HEADINGS = ("-head", "tools-column", "dev-gpu")


def _src(path: Path) -> str:
    return path.relative_to(DOCS).as_posix()


def _built(site: Path, src: str, lang: str) -> str:
    """The built page of ``src`` (``performance/calls.zh.md``) in ``lang``."""
    page = src.removesuffix(".zh.md").removesuffix(".md")
    return (site / ("zh" if lang == "zh" else "") / page / "index.html").read_text(encoding="utf-8")


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def _phrases(template: str) -> list[str]:
    """The English words of a template between its fields, code, markup and punctuation:
    the runs of three words or more (shorter ones are table headings, :func:`_headings`)."""
    text = re.sub(r"`[^`]*`|\{[^{}]*\}|!!! warning", "\0", template)
    out = []
    for piece in re.split(r"[\0*()|:;,.—“”\"\n]+", text):
        if len(re.findall(r"[A-Za-z][A-Za-z'-]*", piece)) >= 3:
            out.append(" ".join(piece.split()))
    return out


def _labels() -> set[str]:
    """The data's own names, which a page shows as they are in both languages."""
    return {v.label for f in data.bench_files() for v in f.variants}


def _headings(keys: set[str] | None = None) -> set[str]:
    """The English table headings in words (``host calls``, not ``JAX``, which Chinese
    keeps too), of ``keys`` or of them all."""
    out = set()
    for key, words in perfwords.WORDS["en"].items():
        if key.endswith(HEADINGS) and (keys is None or key in keys):
            kept = perfwords.WORDS["zh"][key].split("|")
            out |= {
                h
                for h in words.split("|")
                if re.search("[a-z]", h) and not _fields(h) and h not in kept
            }
    return out - _labels()


def _visible(page: str) -> str:
    """The article's text (code left out) with its tooltips and images' alt texts."""
    found = re.search(r"<article\b.*?</article>", page, flags=re.S)
    body = found.group(0) if found else ""
    body = re.sub(r"<(pre|code|script|style)\b.*?</\1>", " ", body, flags=re.S)
    tips = re.findall(r'(?:title|alt)="([^"]*)"', body)
    text = re.sub(r"<[^>]+>", " ", body)
    return " ".join(html.unescape(" ".join([text, *tips])).split())


def _cells(page: str) -> set[str]:
    cells = re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", page, flags=re.S)
    return {" ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in cells}


class _Said(dict[str, str]):
    """``WORDS["en"]`` that remembers the keys read."""

    def __init__(self, words: dict[str, str]) -> None:
        super().__init__(words)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.read.add(key)
        return super().__getitem__(key)


@pytest.fixture(scope="module")
def said() -> set[str]:
    """The keys the English performance pages' sections use with the committed data."""
    words = _Said(perfwords.WORDS["en"])
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(perfwords.WORDS, "en", words)
        for path in PAGES:
            english = path.with_name(path.name.replace(".zh.md", ".md"))
            directives.expand(english.read_text(encoding="utf-8"), _src(english))
    return words.read


def test_every_word_has_its_chinese_with_the_same_fields() -> None:
    en, zh = perfwords.WORDS["en"], perfwords.WORDS["zh"]
    assert set(en) == set(zh)
    assert {k: _fields(v) for k, v in en.items()} == {k: _fields(v) for k, v in zh.items()}
    assert {k: v.count("|") for k, v in en.items()} == {k: v.count("|") for k, v in zh.items()}


@pytest.mark.parametrize("path", ZH_PAGES, ids=_src)
def test_a_chinese_page_shows_no_generated_english(site: Path, path: Path) -> None:
    """None of the English templates' phrases and headings on the built Chinese page, but
    where the page's own source or the data's names say them."""
    page = _built(site, _src(path), "zh")
    own = " ".join(path.read_text(encoding="utf-8").split())
    labels = " | ".join(_labels())
    text = _visible(page)
    phrases = {p for words in perfwords.WORDS["en"].values() for p in _phrases(words)}
    shown = sorted(p for p in phrases if p in text and p not in own and p not in labels)
    assert shown == [], f"{_src(path)}: generated English on the Chinese page"
    assert sorted(_headings() & _cells(page)) == [], f"{_src(path)}: an English table heading"


def test_the_english_pages_keep_their_words(site: Path, said: set[str]) -> None:
    """The same phrases and headings are on the built English pages, for every template
    the committed data uses (the test above would pass on an empty page otherwise)."""
    pages = [_built(site, _src(p).replace(".zh.md", ".md"), "en") for p in PAGES]
    text = " ".join(_visible(p) for p in pages)
    cells: set[str] = set().union(*(_cells(p) for p in pages))
    en = perfwords.WORDS["en"]
    assert len(said) > 40, sorted(said)
    missing = [p for key in sorted(said) for p in _phrases(en[key]) if p not in text]
    assert missing == []
    headings = _headings(said)
    assert len(headings) > 20
    assert sorted(headings - cells) == []


def test_every_benchmark_label_has_its_chinese() -> None:
    """Each label of every committed benchmark file reads in Chinese on a Chinese page: its
    parts come from ``perfwords._LABEL_ZH`` or are an API name, call, option or package kept
    as it is; an English page keeps the label. A part without Chinese words fails."""
    import json

    labels = {
        v["label"]
        for path in sorted((DOCS / "data" / "bench").glob("*.json"))
        for v in json.loads(path.read_text(encoding="utf-8"))["variants"]
    }
    assert "pure_callback, no rule, jitted" in labels
    for text in labels:
        assert perfwords.label("en", text) == text
        zh = perfwords.label("zh", text)
        assert not re.search(r"[a-z]+ [a-z]{3,}", zh.replace("External callbacks", "")), zh
    assert perfwords.label("zh", "pure_callback, no rule, jitted") == (
        "pure_callback，无求导规则，jit 编译"
    )
    assert perfwords.label("zh", "equinox 0.13.8") == "equinox 0.13.8"
    with pytest.raises(perfwords.LabelError, match="'sort of jitted' has no Chinese words"):
        perfwords.label("zh", "pure_callback, sort of jitted")
