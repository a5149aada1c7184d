"""Loading the committed matrix files (``docs/data/matrix/*.json``)."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
MATRIX_DIR = ROOT / "docs" / "data" / "matrix"
# Development only: point the site at matrix files kept outside the repository.
MATRIX_DIR_ENV = "JAXCB_SITE_MATRIX_DIR"
SCHEMA = 1
STATUSES = ("ok", "wrong", "error", "n/a")


def matrix_dir() -> Path:
    return Path(os.environ.get(MATRIX_DIR_ENV) or MATRIX_DIR)


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", v))


@dataclasses.dataclass(frozen=True)
class Matrix:
    """One committed matrix file: one JAX version on one platform and device count."""

    path: Path
    data: dict[str, Any]

    @property
    def key(self) -> str:
        """The file stem, ``<jax>-<platform>-<ndevices>``: stable id for switches."""
        return self.path.stem

    @property
    def env(self) -> dict[str, Any]:
        return self.data["environment"]

    @property
    def label(self) -> str:
        e = self.env
        kind = e.get("device_kind") or ""
        n = e["device_count"]
        same = kind.lower() in ("", e["platform"].lower())
        dev = f"{n} device{'s' if n != 1 else ''}" if same else f"{n}× {kind}"
        return f"JAX {e['jax']} · {e['platform']} · {dev}"

    @functools.cached_property
    def variants(self) -> list[dict[str, Any]]:
        return list(self.data["variants"])

    @functools.cached_property
    def transforms(self) -> list[dict[str, Any]]:
        return list(self.data["transforms"])

    @functools.cached_property
    def computations(self) -> list[dict[str, Any]]:
        return list(self.data["computations"])

    @functools.cached_property
    def cells(self) -> dict[tuple[str, str, str], dict[str, Any]]:
        return {(c["variant"], c["computation"], c["transform"]): c for c in self.data["cells"]}

    def cell(self, variant: str, computation: str, transform: str) -> dict[str, Any] | None:
        return self.cells.get((variant, computation, transform))

    def variant(self, vid: str) -> dict[str, Any] | None:
        return next((v for v in self.variants if v["id"] == vid), None)

    def variants_of(self, mechanism: str) -> list[dict[str, Any]]:
        return [v for v in self.variants if v["mechanism"] == mechanism]

    @property
    def sort_key(self) -> tuple[Any, ...]:
        e = self.env
        return (_version_key(e["jax"]), e["platform"] == "cpu", e["device_count"])


class DataError(ValueError):
    """A matrix file that does not follow the schema."""


def _validate(path: Path, data: dict[str, Any]) -> None:
    if data.get("schema") != SCHEMA:
        raise DataError(f"{path}: schema {data.get('schema')!r}, expected {SCHEMA}")
    for key in ("environment", "variants", "computations", "transforms", "cells"):
        if key not in data:
            raise DataError(f"{path}: missing {key!r}")
    vids = {v["id"] for v in data["variants"]}
    tids = {t["id"] for t in data["transforms"]}
    cids = {c["name"] for c in data["computations"]}
    for cell in data["cells"]:
        if cell["status"] not in STATUSES:
            raise DataError(f"{path}: unknown status {cell['status']!r} in {cell['test']}")
        if (
            cell["variant"] not in vids
            or cell["transform"] not in tids
            or cell["computation"] not in cids
        ):
            raise DataError(f"{path}: cell {cell['test']} names an unknown row or column")


@functools.lru_cache(maxsize=4)
def _load(directory: str, stamp: tuple[tuple[str, float], ...]) -> tuple[Matrix, ...]:
    out = []
    for name, _ in stamp:
        path = Path(directory) / name
        data = json.loads(path.read_text(encoding="utf-8"))
        _validate(path, data)
        out.append(Matrix(path, data))
    return tuple(sorted(out, key=lambda m: m.sort_key, reverse=True))


def load_matrices(directory: Path | None = None) -> tuple[Matrix, ...]:
    """Every matrix file, newest JAX first (CPU before other platforms of the same JAX)."""
    d = directory or matrix_dir()
    files = sorted(d.glob("*.json")) if d.is_dir() else []
    stamp = tuple((p.name, p.stat().st_mtime) for p in files)
    return _load(str(d), stamp)
