"""Mechanism variants, discovered from installed packages.

A mechanism package declares itself with an entry point in the group
``jaxcb.mechanisms`` whose value is a function returning a list of plain
dictionaries, one per *variant* (``pure_callback`` with one ``vmap_method``,
``io_callback`` ordered, ...). Plain dictionaries keep the mechanism packages free
of any import of this harness at run time; their type is :class:`VariantSpec`, which a
registry names for the type checker only (``if TYPE_CHECKING:``), so mypy checks every
row's keys and value types where it is written. Each row is built whole, once: the
harness reads it and never changes it.

The core never imports a mechanism package by name: adding a package adds rows.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import types
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, NotRequired, TypedDict

from .probe import Probe, make_probe

GROUP = "jaxcb.mechanisms"
BARE_FORMS = frozenset({"call", "call_in_place", "send", "noop"})
EFFECT_MECHANISMS = frozenset({"io_callback", "debug.callback", "debug.print", "debug.log"})

__all__ = ["GROUP", "ProbeSpec", "Variant", "VariantSpec", "discover", "from_dict"]


#: A registry's ``probe`` value (:mod:`jaxcb_core.probe` has the contract): ``None`` (nothing
#: runs on the host), ``{computation: (host function names)}``, or a probe object.
ProbeSpec = Probe | Mapping[str, Sequence[str]] | None


class VariantSpec(TypedDict):
    """One registry row, as a mechanism package writes it (turned into a :class:`Variant`
    by :func:`from_dict`, which checks what a type cannot: that the computations exist,
    that every one is implemented or unsupported, that the probe names a host function
    for each)."""

    #: stable identifier, ``"<mechanism>/<variant>"``, used in the data files
    id: str
    #: the JAX API the variant uses (``"pure_callback"``, ``"io_callback"``, ...)
    mechanism: str
    #: short text for tables
    label: str
    #: one paragraph: what this variant is and when a reader would pick it
    doc: str
    #: the import name of the package that provides it
    package: str
    #: sort key for tables; a package's first variant (lowest order) is its own column
    #: wherever one column per package is shown
    order: int
    #: ``{computation name: callable}``: the callables take the catalog's positional
    #: arguments (and the computation's sink keyword, for effects, if they accept it)
    implementations: Mapping[str, Callable[..., Any]]
    #: ``{computation name: module}``: the pattern module of each implementation
    modules: Mapping[str, types.ModuleType]
    #: ``{computation name: reason}``: computations this mechanism cannot express
    unsupported: Mapping[str, str]
    #: how the host side is observed (:data:`ProbeSpec`)
    probe: ProbeSpec
    #: the transform ids this variant is measured under, when it differs from another row
    #: in one respect only (``pure_callback`` with another ``vmap_method`` is measured under
    #: the transforms that batch); the others are "not applicable"
    transforms: NotRequired[Sequence[str]]
    #: why, shown in those cells (required with ``transforms``)
    scope: NotRequired[str]
    #: ``True``: the implementations take concrete arrays only and run outside ``jax.jit``
    #: (``colocated_python``). The matrix measures every transform as for any row; the
    #: benchmarks call them without ``jax.jit`` and leave them out of the suites that batch,
    #: loop or differentiate
    eager_only: NotRequired[bool]
    #: the mechanism's minimal forms, for the benchmarks: ``"call"``,
    #: ``call(host, result_type, *args)`` computing a result on the host with the NumPy
    #: function ``host``; ``"call_in_place"``, ``call_in_place(into, result_type, *args)``,
    #: the same with ``into(out, *arrays)`` writing the result into the output buffer,
    #: which aliases the first argument (donate it under ``jax.jit``); ``"send"``,
    #: ``send(host, *args, ordered=...)`` delivering arrays to the host; ``"noop"``, ``noop(x)``, one round trip that does no work and returns an
    #: array like ``x`` (the fixed cost of the mechanism)
    bare: NotRequired[Mapping[str, Callable[..., Any]]]


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
    probe: Probe | None
    transforms: tuple[str, ...] | None = None
    scope: str = ""
    bare: Mapping[str, Callable[..., Any]] = dataclasses.field(default_factory=dict)
    eager_only: bool = False

    def implementation(self, name: str) -> Callable[..., Any] | None:
        return self.implementations.get(name)

    @property
    def owes_runs(self) -> bool:
        """Whether the host function is an effect owed once per execution of the call: an
        io_callback, a debug callback, print or log (not the partitioned rows, which owe one
        per shard), host_callback's id_tap. The matrix grades their host calls against the
        program's executions for every computation."""
        if self.id.endswith("/partitioned"):
            return False
        return self.mechanism in EFFECT_MECHANISMS or self.id == "host_callback/id_tap"

    @property
    def reaches_host(self) -> bool:
        """False for the baseline: nothing of this variant runs on the host."""
        return self.probe is not None

    def measured_under(self, transform: str) -> bool:
        return self.transforms is None or transform in self.transforms

    def takes(self, computation: str, keyword: str) -> bool:
        """Whether the implementation of ``computation`` accepts ``keyword`` (a sink)."""
        fn = self.implementations[computation]
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            return False
        return keyword in params or any(p.kind is p.VAR_KEYWORD for p in params.values())

    def to_json(self) -> dict[str, Any]:
        """What the data files record of this variant (everything the site shows)."""
        return {
            "id": self.id,
            "mechanism": self.mechanism,
            "label": self.label,
            "doc": self.doc,
            "package": self.package,
            "order": self.order,
            "unsupported": dict(sorted(self.unsupported.items())),
            "transforms": None if self.transforms is None else list(self.transforms),
            "scope": self.scope,
        }


_OPTIONAL = {"transforms", "scope", "bare", "eager_only"}
_KEYS = {f.name for f in dataclasses.fields(Variant)} - _OPTIONAL


def from_dict(d: Mapping[str, Any]) -> Variant:
    """Validate one registry dictionary and turn it into a :class:`Variant`."""
    from .catalog import CATALOG

    missing = _KEYS - d.keys()
    if missing:
        raise ValueError(f"variant {d.get('id', '?')!r} lacks keys {sorted(missing)}")
    unknown_keys = d.keys() - _KEYS - _OPTIONAL
    if unknown_keys:
        raise ValueError(f"variant {d['id']!r} has unknown keys {sorted(unknown_keys)}")
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
    try:
        probe = make_probe(d["probe"], d["modules"])
    except (TypeError, ValueError) as e:
        raise ValueError(f"variant {d['id']!r}: {e}") from None
    if isinstance(d["probe"], Mapping):
        unprobed = set(d["implementations"]) - set(d["probe"])
        if unprobed:
            raise ValueError(
                f"variant {d['id']!r}: the probe names no host function for {sorted(unprobed)}"
            )
    bare = dict(d.get("bare") or {})
    if set(bare) - BARE_FORMS:
        raise ValueError(
            f"variant {d['id']!r}: bare forms are {sorted(BARE_FORMS)}, got {sorted(bare)}"
        )
    return Variant(
        **{k: d[k] for k in _KEYS - {"probe"}},
        probe=probe,
        transforms=None if transforms is None else tuple(transforms),
        scope=d.get("scope", ""),
        bare=bare,
        eager_only=bool(d.get("eager_only", False)),
    )


@functools.cache
def _discover(group: str) -> tuple[Variant, ...]:
    out: list[Variant] = []
    for ep in entry_points(group=group):
        factory = ep.load()
        out.extend(from_dict(d) for d in factory())
    ids = [v.id for v in out]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise ValueError(f"duplicate variant ids {sorted(dupes)}")
    return tuple(sorted(out, key=lambda v: (v.order, v.id)))


def discover(group: str = GROUP) -> list[Variant]:
    """Every variant of every installed mechanism package, sorted by ``order``."""
    return list(_discover(group))


def from_file(spec: str) -> list[Variant]:
    """The variants of a registry outside any installed package: ``"path/to/file.py:function"``
    (a test's deliberately failing rows, run by the multi-process launcher's workers)."""
    import importlib.util
    from pathlib import Path

    path, _, name = spec.rpartition(":")
    if not path or not name:
        raise ValueError(f"registry {spec!r}: expected 'path/to/file.py:function'")
    import sys

    module_spec = importlib.util.spec_from_file_location(f"jaxcb_registry_{Path(path).stem}", path)
    if module_spec is None or module_spec.loader is None:
        raise ValueError(f"registry {spec!r}: {path} is not a Python file")
    module = sys.modules.get(module_spec.name) or importlib.util.module_from_spec(module_spec)
    if module_spec.name not in sys.modules:
        sys.modules[module_spec.name] = module  # its pattern functions find their module
        module_spec.loader.exec_module(module)
    return [from_dict(d) for d in getattr(module, name)()]


def by_id(variant_id: str) -> Variant:
    for v in discover():
        if v.id == variant_id:
            return v
    raise KeyError(f"no variant {variant_id!r}; installed: {[v.id for v in discover()]}")
