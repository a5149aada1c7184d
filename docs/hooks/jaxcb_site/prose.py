"""Absolute and counting sentences of the published prose, each held to a datum, a source
or a reason.

A sentence that says "never", "always", "every", "only", "cannot", "guaranteed", "N times",
"N calls", "×N", "faster than" or "beats" (on the Chinese pages 从不, 总是, 每个, 每次, 只,
不能, 无法, 保证, N 次 and their like) promises more than a sentence that describes. The
site build finds each such sentence in the pages of both languages, the package READMEs
and the module docstrings of the pattern modules, and fails unless it is

- **checked by data**: its paragraph, list item or table is followed by, or contains, a
  directive that fails the build when the data disagrees (``DATA_DIRECTIVES``): in a
  README or a docstring, an ``expect`` comment as on a page, which :mod:`.statements` runs;
- **cited**: it links JAX's documentation or code (``docs.jax.dev``, ``github.com/jax-ml/jax``)
  and names the JAX version the source is from, or links ``jax-changelog:VERSION``; or
- **reviewed**: listed in :mod:`.prose_reviewed` with the reason it needs neither (a
  definition, advice, a description of the code shown beside it, ...), or **pending**:
  listed there among the sentences found when the check came in and not yet reviewed.

An entry of the reviewed list that no sentence needs any more (the sentence changed, went,
or gained a directive) fails too, so the list cannot rot.

The Markdown is parsed with markdown-it-py (CommonMark and tables). Fenced code, HTML blocks
and HTML comments are not prose; a directive comment is a marker. Paragraphs, headings,
list items and table cells are. The bodies of admonitions and content tabs (indented, so
code blocks to CommonMark) are parsed again as Markdown.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

from markdown_it import MarkdownIt

from .data import ROOT

__all__ = ["Sentence", "blocks", "check", "counts", "flagged", "sentences"]

DATA_DIRECTIVES = ("expect", "expect-observation", "dist-expect", "shows", "verdict")
DIRECTIVE = re.compile(r"<!--\s*jaxcb:([a-z-]+)")
_NUM = r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|a hundred)"
TERMS = {
    "en": re.compile(
        r"\b(?:never|always|every|only|cannot|can't|guarantee[sd]?|faster than|beats?)\b"
        rf"|\b{_NUM}(?: (?!that\b)\w+)? (?:times|calls)\b|×\s?\d|\d\s?×",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"从不|从来不|永远|绝不|总是|始终|每个|每次|每一|只(?!要)|仅|不能|无法|保证|快于|胜过"
        r"|(?:\d+|[两三四五六七八九十百]+)\s*次|×\s?\d|\d\s?×"
    ),
}
SPLIT = {"en": re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\[(\"“0-9])"), "zh": re.compile(r"(?<=[。！？])")}
JAX_SOURCE = re.compile(
    r"\]\((?:https?://(?:docs\.jax\.dev|jax\.readthedocs\.io|github\.com/(?:jax-ml|google)/jax)"
    r"[^)]*)\)"
)
CHANGELOG = re.compile(r"\]\(jax-changelog:\d")
VERSION = re.compile(r"(?:JAX|jax|jaxlib)[ -]v?\d+\.\d+|\b\d+\.\d+\.\d+")
MARKER = re.compile(r"^(?:!!!|\?\?\?\+?|===)\s*\S*\s*")  # admonition, details, content tab
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)  # a page's YAML meta-data: not prose


def _blank(m: re.Match[str]) -> str:
    return "\n" * m[0].count("\n")  # its lines stay, empty: line numbers still match


@dataclasses.dataclass(frozen=True)
class Sentence:
    path: str
    line: int
    lang: str
    text: str  # as written, whitespace collapsed
    block: bool  # its block sits beside a data directive

    @property
    def words(self) -> str:
        """The text without code spans, link targets and attribute lists."""
        t = re.sub(r"`[^`]*`", "", self.text)
        t = re.sub(r"\]\([^)]*\)|\{[:#.][^}]*\}|<[^>]+>", "", t)
        return t


def _md() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def blocks(markdown: str, offset: int = 0) -> Iterator[tuple[int, str, bool]]:
    """``(line, inline text, beside a data directive)`` of each paragraph, heading and table
    cell; a list item or table with a data directive in it covers every block in it."""
    tokens = _md().parse(markdown)

    def data(t: object) -> bool:
        m = DIRECTIVE.search(getattr(t, "content", ""))
        return getattr(t, "type", "") == "html_block" and bool(m) and m[1] in DATA_DIRECTIVES

    # the ranges (token indices) of list items and tables with a data directive inside
    covered: list[tuple[int, int]] = []
    stack: list[int] = []
    for i, t in enumerate(tokens):
        if t.type in ("list_item_open", "table_open"):
            stack.append(i)
        elif t.type in ("list_item_close", "table_close"):
            start = stack.pop()
            if any(data(u) for u in tokens[start:i]):
                covered.append((start, i))
    for i, t in enumerate(tokens):
        if t.type == "code_block" and t.map:  # an admonition's or a tab's body
            yield from blocks(textwrap.dedent(t.content), offset + t.map[0])
            continue
        if t.type != "inline" or not t.map or not t.content.strip():
            continue
        j = i + 1
        while j < len(tokens) and (tokens[j].nesting == -1 or tokens[j].type == "html_block"):
            if data(tokens[j]):
                break
            j += 1
        beside = (j < len(tokens) and data(tokens[j])) or any(a < i < b for a, b in covered)
        text = MARKER.sub("", t.content) if MARKER.match(t.content) else t.content
        if not text.startswith(">>>"):
            yield offset + t.map[0] + 1, text, beside


def _split(text: str, lang: str) -> list[str]:
    return [s for s in SPLIT[lang].split(" ".join(text.split())) if s.strip()]


def _sources(root: Path) -> Iterator[tuple[str, str, int]]:
    """``(path from the root, Markdown, line of its first line)`` of every published text."""
    for path in sorted((root / "docs").rglob("*.md")):
        if "hooks" not in path.parts:
            text = path.read_text(encoding="utf-8")
            yield path.relative_to(root).as_posix(), FRONT_MATTER.sub(_blank, text), 0
    for path in sorted(root.glob("packages/*/README.md")):
        yield path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"), 0
    for path in sorted(root.glob("packages/*/src/jaxcb_*/[a-z]*.py")):
        if path.parent.name in ("jaxcb_core", "jaxcb_check"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree)
        if doc and tree.body:
            yield path.relative_to(root).as_posix(), doc, tree.body[0].lineno - 1


def sentences(root: Path = ROOT) -> Iterator[Sentence]:
    """Every sentence of the published prose."""
    for path, markdown, offset in _sources(root):
        lang = "zh" if path.endswith(".zh.md") else "en"
        for line, text, beside in blocks(markdown, offset):
            for s in _split(text, lang):
                yield Sentence(path, line, lang, s, beside)


def flagged(root: Path = ROOT) -> list[tuple[Sentence, str]]:
    """``(sentence, how it is held)`` of each absolute or counting sentence: ``data``,
    ``cited`` or ``""`` (it needs a reviewed entry)."""
    out = []
    for s in sentences(root):
        if not TERMS[s.lang].search(s.words):
            continue
        cited = bool(CHANGELOG.search(s.text)) or bool(
            JAX_SOURCE.search(s.text) and VERSION.search(s.text)
        )
        how = "data" if s.block else "cited" if cited else ""
        out.append((s, how))
    return out


def _entries(
    reviewed: Iterable[tuple[str, str, str]] | None, pending: Iterable[tuple[str, str]] | None
) -> list[tuple[str, str, str | None]]:
    """Reviewed entries with their reason, then the pending ones (reason ``None``)."""
    from . import prose_reviewed

    r = prose_reviewed.REVIEWED if reviewed is None else reviewed
    u = prose_reviewed.PENDING if pending is None else pending
    return [(p, q, why) for p, q, why in r] + [(p, q, None) for p, q in u]


def _held(
    root: Path, entries: list[tuple[str, str, str | None]]
) -> Iterator[tuple[Sentence, str, list[int]]]:
    """``(sentence, how it is held, the entries naming it)`` of each absolute sentence."""
    for s, how in flagged(root):
        hits = [i for i, (p, quote, _) in enumerate(entries) if p == s.path and quote in s.text]
        if not how and hits:
            how = "reviewed" if entries[hits[0]][2] is not None else "pending"
        yield s, how, hits


def check(
    root: Path = ROOT,
    reviewed: Iterable[tuple[str, str, str]] | None = None,
    pending: Iterable[tuple[str, str]] | None = None,
) -> list[str]:
    """One line per problem: an absolute sentence held by nothing, or a stale entry."""
    entries = _entries(reviewed, pending)
    problems = []
    used: Counter[int] = Counter()
    for s, how, hits in _held(root, entries):
        if how in ("data", "cited") and hits:
            problems.append(f"{s.path}:{s.line}: {s.text[:80]!r} is {how}: drop its entry")
        elif not how:
            problems.append(
                f"{s.path}:{s.line}: {s.text[:100]!r} is absolute and has no data directive, "
                "no cited JAX source (link and version) and no entry in prose_reviewed.py"
            )
        used.update(hits)
    for i, (path, quote, reason) in enumerate(entries):
        if reason is not None and not reason.strip():
            problems.append(f"prose_reviewed.py: {path}: {quote[:60]!r} gives no reason")
        if not used[i]:
            problems.append(f"prose_reviewed.py: {path}: {quote[:60]!r} matches no sentence")
    return problems


def counts(
    root: Path = ROOT,
    reviewed: Iterable[tuple[str, str, str]] | None = None,
    pending: Iterable[tuple[str, str]] | None = None,
) -> dict[str, Counter[str]]:
    """Per language, how many absolute sentences each means holds (``""``: nothing)."""
    out: dict[str, Counter[str]] = {"en": Counter(), "zh": Counter()}
    for s, how, _ in _held(root, _entries(reviewed, pending)):
        out[s.lang][how] += 1
        out[s.lang]["total"] += 1
    return out
