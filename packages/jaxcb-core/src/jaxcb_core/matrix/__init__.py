"""The single-process matrix room: every variant × computation × transform, measured.

- :mod:`.case` and :mod:`.transforms` (with :mod:`.autodiff` and :mod:`.control`): one
  computation's inputs, and each transform applied to it the way a user would;
- :mod:`.cell`: one cell run and graded, with :mod:`.checks` comparing results and host
  calls with what the row's contract expects;
- :mod:`.pool`: cells run in worker processes, a crash or a hang isolated to its cell;
- :mod:`.run`: the whole matrix measured, compared with and merged into the committed file.

The multi-process matrix (:mod:`jaxcb_core.distributed`) reuses the cell runner and the
checks; nothing here imports it.
"""

from __future__ import annotations

from .run import (
    COMPARED,
    compare,
    computation_info,
    crashed,
    data_dir,
    data_path,
    merge_and_write,
    run_matrix,
    select,
    transform_info,
)

__all__ = [
    "COMPARED",
    "compare",
    "computation_info",
    "crashed",
    "data_dir",
    "data_path",
    "merge_and_write",
    "run_matrix",
    "select",
    "transform_info",
]
