"""The targets of the performance page: each a ratio measured in one benchmark run, against
its limit.

Columns are found by their ``role`` and ``form`` (see :class:`~jaxcb_core.schema.BenchVariant`),
never by a mechanism's name (except ``INTO_MECHANISM`` and ``KERNEL_MECHANISM``: the targets
set for buffer_callback and for the C++ kernels through ffi_call). The benchmark session
stores :func:`targets` in the file it writes; the performance page renders them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..schema import BenchVariant, TargetRecord
from .analysis import pattern_ratios
from .device import Device

__all__ = [
    "FLOOR_TARGET",
    "HARNESS_TARGET",
    "INTO_TARGET",
    "IN_PLACE_TARGET",
    "KERNEL_TARGET",
    "PATTERN_TARGET",
    "VMAP_TARGET",
    "Target",
    "targets",
]

PATTERN_TARGET = 1.10  # a pattern costs at most this much more than its mechanism's minimal form
NOOP_TARGET = 1.10  # the fastest mechanism's round trip against the jitted native no-op
FLOOR_TARGET = 1.0  # the best pattern at a large n against the NumPy floor: no slower
INTO_TARGET = 1.10  # buffer_callback at a large n against NumPy into a preallocated array
#: the compiled kernel (``KERNEL_MECHANISM``'s best pattern) at n = LARGE against the floor:
#: vectorised C++ should beat NumPy, not match it
KERNEL_TARGET = 0.6
HARNESS_TARGET = 1.10  # the harness against a tight perf_counter loop, either way
VMAP_TARGET = 1.5  # vmap at the largest batch against one unbatched call on the same data
LARGE = 1_000_000  # "large n" for the floor target
#: buffer_callback writing into its donated input (no fresh output buffer) against NumPy
#: into a preallocated array, at every n >= LARGE: both write memory touched before
IN_PLACE_TARGET = 1.2


Target = TargetRecord  # one target: a ratio measured in one run, its limit and where


def _pattern_targets(dev: Device) -> list[Target]:
    worst: dict[str, dict[str, Any]] = {}
    for r in pattern_ratios(dev):
        if r["vs_minimal"] is None:
            continue
        key = f"{r['pattern']} ({r['computation']})"
        if key not in worst or r["vs_minimal"] > worst[key]["vs_minimal"]:
            worst[key] = r
    return [
        Target(
            name="pattern ÷ its minimal form",
            subject=r["pattern"],
            value=r["vs_minimal"],
            limit=PATTERN_TARGET,
            where=f"{r['computation']}, worst at n = {r['n']}",
            detail=("in alternating rounds; " if r["paired"] else "")
            + f"fastest rounds: ×{r['vs_minimal_fastest']:.3g}"
            + (_what_a_pattern_adds(r) if r["vs_minimal"] > PATTERN_TARGET else ""),
        )
        for r in worst.values()
    ]


def _what_a_pattern_adds(r: dict[str, Any]) -> str:
    """A missed pattern target's decomposition: the two medians, the time the pattern adds
    per call, and the minimal form's own spread, to read that time against."""
    q1, q3 = r["minimal_iqr_s"]
    added = r["pattern_s"] - r["minimal_s"]
    return (
        f"; decomposition, from the two cases' own medians: pattern {r['pattern_s']:.3g} s, its minimal form "
        f"{r['minimal_s']:.3g} s, {added:+.3g} s a call against the minimal form's "
        f"interquartile range {q1:.3g} to {q3:.3g} s ({q3 - q1:.3g} s wide)"
    )


def _noop_target(dev: Device) -> list[Target]:
    native = [v for v in dev.of_form("noop") if v.role == "native"]
    noops = [v for v in dev.of_form("noop") if v.role != "native"]
    if not native or not noops:
        return []
    base = dev.t("calls", "sin_scale", native[0].id, 1)
    times = [(dev.t("calls", "sin_scale", v.id, 1), v) for v in noops]
    measured = [(t, v) for t, v in times if t is not None]
    if base is None or not measured:
        return []
    t, best = min(measured, key=lambda p: p[0])
    return [
        Target(
            name="fastest round trip ÷ jitted native no-op",
            subject=best.id,
            value=t / base,
            limit=NOOP_TARGET,
            where="one float32 element",
            detail=", ".join(
                f"{v.mechanism} ×{tv / base:.3g}" for tv, v in sorted(measured, key=lambda p: p[0])
            ),
        )
    ]


Large = tuple[str, int, float, float, BenchVariant, list[tuple[float, BenchVariant]]]


def _at_large(
    dev: Device, row: str, mechanism: str | None = None, only: int | None = None
) -> Iterator[Large]:
    """``(computation, n, the reference row's time, the best pattern's time, that pattern,
    every timed pattern)`` at each n >= LARGE (or at ``only``) where both were measured;
    the patterns are ``mechanism``'s, if given."""
    for comp in dev.computations("calls"):
        for n in dev.sizes("calls", comp):
            if n < LARGE or only not in (None, n):
                continue
            ref, pats = dev.t("calls", comp, row, n), _timed(dev, comp, n, mechanism)
            if ref is not None and pats:
                yield comp, n, ref, pats[0][0], pats[0][1], pats


def _floor_targets(dev: Device) -> list[Target]:
    """The best pattern at every n >= LARGE against the allocating NumPy/SciPy floor, with
    the decomposition (the bare mechanism running the floor, its no-op) where it misses."""
    out = []
    for comp, n, floor, t, best, pats in _at_large(dev, "floor/numpy"):
        detail = ", ".join(f"{v.id} ×{tv / floor:.3g}" for tv, v in pats)
        if t / floor > FLOOR_TARGET:
            parts = _decomposition(dev, comp, n, best, f"floor {floor:.3g} s")
            detail = f"decomposition: {parts}; {detail}"
        out.append(
            Target(
                name="best pattern ÷ the NumPy floor",
                subject=best.id,
                value=t / floor,
                limit=FLOOR_TARGET,
                where=f"{comp}, n = {n}",
                detail=detail,
            )
        )
    return out


# A target set for a mechanism by name: the C++ kernel through ffi_call, at n = LARGE.
KERNEL_MECHANISM = "ffi_call"


def _kernel_targets(dev: Device) -> list[Target]:
    """At n = LARGE: the compiled kernel's best pattern against the allocating floor."""
    return [
        Target(
            name=f"{KERNEL_MECHANISM} kernel ÷ the NumPy floor",
            subject=best.id,
            value=t / floor,
            limit=KERNEL_TARGET,
            where=f"{comp}, n = {n}",
            detail=f"floor {floor:.3g} s, kernel {t:.3g} s" + _faults(dev, comp, best.id, n),
        )
        for comp, n, floor, t, best, _ in _at_large(
            dev, "floor/numpy", KERNEL_MECHANISM, only=LARGE
        )
    ]


# A target set for a mechanism by name: buffer_callback writes into XLA's output
# buffer, so it is held to NumPy writing into a preallocated array, at n = LARGE.
INTO_MECHANISM = "buffer_callback"


def _into_targets(dev: Device) -> list[Target]:
    """At every n >= LARGE: the best pattern, and the in-place minimal form where one was
    measured, against NumPy writing into a preallocated array."""
    out = []
    for comp, n, into, t, best, _ in _at_large(dev, "floor/numpy-into", INTO_MECHANISM):
        out.append(
            Target(
                name=f"{INTO_MECHANISM} ÷ NumPy into a preallocated array",
                subject=best.id,
                value=t / into,
                limit=INTO_TARGET,
                where=f"{comp}, n = {n}",
                detail=_decomposition(dev, comp, n, best, f"into {into:.3g} s"),
            )
        )
        v = dev.in_place_of(INTO_MECHANISM)
        if v is not None and (ti := dev.t("calls", comp, v.id, n)):
            out.append(
                Target(
                    name=f"{INTO_MECHANISM}, in place ÷ NumPy into a preallocated array",
                    subject=v.id,
                    value=ti / into,
                    limit=IN_PLACE_TARGET,
                    where=f"{comp}, n = {n}",
                    detail=f"into {into:.3g} s, in place {ti:.3g} s" + _faults(dev, comp, v.id, n),
                )
            )
    return out


def _timed(
    dev: Device, comp: str, n: int, mechanism: str | None = None
) -> list[tuple[float, BenchVariant]]:
    """The patterns computing on the host (of ``mechanism``, if given) at ``n``, fastest first."""
    pats = [
        (t, v)
        for v in dev.host_patterns()
        if mechanism in (None, v.mechanism) and (t := dev.t("calls", comp, v.id, n))
    ]
    return sorted(pats, key=lambda p: p[0])


def _decomposition(dev: Device, comp: str, n: int, best: BenchVariant, first: str) -> str:
    """Where a pattern's time goes: ``first``, the bare mechanism running the floor (its
    minimal form), the mechanism's no-op round trip, the pattern."""
    parts = [first]
    mini = dev.minimal_for(best)
    if mini and (tm := dev.t("calls", comp, mini.id, n)):
        parts.append(f"the bare {best.mechanism} running the floor {tm:.3g} s")
    noop = dev.t("calls", comp, f"{best.mechanism}/noop", n)
    if noop is not None:
        parts.append(f"its no-op alone {noop:.3g} s")
    parts.append(
        f"pattern {dev.t('calls', comp, best.id, n):.3g} s" + _faults(dev, comp, best.id, n)
    )
    v = dev.in_place_of(best.mechanism)
    if v is not None and (ti := dev.t("calls", comp, v.id, n)):
        parts.append(f"in place {ti:.3g} s" + _faults(dev, comp, v.id, n))
    return ", ".join(parts)


def _faults(dev: Device, comp: str, variant: str, n: int) -> str:
    """`` (P page faults per call)`` where the file recorded them, else nothing."""
    r = dev.get("calls", comp, variant, n)
    if r is None or r.page_faults is None:
        return ""
    return f" ({r.page_faults:,} page faults per call)"


def _vmap_targets(dev: Device) -> list[Target]:
    out = []
    for comp in dev.computations("vmap"):
        batch = max(dev.sizes("vmap", comp))
        for ref in dev.of_form("unbatched"):
            if ref.of is None:
                continue
            r, u = dev.get("vmap", comp, ref.of, batch), dev.get("vmap", comp, ref.id, batch)
            if r is None or u is None:
                continue
            out.append(
                Target(
                    name="vmap ÷ one call on the stacked data",
                    subject=ref.of,
                    value=r.median_s / u.median_s,
                    limit=VMAP_TARGET,
                    where=f"{comp}, batch {batch}",
                    detail=f"{r.host_calls} host call(s) per batch",
                )
            )
    return out


def _harness_targets(dev: Device) -> list[Target]:
    return [
        Target(
            name="harness ÷ tight perf_counter loop",
            subject=c.variant,
            value=max(c.ratio, 1 / c.ratio),
            limit=HARNESS_TARGET,
            where=f"{c.computation}, n = {c.n}",
            detail=f"harness {c.harness_s:.3g} s, loop {c.loop_s:.3g} s",
        )
        for c in dev.file.checks
    ]


def targets(dev: Device) -> list[Target]:
    """Every target of the performance page, measured in this file's run."""
    return [
        *_harness_targets(dev),
        *_noop_target(dev),
        *_pattern_targets(dev),
        *_floor_targets(dev),
        *_kernel_targets(dev),
        *_into_targets(dev),
        *_vmap_targets(dev),
    ]
