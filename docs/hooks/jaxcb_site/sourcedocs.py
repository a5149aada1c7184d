"""The directives that read the packages' source: a package's API reference blocks
(mkdocstrings) and ``jaxcb check``'s rule table, its findings on the seed texts and its
precision and recall on its corpus, from ``jaxcb_check`` (standard library only)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from . import data
from .dirbase import DirectiveError, catalog
from .render import esc


def d_api(src: str, package: str, part: str = "") -> str:
    """A mkdocstrings block for the package and each public module, in catalog order.

    ``part`` renders a piece of a large package on a page of its own: ``modules`` its
    top-level modules, the name of a sub-package (``schema``) that sub-package."""
    from .data import ROOT

    pkg_dir = next(iter(ROOT.glob(f"packages/*/src/{package}")), None)
    if pkg_dir is None:
        raise DirectiveError(f"no package {package} under packages/*/src")

    # the command lines (cli.py) are documented on the "Run it yourself" page, not as an API
    def public(d: Path) -> list[str]:
        return sorted(
            p.stem for p in d.glob("*.py") if not p.stem.startswith("_") and p.stem != "cli"
        )

    order = {c: i for i, c in enumerate(catalog())}
    names = sorted(public(pkg_dir), key=lambda n: (order.get(n, len(order)), n))
    blocks = [f"::: {package}.{n}" for n in names] if part in ("", "modules") else []
    rooms = sorted(d for d in pkg_dir.iterdir() if (d / "__init__.py").is_file())
    if part not in ("", "modules", *(r.name for r in rooms)):
        raise DirectiveError(f"{src}: {package} has no sub-package {part}")
    # a sub-package (the core's rooms, its catalog and schema): its own docstring and what
    # its __init__ defines itself (not what it imports from its modules), then each module
    for room in rooms:
        if part and room.name != part:
            continue
        own = _defined(room / "__init__.py")
        members = f"[{', '.join(own)}]" if own else "false"
        blocks.append(f"::: {package}.{room.name}\n    options:\n      members: {members}")
        blocks += [f"::: {package}.{room.name}.{n}" for n in public(room)]
    return "\n\n".join(blocks)


def _defined(path: Path) -> list[str]:
    """The public names a module defines itself: its functions, classes and assignments."""
    names = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [t.id for t in targets if isinstance(t, ast.Name)]
    return [n for n in names if not n.startswith("_")]


def d_check_rules(src: str, what: str = "rules") -> str:
    """``jaxcb check``'s rule table (``rules``), its findings on the two source texts' code
    (``seeds``) or its precision and recall on its corpus (``corpus``), the last two checked
    at build time, from ``jaxcb_check`` (standard library only)."""
    from jaxcb_check import checker as check

    def md(s: str) -> str:  # table-cell text; `code spans` kept as written
        parts = re.split(r"(`[^`]*`)", s)
        return "".join(
            p if p.startswith("`") else esc(p).replace("*", "\\*") for p in parts
        ).replace("|", "\\|")

    if what == "rules":
        rows = [
            "| rule | what it finds | replacement | heuristic? | JAX facts (source) |",
            "|---|---|---|---|---|",
        ]
        cited: dict[tuple[Any, ...], str] = {}
        for r in check.RULES:
            facts = cited.setdefault(r.facts, r.id)
            cell = (
                f"as `{facts}`"
                if facts != r.id
                else "<br>".join(f"{md(f.text)} ([{md(f.source)}]({f.url}))" for f in r.facts)
            )
            kind = "**yes**" if r.heuristic else "no"
            note = f": {md(r.note)}" if r.note else ""
            rows.append(
                f"| `{r.id}` | {md(r.title)} | {md(r.replacement)} | {kind}{note} | {cell} |"
            )
        return "\n".join(rows)
    if what == "corpus":
        return _check_corpus(check)
    if what != "seeds":
        raise DirectiveError(f"check-rules: unknown argument {what!r} (rules, seeds or corpus)")
    seeds = sorted(data.ROOT.glob("tests/core/seeds/*.py"))
    report = check.check_paths([str(p) for p in seeds])
    if not seeds or report.errors:
        raise DirectiveError(f"check-rules seeds: tests/core/seeds/*.py: {report.errors}")
    # Each file is shown under the name of the text it comes from (its header says: `the
    # Chinese pure_callback tutorial`), as a reader who saved that code would have it.
    shown: dict[Path, tuple[str, str, str]] = {}
    for p in seeds:
        head = " ".join(
            ln.lstrip("#").strip() for ln in p.read_text(encoding="utf-8").splitlines()[:8]
        )
        text = re.sub(r"\s+", " ", head)
        title = re.search(r'text "([^"]+)"', text)
        known = re.search(
            r"\((the Chinese pure_callback tutorial|JAX's early External callbacks guide)", text
        )
        who = known.group(1) if known else p.stem
        file = re.sub(r"[^a-z0-9]+", "_", re.sub(r"^(the|jax's) ", "", who.lower())).strip("_")
        shown[p] = (f"{file}.py", who, title.group(1) if title else who)
    out = ["```text", "$ jaxcb check " + " ".join(f for f, _, _ in shown.values())]
    items = []
    for p, (file, who, title) in shown.items():
        lines = p.read_text(encoding="utf-8").splitlines()
        mine = [f for f in report.findings if f.path == str(p)]
        out += [f.text().replace(str(p), file, 1) for f in mine]
        flagged = "".join(
            f"\n    - line {f.line}: `{lines[f.line - 1].strip()}` → `{f.rule}`" for f in mine
        )
        n = f"{len(mine)} finding{'s' * (len(mine) != 1)}"
        items.append(f"- `{file}`, the code of {who} (“{title}”): {n}{flagged}")
    return "\n".join([*out, "```", "", *items])


EXPECT = re.compile(r"#\s*expect:\s*(JXC\d{3}(?:\s*,\s*JXC\d{3})*)\s*$")


def _check_corpus(check: Any) -> str:
    """The checker run on ``tests/core/check_corpus`` now: precision and recall against the
    ``# expect:`` comments, in all and per rule."""
    files = sorted(data.ROOT.glob("tests/core/check_corpus/*.py"))
    report = check.check_paths([str(p) for p in files])
    if not files or report.errors:
        raise DirectiveError(f"check-rules corpus: tests/core/check_corpus: {report.errors}")
    got = {(Path(f.path).name, f.line, f.rule) for f in report.findings}
    want = set()
    for p in files:
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
            m = EXPECT.search(line)
            if m:
                want |= {(p.name, n, r.strip()) for r in m.group(1).split(",")}
    true = got & want

    def pct(a: int, b: int) -> str:
        return f"{a / b:.0%}" if b else "–"

    rows = ["| rule | expected | reported | right |", "|---|---|---|---|"]
    for r in check.RULES:
        w = {x for x in want if x[2] == r.id}
        g = {x for x in got if x[2] == r.id}
        rows.append(f"| `{r.id}` | {len(w)} | {len(g)} | {len(w & g)} |")
    return (
        f"On {len(files)} files ({', '.join(f'`{p.name}`' for p in files)}), checked when this "
        f"page was built: {len(got)} findings for {len(want)} expected, **precision "
        f"{pct(len(true), len(got))}, recall {pct(len(true), len(want))}**.\n\n" + "\n".join(rows)
    )
