"""The multi-process matrix, measured in a 2 × 2 job, against the committed data file.

Each test is one mechanism variant × computation × multi-process transform: what every
process saw (status, host calls, what its host function received, the effect records its
sink got) must equal ``docs/data/matrix/<jax>-cpu-2x2.json``. The whole matrix is
measured once per session in one job of 2 processes × 2 CPU devices joined by
``jax.distributed`` (about a minute); ``--update-matrix`` rewrites the file from it, as
``jaxcb matrix --processes 2 --write`` does.
"""

from __future__ import annotations

import functools
import re

import jax
import pytest

from jaxcb_core import matrix
from jaxcb_core.catalog import CATALOG
from jaxcb_core.distributed import matrix as distmatrix
from jaxcb_core.distributed import spmd
from jaxcb_core.distributed.layout import Layout
from jaxcb_core.mechanisms import discover
from jaxcb_core.schema import Cell, MatrixFile, dump, load_matrix

pytestmark = pytest.mark.multiprocess

LAYOUT = Layout(2, 2)
KEYS = [f"{v.id}|{c.name}|{t.id}" for v in discover() for c in CATALOG for t in spmd.TRANSFORMS]
PATH = matrix.data_dir() / f"{jax.__version__}-cpu-{LAYOUT.processes}x{LAYOUT.local_devices}.json"


@functools.cache
def committed() -> MatrixFile | None:
    return load_matrix(PATH) if PATH.exists() else None


# A timing that gives no result is a hang: JAX 0.10.2's pure_callback and io_callback at
# n = 131072 in a 2 × 2 job, where n = 16384 takes milliseconds. It is intermittent: the
# committed file records four of them, a later run of the same job finished one. A hang is
# tolerated here in either direction, so its 30 s of waiting would check nothing: 5 s still
# tells a hang from the slowest timing that finishes (a 0.03 s median, 16 runs, about 0.5 s
# with its compile), and a failure of another kind still shows.
HANG_S = 5.0


@pytest.fixture(scope="session")
def measured(request: pytest.FixtureRequest) -> MatrixFile:
    """The whole multi-process matrix and its timings, measured once (a timing's hang is
    given ``HANG_S`` seconds here; --update-matrix measures as ``jaxcb matrix`` does)."""
    update = request.config.getoption("--update-matrix")
    result = distmatrix.run(LAYOUT) if update else distmatrix.run(LAYOUT, cost_timeout=HANG_S)
    if update:
        dump(result, PATH)
        print(f"\njaxcb: wrote {len(result.cells)} cells to {PATH}")
        committed.cache_clear()
    return result


def _committed_cells() -> dict[tuple[str, str, str], Cell]:
    data = committed()
    if data is None:
        pytest.fail(f"no committed multi-process matrix at {PATH}: run with --update-matrix")
    return data.cell_map()


@pytest.mark.parametrize("key", KEYS)
def test_cell(key: str, measured: MatrixFile) -> None:
    cell = measured.cell_map()[tuple(key.split("|"))]  # type: ignore[index]
    old = _committed_cells().get(cell.key())
    if old is None:
        pytest.fail(f"{PATH} has no cell {key}: run with --update-matrix and commit the file")
    diff = matrix.compare(old, cell)
    assert not diff, f"{key} no longer matches the committed matrix:\n  " + "\n  ".join(diff)


def test_committed_file_has_no_stale_cells() -> None:
    stale = sorted(set(_committed_cells()) - {tuple(k.split("|")) for k in KEYS})
    assert not stale, f"cells in {PATH} that no longer exist: {stale[:10]}"


def test_committed_file_names_its_layout() -> None:
    data = committed()
    assert data is not None, f"no committed multi-process matrix at {PATH}"
    env = data.environment
    assert (env.process_count, env.device_count) == (LAYOUT.processes, LAYOUT.devices)
    assert all(len(c.processes or ()) == LAYOUT.processes for c in data.cells)


def _failure(error: str | None) -> str | None:
    """What kind of failure a timing's error is (which process and how long it was given
    vary from run to run); ``None`` for none, and for a hang, which comes and goes (above)."""
    if error is None:
        return None
    error = re.sub(r"^process \d+: ", "", error)
    if error.startswith(("process timeout:", "not run: the same form failed")):
        return None
    return error


def test_sharding_cost_calls_match(measured: MatrixFile) -> None:
    """Where the host ran, and what it got, in each timed form (the times themselves vary);
    a timing that failed fails the same way, unless it hung (intermittent, above)."""
    data = committed()
    assert data is not None
    assert data.sharding_cost is not None
    assert measured.sharding_cost is not None
    old = {(r.variant, r.form, r.n): r for r in data.sharding_cost.results}
    now = {(r.variant, r.form, r.n): r for r in measured.sharding_cost.results}
    assert set(old) == set(now)
    for key, r in now.items():
        assert _failure(r.error) == _failure(old[key].error), (key, old[key].error, r.error)
        if r.error is None and old[key].error is None:
            assert (r.host_calls, r.shapes) == (old[key].host_calls, old[key].shapes), key
