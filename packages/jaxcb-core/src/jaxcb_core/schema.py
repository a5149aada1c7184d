"""The schema of every data file under ``docs/data/``: typed records, load, validate, write.

``docs/data/matrix/<jax>-<platform>-<layout>.json`` holds one measured support matrix
(:class:`MatrixFile`), ``docs/data/bench/<device>.json`` one benchmark run
(:class:`BenchFile`). The writers (``jaxcb matrix --write``, the benchmark session),
the site hooks and the tests all read and write them through this module, so there is
one definition of each file. It imports pydantic and the standard library only (no JAX,
no NumPy): the site is built from these records without JAX installed.

Every file names the JAX and jaxlib versions, Python, the platform, the device kind, the
device count and the process count its results came from. A multi-process matrix
(``<jax>-<platform>-<procs>x<devices per process>.json``, ``jaxcb matrix --processes``) is a
:class:`MatrixFile` too: each cell also says what every process saw (:class:`ProcessCell`),
and the file carries the measured cost of sharded host calls (:class:`ShardingCost`). Those
fields are left out of a file that does not have them, so single-process files are unchanged.
"""

from __future__ import annotations

import collections
import hashlib
import json
import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
    model_validator,
)

__all__ = [
    "BENCH_SCHEMA",
    "LATER_SUITES",
    "MATRIX_SCHEMA",
    "ROLES",
    "STATUSES",
    "SUITES",
    "ApiEntry",
    "ApiFile",
    "BehaviourFile",
    "BenchEnvironment",
    "BenchFile",
    "BenchResult",
    "BenchVariant",
    "Cell",
    "ChangelogEntry",
    "ComputationInfo",
    "CostResult",
    "Delivered",
    "Effects",
    "ExampleEnvironment",
    "ExampleRun",
    "ExamplesFile",
    "HarnessCheck",
    "LessonCell",
    "LessonEnvironment",
    "LessonRun",
    "LessonStop",
    "LessonsFile",
    "MatrixEnvironment",
    "MatrixFile",
    "Observation",
    "SchemaError",
    "TargetRecord",
    "TransformInfo",
    "VariantInfo",
    "device_stem",
    "dump",
    "lesson_sha256",
    "load_api",
    "load_behaviour",
    "load_bench",
    "load_examples",
    "load_lessons",
    "load_matrix",
    "matrix_stem",
    "slug",
    "validate_bench",
    "validate_matrix",
]

MATRIX_SCHEMA = 2
BENCH_SCHEMA = 2
STATUSES = ("ok", "wrong", "error", "n/a")
VERDICTS = ("exact", "none", "missing", "duplicated", "reordered")
KINDS = ("pure", "effect", "impure")
SUITES = ("calls", "vmap", "loops", "grad", "eager", "tools")
#: suites added after files were committed: an earlier file lacks them (a new run has all)
LATER_SUITES = ("tools",)
QUIET_LOAD = 1.5  # a benchmark file measured above this 1-minute load is marked "not quiet"
ROLES = ("floor", "native", "pattern", "minimal", "seed", "reference", "tool")

Status = Literal["ok", "wrong", "error", "n/a"]
Count = Annotated[int, Field(ge=0)]


def _repeated(items: Iterable[Any]) -> list[Any]:
    """The items that occur more than once, sorted (a file's duplicate ids)."""
    return sorted(k for k, n in collections.Counter(items).items() if n > 1)


class SchemaError(ValueError):
    """A data file that does not follow its schema (the message lists every problem)."""


class Record(BaseModel):
    """Strict: no unknown keys, no silent conversions (``"1"`` is not ``1``)."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class Sparse(Record):
    """A record whose fields in ``OMIT_IF_NONE`` are left out of the file when ``None``:
    fields added later, so that the files written before them stay byte for byte the same."""

    OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _omit_none(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        for name in self.OMIT_IF_NONE:
            if name in out and out[name] is None:
                del out[name]
        return out


# ---------------------------------------------------------------------------------- matrix


class Effects(Record):
    """Whether each host record an effect owes arrived exactly once, in order."""

    expected: Count
    arrived: Count
    missing: Count
    extra: Count
    in_order: bool
    verdict: Literal["exact", "none", "missing", "duplicated", "reordered"]


class Delivered(Record):
    """The effect records one process's sink got for one logical call of a cell, in order."""

    call: Count  # index into the transform's logical calls (a batch element, a shard, a process)
    steps: list[int]  # the step of each record, in the order the sink got them


class ProcessCell(Record):
    """What one process of a multi-process run saw in one cell."""

    process: Count
    status: Status
    reason: str | None = None
    error_type: str | None = None
    error: str | None = None
    host_calls: Count | None = None
    shapes: list[str] | None = None  # what this process's host functions received
    placement: str | None = None  # the sharding of the first output, as this process sees it
    delivered: list[Delivered] | None = None  # effects: records matched to a logical call
    unmatched: list[int] | None = None  # effects: steps of records owed to no call, sorted
    draws: Count | None = None  # impure inputs: draws this process's generator made


class Cell(Sparse):
    """The measured outcome of one variant × computation × transform.

    ``processes`` is set in a multi-process matrix only: one entry per process. The fields
    above it then merge them: ``status`` the worst, ``host_calls`` the sum, ``shapes`` the
    union, ``effects`` every process's records against what the whole job owed.
    """

    OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"processes"})

    variant: str
    computation: str
    transform: str
    status: Status
    reason: str | None = None
    error_type: str | None = None
    error: str | None = None
    host_calls: Count | None = None
    shapes: list[str] | None = None
    effects: Effects | None = None
    warning: str | None = None
    test: str = ""
    processes: list[ProcessCell] | None = None

    def key(self) -> tuple[str, str, str]:
        return (self.variant, self.computation, self.transform)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class MatrixEnvironment(Record):
    jax: str
    jaxlib: str
    python: str
    numpy: str
    scipy: str
    platform: str
    device_kind: str
    device_count: Annotated[int, Field(ge=1)]
    process_count: Annotated[int, Field(ge=1)] = 1
    x64: bool
    machine: str
    processor: str
    os: str
    duration_s: float | None = None
    workers: int | None = None


class VariantInfo(Record):
    """What the site shows of a variant: its registry entry, less the code."""

    id: str
    mechanism: str
    label: str
    doc: str
    package: str
    order: int
    unsupported: dict[str, str]
    transforms: list[str] | None = None
    scope: str = ""


class ComputationInfo(Record):
    name: str
    kind: Literal["pure", "effect", "impure"]
    signature: str
    summary: str
    source: str


class TransformInfo(Record):
    id: str
    label: str
    group: str
    doc: str
    legacy: bool = False


class CostResult(Record):
    """One sharded host call, timed: ``gathered`` (one call on the whole array, under
    sharded ``jit``) or ``per_shard`` (one call per device, under ``shard_map``)."""

    variant: str
    form: Literal["gathered", "per_shard"]
    n: Annotated[int, Field(ge=1)]  # elements of the global float32 array
    median_s: list[float]  # per process: median wall time of one call of the jitted function
    host_calls: list[Count]  # per process: host function calls per call of the function
    shapes: list[str | None]  # per process: what its host function received (None: nothing)
    error: str | None = None  # why there is no timing (a process hung or died): lists empty

    @model_validator(mode="after")
    def _per_process(self) -> CostResult:
        sizes = {len(self.median_s), len(self.host_calls), len(self.shapes)}
        if self.error is not None and sizes != {0}:
            raise ValueError("a measurement that failed has no times, calls or shapes")
        if self.error is None and (len(sizes) != 1 or sizes == {0}):
            raise ValueError("median_s, host_calls and shapes need one entry per process")
        if not all(math.isfinite(t) and t > 0 for t in self.median_s):
            raise ValueError(f"times must be finite and positive, got {self.median_s}")
        return self


class ShardingCost(Record):
    """The cost of host calls on a sharded array, measured in the launched processes."""

    sizes: list[Annotated[int, Field(ge=1)]]
    repeats: Annotated[int, Field(ge=1)]
    load_start: float | None
    load_end: float | None
    duration_s: float
    results: list[CostResult]


class MatrixFile(Sparse):
    """One measured matrix: one JAX version on one platform and device layout."""

    OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset({"sharding_cost"})

    version: Literal[2] = Field(2, alias="schema")
    environment: MatrixEnvironment
    variants: list[VariantInfo]
    computations: list[ComputationInfo]
    transforms: list[TransformInfo]
    cells: list[Cell]
    sharding_cost: ShardingCost | None = None

    @model_validator(mode="after")
    def _consistent(self) -> MatrixFile:
        problems = []
        for what, ids in (
            ("variant", [v.id for v in self.variants]),
            ("computation", [c.name for c in self.computations]),
            ("transform", [t.id for t in self.transforms]),
        ):
            dupes = _repeated(ids)
            if dupes:
                problems.append(f"duplicate {what} ids {dupes}")
        vids = {v.id for v in self.variants}
        cids = {c.name for c in self.computations}
        tids = {t.id for t in self.transforms}
        seen: set[tuple[str, str, str]] = set()
        for cell in self.cells:
            if cell.variant not in vids or cell.computation not in cids:
                problems.append(f"cell {cell.key()} names an unknown variant or computation")
            elif cell.transform not in tids:
                problems.append(f"cell {cell.key()} names an unknown transform")
            if cell.key() in seen:
                problems.append(f"cell {cell.key()} appears twice")
            seen.add(cell.key())
            procs = [p.process for p in cell.processes or ()]
            if procs and procs != list(range(self.environment.process_count)):
                problems.append(
                    f"cell {cell.key()}: processes {procs}, expected one entry for each of "
                    f"the {self.environment.process_count} processes"
                )
        for r in self.sharding_cost.results if self.sharding_cost else ():
            if r.variant not in vids:
                problems.append(f"sharding_cost names an unknown variant {r.variant!r}")
        if problems:
            raise ValueError("; ".join(problems[:10]))
        return self

    def cell_map(self) -> dict[tuple[str, str, str], Cell]:
        return {c.key(): c for c in self.cells}


def matrix_stem(env: MatrixEnvironment | dict[str, Any]) -> str:
    """``<jax>-<platform>-<devices>`` (one process) or ``<jax>-<platform>-<procs>x<devices>``."""
    e = env if isinstance(env, MatrixEnvironment) else MatrixEnvironment.model_validate(env)
    if e.process_count == 1:
        layout = str(e.device_count)
    else:
        layout = f"{e.process_count}x{e.device_count // e.process_count}"
    return f"{e.jax}-{e.platform}-{layout}"


# ------------------------------------------------------------------------------ behaviour

Scalar = str | int | float | bool | None


class Observation(Record):
    """One measured behaviour outside the matrix grid: what an exception looks like to the
    caller, how dispatch and effects interact, one gotcha, one edge case. ``outcome`` holds
    the measured facts (no timings: a file must come out the same when measured again)."""

    group: Literal["exception", "dispatch", "gotcha", "fix", "edge", "recipe", "road", "compare"]
    id: str
    title: str
    outcome: dict[str, Scalar]
    test: str


class BehaviourFile(Record):
    """``docs/data/behaviour/<jax>-<platform>-<layout>.json``: the observations of one
    environment, written by ``pytest tests/behaviour --update-behaviour``."""

    version: Literal[1] = Field(1, alias="schema")
    environment: MatrixEnvironment
    observations: list[Observation]

    @model_validator(mode="after")
    def _unique(self) -> BehaviourFile:
        keys = [(o.group, o.id) for o in self.observations]
        dupes = _repeated(keys)
        if dupes:
            raise ValueError(f"duplicate observations {dupes[:10]}")
        return self


def load_behaviour(path: Path) -> BehaviourFile:
    return _load(BehaviourFile, path)


# ---------------------------------------------------------------------------------- bench


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
    checks: list[HarnessCheck] = []
    pairs: list[PairedRatio] = []
    targets: list[TargetRecord] = []

    @model_validator(mode="after")
    def _consistent(self) -> BenchFile:
        problems = []
        e = self.environment
        stem = device_stem(e.backend, e.device_kind, e.processor, e.simd)
        if self.device != stem:
            problems.append(f"device: expected {stem!r} for this environment, got {self.device!r}")
        ids = [v.id for v in self.variants]
        dupes = _repeated(ids)
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


# ------------------------------------------------------------------------------- examples


class ExampleEnvironment(Record):
    """Where the examples ran: a fresh Python process each, on the CPU."""

    jax: str
    jaxlib: str
    python: str
    numpy: str
    scipy: str
    platform: str


class ExampleRun(Record):
    """One example file run in a fresh process: the stdout it printed."""

    id: str  # "<package>/<name>": docs/examples/<package>/<name>.py
    source_sha256: str  # of the file that ran: the site refuses an output older than its code
    output: str


class ExamplesFile(Record):
    """``docs/data/examples/<jax>.json``: every example that runs on one JAX version, with
    its output, written by ``pytest tests/examples --update-examples``."""

    version: Literal[1] = Field(1, alias="schema")
    environment: ExampleEnvironment
    examples: list[ExampleRun]

    @model_validator(mode="after")
    def _unique(self) -> ExamplesFile:
        ids = [e.id for e in self.examples]
        dupes = _repeated(ids)
        if dupes:
            raise ValueError(f"duplicate examples {dupes[:10]}")
        return self


def load_examples(path: Path) -> ExamplesFile:
    return _load(ExamplesFile, path)


# -------------------------------------------------------------------------------- lessons


class LessonEnvironment(ExampleEnvironment):
    """Where the lessons ran: a fresh Python process each, on the CPU, one device; and the
    machine, since a lesson may time something."""

    processor: str  # the CPU model: a lesson that times something ran on it
    cores: Annotated[int, Field(ge=1)]
    load: Annotated[
        float, Field(ge=0)
    ]  # the 1-minute load average when a run began (the highest, if several wrote the file)


class LessonCell(Record):
    """One code cell of a lesson and what it printed."""

    tag: str
    output: str


class LessonStop(Record):
    """The exception that stopped a lesson: in which cell, its type and first line."""

    cell: str
    line: str


class LessonRun(Record):
    """One lesson run cell by cell in a fresh process (``tests/learn``)."""

    id: str  # "01_first_pure_callback": docs/learn/lessons/<id>.py
    source_sha256: str  # of the script and the files beside it that ran
    cells: list[LessonCell]  # the cells that ran, in order (up to the one that stopped)
    stopped: LessonStop | None = None  # None: every cell ran

    @model_validator(mode="after")
    def _unique(self) -> LessonRun:
        dupes = _repeated(c.tag for c in self.cells)
        if dupes:
            raise ValueError(f"lesson {self.id}: duplicate cell tags {dupes}")
        return self


class LessonsFile(Record):
    """``docs/data/lessons/<jax>.json``: every lesson of the learning path run on one JAX
    version, with each cell's output, written by ``pytest tests/learn --update-lessons``."""

    version: Literal[1] = Field(1, alias="schema")
    environment: LessonEnvironment
    lessons: list[LessonRun]

    @model_validator(mode="after")
    def _unique(self) -> LessonsFile:
        dupes = _repeated(e.id for e in self.lessons)
        if dupes:
            raise ValueError(f"duplicate lessons {dupes[:10]}")
        return self


def lesson_sha256(script: Path) -> str:
    """``LessonRun.source_sha256``: of the script and every file in the folder of the same
    name beside it (what the lesson needs in its working directory), so that an output
    belongs to exactly the code that printed it. The tests write it, the site checks it."""
    h = hashlib.sha256(script.read_bytes())
    folder = script.with_suffix("")
    if folder.is_dir():
        for f in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(f.relative_to(folder).as_posix().encode())
            h.update(f.read_bytes())
    return h.hexdigest()


def load_lessons(path: Path) -> LessonsFile:
    return _load(LessonsFile, path)


# -------------------------------------------------------------------------------- jax api

Url = Annotated[str, Field(pattern=r"^https://[^\s]+$")]


class ApiEntry(Record):
    """One JAX API name and the page of the JAX documentation (or source) that defines it."""

    name: str  # as written in code: "jax.pure_callback"
    url: Url
    aliases: list[str] = []  # other spellings linked to the same page: "pure_callback"


class ChangelogEntry(Record):
    """One release section of the JAX changelog, cited by the pages' version facts."""

    version: str  # "0.4.35"
    url: Url


class ApiFile(Record):
    """``docs/data/jax-api.json``: the JAX documentation links the site renders."""

    version: Literal[1] = Field(1, alias="schema")
    apis: list[ApiEntry]
    changelog: list[ChangelogEntry]

    @model_validator(mode="after")
    def _unique(self) -> ApiFile:
        names = [n for a in self.apis for n in (a.name, *a.aliases)]
        versions = [c.version for c in self.changelog]
        dupes = _repeated(names)
        dupes += _repeated(versions)
        if dupes:
            raise ValueError(f"names or versions listed twice: {dupes[:10]}")
        return self


def load_api(path: Path) -> ApiFile:
    return _load(ApiFile, path)


# ---------------------------------------------------------------------------------- files

M = TypeVar("M", bound=BaseModel)


def _errors(e: ValidationError) -> list[str]:
    out = []
    for err in e.errors():
        where = ".".join(str(p) for p in err["loc"]) or "file"
        out.append(f"{where}: {err['msg']}")
    return out


def _validate(model: type[M], doc: Any) -> list[str]:
    try:
        model.model_validate(doc)
    except ValidationError as e:
        return _errors(e)
    return []


def validate_matrix(doc: Any) -> list[str]:
    """Every way ``doc`` (parsed JSON) departs from the matrix schema; empty: valid."""
    return _validate(MatrixFile, doc)


def validate_bench(doc: Any) -> list[str]:
    """Every way ``doc`` (parsed JSON) departs from the benchmark schema; empty: valid."""
    return _validate(BenchFile, doc)


def _load(model: type[M], path: Path) -> M:
    try:
        return model.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as e:
        problems = "\n  ".join(_errors(e)[:20])
        raise SchemaError(
            f"{path} does not follow the {model.__name__} schema:\n  {problems}"
        ) from None


def load_matrix(path: Path) -> MatrixFile:
    return _load(MatrixFile, path)


def load_bench(path: Path) -> BenchFile:
    return _load(BenchFile, path)


def dump(record: BaseModel, path: Path) -> None:
    """Write a data file the way every writer does: indent 1, UTF-8, trailing newline."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = record.model_dump(mode="json", by_alias=True)
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def files(directory: Path) -> Iterator[Path]:
    """The JSON files of one data directory, by name."""
    yield from sorted(directory.glob("*.json")) if directory.is_dir() else ()
