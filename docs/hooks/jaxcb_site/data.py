"""The committed data the site is built from, loaded through ``jaxcb_core.schema``.

The site reads only ``docs/data/`` and source files: it imports ``jaxcb_core.schema``
(pydantic and the standard library) from the source tree, never JAX, NumPy or a mechanism
package. Everything it shows about variants, computations and transforms — labels, docs,
the reasons a package gives for not implementing a computation — is in the matrix files.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from pathlib import Path
from typing import Any

from jaxcb_core import schema  # the source tree's: see jaxcb_site/__init__.py

from .i18n import say

ROOT = Path(__file__).resolve().parents[3]

MATRIX_DIR = ROOT / "docs" / "data" / "matrix"
BENCH_DIR = ROOT / "docs" / "data" / "bench"
# Development only: point the site at matrix files kept outside the repository.
MATRIX_DIR_ENV = "JAXCB_SITE_MATRIX_DIR"
STATUSES = schema.STATUSES


def matrix_dir() -> Path:
    return Path(os.environ.get(MATRIX_DIR_ENV) or MATRIX_DIR)


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", v))


@dataclasses.dataclass(frozen=True)
class Matrix:
    """One committed matrix file (one JAX version, platform and device layout), as the
    page code reads it: plain dictionaries of the validated record."""

    path: Path
    record: schema.MatrixFile

    @functools.cached_property
    def data(self) -> dict[str, Any]:
        return self.record.model_dump(mode="json", by_alias=True)

    @property
    def key(self) -> str:
        """The file stem, ``<jax>-<platform>-<layout>``: stable id for switches."""
        return self.path.stem

    @property
    def env(self) -> dict[str, Any]:
        return self.data["environment"]  # type: ignore[no-any-return]

    @property
    def label(self) -> str:
        return self.label_in("en")

    def label_in(self, lang: str) -> str:
        """The environment's name (``JAX 0.12.0.1 · cpu · 4 devices``) in the language
        ``lang`` (``i18n.say``)."""
        e = self.env
        kind = e.get("device_kind") or ""
        n = e["device_count"]
        same = kind.lower() in ("", e["platform"].lower())
        many = "label-devices" if n != 1 else "label-device"
        dev = say(lang, many, n=n) if same else f"{n}× {kind}"
        procs = e.get("process_count", 1)
        if procs > 1:
            dev += say(lang, "label-processes", n=procs)
        return f"JAX {e['jax']} · {e['platform']} · {dev}"

    @property
    def variants(self) -> list[dict[str, Any]]:
        return list(self.data["variants"])

    @property
    def transforms(self) -> list[dict[str, Any]]:
        return list(self.data["transforms"])

    @property
    def computations(self) -> list[dict[str, Any]]:
        return list(self.data["computations"])

    @functools.cached_property
    def cells(self) -> dict[tuple[str, str, str], dict[str, Any]]:
        """Every cell by (variant, computation, transform). A cell that does not apply to its
        row gets ``measured_in``: the rows of the same mechanism that measure its
        computation under its transform (a row measured under some columns only leaves
        the rest to such a row); empty where no row does."""
        cells = {(c["variant"], c["computation"], c["transform"]): c for c in self.data["cells"]}
        family = {v["id"]: v["mechanism"] for v in self.variants}
        measured: dict[tuple[str, str, str], list[str]] = {}
        for (v, c, t), cell in cells.items():
            if cell["status"] != "n/a":
                measured.setdefault((family.get(v, v), c, t), []).append(v)
        for (v, c, t), cell in cells.items():
            if cell["status"] == "n/a":
                cell["measured_in"] = sorted(measured.get((family.get(v, v), c, t), []))
        return cells

    def cell(self, variant: str, computation: str, transform: str) -> dict[str, Any] | None:
        return self.cells.get((variant, computation, transform))

    def variant(self, vid: str) -> dict[str, Any] | None:
        return next((v for v in self.variants if v["id"] == vid), None)

    @property
    def sort_key(self) -> tuple[Any, ...]:
        e = self.env
        return (_version_key(e["jax"]), e["platform"] == "cpu", e["device_count"])


@functools.lru_cache(maxsize=4)
def _load(directory: str, stamp: tuple[tuple[str, float], ...]) -> tuple[Matrix, ...]:
    out = [Matrix(p, schema.load_matrix(p)) for p in (Path(directory) / n for n, _ in stamp)]
    return tuple(sorted(out, key=lambda m: m.sort_key, reverse=True))


def _all_matrices(directory: Path | None = None) -> tuple[Matrix, ...]:
    d = directory or matrix_dir()
    stamp = tuple((p.name, p.stat().st_mtime) for p in schema.files(d))
    return _load(str(d), stamp)


def load_matrices(directory: Path | None = None) -> tuple[Matrix, ...]:
    """Every one-process matrix file, newest JAX first (CPU before other platforms of the
    same JAX). The multi-process files (other columns) are :func:`load_distributed`'s."""
    return tuple(m for m in _all_matrices(directory) if m.env.get("process_count", 1) == 1)


def load_distributed(directory: Path | None = None) -> tuple[Matrix, ...]:
    """Every multi-process matrix file (``<jax>-<platform>-<procs>x<devices>.json``)."""
    return tuple(m for m in _all_matrices(directory) if m.env.get("process_count", 1) > 1)


def variants() -> list[dict[str, Any]]:
    """Every variant any committed file measured (newest file's record first), by order."""
    seen: dict[str, dict[str, Any]] = {}
    for m in load_matrices():
        for v in m.variants:
            seen.setdefault(v["id"], v)
    return sorted(seen.values(), key=lambda v: (v["order"], v["id"]))


def computations() -> list[dict[str, Any]]:
    """The catalog as the committed files record it (newest file first), in catalog order."""
    seen: dict[str, dict[str, Any]] = {}
    for m in load_matrices():
        for c in m.computations:
            seen.setdefault(c["name"], c)
    return list(seen.values())


def bench_files(directory: Path | None = None) -> list[schema.BenchFile]:
    """Every benchmark file, CPU first."""
    docs = [schema.load_bench(p) for p in schema.files(directory or BENCH_DIR)]
    return sorted(docs, key=lambda d: (d.environment.backend != "cpu", d.device))
