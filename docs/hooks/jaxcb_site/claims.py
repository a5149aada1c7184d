"""Statements about behaviour, checked against the data when the site is built.

A page that states how a mechanism behaves cites the cells that show it:

``<!-- jaxcb:expect SUBJECT COMPUTATION TRANSFORM FIELD=VALUE ... -->``
    SUBJECT is a variant id or a mechanism name (every variant of it), COMPUTATION a
    name, ``a|b`` (each of them) or ``*`` (every computation the variant implements),
    TRANSFORM a transform id, ``a|b`` or ``*`` (every transform of the file); each ``FIELD=VALUE`` (``status=error``, ``error_type=ValueError``, ``host_calls=0``,
    ``effects.verdict=duplicated``; ``a|b`` allows either) must hold for every cited cell
    that is not "not applicable", in every committed matrix file that has the subject
    (``jax=0.12.0.1|0.10.2`` restricts the files to those JAX versions).
    A statement whose cells say otherwise, or that cites no measured cell, fails the
    build (``mkdocs build --strict``). It renders as a small "measured" mark whose
    tooltip lists the environments that were checked.
``<!-- jaxcb:expect-observation GROUP ID FIELD=VALUE ... -->``
    the same for an observation of the behaviour data (exceptions, dispatch, gotchas),
    ``jax=`` restricting it to those JAX versions as above.

Claims of the two source texts get a verdict from the same comparison (``verdict``).
"""

from __future__ import annotations

from typing import Any

from . import behaviour
from .data import Matrix, load_matrices
from .render import esc


class ClaimError(ValueError):
    """A page states a behaviour its cited data does not show."""


def parse(pairs: tuple[str, ...]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for p in pairs:
        field, sep, value = p.partition("=")
        if not sep:
            raise ClaimError(f"expected FIELD=VALUE, got {p!r}")
        out[field] = set(value.split("|"))
    if not out:
        raise ClaimError("a statement must say what it expects (FIELD=VALUE)")
    return out


def _value(record: dict[str, Any], field: str) -> str:
    cur: Any = record
    for part in field.split("."):
        cur = cur.get(part) if isinstance(cur, dict) else None
    return "null" if cur is None else str(cur).lower() if isinstance(cur, bool) else str(cur)


def _names(spec: str, every: list[str]) -> list[str]:
    return every if spec == "*" else spec.split("|")


def cells(
    subject: str, computation: str, transform: str, jax: set[str] | None = None
) -> list[tuple[Matrix, dict[str, Any]]]:
    """Every applicable cell the citation names, in every committed file (of ``jax``):
    ``computation`` and ``transform`` are a name, ``a|b`` or ``*`` (all of the file's)."""
    out = []
    for m in load_matrices():
        if jax is not None and m.env["jax"] not in jax:
            continue
        names = _names(computation, [c["name"] for c in m.computations])
        ids = _names(transform, [t["id"] for t in m.transforms])
        for v in m.variants:
            if subject not in (v["id"], v["mechanism"]):
                continue
            for name in names:
                for t in ids:
                    cell = m.cell(v["id"], name, t)
                    if cell is not None and cell["status"] != "n/a":
                        out.append((m, cell))
    return out


def mismatches(found: list[tuple[Any, dict[str, Any]]], expect: dict[str, set[str]]) -> list[str]:
    out = []
    for where, record in found:
        for field, allowed in expect.items():
            got = _value(record, field)
            if got not in allowed:
                label = where.label if hasattr(where, "label") else str(where)
                who = record.get("test") or record.get("id")
                out.append(f"{label}: {who}: {field} is {got!r}, the page says {sorted(allowed)}")
    return out


def _mark(envs: list[str], n: int) -> str:
    tip = f"checked at build time against {n} measured record(s): " + ", ".join(envs)
    return f'<sup class="jx-expect" title="{esc(tip)}">measured</sup>'


def d_expect(src: str, subject: str, computation: str, transform: str, *pairs: str) -> str:
    """Nothing on the page: the build fails unless the cited matrix cells have every
    ``FIELD=VALUE`` stated."""
    expect = parse(pairs)
    found = cells(subject, computation, transform, expect.pop("jax", None))
    if not found:
        raise ClaimError(f"{src}: {subject} {computation} {transform} cites no measured cell")
    wrong = mismatches(found, expect)
    if wrong:
        raise ClaimError(
            f"{src}: the page states what the data does not show:\n  " + "\n  ".join(wrong[:8])
        )
    return _mark(sorted({m.label for m, _ in found}), len(found))


def d_expect_observation(src: str, group: str, oid: str, *pairs: str) -> str:
    """Nothing on the page: the build fails unless the behaviour observation has every
    ``FIELD=VALUE`` stated."""
    expect = parse(pairs)
    versions = expect.pop("jax", None)
    found = [
        (label, o.model_dump()["outcome"] | {"id": o.id})
        for label, o in behaviour.observation(group, oid)
        if o and (versions is None or label.removeprefix("JAX ") in versions)
    ]
    if not found:
        raise ClaimError(f"{src}: observation {group}:{oid} is not measured in any committed file")
    wrong = mismatches(found, expect)
    if wrong:
        raise ClaimError(
            f"{src}: the page states what the data does not show:\n  " + "\n  ".join(wrong[:8])
        )
    return _mark([label for label, _ in found], len(found))


VERDICT_RULE = (
    "A claim **holds** when every cell it is checked against shows what it says, is **false** "
    "when none does, **partly** holds when some do, and is **not measured here** when no "
    "committed file has any of its cells."
)


def verdict(results: list[bool]) -> str:
    """The verdict of a claim from whether each of its measured cells agrees with it."""
    if not results:
        return "not measured here"
    if all(results):
        return "holds"
    if not any(results):
        return "false"
    return "partly"


DIRECTIVES = {"expect": d_expect, "expect-observation": d_expect_observation}
