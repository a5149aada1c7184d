"""Each language site searches its own pages, and Chinese words are found.

The English site (``/``) and the Chinese site (``/zh/``) have an index each
(``docs/hooks/jaxcb_site/searchlang.py``): the English pages, and the Chinese pages cut into
words by jieba (the pages that the Chinese site shows in English are searched in English). The
recall test runs Material's own search worker, in the browser, on each site's index: for
each term, every page of that language whose text has the term must be among the results.
The ranking test types the term into the site's search box: no page of the other language
comes first. Figures go to ``test-artifacts/search-recall.txt``.
"""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
import searchbox

from jaxcb_site import searchlang

DOCS = Path(__file__).resolve().parents[2] / "docs"

# Words a reader looks for, in the text of each language's pages.
TERMS = {
    "en": ["effects_barrier", "vmap_method", "io_callback", "custom_vjp", "ordered", "gradient"],
    "zh": ["副作用", "进度", "回调", "梯度", "主机", "有序", "effects_barrier", "vmap_method"],
}
# Terms whose first hit is checked in the search box of each site.
FIRST = {
    "en": ["effects_barrier", "vmap_method", "io_callback"],
    "zh": ["副作用", "进度", "梯度", "effects_barrier"],
}


def _translated(rel: str) -> bool:
    page = rel.removeprefix("zh/").removesuffix("/") or "index"
    return (DOCS / f"{page}.zh.md").exists() or (DOCS / page / "index.zh.md").exists()


def _pages(site: Path, lang: str) -> list[str]:
    """The built pages of one language: the English site's, or the translated Chinese ones."""
    out = []
    for index in sorted(site.rglob("index.html")):
        rel = index.parent.relative_to(site).as_posix()
        rel = "" if rel == "." else rel + "/"
        if rel.startswith(("assets/", "search/")):
            continue
        if lang == "en" and not rel.startswith("zh/"):
            out.append(rel)
        if lang == "zh" and rel.startswith("zh/") and _translated(rel):
            out.append(rel)
    return out


class _ArticleText(html.parser.HTMLParser):
    """The text of a page's article, without scripts, styles, drawings, permalinks and the
    generated tables and widgets (``jx-`` classes: data, kept out of the index on purpose)."""

    SKIP: ClassVar[set[str]] = {"script", "style", "svg"}
    VOID: ClassVar[set[str]] = {
        "br",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "wbr",
        "col",
        "area",
    }

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside <article>: the depth of open elements
        self.skip_at: int | None = None
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        cls = dict(attrs).get("class") or ""
        if self.depth == 0:
            if tag == "article" and "md-content__inner" in cls:
                self.depth = 1
            return
        if tag in self.VOID:
            return
        self.depth += 1
        skip = tag in self.SKIP or "headerlink" in cls.split()
        skip = skip or any(c.startswith("jx-") for c in cls.split())
        if self.skip_at is None and skip:
            self.skip_at = self.depth

    def handle_endtag(self, tag: str) -> None:
        if self.depth == 0 or tag in self.VOID:
            return
        if self.skip_at == self.depth:
            self.skip_at = None
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and self.skip_at is None:
            self.parts.append(data)


def _text(site: Path, rel: str) -> str:
    parser = _ArticleText()
    parser.feed((site / rel / "index.html").read_text(encoding="utf-8"))
    return " ".join(parser.parts)


def _has(text: str, term: str) -> bool:
    if term.isascii():  # an identifier or a word: where a search token can start
        return re.search(rf"(?<![\w]){re.escape(term)}", text, re.I) is not None
    return term in text  # Chinese: no spaces between words


# Material's search worker, fed the index of the page's site, asked each term as the search
# box asks it; the pages of the results (their paths from the site's root), best first.
_WORKER = """async (terms) => {
  const cfg = JSON.parse(document.getElementById('__config').textContent);
  const base = new URL(cfg.base, location.href);
  const index = await (await fetch(new URL('search/search_index.json', base))).json();
  const worker = new Worker(new URL(cfg.search, location.href));
  const next = () => new Promise(resolve => {
    worker.addEventListener('message', ev => resolve(ev.data), { once: true });
  });
  let reply = next();
  worker.postMessage({ type: 0, data: { config: index.config, docs: index.docs,
                                        options: { suggest: false } } });
  await reply;
  const root = new URL('/', location.href);
  const out = {};
  for (const term of terms) {
    reply = next();
    worker.postMessage({ type: 2, data: term });
    const { data } = await reply;
    out[term] = data.items.map(group => {
      const url = new URL(group[0].location, base);
      return url.pathname.slice(root.pathname.length);
    });
  }
  worker.terminate();
  return out;
}"""


def test_rebase_points_a_chinese_page_at_its_site() -> None:
    page = '<script id="__config" type="application/json">{"annotate": null, "base": "../../.."}</script>'
    out = searchlang.rebase(page, "zh/learn/04-effects/", ["zh"])
    assert '"base": "../../"' in out
    assert searchlang.rebase(page, "zh/", ["zh"]).count('"base": "./"') == 1
    assert searchlang.rebase(page, "learn/04-effects/", ["zh"]) == page  # English: as built
    with pytest.raises(searchlang.SearchSplitError, match="no Material __config"):
        searchlang.rebase("<html></html>", "zh/learn/", ["zh"])


def test_each_language_site_has_its_own_index(site: Path) -> None:
    en, zh = searchlang.read(site), searchlang.read(site, "zh")
    assert en["config"]["lang"] == ["en"]
    assert "zh" in zh["config"]["lang"]
    en_pages = {d["location"].split("#")[0] for d in en["docs"]}
    zh_pages = {d["location"].split("#")[0] for d in zh["docs"]}
    assert not [p for p in en_pages if p.startswith("zh/")]
    for rel in en_pages:  # every result of each index opens a page of its own site
        assert (site / rel / "index.html").is_file() or (site / rel).is_file(), rel
    for rel in zh_pages:
        assert (site / "zh" / rel / "index.html").is_file() or (site / "zh" / rel).is_file(), rel
    # the Chinese index: the Chinese pages, each of them; the pages that the Chinese site
    # shows in English are found on the English site
    assert zh_pages == {p.removeprefix("zh/") for p in _pages(site, "zh")}
    assert set(_pages(site, "en")) <= en_pages


def test_chinese_text_is_cut_into_words(site: Path) -> None:
    zh = searchlang.read(site, "zh")
    separator = re.compile(zh["config"]["separator"])  # the search splits words where it matches
    assert separator.split("副作用\u200b进度，梯度") == ["副作用", "进度", "梯度"]
    glossary = [d for d in zh["docs"] if d["location"].startswith("learn/glossary/")]
    text = " ".join(d["text"] for d in glossary)
    assert "\u200b副作用\u200b" in text  # a word of its own between two zero-width spaces


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_pages_load_their_language_index(site: Path, lang: str) -> None:
    pages = _pages(site, lang)
    assert len(pages) > 5
    for rel in pages:
        html = (site / rel / "index.html").read_text(encoding="utf-8")
        m = re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.S)
        assert m is not None, rel
        base = json.loads(m.group(1))["base"]
        # the folder the base names, from the page's folder: the site's root or zh/
        root = Path("/", rel, base).resolve().as_posix().rstrip("/") + "/"
        assert root == ("/zh/" if lang == "zh" else "/"), (rel, base)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_search_finds_every_page_with_the_term(
    page: Any, site: Path, site_url: str, artifacts: Path, lang: str
) -> None:
    pages = _pages(site, lang)
    texts = {rel: _text(site, rel) for rel in pages}
    page.goto(site_url + ("zh/" if lang == "zh" else ""))
    found = page.evaluate(_WORKER, TERMS[lang])
    missing = {}
    with (artifacts / "search-recall.txt").open("a", encoding="utf-8") as f:
        for term in TERMS[lang]:
            want = {rel for rel, text in texts.items() if _has(text, term)}
            got = set(found[term])
            f.write(f"{lang} {term!r}: {len(want & got)} of {len(want)} pages found\n")
            if want - got:
                missing[term] = sorted(want - got)
            assert want, f"no {lang} page has {term!r}: pick another term"
    assert not missing, f"pages with the term that search does not find: {missing}"


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "term"), [(lang, term) for lang, terms in FIRST.items() for term in terms]
)
def test_first_hit_is_a_page_of_the_same_language(
    page: Any, site: Path, site_url: str, artifacts: Path, lang: str, term: str
) -> None:
    hits = searchbox.results(page, site_url + ("zh/" if lang == "zh" else ""), term)
    with (artifacts / "search-first-hits.txt").open("a", encoding="utf-8") as f:
        f.write(f"{lang} {term!r}: {hits[:3]}\n")
    assert hits, f"no result for {term!r}"
    if lang == "en":
        assert not [h for h in hits if h.startswith("zh/")], hits[:5]
    else:
        assert all(h.startswith("zh/") for h in hits), hits[:5]
        # a Chinese page comes first where one has the term
        assert _translated(hits[0]), f"{term!r}: first hit {hits[0]} is not a Chinese page"
