"""A Markdown preprocessor that puts code-annotation markers on included lines.

``code.code_block`` writes ``<!-- jaxcb-annotate [[needle, n], ...] -->`` before a
fence whose body is a ``--8<--`` include. ``pymdownx.snippets`` (priority 32)
expands the include first; this preprocessor (priority 31) then appends the
Material for MkDocs marker ``(n)`` to the first line of the fence containing
``needle``: inside the line's own comment if it has one, else as ``# (n)!``.
"""

from __future__ import annotations

import json
import re

from markdown import Extension
from markdown.preprocessors import Preprocessor

MARK = re.compile(r"^(\s*)<!-- jaxcb-annotate (\[.*\]) -->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
# a comment: '#' preceded by whitespace, outside of a string on simple lines
COMMENT = re.compile(r"\s#\s")


class AnnotationError(ValueError):
    pass


def _mark(line: str, n: int) -> str:
    if COMMENT.search(line) and line.count('"') % 2 == 0 and line.count("'") % 2 == 0:
        return f"{line} ({n})"
    return f"{line}  # ({n})!"


class AnnotatePreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            m = MARK.match(lines[i])
            if not m:
                out.append(lines[i])
                i += 1
                continue
            spec = json.loads(m.group(2))
            i += 1
            f = FENCE.match(lines[i]) if i < len(lines) else None
            if not f:
                raise AnnotationError("jaxcb-annotate must be followed by a code fence")
            ind, fence = f.groups()
            start = i + 1
            end = start
            while end < len(lines) and not (
                lines[end].startswith(ind + fence[0] * 3) and lines[end].strip() == fence
            ):
                end += 1
            body = lines[start:end]
            for needle, n in spec:
                hit = next((k for k, text in enumerate(body) if needle in text), None)
                if hit is None:
                    raise AnnotationError(
                        f"annotation needle {needle!r} not found in the included code"
                    )
                body[hit] = _mark(body[hit], n)
            out.append(lines[i])
            out.extend(body)
            i = end
        return out


class AnnotateExtension(Extension):
    def extendMarkdown(self, md) -> None:
        md.preprocessors.register(AnnotatePreprocessor(md), "jaxcb_annotate", 31)
