"""The runnable examples: ``docs/examples/<package>/<name>.py`` and the output each printed.

The site is built without JAX, so it runs nothing: ``tests/examples`` runs every example in a
fresh Python process on each JAX it is installed with and records what it printed in
``docs/data/examples/<jax>.json`` (``jaxcb_core.schema.ExamplesFile``), with the hash of the
source it ran. Here an example is shown whole (``pymdownx.snippets`` includes the file), then
its output per JAX version, identical outputs once. An output recorded from an older version of
the file, or an example no file has an output for, fails the build: the page never shows an
output next to code that did not print it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import posixpath
from pathlib import Path
from typing import Any

from jaxcb_core import schema

from .data import ROOT, _version_key

EXAMPLES_DIR = ROOT / "docs" / "examples"
DATA_DIR = ROOT / "docs" / "data" / "examples"
UPDATE = "tox -e py312 -- tests/examples --update-examples"  # and py311, legacy


class ExampleError(ValueError):
    pass


def path(package: str, name: str) -> Path | None:
    p = EXAMPLES_DIR / package / f"{name}.py"
    return p if p.is_file() else None


@functools.lru_cache(maxsize=4)
def _load(stamp: tuple[tuple[str, float], ...]) -> tuple[schema.ExamplesFile, ...]:
    docs = [schema.load_examples(DATA_DIR / name) for name, _ in stamp]
    return tuple(sorted(docs, key=lambda d: _version_key(d.environment.jax), reverse=True))


def files() -> tuple[schema.ExamplesFile, ...]:
    """Every examples file, newest JAX first."""
    stamp = tuple((p.name, p.stat().st_mtime) for p in schema.files(DATA_DIR))
    return _load(stamp)


def outputs(example: str) -> list[tuple[list[str], str]]:
    """``[(JAX versions, output), ...]`` for one example id, identical outputs merged."""
    source = EXAMPLES_DIR / f"{example}.py"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    groups: dict[str, list[str]] = {}
    stale = []
    for f in files():
        run = next((e for e in f.examples if e.id == example), None)
        if run is None:
            continue
        if run.source_sha256 != digest:
            stale.append(f.environment.jax)
            continue
        groups.setdefault(run.output, []).append(f.environment.jax)
    if stale:
        raise ExampleError(
            f"docs/examples/{example}.py changed after its output was recorded for JAX "
            f"{', '.join(stale)}: run `{UPDATE}` in each of those environments"
        )
    if not groups:
        raise ExampleError(f"no recorded output for docs/examples/{example}.py: run `{UPDATE}`")
    return [(versions, out) for out, versions in groups.items()]


def needs(source: Path) -> list[str]:
    """The jaxcb packages an example imports (empty: JAX and NumPy alone run it)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for n in names:
            top = n.split(".")[0]
            if top.startswith("jaxcb_") and top not in found:
                found.append(top)
    return found


def _fence(text: str) -> str:
    longest = max((len(r) for r in text.split("\n") if set(r) == {"`"}), default=0)
    return "`" * max(3, longest + 1)


def block(package: str, name: str, *, src: str, link: Any = None) -> str:
    """The example ``docs/examples/<package>/<name>.py`` and its outputs, as Markdown for
    the page ``src``. ``link(path)`` gives the URL of a repository file (on GitHub), or None.
    """
    source = path(package, name)
    if source is None:
        raise ExampleError(f"no example docs/examples/{package}/{name}.py")
    rel = source.relative_to(ROOT).as_posix()
    example = f"{package}/{name}"
    pkgs = needs(source)
    run_md = posixpath.relpath("run.md", posixpath.dirname(src) or ".")
    if pkgs:
        dists = " ".join(f"-e packages/{p.replace('_', '-')}" for p in pkgs)
        what = ", ".join(f"`{p}`" for p in pkgs)
        needs_line = (
            f"It needs {what} installed: `pip install {dists}` in a checkout of the "
            f"repository ([Run it yourself]({run_md}#examples))."
        )
    else:
        needs_line = "It needs only JAX and NumPy."
    where = f"[`{rel}`]({link(rel)})" if link and link(rel) else f"`{rel}`"
    parts = [
        f"**Run it.** A complete script ({where}): paste it into a fresh Python session. "
        f"{needs_line} `tests/examples` runs it on every JAX below and checks that it "
        "still prints this.",
        "",
        f'```python title="{rel}"',
        f'--8<-- "{rel}"',
        "```",
    ]
    for versions, out in outputs(example):
        fence = _fence(out)
        label = ", ".join(versions)
        parts += [
            "",
            f'{fence}text title="Output · JAX {label} (CPU)"',
            *(out.rstrip("\n").split("\n") or [""]),
            fence,
        ]
    return "\n".join(parts)


def directive(src: str, package: str, name: str) -> str:
    """``docs/examples/PACKAGE/NAME.py``, whole, and the output ``tests/examples`` recorded for it."""
    from .code import github

    return block(package, name, src=src, link=github)
