"""The matrix pool turns a cell that kills its process into a ``process crash`` cell and
measures every other cell as usual, whether the crash is a surprise (the pool breaks, the
groups in flight run again, the crasher ends up in an interpreter of its own) or known
beforehand (``isolate=``: the committed file says so, and the cell starts in its own
interpreter). The legacy matrix (JAX 0.4.30) has such cells; this row has them on every JAX.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxcb_core.matrix import pool

REGISTRY = f"{Path(__file__).with_name('crashing.py')}:variants"
CRASH = ("crashing/abort", "sin_scale", "jit")
# the crash last: the pool has measured the rest when it breaks (one worker: the fewest
# interpreters, each a second or two of importing JAX)
KEYS = [("native/jax", "sum_mean", "jit"), ("crashing/abort", "sum_mean", "jit"), CRASH]


@pytest.mark.parametrize("known", [False, True], ids=["surprise", "known"])
def test_a_crashing_cell_is_recorded_and_the_rest_measured(known: bool) -> None:
    cells = pool.run_cells(
        KEYS, workers=1, devices=1, registries=[REGISTRY], isolate={CRASH} if known else ()
    )
    by = {c.key(): c for c in cells}
    crash = by[CRASH]
    assert (crash.status, crash.error_type) == ("error", "process crash (SIGABRT)")
    assert crash.error == "the process died with exit code -6"
    assert [by[k].status for k in KEYS[:2]] == ["ok", "ok"]
    assert [c.key() for c in cells] == KEYS
