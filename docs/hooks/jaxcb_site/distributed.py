"""The multi-process page (docs/distributed.md): its tables, timings and checked statements.

Everything comes from the multi-process matrix files (``docs/data/matrix/<jax>-<platform>-
<procs>x<devices>.json``, :func:`jaxcb_site.data.load_distributed`): cells with one record
per process, and the timed sharded host calls (``sharding_cost``).

=====================  ==============================================================
directive              expands to
=====================  ==============================================================
dist-env               one line per file: JAX, layout, when and how long
dist-summary           variants × transforms, aggregated over the computations
dist-table COMP        variants × transforms for one computation: each process's host
                       calls, what its host function got, where the result was left
dist-expect V C T F=X  a statement about one cell, checked at build time (as ``expect``);
                       fields: the cell's own, ``calls`` (per process: ``1,0``),
                       ``records`` (effect records per process), ``placement`` (process
                       0's), ``maximal`` (a result left on one device), ``shapes.P``
                       (what process P's host function got), ``statuses``
dist-cost              the timed forms: one gathered host call against one per shard
                       (``jaxcb_site.distcost``)
=====================  ==============================================================
"""

from __future__ import annotations

from typing import Any

from . import claims, distcost, render
from .data import Matrix, load_distributed
from .i18n import say
from .render import GLYPH, esc


def _files() -> tuple[Matrix, ...]:
    ms = load_distributed()
    if not ms:
        raise ValueError(
            "no multi-process matrix under docs/data/matrix/: run "
            "`jaxcb matrix --processes 2 --write`"
        )
    return ms


def _layout(m: Matrix) -> str:
    e = m.env
    per = e["device_count"] // e["process_count"]
    return f"{e['process_count']} processes × {per} {e['platform'].upper()} devices"


def d_env(src: str) -> str:
    """One line per multi-process matrix file: JAX, jaxlib, Python, the layout of processes
    and devices, its cells, and how long it took."""
    lines = []
    for m in _files():
        e = m.env
        took = f", measured in {e['duration_s']:.0f} s" if e.get("duration_s") else ""
        lines.append(
            f"- `{m.path.name}`: JAX {e['jax']} (jaxlib {e['jaxlib']}), Python {e['python']}, "
            f"{_layout(m)} ({e['device_count']} in all), {len(m.cells)} cells{took}"
        )
    return "\n".join(lines)


def _proc_line(p: dict[str, Any]) -> str:
    calls = p.get("host_calls")
    parts = [f"process {p['process']}: {say('en', 'cell-' + p['status'])}"]
    if calls is not None:
        parts.append(f"{calls} host call{'s' * (calls != 1)}")
    if p.get("shapes"):
        parts.append("got " + ", ".join(p["shapes"]))
    if p.get("placement"):
        parts.append(f"result {p['placement']}")
    for d in p.get("delivered") or ():
        parts.append(f"call {d['call']}: steps {' '.join(map(str, d['steps']))}")
    if p.get("unmatched"):
        parts.append(f"{len(p['unmatched'])} records owed to no call")
    why = p.get("error") or p.get("reason")
    if why and p["status"] != "n/a":
        parts.append(f"{p.get('error_type') or ''}: {why}".strip(": "))
    return ", ".join(parts)


def _td(cell: dict[str, Any] | None) -> str:
    if cell is None:
        return '<td class="jx-cell jx-missing">·</td>'
    status = cell["status"]
    procs = cell.get("processes") or []
    lines = [f"{cell['variant']} × {cell['transform']} · {cell['computation']}"]
    if status == "n/a":
        lines.append(f"not applicable: {cell.get('reason') or ''}")
    else:
        lines += [_proc_line(p) for p in procs]
        eff = render.effects_text(cell.get("effects"))
        if eff:
            lines.append(eff)
    lines.append(f"test: {cell['test']}")
    body = GLYPH[status]
    if status != "n/a":
        calls = " · ".join(
            "–" if p.get("host_calls") is None else str(p["host_calls"]) for p in procs
        )
        if any(p.get("host_calls") is not None for p in procs):
            body += f'<br><small class="jx-calls">{esc(calls)}</small>'
    cls = "na" if status == "n/a" else status
    return (
        f'<td class="jx-cell jx-{cls}"><a class="jx-link" href="#" data-test="{esc(cell["test"])}" '
        f'title="{esc(chr(10).join(lines))}">{body}</a></td>'
    )


def _table(m: Matrix, rows: list[str], caption: str) -> str:
    head = "".join(
        f'<th class="jx-t" title="{esc(t["doc"])}"><span>{esc(t["label"])}</span></th>'
        for t in m.transforms
    )
    return (
        '<div class="jx-scroll"><table class="jx-matrix jx-dist">'
        f"<caption>{esc(caption)}</caption>"
        f'<thead><tr><th class="jx-corner"></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _blocks(inner: list[tuple[Matrix, str]]) -> str:
    ms = [m for m, _ in inner]
    return (
        '<div class="jx-summary" data-search-exclude>'
        + render.env_switch(ms, label="JAX version / layout")
        + "".join(render.env_block(m, i == 0, html) for i, (m, html) in enumerate(inner))
        + "</div>"
    )


def d_table(src: str, computation: str) -> str:
    """Per multi-process file, one computation: variants × transforms, host calls per process."""
    out = []
    for m in _files():
        if not any(c["name"] == computation for c in m.computations):
            raise ValueError(f"{m.path.name} has no computation {computation!r}")
        rows = []
        for v in m.variants:
            cells = [m.cell(v["id"], computation, t["id"]) for t in m.transforms]
            if all(c is None or c["status"] == "n/a" for c in cells):
                continue
            rows.append(
                f'<tr><th scope="row" class="jx-rowhead" title="{esc(v["doc"])}">'
                f"{esc(v['label'])}</th>{''.join(_td(c) for c in cells)}</tr>"
            )
        caption = f"{computation} on {m.label}: host calls per process (process 0 · process 1 …)"
        out.append((m, _table(m, rows, caption)))
    return render.legend() + _blocks(out)


def d_summary(src: str) -> str:
    """Per multi-process file: variants × computations, aggregated over the transforms."""
    out = []
    for m in _files():
        names = [c["name"] for c in m.computations]
        rows = []
        for v in m.variants:
            tds, applicable = [], False
            for t in m.transforms:
                cells = [c for c in (m.cell(v["id"], n, t["id"]) for n in names) if c]
                applicable |= any(c["status"] != "n/a" for c in cells)
                cls, text, tip = render.aggregate(cells)
                tds.append(f'<td class="jx-cell jx-{cls}" title="{esc(tip)}">{text}</td>')
            if applicable:
                rows.append(
                    f'<tr><th scope="row" class="jx-rowhead">{esc(v["label"])}</th>{"".join(tds)}</tr>'
                )
        out.append((m, _table(m, rows, f"{m.label}: every computation, {len(m.cells)} cells")))
    return _blocks(out)


def _fields(cell: dict[str, Any]) -> dict[str, Any]:
    procs = cell.get("processes") or []
    extra = {
        "calls": ",".join(
            "null" if p.get("host_calls") is None else str(p["host_calls"]) for p in procs
        ),
        "records": ",".join(
            str(sum(len(d["steps"]) for d in p.get("delivered") or ())) for p in procs
        ),
        "placement": procs[0].get("placement") if procs else None,
        "maximal": any("maximal" in (p.get("placement") or "") for p in procs),
        "shapes": {str(p["process"]): ",".join(p.get("shapes") or []) or None for p in procs},
        "statuses": ",".join(p["status"] for p in procs),
    }
    return {**cell, **extra}


def d_expect(src: str, variant: str, computation: str, transform: str, *pairs: str) -> str:
    """Nothing on the page: the build fails unless the multi-process cells have every
    ``FIELD=VALUE`` stated."""
    expect = claims.parse(pairs)
    only = expect.pop("jax", None)
    found = [
        (m, _fields(cell))
        for m in _files()
        if only is None or m.env["jax"] in only
        for cell in [m.cell(variant, computation, transform)]
        if cell is not None and cell["status"] != "n/a"
    ]
    if not found:
        raise claims.ClaimError(
            f"{src}: {variant} {computation} {transform} cites no measured cell"
        )
    wrong = claims.mismatches(found, expect)
    if wrong:
        raise claims.ClaimError(
            f"{src}: the page states what the data does not show:\n  " + "\n  ".join(wrong[:8])
        )
    cell = found[0][1]
    tip = "\n".join(_proc_line(p) for p in cell.get("processes") or [])
    mark = claims._mark(sorted({x.label for x, _ in found}), len(found))
    return f'<span class="jx-dist-cite" title="{esc(tip)}">{mark}</span>'


DIRECTIVES = {
    "dist-env": d_env,
    "dist-summary": d_summary,
    "dist-table": d_table,
    "dist-expect": d_expect,
    "dist-cost": distcost.d_cost,
}
