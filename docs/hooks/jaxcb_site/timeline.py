"""What changed when: the differences between consecutive measured JAX releases.

``<!-- jaxcb:timeline -->`` (``docs/timeline.md``) reads the one-process matrix files and the
behaviour files, puts the releases of one platform and device count in version order, and
lists what differs between each release and the measured release before it:

- a **matrix cell** changed when its status, exception type, error line, host calls,
  argument shapes, effects, warning or (for a wrong result) reason differ, or when the cell
  is in one file and not the other (the row is not registered there). A cell that does not
  apply on both sides is unchanged, whatever its reason says: the reason names the version.
- a **behaviour observation** changed when one of its facts differs, or when it is observed
  on one side only.

Cells that changed the same way (same row, same before and after) are one table row: under
one transform when the row is measured on both sides, under every transform when the row is
missing from one file. Each row carries the cells it stands for (``data-cells``) and the
statuses before and after (``data-from``, ``data-to``): ``tests/docs/test_timeline.py``
recomputes the differences from the JSON files and compares them with these. A release's
tables are a file of their own (``deferred``), loaded when the reader opens them or picks a
filter: written into the page, the pair 0.4.30 → 0.10.2 alone made it a megabyte.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Sequence
from typing import Any

from . import behaviour, data, deferred
from .dirbase import DirectiveError
from .i18n import language, say
from .render import GLYPH, cell_lines, esc

# the fields of a cell whose change is a change of behaviour (the test id names the cell)
COMPARED = ("status", "error_type", "error", "host_calls", "shapes", "effects", "warning")
ABSENT = "absent"  # data-from / data-to of a cell a file does not have


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(p) for p in v.split(".") if p.isdigit())


def series(ms: Sequence[data.Matrix]) -> list[list[data.Matrix]]:
    """The one-process files, one list per platform and device count, oldest JAX first."""
    groups: dict[tuple[str, int], list[data.Matrix]] = {}
    for m in ms:
        if m.env.get("process_count", 1) == 1:
            groups.setdefault((m.env["platform"], m.env["device_count"]), []).append(m)
    return [
        sorted(g, key=lambda m: _version(m.env["jax"]))
        for _, g in sorted(groups.items(), key=lambda kv: (kv[0][0] != "cpu", kv[0][1]))
    ]


def state(cell: dict[str, Any] | None) -> tuple[Any, ...]:
    """What is compared of a cell: nothing of a cell that does not apply but that it does not."""
    if cell is None:
        return (ABSENT,)
    if cell["status"] == "n/a":
        return ("n/a",)
    out = tuple(json.dumps(cell.get(f), sort_keys=True) for f in COMPARED)
    return (*out, cell.get("reason")) if cell["status"] == "wrong" else out


def text(cell: dict[str, Any] | None, release: str, lang: str = "en") -> str:
    """A cell as one line: glyph, what happened, host calls, shapes, effects, warning (its
    details without the heading and the test), in the language ``lang``."""
    if cell is None:
        return say(lang, "tl-no-row", release=release)
    return f"{GLYPH[cell['status']]} " + " · ".join(cell_lines(cell, lang)[1:-1])


@dataclasses.dataclass(frozen=True)
class CellChange:
    since: str  # the measured release before
    release: str  # the release where the cell is first seen as ``after``
    variant: str
    mechanism: str
    computation: str
    transform: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


def cell_changes(older: data.Matrix, newer: data.Matrix) -> list[CellChange]:
    """Every cell that differs between two files (``state``), in the newer file's order."""
    mech = {v["id"]: v["mechanism"] for m in (older, newer) for v in m.variants}
    keys = list(newer.cells) + [k for k in older.cells if k not in newer.cells]
    out = []
    for key in keys:
        a, b = older.cells.get(key), newer.cells.get(key)
        if state(a) != state(b):
            v, c, t = key
            out.append(CellChange(older.env["jax"], newer.env["jax"], v, mech[v], c, t, a, b))
    return out


@dataclasses.dataclass(frozen=True)
class FactChange:
    since: str
    release: str
    group: str
    id: str
    title: str
    fact: str
    before: Any  # ABSENT where the observation or the fact is not in that file
    after: Any


def _behaviour_series() -> list[list[tuple[str, Any]]]:
    groups: dict[tuple[str, int, int], list[tuple[str, Any]]] = {}
    for name, f in behaviour.files():
        e = f.environment
        groups.setdefault((e.platform, e.device_count, e.process_count), []).append((name, f))
    return [
        sorted(g, key=lambda p: _version(p[1].environment.jax))
        for _, g in sorted(groups.items(), key=lambda kv: (kv[0][0] != "cpu", kv[0][1:]))
    ]


def fact_changes(older: Any, newer: Any) -> list[FactChange]:
    """Every fact of an observation that differs between two behaviour files."""
    a = {(o.group, o.id): o for o in older.observations}
    b = {(o.group, o.id): o for o in newer.observations}
    out = []
    for key in list(b) + [k for k in a if k not in b]:
        oa, ob = a.get(key), b.get(key)
        fa = oa.outcome if oa is not None else {}
        fb = ob.outcome if ob is not None else {}
        title = (ob or oa).title  # type: ignore[union-attr]
        for fact in list(fb) + [f for f in fa if f not in fb]:
            x, y = fa.get(fact, ABSENT), fb.get(fact, ABSENT)
            if x != y or (fact in fa) != (fact in fb):
                out.append(
                    FactChange(
                        older.environment.jax,
                        newer.environment.jax,
                        key[0],
                        key[1],
                        title,
                        fact,
                        x if fact in fa else ABSENT,
                        y if fact in fb else ABSENT,
                    )
                )
    return out


def _status(cell: dict[str, Any] | None) -> str:
    return ABSENT if cell is None else str(cell["status"])


def _cells_table(
    changes: list[CellChange], older: data.Matrix, newer: data.Matrix, lang: str = "en"
) -> str:
    """One row per way of changing: same row, same before and after (their full text)."""
    groups: dict[tuple[Any, ...], list[CellChange]] = {}
    for ch in changes:
        whole_row = ch.before is None or ch.after is None
        key = (
            ch.variant,
            "*" if whole_row else ch.transform,
            text(ch.before, ch.since, lang),
            text(ch.after, ch.release, lang),
            _status(ch.before),
            _status(ch.after),
        )
        groups.setdefault(key, []).append(ch)
    rows = []
    for (variant, _, before, after, sfrom, sto), chs in groups.items():
        comps = list(dict.fromkeys(c.computation for c in chs))
        trans = list(dict.fromkeys(c.transform for c in chs))
        cells = ";".join(f"{c.computation}|{c.transform}" for c in chs)
        shown_t = ", ".join(trans) if len(trans) <= 4 else say(lang, "tl-transforms", n=len(trans))
        rows.append(
            f'<tr data-mechanism="{esc(chs[0].mechanism)}" data-variant="{esc(variant)}" '
            f'data-transforms="{esc(" ".join(trans))}" data-since="{esc(chs[0].since)}" '
            f'data-release="{esc(chs[0].release)}" data-from="{esc(sfrom)}" '
            f'data-to="{esc(sto)}" data-cells="{esc(cells)}">'
            f"<td><code>{esc(variant)}</code></td>"
            f'<td title="{esc(", ".join(trans))}">{esc(shown_t)}</td>'
            f"<td>{esc(', '.join(comps))}</td>"
            f'<td class="jx-tl-before">{esc(before)}</td>'
            f'<td class="jx-tl-after">{esc(after)}</td></tr>'
        )
    heads = say(lang, "tl-head-cells", old=older.env["jax"], new=newer.env["jax"]).split("|")
    head = "<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in heads) + "</tr></thead>"
    caption = say(lang, "tl-caption-cells", n=len(changes), old=older.env["jax"])
    return (
        '<div class="jx-scroll"><table class="jx-timeline jx-tl-cells">'
        f"<caption>{esc(caption)}</caption>{head}<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _fact(value: Any, lang: str = "en") -> str:
    if value == ABSENT:
        return say(lang, "tl-not-observed")
    return json.dumps(value, ensure_ascii=False)


def _facts_table(changes: list[FactChange], since: str, release: str, lang: str = "en") -> str:
    rows = [
        f'<tr data-group="{esc(ch.group)}" data-observation="{esc(ch.group)}:{esc(ch.id)}" '
        f'data-fact="{esc(ch.fact)}" data-since="{esc(ch.since)}" data-release="{esc(ch.release)}" '
        f'data-from="{esc(json.dumps(ch.before))}" data-to="{esc(json.dumps(ch.after))}">'
        f"<td><code>{esc(ch.group)}:{esc(ch.id)}</code> {esc(ch.title)}</td>"
        f"<td><code>{esc(ch.fact)}</code></td>"
        f'<td class="jx-tl-before">{esc(_fact(ch.before, lang))}</td>'
        f'<td class="jx-tl-after">{esc(_fact(ch.after, lang))}</td></tr>'
        for ch in changes
    ]
    heads = say(lang, "tl-head-facts", old=since, new=release).split("|")
    head = "<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in heads) + "</tr></thead>"
    caption = say(lang, "tl-caption-facts", n=len(changes), old=since)
    return (
        '<div class="jx-scroll"><table class="jx-timeline jx-tl-facts">'
        f"<caption>{esc(caption)}</caption>{head}<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _filters(ms: Sequence[data.Matrix], lang: str = "en") -> str:
    mechs = list(dict.fromkeys(v["mechanism"] for m in ms for v in m.variants))
    trans = list(dict.fromkeys(t["id"] for m in ms for t in m.transforms))
    mopts = "".join(f'<option value="{esc(x)}">{esc(x)}</option>' for x in mechs)
    topts = "".join(f'<option value="{esc(x)}">{esc(x)}</option>' for x in trans)
    return (
        '<p class="jx-filters">'
        f"<label>{say(lang, 'filter-mechanism')} "
        '<select class="jx-tl-filter" data-filter="mechanism">'
        f'<option value="">{say(lang, "filter-all")}</option>{mopts}</select></label> '
        f"<label>{say(lang, 'tl-filter-transform')} "
        '<select class="jx-tl-filter" data-filter="transform">'
        f'<option value="">{say(lang, "filter-all")}</option>{topts}</select></label>'
        "</p>"
    )


def _by_mechanism(changes: list[CellChange]) -> str:
    counts: dict[str, int] = {}
    for ch in changes:
        counts[ch.mechanism] = counts.get(ch.mechanism, 0) + 1
    return ", ".join(f"`{m}` {n}" for m, n in counts.items())


def d_timeline(src: str) -> str:
    """For each measured JAX release, what differs from the measured release before it: the
    matrix cells (one row per way of changing) and the facts of the behaviour observations,
    each release's tables in a file the page loads when they are opened or filtered; filters
    by mechanism and transform."""
    lang = language(src)
    matrices = series(data.load_matrices())
    if not matrices or len(matrices[0]) < 2:
        raise DirectiveError(f"{src}: jaxcb:timeline needs two one-process matrix files")
    facts: dict[str, tuple[str, list[FactChange]]] = {}  # by the newer release
    for fs in _behaviour_series():
        for (_, fa), (_, fb) in itertools.pairwise(fs):
            facts[fb.environment.jax] = (fa.environment.jax, fact_changes(fa, fb))
    parts = []
    for ms in matrices:
        e = ms[0].env
        releases = ", ".join(m.env["jax"] for m in ms)
        files = say(
            lang, "tl-files", platform=e["platform"], n=e["device_count"], releases=releases
        )
        parts.append(files + "\n")
        parts.append(_filters(ms, lang) + "\n")
        for older, newer in zip(reversed(ms[:-1]), reversed(ms[1:]), strict=True):
            a, b = older.env["jax"], newer.env["jax"]
            changes = cell_changes(older, newer)
            heading = say(lang, "tl-heading", new=b, old=a)
            parts.append(f"## {heading} {{ #jax-{b.replace('.', '-')} }}\n")
            line = say(lang, "tl-cells", n=len(changes), old=a)
            line += (
                say(lang, "tl-by", mechanisms=_by_mechanism(changes))
                if changes
                else say(lang, "tl-end")
            )
            if b in facts:
                line += say(lang, "tl-facts", n=len(facts[b][1]), old=facts[b][0])
            else:
                line += say(lang, "tl-no-facts", new=b)
            parts.append(line + "\n")
            tables = _cells_table(changes, older, newer, lang) if changes else ""
            if facts.get(b, ("", []))[1]:
                tables += _facts_table(facts[b][1], facts[b][0], b, lang)
            if tables:
                parts.append(
                    f'<details class="jx-tl-release" data-release="{esc(b)}">'
                    f"<summary>{esc(say(lang, 'tl-summary', old=a, new=b))}</summary>"
                    f'<div class="jx-tl-body" data-search-exclude data-src="{deferred.keep(tables)}">'
                    f'<p class="jx-loading">{say(lang, "tl-loading")}</p></div></details>\n'
                )
    return "\n".join(parts)


DIRECTIVES = {"timeline": d_timeline}
__all__ = ["CellChange", "FactChange", "cell_changes", "fact_changes", "series", "state"]
