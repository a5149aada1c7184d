"""``docs/data/examples/<jax>.json``: every example of ``docs/examples/`` that runs on one JAX
version, with the output it printed (:class:`ExamplesFile`), written by ``pytest
tests/examples --update-examples``."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from .base import Record, load, repeated

__all__ = ["ExampleEnvironment", "ExampleRun", "ExamplesFile", "load_examples"]


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
        dupes = repeated(ids)
        if dupes:
            raise ValueError(f"duplicate examples {dupes[:10]}")
        return self


def load_examples(path: Path) -> ExamplesFile:
    return load(ExamplesFile, path)
