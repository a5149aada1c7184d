"""``docs/data/jax-api.json``: the JAX documentation links the site renders
(:class:`ApiFile`): each JAX API name with its page, and the changelog's release sections."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import Record, load, repeated

__all__ = ["ApiEntry", "ApiFile", "ChangelogEntry", "Url", "load_api"]

Url = Annotated[str, Field(pattern=r"^https://[^\s]+$")]


class ApiEntry(Record):
    """One JAX API name and the page of the JAX documentation (or source) that defines it."""

    name: str  # as written in code: "jax.pure_callback"
    url: Url
    #: other spellings linked to the same page: "pure_callback"
    aliases: list[str] = Field(default_factory=list)


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
        dupes = repeated(names)
        dupes += repeated(versions)
        if dupes:
            raise ValueError(f"names or versions listed twice: {dupes[:10]}")
        return self


def load_api(path: Path) -> ApiFile:
    return load(ApiFile, path)
