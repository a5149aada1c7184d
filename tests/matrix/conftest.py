"""Option for the shared matrix snapshot: ``--update-matrix`` rewrites the committed data."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-matrix",
        action="store_true",
        default=False,
        help="rewrite docs/data/matrix/<jax>-<platform>-<n>.json from the cells this run measured",
    )
