"""The behaviour session: every scenario measured once, compared with the committed file.

``pytest tests/behaviour --update-behaviour`` (registered in tests/conftest.py) rewrites
``docs/data/behaviour/<jax>-<platform>-<layout>.json`` from what this run measured.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the scenario modules import each other by name
    sys.path.insert(0, str(HERE))
