"""One benchmark file, indexed for the analyses: :class:`Device` and :func:`minimal_among`.

Works on :class:`~jaxcb_core.schema.BenchFile` records only (the standard library and
pydantic: the site reads it at build time without JAX). Columns are found by their ``role``
and ``form`` (see :class:`~jaxcb_core.schema.BenchVariant`), never by a mechanism's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from ..schema import BenchFile, BenchResult, BenchVariant

__all__ = ["Device", "minimal_among"]


class _Column(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def mechanism(self) -> str: ...
    @property
    def form(self) -> str: ...


C = TypeVar("C", bound=_Column)


def minimal_among(columns: Iterable[C], mechanism: str, *, ordered: bool = False) -> C | None:
    """The mechanism's minimal form among ``columns`` (a file's variants, or the bench's
    subjects): its bare ``call``, or ``send`` for an observer; with ``ordered``, the
    ordered bare form where there is one."""
    found = [
        c
        for c in columns
        if c.role == "minimal" and c.form in ("call", "send") and c.mechanism == mechanism
    ]
    same = [c for c in found if c.id.endswith("-ordered") == ordered]
    return next(iter(same or found), None)


class Device:
    """One benchmark file, indexed by ``(suite, computation, variant, n)``."""

    def __init__(self, file: BenchFile) -> None:
        self.file = file
        self.env = file.environment
        self.stem = file.device
        self.variants: dict[str, BenchVariant] = {v.id: v for v in file.variants}
        self.index: dict[tuple[str, str, str, int], BenchResult] = {
            r.key(): r for r in file.results
        }

    @property
    def kind(self) -> str:
        return "CPU" if self.env.backend == "cpu" else "GPU"

    @property
    def title(self) -> str:
        if self.kind == "GPU":
            return f"GPU · {self.env.device_kind}"
        simd = f", {self.env.simd}" if self.env.simd else ""
        return f"CPU · {self.env.processor}{simd}"

    def get(self, suite: str, comp: str, variant: str, n: int) -> BenchResult | None:
        return self.index.get((suite, comp, variant, n))

    def t(self, suite: str, comp: str, variant: str, n: int) -> float | None:
        r = self.get(suite, comp, variant, n)
        return r.median_s if r else None

    def computations(self, suite: str) -> list[str]:
        return list(dict.fromkeys(r.computation for r in self.file.results if r.suite == suite))

    def sizes(self, suite: str, comp: str) -> list[int]:
        return sorted({r.n for r in self.file.results if (r.suite, r.computation) == (suite, comp)})

    def columns(self, suite: str, comp: str | None = None) -> list[str]:
        ids = {
            r.variant
            for r in self.file.results
            if r.suite == suite and (comp is None or r.computation == comp)
        }
        return sorted(ids, key=self.order)

    def order(self, vid: str) -> tuple[int, str]:
        return (self.variants[vid].order, vid)

    def label(self, vid: str) -> str:
        return self.variants[vid].label

    def of_form(self, *forms: str, role: str | None = None) -> list[BenchVariant]:
        return sorted(
            (v for v in self.variants.values() if v.form in forms and role in (None, v.role)),
            key=lambda v: self.order(v.id),
        )

    def observers(self) -> set[str]:
        """Mechanisms that only observe: their minimal form is a ``send``, never a ``call``
        (their patterns return a result computed natively, not on the host)."""
        calls = {v.mechanism for v in self.of_form("call")}
        return {v.mechanism for v in self.of_form("send")} - calls

    def host_patterns(self) -> list[BenchVariant]:
        """Patterns whose result is computed on the host (not observers)."""
        watch = self.observers()
        return [v for v in self.of_form("pattern", role="pattern") if v.mechanism not in watch]

    def minimal_of(self, mechanism: str, *, ordered: bool = False) -> BenchVariant | None:
        """The mechanism's minimal form: its bare ``call``, or ``send`` for an observer;
        with ``ordered``, the ordered bare form where one was measured."""
        return minimal_among(
            self.of_form("call", "send", role="minimal"), mechanism, ordered=ordered
        )

    def in_place_of(self, mechanism: str) -> BenchVariant | None:
        """The mechanism's bare call writing into its donated input, where one was measured."""
        return next(
            (v for v in self.of_form("call-in-place", role="minimal") if v.mechanism == mechanism),
            None,
        )

    def minimal_for(self, pattern: BenchVariant) -> BenchVariant | None:
        """The minimal form a pattern is held to: same mechanism, same ordering."""
        return self.minimal_of(pattern.mechanism, ordered=pattern.id.endswith("/ordered"))

    def series(
        self, suite: str, comp: str, variants: Iterable[str]
    ) -> tuple[list[int], list[list[float]]]:
        """``(sizes, medians per variant)`` over the sizes every variant has."""
        vs = list(variants)
        sizes = [n for n in self.sizes(suite, comp) if all(self.get(suite, comp, v, n) for v in vs)]
        return sizes, [[self.index[(suite, comp, v, n)].median_s for n in sizes] for v in vs]
