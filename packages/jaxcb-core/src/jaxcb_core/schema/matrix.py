"""``docs/data/matrix/<jax>-<platform>-<layout>.json``: one measured support matrix
(:class:`MatrixFile`), written by ``jaxcb matrix --write``.

A multi-process matrix (``<jax>-<platform>-<procs>x<devices per process>.json``, ``jaxcb
matrix --processes``) is a :class:`MatrixFile` too: each cell also says what every process saw
(:class:`ProcessCell`), and the file carries the measured cost of sharded host calls
(:class:`ShardingCost`). Those fields are left out of a file that does not have them, so
single-process files are unchanged.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, model_validator

from .base import Count, Record, Sparse, load, repeated, validate

__all__ = [
    "KINDS",
    "MATRIX_SCHEMA",
    "STATUSES",
    "VERDICTS",
    "Cell",
    "ComputationInfo",
    "CostResult",
    "Delivered",
    "Effects",
    "MatrixEnvironment",
    "MatrixFile",
    "ProcessCell",
    "ShardingCost",
    "Status",
    "TransformInfo",
    "VariantInfo",
    "load_matrix",
    "matrix_stem",
    "validate_matrix",
]

MATRIX_SCHEMA = 2
STATUSES = ("ok", "wrong", "error", "n/a")
VERDICTS = ("exact", "none", "missing", "duplicated", "reordered")
KINDS = ("pure", "effect", "impure")

Status = Literal["ok", "wrong", "error", "n/a"]


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
            dupes = repeated(ids)
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


def validate_matrix(doc: Any) -> list[str]:
    """Every way ``doc`` (parsed JSON) departs from the matrix schema; empty: valid."""
    return validate(MatrixFile, doc)


def load_matrix(path: Path) -> MatrixFile:
    return load(MatrixFile, path)
