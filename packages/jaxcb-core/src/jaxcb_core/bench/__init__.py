"""The benchmark analysis room: what the performance page computes from a benchmark file.

:mod:`.analysis` reads one :class:`~jaxcb_core.schema.BenchFile` (the standard library and
pydantic only, so the site runs it at build time without JAX) and returns ratios,
crossovers and target verdicts. The benchmarks themselves live in ``tests/bench``.
"""

from __future__ import annotations

from .analysis import (
    CROSSOVER,
    HARNESS_TARGET,
    PATTERN_TARGET,
    VMAP_TARGET,
    Device,
    Target,
    crossover,
    fixed_cost_crossover,
    loop_steps,
    pattern_ratios,
    targets,
)

__all__ = [
    "CROSSOVER",
    "HARNESS_TARGET",
    "PATTERN_TARGET",
    "VMAP_TARGET",
    "Device",
    "Target",
    "crossover",
    "fixed_cost_crossover",
    "loop_steps",
    "pattern_ratios",
    "targets",
]
