"""The schema of every data file under ``docs/data/``: typed records, load, validate, write.

One module per kind of file, each named after its folder: :mod:`.matrix` (one measured
support matrix, single- or multi-process), :mod:`.behaviour` (behaviour outside the matrix
grid), :mod:`.bench` (one benchmark run on one device), :mod:`.examples` (the examples'
outputs), :mod:`.lessons` (the lessons' outputs, cell by cell) and :mod:`.api`
(``docs/data/jax-api.json``, the links to JAX's documentation); :mod:`.base` holds what they
share (strict records, :class:`SchemaError`, :func:`dump`). The writers (``jaxcb matrix
--write``, the benchmark session, the behaviour, example and lesson tests), the site hooks
and the tests all read and write the files through this package, so there is one definition
of each file; every name is importable from here (``from jaxcb_core.schema import
MatrixFile``). It imports pydantic and the standard library only (no JAX, no NumPy): the
site is built from these records without JAX installed.

Every file names the versions and the machine its results came from: the JAX and jaxlib
versions, Python and, for a matrix or a benchmark file, the platform, the device kind, the
device count and the process count.
"""

from __future__ import annotations

from .api import ApiEntry, ApiFile, ChangelogEntry, Url, load_api
from .base import Count, Record, SchemaError, Sparse, dump, files
from .behaviour import BehaviourFile, Observation, Scalar, load_behaviour
from .bench import (
    BENCH_SCHEMA,
    LATER_SUITES,
    QUIET_LOAD,
    ROLES,
    SUITES,
    BenchEnvironment,
    BenchFile,
    BenchResult,
    BenchVariant,
    HarnessCheck,
    PairedRatio,
    TargetRecord,
    device_stem,
    load_bench,
    slug,
    validate_bench,
)
from .examples import ExampleEnvironment, ExampleRun, ExamplesFile, load_examples
from .lessons import (
    LessonCell,
    LessonEnvironment,
    LessonRun,
    LessonsFile,
    LessonStop,
    lesson_sha256,
    load_lessons,
)
from .matrix import (
    KINDS,
    MATRIX_SCHEMA,
    STATUSES,
    VERDICTS,
    Cell,
    ComputationInfo,
    CostResult,
    Delivered,
    Effects,
    MatrixEnvironment,
    MatrixFile,
    ProcessCell,
    ShardingCost,
    Status,
    TransformInfo,
    VariantInfo,
    load_matrix,
    matrix_stem,
    validate_matrix,
)

__all__ = [
    "BENCH_SCHEMA",
    "KINDS",
    "LATER_SUITES",
    "MATRIX_SCHEMA",
    "QUIET_LOAD",
    "ROLES",
    "STATUSES",
    "SUITES",
    "VERDICTS",
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
    "Count",
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
    "PairedRatio",
    "ProcessCell",
    "Record",
    "Scalar",
    "SchemaError",
    "ShardingCost",
    "Sparse",
    "Status",
    "TargetRecord",
    "TransformInfo",
    "Url",
    "VariantInfo",
    "device_stem",
    "dump",
    "files",
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
