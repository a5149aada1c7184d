"""The benchmark analysis room: what the performance page computes from a benchmark file.

:mod:`.device` indexes one :class:`~jaxcb_core.schema.BenchFile` (the standard library and
pydantic only, so the site runs all of this at build time without JAX), :mod:`.analysis`
returns ratios and crossovers from it and :mod:`.verdicts` the run's targets, met or not.
The benchmarks themselves live in ``tests/bench``.
"""

from __future__ import annotations

from . import analysis, device, verdicts
from .analysis import *  # noqa: F403  (the room's API is its modules', names and all)
from .device import *  # noqa: F403
from .verdicts import *  # noqa: F403

__all__: list[str] = []
__all__ += device.__all__
__all__ += analysis.__all__
__all__ += verdicts.__all__
