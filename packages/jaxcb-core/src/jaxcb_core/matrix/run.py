"""The support matrix: every variant × computation × transform, measured and written.

``run_matrix`` measures (part of) the matrix on the installed JAX and returns a
:class:`~jaxcb_core.schema.MatrixFile`; ``merge_and_write`` folds measured cells into the
committed file for this environment; ``compare`` says how a committed cell and a measured
one differ, field by field (the snapshot test in ``tests/matrix`` prints it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .. import environment
from ..catalog import CATALOG, Computation
from ..mechanisms import discover
from ..schema import (
    Cell,
    ComputationInfo,
    MatrixEnvironment,
    MatrixFile,
    TransformInfo,
    VariantInfo,
    dump,
    load_matrix,
    matrix_stem,
)
from .pool import default_workers, run_cells
from .transforms import TRANSFORMS, Transform

__all__ = [
    "COMPARED",
    "compare",
    "crashed",
    "data_dir",
    "data_path",
    "merge_and_write",
    "run_matrix",
    "select",
]

COMPARED = (
    "status",
    "reason",
    "error_type",
    "error",
    "host_calls",
    "shapes",
    "effects",
    "warning",
    "processes",  # multi-process matrices only (absent, so equal, in the others)
)


def select(items: Iterable[Any], names: Sequence[str] | None, attr: str) -> list[Any]:
    """The items whose ``attr`` is one of ``names`` or starts with ``name/`` (all by default)."""
    items = list(items)
    if not names:
        return items
    out = [
        i
        for i in items
        if any(n == getattr(i, attr) or getattr(i, attr).startswith(n + "/") for n in names)
    ]
    if not out:
        known = sorted({getattr(i, attr) for i in items})
        raise KeyError(f"nothing matches {list(names)}; known: {known}")
    return out


def computation_info(c: Computation) -> ComputationInfo:
    return ComputationInfo(
        name=c.name, kind=c.kind, signature=c.signature, summary=c.summary, source=c.source
    )


def transform_info(t: Transform) -> TransformInfo:
    return TransformInfo(id=t.id, label=t.label, group=t.group, doc=t.doc, legacy=t.legacy)


def _environment(**extra: Any) -> MatrixEnvironment:
    return MatrixEnvironment.model_validate({**environment.describe(), **extra})


def _matrix(env: MatrixEnvironment, cells: list[Cell]) -> MatrixFile:
    return MatrixFile(
        environment=env,
        variants=[VariantInfo.model_validate(v.to_json()) for v in discover()],
        computations=[computation_info(c) for c in CATALOG],
        transforms=[transform_info(t) for t in TRANSFORMS],
        cells=cells,
    )


def run_matrix(
    variants: Sequence[str] | None = None,
    computations: Sequence[str] | None = None,
    transforms: Sequence[str] | None = None,
    progress: Callable[[Cell], None] | None = None,
    workers: int | None = None,
) -> MatrixFile:
    """Measure the selected part of the matrix (everything by default)."""
    start = time.perf_counter()
    vs = select(discover(), variants, "id")
    cs = select(CATALOG, computations, "name")
    ts = select(TRANSFORMS, transforms, "id")
    keys = [(v.id, c.name, t.id) for v in vs for c in cs for t in ts]
    cells = run_cells(keys, workers, progress, isolate=crashed(data_path()))
    env = _environment(
        duration_s=round(time.perf_counter() - start, 1),
        workers=default_workers() if workers is None else workers,
    )
    out = _matrix(env, cells)
    if variants or computations or transforms:  # a slice names only what it measured
        out.variants = [v for v in out.variants if v.id in {x.id for x in vs}]
        out.computations = [c for c in out.computations if c.name in {x.name for x in cs}]
        out.transforms = [t for t in out.transforms if t.id in {x.id for x in ts}]
    return out


def data_dir(root: Path | None = None) -> Path:
    """``docs/data/matrix`` of the checkout (found from the working directory upwards)."""
    here = (root or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / "packages" / "jaxcb-core").is_dir() and (d / "docs").is_dir():
            return d / "docs" / "data" / "matrix"
    return here / "docs" / "data" / "matrix"


def data_path(env: MatrixEnvironment | None = None, root: Path | None = None) -> Path:
    """``docs/data/matrix/<jax>-<platform>-<layout>.json`` for this environment."""
    return data_dir(root) / f"{matrix_stem(env or _environment())}.json"


def crashed(path: Path) -> set[tuple[str, str, str]]:
    """The cells of the file at ``path`` that killed their process (none if it is absent):
    where to start a fresh interpreter for a cell instead of breaking a worker pool first."""
    if not path.exists():
        return set()
    return {
        c.key() for c in load_matrix(path).cells if (c.error_type or "").startswith("process crash")
    }


def compare(committed: Cell, cell: Cell) -> list[str]:
    """Readable differences between a committed cell and a measured one."""
    old, now = committed.to_json(), cell.to_json()
    return [
        f"{field}: committed {old.get(field)!r}, measured {now.get(field)!r}"
        for field in COMPARED
        if old.get(field) != now.get(field)
    ]


def merge_and_write(path: Path, cells: Sequence[Cell]) -> int:
    """Replace ``cells`` in the file at ``path`` (creating it), tagging it with this environment.

    Cells not measured in this run are kept, so a run restricted with ``-k`` only
    rewrites what it measured. Returns the number of cells in the file.
    """
    kept: dict[tuple[str, str, str], Cell] = {}
    if path.exists():
        kept = load_matrix(path).cell_map()
    for cell in cells:
        kept[cell.key()] = cell
    order = {
        (v.id, c.name, t.id): n
        for n, (v, c, t) in enumerate(
            (v, c, t) for v in discover() for c in CATALOG for t in TRANSFORMS
        )
    }
    ordered = sorted(kept.values(), key=lambda c: order.get(c.key(), 1 << 30))
    dump(_matrix(_environment(), ordered), path)
    return len(ordered)
