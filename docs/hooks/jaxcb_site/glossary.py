"""The glossary, and a link from each term's first use on a page to its definition.

``docs/learn/glossary.md`` (and its translation ``glossary.zh.md``) define one term per
heading: ``## ordered effect { #ordered-effect }``, optionally followed by
``<!-- terms: ordered effect, ordered effects -->`` (the words that count as a use of it; by
default the heading, without backticks). A term written as code in the heading
(``## `vmap_method` { #vmap-method }``) is matched where a page writes it as code.

On every reader page (not the glossary itself, the API reference or the contributors' pages)
the first use of each term in running text (paragraphs, list items, table cells) becomes a
link to its definition, with the definition's first sentence as its title (the page script,
``docs/javascripts/jaxcb.js``, shows it in a tooltip on hover, focus and tap); text inside
links, code blocks, headings and buttons is left alone. Both glossaries must define the same anchors: a page in either
language links to the glossary of its language. A link to a glossary anchor that is not defined
fails the strict build (mkdocs' anchor validation).
"""

from __future__ import annotations

import dataclasses
import functools
import html as htmllib
import posixpath
import re

from .data import ROOT

GLOSSARY = {
    "en": ROOT / "docs" / "learn" / "glossary.md",
    "zh": ROOT / "docs" / "learn" / "glossary.zh.md",
}
URL = {"en": "learn/glossary/", "zh": "zh/learn/glossary/"}
HEADING = re.compile(r"^## (.+?) \{ #([a-z0-9-]+) \}[ \t]*$", re.M)
TERMS = re.compile(r"^<!-- terms: (.+?) -->[ \t]*$", re.M)
SKIP_PAGES = ("api/", "contributing/", "learn/glossary")
# Elements whose text is never linked, and those whose text is.
NEVER = {
    "a",
    "code",
    "pre",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "script",
    "style",
    "svg",
    "button",
    "label",
    "title",
    "summary",
    "kbd",
    "nav",
    "header",
    "footer",
    "abbr",
    "select",
}
PROSE = {"p", "li", "td", "dd"}
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
    "path",
    "circle",
    "rect",
    "line",
    "polyline",
    "use",
}
TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(/?)>|<!--.*?-->", re.S)


@dataclasses.dataclass(frozen=True)
class Term:
    anchor: str
    words: tuple[str, ...]  # what counts as a use, longest first
    code: bool  # written as code: matched in <code> elements
    title: str  # the definition's first sentence, as plain text


def _plain(markdown: str) -> str:
    markdown = re.sub(r"<!--.*?-->", "", markdown, flags=re.S)
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    text = re.sub(r"[`*]", "", text)
    return re.sub(r"\s+", " ", text).strip()


@functools.lru_cache(maxsize=4)
def _terms(lang: str, mtime: float) -> tuple[Term, ...]:
    text = GLOSSARY[lang].read_text(encoding="utf-8")
    heads = list(HEADING.finditer(text))
    out = []
    for i, h in enumerate(heads):
        body = text[h.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        name = h.group(1).strip()
        code = name.startswith("`") and name.endswith("`")
        listed = TERMS.search(body)
        words = [w.strip() for w in listed.group(1).split(",")] if listed else [name.strip("`")]
        prose = TERMS.sub("", body).strip().split("\n\n")[0]
        first = re.split(r"(?<=[.。])\s", _plain(prose), maxsplit=1)[0]
        out.append(Term(h.group(2), tuple(sorted(words, key=len, reverse=True)), code, first))
    return tuple(out)


def terms(lang: str) -> tuple[Term, ...]:
    path = GLOSSARY[lang]
    return _terms(lang, path.stat().st_mtime) if path.is_file() else ()


def anchors(lang: str) -> list[str]:
    return [t.anchor for t in terms(lang)]


def _words_pattern(all_terms: tuple[Term, ...]) -> re.Pattern[str]:
    """Every prose word of every term, longest first, so that a longer term wins where two
    start at the same place ("ordered effect" over "effect", 追踪器 over 追踪). ASCII words
    match whole words (with a plural ending); others, as in Chinese, anywhere."""
    words = sorted({w for t in all_terms if not t.code for w in t.words}, key=len, reverse=True)
    alts = [
        rf"(?<![\w`-]){re.escape(w)}(?:e?s)?(?![\w-])" if w.isascii() else re.escape(w)
        for w in words
    ]
    return re.compile("|".join(alts) or r"(?!)", re.I)


def _link(href: str, term: Term, inner: str) -> str:
    title = htmllib.escape(term.title, quote=True)
    return f'<a class="jaxcb-term" href="{href}#{term.anchor}" title="{title}">{inner}</a>'


def link_terms(html: str, src_uri: str, url: str) -> str:
    """``html`` with the first use of each glossary term linked to its definition."""
    if src_uri.startswith(SKIP_PAGES) or not html:
        return html
    lang = "zh" if src_uri.endswith(".zh.md") else "en"
    site_lang = "zh" if url.startswith("zh/") else "en"
    todo = list(terms(lang))
    if not todo:
        return html
    here = url if url.endswith("/") or not url else posixpath.dirname(url) + "/"
    href = posixpath.relpath(URL[site_lang], here or ".") + "/"
    every = terms(lang)
    pattern = _words_pattern(every)
    owner = {w.lower(): t for t in every if not t.code for w in t.words}
    code_words = {w: t for t in todo if t.code for w in t.words}
    stack: list[str] = []
    out: list[str] = []
    pos = 0

    def owner_of(word: str) -> Term | None:
        w = word.lower()
        return owner.get(w) or owner.get(re.sub(r"e?s$", "", w))

    def prose_text(text: str) -> str:
        def sub(m: re.Match[str]) -> str:
            t = owner_of(m.group(0))
            if t is None or t not in todo:
                return m.group(0)
            todo.remove(t)
            return _link(href, t, m.group(0))

        return pattern.sub(sub, text)

    while (m := TAG.search(html, pos)) is not None:
        text = html[pos : m.start()]
        if text:
            linkable = any(s in PROSE for s in stack) and not any(s in NEVER for s in stack)
            out.append(prose_text(text) if linkable and todo else text)
        tag = m.group(0)
        pos = m.end()
        name = (m.group(2) or "").lower()
        if not name:  # a comment
            out.append(tag)
            continue
        if m.group(1):  # closing tag
            if name in stack:
                while stack and stack.pop() != name:
                    pass
            out.append(tag)
            continue
        if name == "pre" and not m.group(3):  # code blocks: nothing inside is ever linked
            end = html.find("</pre>", pos)
            end = len(html) if end < 0 else end + len("</pre>")
            out.append(tag + html[pos:end])
            pos = end
            continue
        in_prose = any(s in PROSE for s in stack) and not any(s in NEVER for s in stack)
        if name == "code" and in_prose and code_words:
            end = html.find("</code>", pos)
            inner = html[pos:end] if end >= 0 else ""
            word = htmllib.unescape(re.sub(r"<[^>]+>", "", inner))
            t = code_words.get(word)
            if t is not None and t in todo and "<" not in inner:
                out.append(_link(href, t, tag + inner + "</code>"))
                pos = end + len("</code>")
                todo.remove(t)
                for w in t.words:
                    code_words.pop(w, None)
                continue
        out.append(tag)
        if name not in VOID and not m.group(3):
            stack.append(name)
    out.append(html[pos:])
    return "".join(out)


def check() -> list[str]:
    """Problems with the glossaries: anchors defined in one language only."""
    en, zh = set(anchors("en")), set(anchors("zh"))
    problems = []
    if en - zh:
        problems.append(f"glossary.zh.md lacks {sorted(en - zh)}")
    if zh - en:
        problems.append(f"glossary.md lacks {sorted(zh - en)}")
    return problems
