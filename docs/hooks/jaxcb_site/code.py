"""The code tabs of the computation pages, generated from the package files.

For every mechanism package in ``packages/`` (a package with a ``_registry.py``: a new
one adds a tab by existing) and every computation of the catalog:

- if the package has the module ``<computation>.py`` (or a module with a snippet
  section named ``<computation>``, where one module holds several short patterns:
  that section, and the sections not named after a computation, which every pattern
  there shares), the tab shows its module
  docstring (the contract) and includes every named snippet section of the file
  (``host``, ``callback``, ``pattern``, ...) in file order through
  ``pymdownx.snippets`` with ``check_paths: true``, so a renamed section breaks
  the build; a C++ file of the same name beside it (``<computation>.cc``) is shown
  after it, with the ``CMakeLists.txt`` that builds it: the files a reader copies;
- if it does not, the tab shows the reason the package's registry gives, as the
  committed matrix files record it (``unsupported`` of each variant);
- then the whole file, collapsed (imports, checks, ``VMAP_METHOD``: it runs as it is
  when copied, ``tests/packages/test_copy_alone.py``), a link that downloads each file
  of the pattern (served from ``downloads/<package>/<computation>/``, added to the
  site by :func:`add_files`), its link on GitHub, and the runnable example
  ``docs/examples/<package>/<computation>.py`` with the output ``tests/examples``
  recorded (``jaxcb_site.examples``).

A tab is labelled with the mechanism of the package's first variant (lowest ``order``)
in the matrix files, and tabs are in that order: nothing here lists the packages.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import posixpath
import re
from pathlib import Path
from typing import Any

from . import annotations, data, deferred, examples
from .data import ROOT

SECTION = re.compile(
    r"^\s*(?:#|//)\s*-{1,}8<-{1,}\s*\[\s*(start|end)\s*:\s*([a-z][-_0-9a-z]*)\s*\]"
)
SOURCES = (".py", ".cc")
LANGS = {
    ".py": "python",
    ".cc": "cpp",
    ".txt": "cmake",
}  # a pattern module, and the C++ kernel beside it where there is one
DOWNLOADS = "downloads"  # the site folder the pattern files are served from
# The repository on GitHub, from mkdocs.yml's repo_url (set by the hook's on_config).
REPOSITORY: dict[str, str | None] = {"url": None, "branch": "main"}


def github(rel: str) -> str | None:
    """The GitHub page of a repository file (``rel``: relative to the root), or None."""
    url = REPOSITORY["url"]
    return f"{url.rstrip('/')}/blob/{REPOSITORY['branch']}/{rel}" if url else None


@dataclasses.dataclass(frozen=True)
class Package:
    name: str  # import name, e.g. jaxcb_pure
    src: Path  # packages/jaxcb-pure/src/jaxcb_pure

    @property
    def rel(self) -> str:
        return self.src.relative_to(ROOT).as_posix()

    def module(self, computation: str) -> Path | None:
        """``<computation>.py``, or the public module with a section named ``computation``
        (a package whose patterns are one line each keeps them in one module)."""
        p = self.src / f"{computation}.py"
        if p.is_file():
            return p
        shared = (q for q in sorted(self.src.glob("*.py")) if not q.name.startswith("_"))
        return next((q for q in shared if computation in dict(sections(q))), None)

    def sources(self, computation: str) -> list[Path]:
        """The files a reader copies for one pattern: the module, and a kernel of the same
        name with the ``CMakeLists.txt`` that builds it."""
        path = self.module(computation)
        if path is None:
            return []
        found = [p for ext in SOURCES if (p := path.with_suffix(ext)).is_file()]
        if len(found) > 1 and (cmake := path.parent / "CMakeLists.txt").is_file():
            found.append(cmake)
        return found

    def download(self, computation: str, source: Path) -> str:
        """Where the site serves one of the pattern's files, from the site's root."""
        return f"{DOWNLOADS}/{self.name}/{computation}/{source.name}"


def _order(pkg: Package) -> tuple[int, str]:
    orders = [v["order"] for v in variants_of(pkg)]
    return (min(orders) if orders else 1 << 30, pkg.name)


def packages() -> list[Package]:
    """The mechanism packages of the repository (a ``_registry.py`` makes one), in the
    order of their first variant."""
    found = [
        Package(reg.parent.name, reg.parent) for reg in ROOT.glob("packages/*/src/*/_registry.py")
    ]
    return sorted(found, key=_order)


def registry() -> list[dict[str, Any]]:
    """Every variant the committed matrix files describe."""
    return data.variants()


def variants_of(pkg: Package) -> list[dict[str, Any]]:
    return [v for v in registry() if v["package"] == pkg.name]


def tab_label(pkg: Package) -> str:
    """The mechanism of the package's first variant; its own name until it is measured."""
    first = variants_of(pkg)
    return first[0]["mechanism"] if first else pkg.name


def reasons(pkg: Package, computation: str) -> list[tuple[str, str]]:
    """``(variant id, reason)`` for each of the package's variants that lacks the computation."""
    return [
        (v["id"], v["unsupported"][computation])
        for v in variants_of(pkg)
        if computation in v["unsupported"]
    ]


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


def pattern_sections(path: Path, computation: str) -> list[tuple[str, list[str]]]:
    """The sections of ``path`` that show ``computation``: every one in its own module; in a
    module of several patterns, the one named after it and the ones every pattern there
    uses (a section not named after a computation, e.g. the helper they share)."""
    secs = sections(path)
    if path.stem == computation:
        return secs
    names = {c["name"] for c in data.computations()}
    return [s for s in secs if s[0] == computation or s[0] not in names]


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
    lang = LANGS.get(path.suffix, "text")
    parts += [
        f'```{lang} title="{rel}{f" · {section}" if section else ""}"',
        f'--8<-- "{rel}{f":{section}" if section else ""}"',
        "```",
    ]
    if notes:
        parts.append("")
        parts += [f"{i + 1}.  {text}" for i, (_, text) in enumerate(notes)]
    return "\n".join(parts)


def whole_file(path: Path) -> str:
    """The whole file, collapsed: what a copy needs (imports, checks, constants)."""
    rel = path.relative_to(ROOT).as_posix()
    lang = LANGS.get(path.suffix, "text")
    inner = "\n".join([f'```{lang} title="{rel}"', f'--8<-- "{rel}"', "```"])
    return (
        f'??? example {deferred.WHOLE} "The whole file, `{path.name}`: imports, checks and '
        'constants included"\n\n' + indent(inner, 4)
    )


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
                f"No committed matrix file measured `{pkg.name}` yet, "
                "and it has no module for this computation."
            )
        else:
            raise ValueError(
                f"{pkg.rel} has no {computation}.py and its registry gives no reason: "
                "list it as unsupported with a reason"
            )
        # not an alarm as the first thing the tab shows: a collapsed note whose title says
        # where the computation is written (plain names: in a title nothing links them)
        done = [tab_label(p) for p in packages() if p.module(computation) is not None]
        if len(done) > 1:
            where = f"written with {', '.join(done[:-1])} and {done[-1]} (see those tabs)"
        elif done:
            where = f"written with {done[0]} (see that tab)"
        else:
            where = "written with no package here"
        text = f"`{pkg.name}` does not implement `{computation}`. {text}"
        body.append(f'??? note "Not in this tab: `{computation}` is {where}"\n\n{indent(text, 4)}')
    else:
        annotations.check_specific(
            pkg.name,
            computation,
            "\n".join(p.read_text(encoding="utf-8") for p in pkg.sources(computation)),
        )
        doc = docstring(path)
        if doc:
            body.append(
                f'!!! abstract "Contract, from the docstring of `{pkg.name}.{computation}`"\n\n'
                + indent(doc, 4)
            )
        secs = pattern_sections(path, computation)
        if path.stem == computation and secs and not any(name == "pattern" for name, _ in secs):
            raise ValueError(f"{path.relative_to(ROOT)} has sections but no `pattern` section")
        body.append(copy_these(pkg, computation))
        for source in pkg.sources(computation):
            secs = pattern_sections(source, computation)
            if secs:
                body += [code_block(pkg, computation, source, name, lines) for name, lines in secs]
                body.append(whole_file(source))
            else:  # a file without snippet sections is shown whole
                lines = source.read_text(encoding="utf-8").splitlines()
                body.append(code_block(pkg, computation, source, None, lines))
        if examples.path(pkg.name, computation):
            body.append(
                examples.block(
                    pkg.name, computation, src=f"computations/{computation}.md", link=github
                )
            )
        partial = reasons(pkg, computation)
        if partial:
            items = "\n".join(f"- `{vid}`: {reason}" for vid, reason in partial)
            body.append(
                '!!! info "Variants of this package without it"\n\n'
                + indent(f"From `{pkg.name}`'s registry:\n\n{items}", 4)
            )
    return f'=== "{label}"\n\n' + indent("\n\n".join(body), 4)


def copy_these(pkg: Package, computation: str) -> str:
    """What a reader copies: each file to download, and the build of an FFI kernel."""
    sources = pkg.sources(computation)
    here = posixpath.dirname(f"computations/{computation}.md")
    files = " · ".join(
        f"[`{p.name}`]({posixpath.relpath(pkg.download(computation, p), here)}){{: download }}"
        for p in sources
    )
    gh = " · ".join(
        f"[`{p.name}`]({url})" for p in sources if (url := github(p.relative_to(ROOT).as_posix()))
    )
    if len(sources) == 1:
        text = (
            f"Copy this file: {files}. It runs as it is, beside your code, with only JAX, "
            "NumPy and SciPy installed (expand the whole file below the sections)."
        )
    else:
        text = f"Copy these {len(sources)} files into one folder: {files}."
        if any(p.name == "CMakeLists.txt" for p in sources):
            text += (
                " Build the kernel there with the Python that has JAX, and the module loads "
                "it from beside itself:\n\n"
                "```bash\n"
                'cmake -S . -B build -DPython_EXECUTABLE="$(command -v python3)"\n'
                "cmake --build build\n"
                "```"
            )
    return text + (f"\n\nOn GitHub: {gh}." if gh else "")


def add_files(files: Any, config: Any) -> Any:
    """Every pattern's files, served for download beside the site (nothing written to docs/)."""
    from mkdocs.structure.files import File

    for pkg in packages():
        for c in data.computations():
            for source in pkg.sources(c["name"]):
                uri = pkg.download(c["name"], source)
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, abs_src_path=str(source)))
    return files


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
