"""Large generated HTML kept aside while a page is converted, and put back at the end.

The directives write the matrix tables as HTML (up to a megabyte on a computation
page). Markdown would parse every tag of them, the glossary linker would
scan them, and the search plugin would parse them only to drop them (they carry
``data-search-exclude``); none of that changes them. So :func:`keep` swaps each such block
for an empty placeholder element before Markdown runs, and :func:`restore` puts the
original back into the finished page. The pages come out as before, except that the
glossary no longer links a term's first use inside such a block (on the matrix page,
"device" in an environment's line) and search no longer indexes that line.
"""

from __future__ import annotations

import itertools
import re

__all__ = ["keep", "restore"]

MIN_CHARS = 2048
"""Shorter blocks are not worth a placeholder."""

# A generated block of the ``jx-`` family opening at the start of a line.
_OPEN = re.compile(r'^([ \t]*)<div class="jx-', re.M)
_DIV = re.compile(r"<(/?)div\b")
_MARK = re.compile(r'<div data-jx-kept="(\d+)"></div>')
_KEPT: dict[str, str] = {}
_IDS = itertools.count()


def _close(text: str, start: int) -> int | None:
    """Where the ``<div`` at ``start`` closes, if it closes at the end of a line."""
    depth = 0
    for m in _DIV.finditer(text, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            end = text.find(">", m.start()) + 1
            eol = text.find("\n", end)
            return end if not text[end : eol if eol >= 0 else len(text)].strip() else None
    return None


def keep(markdown: str) -> str:
    """``markdown`` with each long generated HTML block replaced by a placeholder.

    A block is kept when it opens at the start of a line and its ``</div>`` ends a line.
    Its lines after the first lose the block's indentation, as Markdown would strip it
    inside an indented container (a tab, a list item)."""
    out: list[str] = []
    pos = 0
    for m in _OPEN.finditer(markdown):
        if m.start() < pos:
            continue
        end = _close(markdown, m.end() - len('<div class="jx-'))
        if end is None or end - m.start() < MIN_CHARS:
            continue
        indent = m.group(1)
        block = markdown[m.end(1) : end]
        if indent:
            block = block.replace("\n" + indent, "\n")
        key = str(next(_IDS))
        _KEPT[key] = block
        out.append(markdown[pos : m.start()] + f'{indent}<div data-jx-kept="{key}"></div>')
        pos = end
    out.append(markdown[pos:])
    return "".join(out)


def restore(html: str) -> str:
    """``html`` with every placeholder replaced by the block it stands for."""
    return _MARK.sub(lambda m: _KEPT.pop(m.group(1)), html)
