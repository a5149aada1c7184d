"""The code tabs of the computation pages, generated from the package files.

For every mechanism package in ``packages/`` (``jaxcb_native``, ``jaxcb_pure``,
...; a new package such as ``jaxcb_ffi`` or ``jaxcb_legacy`` adds a tab by
existing) and every computation of the catalog:

- if the package has the module ``<computation>.py``, the tab shows its module
  docstring (the contract) and includes every named snippet section of the file
  (``host``, ``callback``, ``pattern``, ...) in file order through
  ``pymdownx.snippets`` with ``check_paths: true``, so a renamed section breaks
  the build;
- if it does not, the tab shows the reason the package's registry gives
  (``unsupported`` in ``jaxcb_core.mechanisms.discover()``).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import Any

from . import annotations
from .data import ROOT

SECTION = re.compile(r"^\s*#\s*-{1,}8<-{1,}\s*\[\s*(start|end)\s*:\s*([a-z][-_0-9a-z]*)\s*\]")
# Tab labels: the mechanism a reader picks. A package not listed here is labelled
# by the mechanism of its first variant (or its own name).
TAB_LABELS = {
    "jaxcb_native": "native",
    "jaxcb_pure": "pure_callback",
    "jaxcb_io": "io_callback",
    "jaxcb_debug": "debug.callback",
    "jaxcb_legacy": "legacy",
}
TAB_ORDER = ("jaxcb_native", "jaxcb_pure", "jaxcb_io", "jaxcb_debug", "jaxcb_legacy")


@dataclasses.dataclass(frozen=True)
class Package:
    name: str  # import name, e.g. jaxcb_pure
    src: Path  # packages/jaxcb-pure/src/jaxcb_pure

    @property
    def rel(self) -> str:
        return self.src.relative_to(ROOT).as_posix()

    def module(self, computation: str) -> Path | None:
        p = self.src / f"{computation}.py"
        return p if p.is_file() else None


def packages() -> list[Package]:
    """The mechanism packages of the repository (every package but jaxcb_core)."""
    out = []
    for reg in sorted(ROOT.glob("packages/*/src/*/_registry.py")):
        name = reg.parent.name
        if name != "jaxcb_core":
            out.append(Package(name, reg.parent))
    rank = {n: i for i, n in enumerate(TAB_ORDER)}
    return sorted(out, key=lambda p: (rank.get(p.name, len(rank)), p.name))


@functools.cache
def registry() -> tuple[Any, ...]:
    """The installed variants; an import error in a package fails the build."""
    from jaxcb_core.mechanisms import discover

    return tuple(discover())


def tab_label(pkg: Package) -> str:
    if pkg.name in TAB_LABELS:
        return TAB_LABELS[pkg.name]
    for v in registry():
        if v.package == pkg.name:
            return v.mechanism
    return pkg.name.removeprefix("jaxcb_")


def reasons(pkg: Package, computation: str) -> list[tuple[str, str]]:
    """``(variant id, reason)`` for each of the package's variants that lacks the computation."""
    return [
        (v.id, v.unsupported[computation])
        for v in registry()
        if v.package == pkg.name and computation in v.unsupported
    ]


def variants_of(pkg: Package) -> list[Any]:
    return [v for v in registry() if v.package == pkg.name]


def sections(path: Path) -> list[tuple[str, list[str]]]:
    """Named sections of a file, in order, with their lines as snippets includes them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[tuple[str, list[str]]] = []
    open_: dict[str, list[str]] = {}
    order: list[str] = []
    for line in lines:
        m = SECTION.match(line)
        if m:
            kind, name = m.groups()
            if kind == "start":
                open_[name] = []
                order.append(name)
            elif name in open_:
                out.append((name, open_.pop(name)))
            continue
        for body in open_.values():
            body.append(line)
    rank = {n: i for i, n in enumerate(order)}
    return sorted(out, key=lambda s: rank[s[0]])


def docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def indent(text: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line if line.strip() else "" for line in text.splitlines())


def code_block(
    pkg: Package, computation: str, path: Path, section: str | None, body: list[str]
) -> str:
    """One fenced block that includes ``path:section`` (or the whole file), with its annotations."""
    rel = path.relative_to(ROOT).as_posix()
    notes = annotations.for_section(pkg.name, computation, body)
    parts = []
    if notes:
        spec = [[needle, i + 1] for i, (needle, _) in enumerate(notes)]
        parts.append(f"<!-- jaxcb-annotate {json.dumps(spec)} -->")
    parts += [
        f'```python title="{rel}{f" · {section}" if section else ""}"',
        f'--8<-- "{rel}{f":{section}" if section else ""}"',
        "```",
    ]
    if notes:
        parts.append("")
        parts += [f"{i + 1}.  {text}" for i, (_, text) in enumerate(notes)]
    return "\n".join(parts)


def tab(pkg: Package, computation: str) -> str:
    label = tab_label(pkg)
    path = pkg.module(computation)
    body: list[str] = []
    if path is None:
        why = reasons(pkg, computation)
        if why:
            items = "\n".join(f"- `{vid}`: {reason}" for vid, reason in why)
            text = f"Why, according to `{pkg.name}`'s registry:\n\n{items}"
        elif not variants_of(pkg):
            text = (
                f"`{pkg.name}` registers no variant on the JAX this site was built with, "
                "and has no module for this computation."
            )
        else:
            raise ValueError(
                f"{pkg.rel} has no {computation}.py and its registry gives no reason: "
                "list it as unsupported with a reason"
            )
        body.append(
            f'!!! failure "`{pkg.name}` does not implement `{computation}`"\n\n{indent(text, 4)}'
        )
    else:
        annotations.check_specific(pkg.name, computation, path.read_text(encoding="utf-8"))
        doc = docstring(path)
        if doc:
            body.append(
                f'!!! abstract "Contract, from the docstring of `{pkg.name}.{computation}`"\n\n'
                + indent(doc, 4)
            )
        secs = sections(path)
        if secs and not any(name == "pattern" for name, _ in secs):
            raise ValueError(f"{path.relative_to(ROOT)} has sections but no `pattern` section")
        if secs:
            body += [code_block(pkg, computation, path, name, lines) for name, lines in secs]
        else:  # a module without snippet sections is shown whole
            lines = path.read_text(encoding="utf-8").splitlines()
            body.append(code_block(pkg, computation, path, None, lines))
        partial = reasons(pkg, computation)
        if partial:
            items = "\n".join(f"- `{vid}`: {reason}" for vid, reason in partial)
            body.append(
                '!!! info "Variants of this package without it"\n\n'
                + indent(f"From `{pkg.name}`'s registry:\n\n{items}", 4)
            )
    return f'=== "{label}"\n\n' + indent("\n\n".join(body), 4)


def tabs(computation: str) -> str:
    """All tabs for one computation, as Markdown (snippet lines still unexpanded)."""
    return "\n\n".join(tab(p, computation) for p in packages())


def snippet_refs(markdown: str) -> list[tuple[str, str | None]]:
    """``(path, section)`` of every ``--8<--`` include in ``markdown``."""
    out = []
    for m in re.finditer(r'^\s*-{1,}8<-{1,}\s+"([^"]+)"\s*$', markdown, re.M):
        ref = m.group(1)
        path, _, section = ref.partition(":")
        out.append((path, section or None))
    return out
