"""The benchmark analysis room: what the performance page computes from a benchmark file.

:mod:`.analysis` reads one :class:`~jaxcb_core.schema.BenchFile` (the standard library and
pydantic only, so the site runs it at build time without JAX) and returns ratios,
crossovers and target verdicts. The benchmarks themselves live in ``tests/bench``.
"""

from __future__ import annotations

from . import analysis
from .analysis import *  # noqa: F403  (the room's API is its one module's, names and all)

__all__: list[str] = []
__all__ += analysis.__all__
