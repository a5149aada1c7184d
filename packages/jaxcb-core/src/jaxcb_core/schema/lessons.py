"""``docs/data/lessons/<jax>.json``: every lesson of the learning path run cell by cell on one
JAX version, with each cell's output (:class:`LessonsFile`), written by ``pytest tests/learn
--update-lessons``; and the hash that ties an output to the code that printed it
(:func:`lesson_sha256`)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import Record, load, repeated
from .examples import ExampleEnvironment

__all__ = [
    "LessonCell",
    "LessonEnvironment",
    "LessonRun",
    "LessonStop",
    "LessonsFile",
    "lesson_sha256",
    "load_lessons",
]


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
        dupes = repeated(c.tag for c in self.cells)
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
        dupes = repeated(e.id for e in self.lessons)
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
    return load(LessonsFile, path)
