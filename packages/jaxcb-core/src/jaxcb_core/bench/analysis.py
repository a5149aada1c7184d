"""Benchmark analysis: ratios and crossovers from one benchmark file.

Works on :class:`~jaxcb_core.schema.BenchFile` records only, through :class:`.Device` (the
standard library and pydantic: the site calls it at build time without JAX). The
performance page renders them; :mod:`.verdicts` sets the run's targets on the same ratios.
"""

from __future__ import annotations

import math
from typing import Any

from .device import Device

__all__ = ["CROSSOVER", "crossover", "fixed_cost_crossover", "loop_steps", "pattern_ratios"]

CROSSOVER = 2.0  # fixed cost stops dominating where a call takes 2x its one-element time


# --------------------------------------------------------------------------- crossovers


def crossover(
    sizes: list[int], t: list[float], ref: list[float], factor: float = CROSSOVER
) -> tuple[str, float | None]:
    """The size from which on ``t <= factor * ref`` holds at every measured size,
    interpolated log-log between the last size where it fails and the next.

    ``("below", None)`` if it holds at every size, ``("above", last ratio)`` if it fails
    at the largest, else ``("at", n)``.
    """
    ratios = [a / b for a, b in zip(t, ref, strict=True)]
    failing = [i for i, r in enumerate(ratios) if r > factor]
    if not failing:
        return "below", None
    j = failing[-1]
    if j == len(ratios) - 1:
        return "above", ratios[-1]
    n0, n1, r0, r1 = sizes[j], sizes[j + 1], ratios[j], ratios[j + 1]
    frac = (math.log(r0) - math.log(factor)) / (math.log(r0) - math.log(r1))
    return "at", math.exp(math.log(n0) + frac * (math.log(n1) - math.log(n0)))


def fixed_cost_crossover(sizes: list[int], t: list[float]) -> tuple[str, float | None]:
    """Where ``t(n) >= CROSSOVER * t(smallest n)``: the fixed cost is at most half the time."""
    return crossover(sizes, [t[0]] * len(t), t, factor=1 / CROSSOVER)


# ------------------------------------------------------------------------------ ratios


def pattern_ratios(dev: Device) -> list[dict[str, Any]]:
    """Each pattern against its mechanism's minimal form and the floor, at every n.

    ``vs_minimal`` comes from the alternating rounds of the two where the file has them
    (``paired``), else from the two cases' own medians, timed apart."""
    pairs = {(p.computation, p.variant, p.n): p for p in dev.file.pairs if p.suite == "calls"}
    out = []
    for comp in dev.computations("calls"):
        for n in dev.sizes("calls", comp):
            floor = dev.t("calls", comp, "floor/numpy", n)
            for pat in dev.of_form("pattern", role="pattern"):
                mini = dev.minimal_for(pat)
                rp = dev.get("calls", comp, pat.id, n)
                rm = dev.get("calls", comp, mini.id, n) if mini else None
                if rp is None:
                    continue
                # the alternating rounds, where they were timed beside the form it is held to
                pair = pairs.get((comp, pat.id, n))
                if pair is not None and (rm is None or pair.minimal != rm.variant):
                    pair = None
                vs_minimal = None if rm is None else rp.median_s / rm.median_s
                if pair is not None:
                    vs_minimal = pair.ratio
                out.append(
                    {
                        "computation": comp,
                        "n": n,
                        "pattern": pat.id,
                        "minimal": mini.id if mini and rm else None,
                        "vs_minimal": vs_minimal,
                        "paired": pair is not None,
                        "vs_minimal_fastest": rp.min_s / rm.min_s if rm else None,
                        "pattern_s": rp.median_s,
                        "minimal_s": rm.median_s if rm else None,
                        "minimal_iqr_s": (rm.q1_s, rm.q3_s) if rm else None,
                        "vs_floor": rp.median_s / floor if floor else None,
                        "minimal_vs_floor": rm.median_s / floor if rm and floor else None,
                    }
                )
    return out


def loop_steps(dev: Device) -> list[dict[str, Any]]:
    """Per-step cost in the loop suite: (time - native scan) / steps, every column."""
    out = []
    scans = dev.of_form("scan")  # the native scan: the same loop, nothing sent to the host
    for comp in dev.computations("loops"):
        for n in dev.sizes("loops", comp):
            times = [
                t
                for s in scans
                for c in dev.computations("loops")
                if (t := dev.t("loops", c, s.id, n))
            ]
            base = times[0] if times else None
            for vid in dev.columns("loops", comp):
                r = dev.get("loops", comp, vid, n)
                if r is None or dev.variants[vid].form == "scan":
                    continue
                out.append(
                    {
                        "computation": comp,
                        "variant": vid,
                        "steps": n,
                        "per_step_s": (r.median_s - base) / n if base else None,
                        "vs_native": r.median_s / base if base else None,
                        "host_calls": r.host_calls,
                    }
                )
    return out
