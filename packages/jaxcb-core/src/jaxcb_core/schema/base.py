"""What every data file shares: strict records, the error a bad file raises, and reading,
validating and writing a file the one way every writer and reader does.

The standard library and pydantic only (no JAX, no NumPy), like every module of
:mod:`jaxcb_core.schema`: the site is built from these records without JAX installed.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

__all__ = [
    "Count",
    "Record",
    "SchemaError",
    "Sparse",
    "dump",
    "files",
    "load",
    "repeated",
    "validate",
]

Count = Annotated[int, Field(ge=0)]


def repeated(items: Iterable[Any]) -> list[Any]:
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


# ---------------------------------------------------------------------------------- files

M = TypeVar("M", bound=BaseModel)


def _errors(e: ValidationError) -> list[str]:
    out = []
    for err in e.errors():
        where = ".".join(str(p) for p in err["loc"]) or "file"
        out.append(f"{where}: {err['msg']}")
    return out


def validate(model: type[M], doc: Any) -> list[str]:
    """Every way ``doc`` (parsed JSON) departs from ``model``; empty: valid."""
    try:
        model.model_validate(doc)
    except ValidationError as e:
        return _errors(e)
    return []


def load(model: type[M], path: Path) -> M:
    """The file at ``path`` as a ``model``, or a :class:`SchemaError` listing its problems."""
    try:
        return model.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as e:
        problems = "\n  ".join(_errors(e)[:20])
        raise SchemaError(
            f"{path} does not follow the {model.__name__} schema:\n  {problems}"
        ) from None


def dump(record: BaseModel, path: Path) -> None:
    """Write a data file the way every writer does: indent 1, UTF-8, trailing newline."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = record.model_dump(mode="json", by_alias=True)
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def files(directory: Path) -> Iterator[Path]:
    """The JSON files of one data directory, by name."""
    yield from sorted(directory.glob("*.json")) if directory.is_dir() else ()
