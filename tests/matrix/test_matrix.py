"""The shared test matrix: every cell, run on the installed JAX, against the committed data.

Each test runs one mechanism variant × computation × transform and compares what
happened (status, error type and first line, host calls, argument types, effects)
with ``docs/data/matrix/<jax>-<platform>-<ndevices>.json``. When JAX changes
behaviour the test fails and shows the difference; ``pytest tests/matrix
--update-matrix`` (or ``jaxcb matrix --write``) rewrites the file.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from jaxcb_core import matrix
from jaxcb_core.catalog import CATALOG
from jaxcb_core.mechanisms import discover
from jaxcb_core.transforms import TRANSFORMS

VARIANTS = {v.id: v for v in discover()}
COMPUTATIONS = {c.name: c for c in CATALOG}
TRANSFORMS_BY_ID = {t.id: t for t in TRANSFORMS}
KEYS = [
    f"{v}|{c}|{t}" for v in VARIANTS for c in COMPUTATIONS for t in TRANSFORMS_BY_ID
]


@functools.cache
def committed() -> dict[tuple[str, str, str], dict[str, Any]]:
    path = matrix.data_path()
    if not path.exists():
        return {}
    return {(c["variant"], c["computation"], c["transform"]): c for c in matrix.load(path)["cells"]}


@pytest.fixture(scope="module")
def measured(request: pytest.FixtureRequest) -> Iterator[list[matrix.Cell]]:
    """Cells measured in this run; written to the data file at the end with --update-matrix."""
    cells: list[matrix.Cell] = []
    yield cells
    if request.config.getoption("--update-matrix") and cells:
        path = matrix.data_path()
        matrix.merge_and_write(path, cells)
        print(f"\njaxcb: wrote {len(cells)} measured cells to {path}")


@pytest.mark.parametrize("key", KEYS)
def test_cell(key: str, request: pytest.FixtureRequest, measured: list[matrix.Cell]) -> None:
    variant, computation, transform = key.split("|")
    cell = matrix.run_cell(
        VARIANTS[variant], COMPUTATIONS[computation], TRANSFORMS_BY_ID[transform]
    )
    if request.config.getoption("--update-matrix"):
        measured.append(cell)
        return
    old = committed().get(cell.key())
    if old is None:
        pytest.fail(
            f"{matrix.data_path()} has no cell {key}: run `pytest tests/matrix --update-matrix` "
            "(or `jaxcb matrix --write`) and commit the file"
        )
    diff = matrix.compare(old, cell)
    assert not diff, f"{key} no longer matches the committed matrix:\n  " + "\n  ".join(diff)


def test_committed_file_has_no_stale_cells() -> None:
    """Every committed cell still corresponds to a variant, computation and transform."""
    stale = sorted(set(committed()) - {tuple(k.split("|")) for k in KEYS})
    assert not stale, f"cells in {matrix.data_path()} that no longer exist: {stale[:10]}"
