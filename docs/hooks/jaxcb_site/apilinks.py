"""Links to the JAX documentation, from one data file: ``docs/data/jax-api.json``.

``jaxcb_core.schema.ApiFile`` lists each JAX API name (with its other spellings) and the
page that documents it, and the release sections of the JAX changelog the pages cite. On
every page, after the directives are expanded:

- an inline code span that is exactly an API name, ``jax.pure_callback`` or
  ``jax.effects_barrier()``, becomes a link to its page (not in headings, code blocks or
  text that is already a link): nobody types a documentation URL on a page;
- a link to ``jax-changelog:0.4.35`` becomes a link to that release's section of the
  changelog, so a version fact on a page cites its source. A version the file does not list
  fails the build.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from jaxcb_core import schema

from .data import ROOT

API_FILE = ROOT / "docs" / "data" / "jax-api.json"
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
SPAN = re.compile(r"(?<!`)`([A-Za-z_][\w.]*)(\(\))?`(?!`)")
CHANGELOG = re.compile(r"\]\(jax-changelog:([0-9][0-9.]*)\)")


class ApiLinkError(ValueError):
    pass


@functools.lru_cache(maxsize=2)
def _load(path: Path, mtime: float) -> tuple[dict[str, str], dict[str, str]]:
    doc = schema.load_api(path)
    names = {n: a.url for a in doc.apis for n in (a.name, *a.aliases)}
    return names, {c.version: c.url for c in doc.changelog}


def tables() -> tuple[dict[str, str], dict[str, str]]:
    """``({api name: url}, {jax version: changelog url})``."""
    return _load(API_FILE, API_FILE.stat().st_mtime)


def url(name: str) -> str | None:
    return tables()[0].get(name)


def changelog(version: str) -> str:
    try:
        return tables()[1][version]
    except KeyError:
        raise ApiLinkError(
            f"jax-changelog:{version}: no such release in {API_FILE.relative_to(ROOT)}"
        ) from None


def _inside_link_text(line: str, pos: int) -> bool:
    """Whether ``pos`` is inside ``[...]`` (the text of a Markdown link) on its line."""
    depth = 0
    for ch in re.sub(r"`[^`]*`", lambda m: " " * len(m.group()), line[:pos]):
        depth += ch == "["
        depth -= ch == "]" and depth > 0
    return depth > 0


def _link_line(line: str, names: dict[str, str]) -> str:
    def sub(m: re.Match[str]) -> str:
        target = names.get(m.group(1))
        if target is None or _inside_link_text(line, m.start()):
            return m.group(0)
        return f"[{m.group(0)}]({target})"

    return SPAN.sub(sub, line)


def link(markdown: str) -> str:
    """The page's Markdown with API names and changelog citations linked."""
    names, _ = tables()
    out = []
    fence: str | None = None
    for line in markdown.split("\n"):
        f = FENCE.match(line)
        if fence is not None:
            if f and f.group(1)[0] == fence[0] and len(f.group(1)) >= len(fence):
                fence = None
            out.append(line)
            continue
        if f:
            fence = f.group(1)
            out.append(line)
            continue
        if line.lstrip().startswith("#") or line.lstrip().startswith("<"):
            out.append(line)  # headings; raw HTML lines (generated tables) keep their code
            continue
        line = CHANGELOG.sub(lambda m: f"]({changelog(m.group(1))})", line)
        out.append(_link_line(line, names))
    return "\n".join(out)
