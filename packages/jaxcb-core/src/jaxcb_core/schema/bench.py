"""``docs/data/bench/<device>.json``: one benchmark run on one device (:class:`BenchFile`),
written by the benchmark session (``tests/bench``) and read by ``jaxcb_core.bench`` and the
performance page."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from .base import Count, Record, Sparse, load, repeated, validate

__all__ = [
    "BENCH_SCHEMA",
    "LATER_SUITES",
    "QUIET_LOAD",
    "ROLES",
    "SUITES",
    "BenchEnvironment",
    "BenchFile",
    "BenchResult",
    "BenchVariant",
    "HarnessCheck",
    "PairedRatio",
    "TargetRecord",
    "device_stem",
    "load_bench",
    "slug",
    "validate_bench",
]

BENCH_SCHEMA = 2
SUITES = ("calls", "vmap", "loops", "grad", "eager", "tools")
#: suites added after files were committed: an earlier file lacks them (a new run has all)
LATER_SUITES = ("tools",)
QUIET_LOAD = 1.5  # a benchmark file measured above this 1-minute load is marked "not quiet"
ROLES = ("floor", "native", "pattern", "minimal", "seed", "reference", "tool")


def slug(text: str) -> str:
    """``"Intel(R) Xeon(R) Processor"`` -> ``"intel-xeon-processor"``."""
    text = re.sub(r"\((r|tm|c)\)", "", text.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "unknown"


def device_stem(
    backend: str, device_kind: str, processor: str | None = None, simd: str | None = None
) -> str:
    """File name (no extension) for one device: ``cpu-<cpu model>[-<simd>]`` or ``gpu-<kind>``.

    A CPU's widest vector instruction set is part of its name: one model name ("AMD EPYC")
    covers processors with and without AVX-512, and their timings must not share a file.
    """
    if backend == "cpu":
        name = f"cpu-{slug(processor or 'unknown')}"
        return f"{name}-{slug(simd)}" if simd else name
    return f"{'gpu' if backend in ('gpu', 'cuda', 'rocm') else backend}-{slug(device_kind)}"


class BenchEnvironment(Record):
    jax: str
    jaxlib: str
    python: str
    numpy: str
    scipy: str
    backend: str
    device_kind: str
    device_count: Annotated[int, Field(ge=1)]
    process_count: Annotated[int, Field(ge=1)] = 1
    processor: str
    # the widest x86 vector instructions ("AVX-512", "AVX2"); None in files older than it
    simd: str | None = None
    cores: Annotated[int, Field(ge=1)]
    machine: str
    x64: bool
    blas: str
    date: str
    duration_s: float
    load_start: float | None
    load_end: float | None
    waited_s: float = 0.0
    quiet: bool

    @property
    def load(self) -> str:
        if self.load_start is None or self.load_end is None:
            return "not available"
        return (
            f"{self.load_start:.1f} at the start, {self.load_end:.1f} at the end "
            "(1-minute load average)"
        )


class BenchVariant(Record):
    """A column of the benchmark tables.

    ``role`` says what it is (see ``ROLES``); ``form`` how it was made (``pattern``: a
    registry variant; ``numpy``/``into``: the floor, allocating or writing into a
    preallocated array; ``call``/``send``/``noop``: a mechanism's bare forms;
    ``blas-default``, ``unbatched``, ``stacked``, ``noop-per-step``: references; ``seed``;
    another project's tool or JAX's own, beside a recipe of this site: ``recipe``,
    ``jax-tqdm``, ``checkify``, ``error_if``); ``of`` the column it is a form of.
    """

    id: str
    label: str
    role: Literal["floor", "native", "pattern", "minimal", "seed", "reference", "tool"]
    mechanism: str
    form: str
    doc: str
    order: int
    of: str | None = None


class HarnessCheck(Record):
    """The benchmark harness against a tight ``perf_counter`` loop, same case, same run."""

    suite: str
    computation: str
    variant: str
    n: int
    harness_s: float
    loop_s: float

    @property
    def ratio(self) -> float:
        return self.harness_s / self.loop_s


class PairedRatio(Record):
    """A pattern and its mechanism's minimal form timed in alternating rounds, same case,
    same run: the medians of the pattern's rounds and of the minimal form's rounds between
    them, so that both medians come from the same moments of the run."""

    suite: str
    computation: str
    variant: str
    minimal: str
    n: Annotated[int, Field(ge=1)]
    pattern_s: float
    minimal_s: float

    @property
    def ratio(self) -> float:
        return self.pattern_s / self.minimal_s


class BenchResult(Sparse):
    """Summary statistics of one case (never the raw rounds)."""

    OMIT_IF_NONE = frozenset({"page_faults"})

    suite: Literal["calls", "vmap", "loops", "grad", "eager", "tools"]
    computation: str
    variant: str
    n: Annotated[int, Field(ge=1)]
    median_s: float
    q1_s: float
    q3_s: float
    iqr_s: float
    min_s: float
    rounds: Annotated[int, Field(ge=3)]
    iterations: Annotated[int, Field(ge=1)]
    host_calls: Count | None
    bytes: Count | None
    #: minor page faults of the process during one untimed call after compiling (the call
    #: whose host calls are counted): memory touched for the first time, such as a fresh
    #: output buffer. None in files measured before it was recorded.
    page_faults: Count | None = None

    @model_validator(mode="after")
    def _times(self) -> BenchResult:
        times = [self.min_s, self.q1_s, self.median_s, self.q3_s]
        if not all(math.isfinite(t) and t > 0 for t in times):
            raise ValueError(f"times must be finite and positive, got {times}")
        if times != sorted(times):
            raise ValueError(f"expected min <= q1 <= median <= q3, got {times}")
        if not math.isclose(self.iqr_s, self.q3_s - self.q1_s, rel_tol=1e-6, abs_tol=1e-12):
            raise ValueError("iqr_s is not q3_s - q1_s")
        return self

    def key(self) -> tuple[str, str, str, int]:
        return (self.suite, self.computation, self.variant, self.n)


class TargetRecord(Record):
    """A target of the performance page: a ratio measured in one run, against its limit."""

    name: str
    subject: str
    value: float
    limit: float
    where: str
    detail: str = ""

    @property
    def met(self) -> bool:
        return self.value <= self.limit


class BenchFile(Record):
    """One benchmark run on one device."""

    version: Literal[2] = Field(2, alias="schema")
    device: str
    environment: BenchEnvironment
    variants: list[BenchVariant]
    results: list[BenchResult]
    checks: list[HarnessCheck] = Field(default_factory=list)
    pairs: list[PairedRatio] = Field(default_factory=list)
    targets: list[TargetRecord] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> BenchFile:
        problems = []
        e = self.environment
        stem = device_stem(e.backend, e.device_kind, e.processor, e.simd)
        if self.device != stem:
            problems.append(f"device: expected {stem!r} for this environment, got {self.device!r}")
        ids = [v.id for v in self.variants]
        dupes = repeated(ids)
        if dupes:
            problems.append(f"duplicate variant ids {dupes}")
        seen: set[tuple[str, str, str, int]] = set()
        for r in self.results:
            if r.variant not in ids:
                problems.append(f"result {r.key()}: variant is not listed in variants")
            if r.key() in seen:
                problems.append(f"duplicate result {r.key()}")
            seen.add(r.key())
        for p in self.pairs:
            where = f"pair {p.suite}/{p.computation}/{p.variant}/{p.n}"
            if (p.suite, p.computation, p.variant, p.n) not in seen:
                problems.append(f"{where}: no result for the pattern")
            if p.minimal not in ids:
                problems.append(f"{where}: minimal form {p.minimal!r} is not listed in variants")
        if problems:
            raise ValueError("; ".join(problems[:10]))
        return self


def validate_bench(doc: Any) -> list[str]:
    """Every way ``doc`` (parsed JSON) departs from the benchmark schema; empty: valid."""
    return validate(BenchFile, doc)


def load_bench(path: Path) -> BenchFile:
    return load(BenchFile, path)
