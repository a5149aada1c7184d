"""The shared test matrix: every cell, run on the installed JAX, against the committed data.

Each test is one mechanism variant × computation × transform: what happened when it
ran (status, error type and first line, host calls, argument types, effects) must
equal ``docs/data/matrix/<jax>-<platform>-<ndevices>.json``. When JAX changes
behaviour the test fails and shows the difference; ``pytest tests/matrix
--update-matrix`` (or ``jaxcb matrix --write``) rewrites the file from what ran.

The selected cells are measured once per session, in one worker process per core
(``JAXCB_MATRIX_WORKERS`` overrides), and each test compares its own cell.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from jaxcb_core import matrix
from jaxcb_core.catalog import CATALOG
from jaxcb_core.distributed import spmd
from jaxcb_core.matrix import pool
from jaxcb_core.matrix.transforms import TRANSFORMS
from jaxcb_core.mechanisms import discover
from jaxcb_core.schema import Cell, load_matrix

KEYS = [f"{v.id}|{c.name}|{t.id}" for v in discover() for c in CATALOG for t in TRANSFORMS]


@functools.cache
def committed() -> dict[tuple[str, str, str], Cell]:
    path = matrix.data_path()
    if not path.exists():
        return {}
    return load_matrix(path).cell_map()


@pytest.fixture(scope="session")
def measured(request: pytest.FixtureRequest) -> dict[tuple[str, str, str], Cell]:
    """Every selected cell, measured once; written to the data file with --update-matrix."""
    selected = [
        tuple(item.callspec.params["key"].split("|"))
        for item in request.session.items
        # this module's test_cell only: tests/distributed has one too, over other transforms
        if getattr(item, "function", None) is test_cell
    ]
    workers = int(os.environ.get("JAXCB_MATRIX_WORKERS", pool.default_workers()))
    # the cells the committed file says kill their process start in their own interpreter
    cells = pool.run_cells(selected, workers=workers, isolate=matrix.crashed(matrix.data_path()))
    if request.config.getoption("--update-matrix"):
        path = matrix.data_path()
        total = matrix.merge_and_write(path, cells)
        print(f"\njaxcb: measured {len(cells)} cells, {path} now has {total}")
        committed.cache_clear()
    return {c.key(): c for c in cells}


@pytest.mark.parametrize("key", KEYS)
def test_cell(key: str, measured: dict[tuple[str, str, str], Cell]) -> None:
    variant, computation, transform = key.split("|")
    cell = measured[(variant, computation, transform)]
    old = committed().get(cell.key())
    if old is None:
        pytest.fail(
            f"{matrix.data_path()} has no cell {key}: run `pytest tests/matrix --update-matrix` "
            "(or `jaxcb matrix --write`) and commit the file"
        )
    diff = matrix.compare(old, cell)
    assert not diff, f"{key} no longer matches the committed matrix:\n  " + "\n  ".join(diff)


def test_committed_file_has_no_stale_cells() -> None:
    """Every committed cell still corresponds to an installed variant, computation and transform."""
    path = matrix.data_path()
    if not path.exists():
        pytest.fail(f"no committed matrix for this JAX at {path}: run `jaxcb matrix --write`")
    stale = sorted(set(committed()) - {tuple(k.split("|")) for k in KEYS})
    assert not stale, f"cells in {path} that no longer exist: {stale[:10]}"


def test_committed_descriptions_are_the_installed_ones() -> None:
    """What the site prints beside the cells (each row's label and doc, each column's) is
    what the installed registries and transforms say now: a sentence changed in a
    registry must reach the published file."""
    import jax

    pattern = f"{jax.__version__}-*.json"
    paths = sorted(matrix.data_dir().glob(pattern))
    if not paths:  # nothing to compare is a failure, not a pass
        pytest.fail(
            f"no committed matrix file {matrix.data_dir() / pattern} for this JAX: "
            "run `jaxcb matrix --write`"
        )
    for path in paths:
        _same_descriptions(path)


def test_the_descriptions_check_fails_without_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No data file for the installed JAX: the check above fails, naming what it looked for."""
    import jax

    monkeypatch.setattr(matrix, "data_dir", lambda: tmp_path)
    with pytest.raises(pytest.fail.Exception) as info:
        test_committed_descriptions_are_the_installed_ones()
    assert str(tmp_path / f"{jax.__version__}-*.json") in str(info.value)


def _same_descriptions(path: Path) -> None:
    file = load_matrix(path)
    rows = {v.id: (v.label, v.doc) for v in file.variants}
    stale = [
        f"{v.id}: committed {rows[v.id]!r}, installed {(v.label, v.doc)!r}"
        for v in discover()
        if v.id in rows and rows[v.id] != (v.label, v.doc)
    ]
    columns = {t.id: (t.label, t.doc) for t in file.transforms}
    installed = TRANSFORMS if file.environment.process_count == 1 else spmd.TRANSFORMS
    stale += [
        f"{t.id}: committed {columns[t.id]!r}, installed {(t.label, t.doc)!r}"
        for t in installed
        if t.id in columns and columns[t.id] != (t.label, t.doc)
    ]
    assert not stale, f"{path} describes rows or columns as they no longer are:\n  " + "\n  ".join(
        stale
    )


def _pinned_versions() -> dict[str, list[str]]:
    """``{JAX version: [tox env, ...]}`` for every ``jax==X`` pin in ``tox.ini``."""
    import configparser
    import re

    ini = configparser.ConfigParser(interpolation=None)
    ini.read(matrix.data_dir().parents[2] / "tox.ini")
    out: dict[str, list[str]] = {}
    for section in ini.sections():
        if section.startswith("testenv:"):
            for v in re.findall(r"^\s*jax==([\w.]+)\s*$", ini[section].get("deps", ""), re.M):
                out.setdefault(v, []).append(section.removeprefix("testenv:"))
    return out


def test_each_committed_file_has_an_environment_that_measures_it() -> None:
    """The one-process files of the other JAX releases are not measured here (this JAX
    cannot run them; tests/docs reads them as data): each must have a tox env pinning its
    JAX, whose run of this file re-measures it (`tox -m timeline` for the releases in between)."""
    pinned = _pinned_versions()
    files = [p for p in sorted(matrix.data_dir().glob("*-cpu-*.json")) if "x" not in p.stem]
    assert files
    unmeasured = []
    for path in files:
        env = load_matrix(path).environment  # each file still loads under the schema
        assert path.stem == f"{env.jax}-{env.platform}-{env.device_count}", path
        if env.jax not in pinned:
            unmeasured.append(path.name)
    assert not unmeasured, f"no tox env pins the JAX of {unmeasured} (tox.ini)"
