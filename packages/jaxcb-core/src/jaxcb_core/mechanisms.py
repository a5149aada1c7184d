"""Mechanism variants, discovered from installed packages.

A mechanism package declares itself with an entry point in the group
``jaxcb.mechanisms`` whose value is a function returning a list of plain
dictionaries, one per *variant* (``pure_callback`` with one ``vmap_method``,
``io_callback`` ordered, ...). Plain dictionaries keep the mechanism packages free
of any import of this harness. The keys are:

``id``
    stable identifier, ``"<mechanism>/<variant>"``, used in the data files.
``mechanism``
    the JAX API the variant uses (``"pure_callback"``, ``"io_callback"``, ...).
``label``
    short text for tables.
``doc``
    one paragraph: what this variant is and when a reader would pick it.
``package``
    the import name of the package that provides it.
``order``
    sort key for tables.
``implementations``
    ``{computation name: callable}``: the callables take the catalog's positional
    arguments (and the computation's sink keyword, for effects).
``modules``
    ``{computation name: module}``: the pattern module, whose ``on_host``
    function (if any) is what runs on the host. The harness wraps it to count
    host calls.
``unsupported``
    ``{computation name: reason}``: computations this mechanism cannot express.
``transforms`` (optional)
    the transform ids this variant is measured under, when it differs from another
    row in one respect only (``pure_callback`` with another ``vmap_method`` is
    measured under the transforms that batch); the others are "not applicable".
``scope`` (optional)
    why, shown in those cells.

The core never imports a mechanism package by name: adding a package adds rows.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any

from .catalog import CATALOG

GROUP = "jaxcb.mechanisms"

__all__ = ["GROUP", "Variant", "discover", "from_dict"]


@dataclasses.dataclass(frozen=True)
class Variant:
    """One row of the matrix: a mechanism used one particular way."""

    id: str
    mechanism: str
    label: str
    doc: str
    package: str
    order: int
    implementations: Mapping[str, Callable[..., Any]]
    modules: Mapping[str, types.ModuleType]
    unsupported: Mapping[str, str]
    transforms: tuple[str, ...] | None = None
    scope: str = ""

    def implementation(self, name: str) -> Callable[..., Any] | None:
        return self.implementations.get(name)


_OPTIONAL = {"transforms", "scope"}
_KEYS = {f.name for f in dataclasses.fields(Variant)} - _OPTIONAL


def from_dict(d: Mapping[str, Any]) -> Variant:
    """Validate one registry dictionary and turn it into a :class:`Variant`."""
    missing = _KEYS - d.keys()
    if missing:
        raise ValueError(f"variant {d.get('id', '?')!r} lacks keys {sorted(missing)}")
    known = {c.name for c in CATALOG}
    for key in ("implementations", "unsupported"):
        unknown = set(d[key]) - known
        if unknown:
            raise ValueError(f"variant {d['id']!r}: {key} names unknown computations {unknown}")
    both = set(d["implementations"]) & set(d["unsupported"])
    if both:
        raise ValueError(f"variant {d['id']!r}: {both} both implemented and unsupported")
    silent = known - set(d["implementations"]) - set(d["unsupported"])
    if silent:
        raise ValueError(
            f"variant {d['id']!r} says nothing about {sorted(silent)}: "
            "implement them or list them as unsupported with a reason"
        )
    transforms = d.get("transforms")
    if transforms is not None and not d.get("scope"):
        raise ValueError(f"variant {d['id']!r} limits its transforms without saying why (scope)")
    return Variant(
        **{k: d[k] for k in _KEYS},
        transforms=None if transforms is None else tuple(transforms),
        scope=d.get("scope", ""),
    )


def discover(group: str = GROUP) -> list[Variant]:
    """Every variant of every installed mechanism package, sorted by ``order``."""
    out: list[Variant] = []
    for ep in entry_points(group=group):
        factory = ep.load()
        out.extend(from_dict(d) for d in factory())
    ids = [v.id for v in out]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise ValueError(f"duplicate variant ids {sorted(dupes)}")
    return sorted(out, key=lambda v: (v.order, v.id))
