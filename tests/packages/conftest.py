"""Fixtures of the package tests: the float width each test runs in.

``dtype`` runs a test twice, float32 without and float64 with ``jax_enable_x64``;
``x64`` and ``x32`` pin one width. The shared helpers (``assert_close``, ``raises``,
``host_calls`` ...) live in ``pkg_support``, importable from every test file here.

This conftest and ``pkg_support`` import no mechanism package: the legacy env, which
lacks jaxcb_pure, collects ``test_legacy.py`` through them too.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jax
import numpy as np
import pytest

from jaxcb_core.mechanisms import discover

# The variants are discovered before any test runs: discovery wraps each pattern module's
# host functions in the probe's counting wrapper, and a pattern compiled before that would
# keep calling the bare function (jaxcb_core.probe).
discover()

HERE = Path(__file__).resolve().parent
# pkg_support is imported by the test modules whatever pytest's import mode.
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


def _enable_x64(on: bool) -> Any:
    """``jax.enable_x64`` (JAX 0.4.30 has it as ``jax.experimental.enable_x64`` only)."""
    if hasattr(jax, "enable_x64"):
        return jax.enable_x64(on)
    from jax.experimental import enable_x64  # type: ignore[attr-defined]

    return enable_x64(on)


@pytest.fixture(params=["float32", "float64"])
def dtype(request: pytest.FixtureRequest) -> Iterator[np.dtype[Any]]:
    """The float width; float64 runs with jax_enable_x64, float32 without."""
    with _enable_x64(request.param == "float64"):
        yield np.dtype(request.param)


@pytest.fixture
def x64() -> Iterator[None]:
    with _enable_x64(True):
        yield


@pytest.fixture
def x32() -> Iterator[None]:
    with _enable_x64(False):
        yield
