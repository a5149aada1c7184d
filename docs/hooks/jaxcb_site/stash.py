"""Large generated HTML kept aside while a page is converted, and put back at the end.

The directives write the matrix tables as one line of HTML each (up to a megabyte on a
computation page). Markdown would parse every tag of them, the glossary linker would
scan them, and the search plugin would parse them only to drop them (they carry
``data-search-exclude``); none of that changes them. So :func:`keep` swaps each such line
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

# One whole element on one line: a generated block of the ``jx-`` family.
_BLOCK = re.compile(r'^([ \t]*)(<div class="jx-[^\n]*</div>)[ \t]*$', re.M)
_MARK = re.compile(r'<div data-jx-kept="(\d+)"></div>')
_KEPT: dict[str, str] = {}
_IDS = itertools.count()


def _whole(html: str) -> bool:
    return html.count("<div") == html.count("</div>")


def keep(markdown: str) -> str:
    """``markdown`` with each long one-line generated HTML block replaced by a placeholder."""

    def sub(m: re.Match[str]) -> str:
        block = m.group(2)
        if len(block) < MIN_CHARS or not _whole(block):
            return m.group(0)
        key = str(next(_IDS))
        _KEPT[key] = block
        return f'{m.group(1)}<div data-jx-kept="{key}"></div>'

    return _BLOCK.sub(sub, markdown)


def restore(html: str) -> str:
    """``html`` with every placeholder replaced by the block it stands for."""
    return _MARK.sub(lambda m: _KEPT.pop(m.group(1)), html)
