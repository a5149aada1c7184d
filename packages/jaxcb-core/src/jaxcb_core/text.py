"""The matrix as text, for the terminal: a committed or measured matrix rendered, the cells
that are not ``ok`` and why, and a run compared with the committed file. Used by ``jaxcb
matrix`` for one process (``cli``) and for several (``distributed.cli``)."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .schema import Cell, MatrixFile

__all__ = ["SYMBOL", "check", "details", "render"]

SYMBOL = {"ok": "✓", "wrong": "≠", "error": "✗", "n/a": "·"}


def render(data: MatrixFile, width: int = 80) -> str:
    """The matrix as text: one block per computation, transforms down, variants across."""
    variants = data.variants
    transforms = data.transforms
    cells = data.cell_map()
    env = data.environment
    lines = [
        f"JAX {env.jax} (jaxlib {env.jaxlib}), Python {env.python}, "
        f"{env.platform} × {env.device_count} ({env.device_kind}), "
        f"{env.process_count} process{'es' if env.process_count > 1 else ''}",
        "  " + "  ".join(f"{SYMBOL[s]} {s}" for s in SYMBOL),
        "",
        "Columns:",
    ]
    for i, v in enumerate(variants, 1):
        lines.append(f"  {i:>2} {v.id}")
    # transform labels as wide as the longest, or cut (…) so that a row fits in `width`
    label_w = min(max(len(t.label) for t in transforms) + 1, max(10, width - 3 * len(variants)))
    # more columns than a row holds: blocks of equal size, one under the other
    blocks = -(-len(variants) // max(1, (width - label_w) // 3))
    size = -(-len(variants) // max(1, blocks))
    numbered = list(enumerate(variants, 1))
    for comp in data.computations:
        lines += ["", f"{comp.name}: {comp.summary}"[:width]]
        for start in range(0, len(variants), size):
            block = numbered[start : start + size]
            lines.append(" " * label_w + "".join(f"{i:>3}" for i, _ in block))
            for t in transforms:
                found = (cells.get((v.id, comp.name, t.id)) for _, v in block)
                row = [SYMBOL[c.status] if c else " " for c in found]
                label = t.label if len(t.label) < label_w else t.label[: label_w - 2] + "…"
                lines.append(f"{label:<{label_w}}" + "".join(f"{s:>3}" for s in row))
    return "\n".join(lines)


def details(data: MatrixFile, width: int = 80) -> str:
    """One line per cell that is not ``ok`` (why), for ``--details``."""
    out = []
    for c in data.cells:
        if c.status == "ok":
            continue
        why = c.reason or f"{c.error_type}: {c.error}"
        out.append(f"{SYMBOL[c.status]} {c.variant} | {c.computation} | {c.transform}")
        out.append(textwrap.fill(why, width=width, initial_indent="    ", subsequent_indent="    "))
    return "\n".join(out)


def check(cells: Sequence[Cell], path: Path, write: str) -> int:
    """``--check``: print every cell that differs from the committed file at ``path``;
    1 if any does (``write`` names the command that updates it), else 0."""
    from . import matrix
    from .schema import load_matrix

    if not path.exists():
        print(f"no committed matrix at {path}: run {write}", file=sys.stderr)
        return 1
    committed = load_matrix(path).cell_map()
    changed = 0
    for cell in cells:
        old = committed.get(cell.key())
        diff = ["not in the committed file"] if old is None else matrix.compare(old, cell)
        if diff:
            changed += 1
            print(f"changed: {' | '.join(cell.key())}")
            for d in diff:
                print(f"    {d}")
    if changed:
        print(f"{changed} cell(s) differ from {path}; {write} updates it")
        return 1
    print(f"matches {path}")
    return 0
