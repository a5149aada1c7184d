"""Sentences about behaviour outside the pages, each held to the data by a check beside it.

A page states a behaviour next to an ``expect`` directive (:mod:`.claims`). The same kind
of sentence also reaches readers from the module docstrings the API and computation pages
render, the package READMEs, the code notes the site adds beside ``io_callback(`` and
``jax.debug.callback(`` (:mod:`.annotations`) and the row descriptions of the registries.
There the check sits beside the sentence too, with the arguments of the pages' directives:

- in Markdown (a package README, a docstring): ``<!-- jaxcb:expect ARGS -->`` or
  ``<!-- jaxcb:expect-observation ARGS -->`` alone on a line, after the paragraph or
  inside the list item it checks, as on a page (an HTML comment: no page shows it);
- in Python code (a code note, a row description): a comment ``# jaxcb:expect ARGS`` (or
  ``expect-observation``) on the lines just above the string it checks.

:func:`check` fails the build, naming the file and line of the check, when

- a check's cells no longer show what it says (the sentence beside it is false);
- a comment check is followed by no string (it checks nothing);
- a contract bullet about when and how often a callback runs (its bold title names
  running, steps, removal, order or effects) in a module of an effect package has no check
  in it (a new claim nobody checks); or
- a docstring sentence there promises a run count outright ("every time", "exactly once",
  "guaranteed", ...) and has no check beside it.

Rewording a sentence needs no second edit elsewhere; a sentence whose check goes with it
is caught by the last two rules and by the prose check (:mod:`.prose`).
"""

from __future__ import annotations

import ast
import dataclasses
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

from . import claims, prose
from .data import ROOT

__all__ = ["Marker", "check", "markers", "uncited_absolutes", "uncited_bullets"]

IO = "packages/jaxcb-io/src/jaxcb_io/"
DEBUG = "packages/jaxcb-debug/src/jaxcb_debug/"
# The effect packages: every bullet of theirs about when a callback runs carries a check.
COVERED = (IO, DEBUG)
RUN_TITLE = re.compile(r"run|step|remov|effect|advanc|order", re.IGNORECASE)
# Words that promise a run count outright: a docstring sentence with one needs a check.
ABSOLUTE = re.compile(
    r"every time|never removed|guaranteed|exactly once|always runs?\b|must run", re.IGNORECASE
)
CHECKS = ("expect", "expect-observation")
IN_MARKDOWN = re.compile(r"^[ \t]*<!-- jaxcb:([a-z-]+)((?:[ \t]+\S+)*?)[ \t]*-->[ \t]*$")
IN_PYTHON = re.compile(r"^[ \t]*# jaxcb:([a-z-]+)((?:[ \t]+\S+)*)[ \t]*$")
STRING = re.compile(r"""^[^#]*["']""")  # a line with a string literal on it


@dataclasses.dataclass(frozen=True)
class Marker:
    """One check beside a sentence: ``<!-- jaxcb:NAME ARGS -->`` or ``# jaxcb:NAME ARGS``."""

    path: str
    line: int
    name: str
    args: tuple[str, ...]
    dangling: bool = False  # a comment with no string after it

    def problems(self) -> list[str]:
        """What is wrong with it (nothing when its cells show what it says)."""
        where = f"{self.path}:{self.line}"
        if self.dangling:
            return [f"{where}: jaxcb:{self.name} is followed by no string: it checks nothing"]
        if self.name not in CHECKS:
            return [f"{where}: jaxcb:{self.name} is not a check (expect, expect-observation)"]
        try:
            if self.name == "expect":
                claims.d_expect(where, *self.args)
            else:
                claims.d_expect_observation(where, *self.args)
        except (claims.ClaimError, TypeError) as e:
            return [f"{where}: the sentence beside jaxcb:{self.name} {' '.join(self.args)}: {e}"]
        return []


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The line numbers (from 1) that the module's, classes' and functions' docstrings span."""
    out: set[int] = set()
    for node in [tree, *ast.walk(tree)]:
        body = getattr(node, "body", None)
        if not isinstance(body, list) or not body or not isinstance(body[0], ast.Expr):
            continue
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            out.update(range(value.lineno, (value.end_lineno or value.lineno) + 1))
    return out


def _file_markers(path: Path, rel: str) -> Iterator[Marker]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".md":
        docs = set(range(1, len(lines) + 1))
    elif rel.startswith("docs/hooks/"):  # the site's code: its docstrings describe the engine
        docs = set()
    else:
        docs = _docstring_lines(ast.parse("\n".join(lines)))
    for i, text in enumerate(lines, 1):
        m = IN_MARKDOWN.match(text) if i in docs else IN_PYTHON.match(text)
        if not m:
            continue
        # a comment: the next line that is not one holds the string it checks
        after = "" if i in docs else next((t for t in lines[i:] if not IN_PYTHON.match(t)), "")
        args = tuple(shlex.split(m[2]))  # as a page's directive: "a quoted value" is one
        yield Marker(rel, i, m[1], args, i not in docs and not STRING.match(after))


def _files(root: Path) -> Iterator[Path]:
    yield from sorted(root.glob("packages/*/README.md"))
    yield from sorted(root.glob("packages/*/src/jaxcb_*/**/*.py"))
    yield from sorted(root.glob("docs/hooks/jaxcb_site/*.py"))


def markers(root: Path = ROOT) -> list[Marker]:
    """Every check beside a sentence in the READMEs, the packages and the site's code."""
    return [m for p in _files(root) for m in _file_markers(p, p.relative_to(root).as_posix())]


def _covered(root: Path) -> Iterator[tuple[str, ast.Module]]:
    """``(path from the root, parsed module)`` of every module of the effect packages."""
    for package in COVERED:
        for path in sorted((root / package).glob("*.py")):
            yield path.relative_to(root).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _bullets(tree: ast.Module) -> list[tuple[str, str]]:
    """``(title, text)`` of each contract bullet (``- **Title.** text``, its indented lines
    included) of a module docstring."""
    doc = ast.get_docstring(tree) or ""
    found = re.finditer(r"^- \*\*(.+?)\*\*(.*?)(?=^\S|\Z)", doc, re.M | re.S)
    return [(m[1], m[2]) for m in found]


def uncited_bullets(root: Path = ROOT) -> list[str]:
    """Bullets about when a callback runs, in the effect packages, with no check in them."""
    return [
        f"{rel}: the bullet {title!r} says how the callback runs and has no jaxcb:expect "
        "check in it"
        for rel, tree in _covered(root)
        for title, text in _bullets(tree)
        if RUN_TITLE.search(title) and not any(IN_MARKDOWN.match(t) for t in text.splitlines())
    ]


def _docstrings(tree: ast.Module) -> Iterator[str]:
    """The module's docstring and every function's and class's."""
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef))]
    yield from (d for n in nodes if (d := ast.get_docstring(n)))


def uncited_absolutes(root: Path = ROOT) -> list[str]:
    """Sentences of the effect packages' docstrings that promise a run count outright
    ("every time", "exactly once", ...) with no check beside them."""
    out = []
    for rel, tree in _covered(root):
        for doc in _docstrings(tree):
            for _, text, beside in prose.blocks(doc):
                for sentence in re.split(r"(?<=[.:;])\s+", " ".join(text.split())):
                    if ABSOLUTE.search(sentence) and not beside:
                        out.append(
                            f"{rel}: {sentence[:90]!r} promises a run count and has no check "
                            "beside it"
                        )
    return out


def check(root: Path = ROOT) -> list[str]:
    """Every problem with the checks beside sentences, one line each (nothing when all hold)."""
    problems = [p for m in markers(root) for p in m.problems()]
    return problems + uncited_bullets(root) + uncited_absolutes(root)
