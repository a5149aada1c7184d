"""``docs/data/behaviour/<jax>-<platform>-<layout>.json``: measured behaviour outside the
matrix grid (:class:`BehaviourFile`), written by ``pytest tests/behaviour
--update-behaviour``. Its environment is a matrix file's (:class:`MatrixEnvironment`)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from .base import Record, load, repeated
from .matrix import MatrixEnvironment

__all__ = ["BehaviourFile", "Observation", "Scalar", "load_behaviour"]

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
        dupes = repeated(keys)
        if dupes:
            raise ValueError(f"duplicate observations {dupes[:10]}")
        return self


def load_behaviour(path: Path) -> BehaviourFile:
    return load(BehaviourFile, path)
