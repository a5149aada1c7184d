"""The multi-process tests: a JAX job of several processes on 127.0.0.1, started by
``jaxcb_core.distributed``. Every test here is marked ``multiprocess`` and skipped unless
pytest gets ``--multiprocess`` (``tox -e multiprocess`` gives it)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # procfs.py, whatever pytest's import mode
    sys.path.insert(0, str(HERE))
