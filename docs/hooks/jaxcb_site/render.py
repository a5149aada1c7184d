"""HTML for matrix tables (full matrix, per-computation slices, per-mechanism summaries).

Every table is generated from matrix files; the cell text, tooltip and link come
from the cell's own fields. The words around them (headings, captions, the legend) are in the
page's language, ``lang`` (``i18n.say``, ``i18n.group``); the data's own names (variants,
transforms, computations) stay as they are. The page script (``docs/javascripts/jaxcb.js``)
switches between environments and shows a cell's details when clicked.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from . import deferred
from .data import Matrix
from .i18n import group, say

GLYPH = {"ok": "✅", "wrong": "⚠️", "error": "❌", "n/a": "—", "elsewhere": "↗"}
LEGEND = ("ok", "wrong", "error", "n/a", "elsewhere")
"""The legend's statuses, in order; their words are ``legend-<status>`` in ``i18n.WORDS``."""


def shown(cell: dict[str, Any]) -> str:
    """What a cell's glyph says: its status, or ``elsewhere`` for a cell that does not apply
    to its row but that another row of the same mechanism measures."""
    status: str = cell["status"]
    return "elsewhere" if status == "n/a" and cell.get("measured_in") else status


def esc(s: Any) -> str:
    return html.escape(str(s), quote=True)


def tip(inner: str, title: str, cls: str = "") -> str:
    """``inner`` as a button whose details (``title``) show on hover, and in the detail box
    on a click, a tap or Enter/Space from the keyboard (``docs/javascripts/jaxcb.js``)."""
    klass = f"jx-tip {cls}".strip()
    return f'<button type="button" class="{klass}" title="{esc(title)}">{inner}</button>'


def effects_text(effects: dict[str, Any] | None, lang: str = "en") -> str | None:
    if not effects:
        return None
    order = say(lang, "cell-in-order" if effects.get("in_order") else "cell-out-of-order")
    return say(
        lang,
        "cell-effects",
        verdict=effects["verdict"],
        arrived=effects["arrived"],
        expected=effects["expected"],
        missing=effects["missing"],
        extra=effects["extra"],
        order=order,
    )


def cell_lines(cell: dict[str, Any], lang: str = "en") -> list[str]:
    """The facts of one cell, one per line, as they appear in tooltips and details, in the
    language ``lang``; the last line names the test that measures the cell."""
    lines = [f"{cell['variant']} × {cell['transform']} · {cell['computation']}"]
    status = cell["status"]
    if status == "error":
        lines.append(f"{cell.get('error_type') or 'error'}: {cell.get('error') or ''}".rstrip(": "))
    elif status in ("wrong", "n/a"):
        lines.append(f"{say(lang, 'cell-' + status)}: {cell.get('reason') or ''}".rstrip(": "))
        if cell.get("measured_in"):
            lines.append(f"{say(lang, 'cell-elsewhere')}: {', '.join(cell['measured_in'])}")
    else:
        lines.append(say(lang, "cell-" + status))
    if cell.get("host_calls") is not None:
        lines.append(say(lang, "cell-calls", n=cell["host_calls"]))
    if cell.get("shapes"):
        lines.append(say(lang, "cell-received", shapes=", ".join(cell["shapes"])))
    eff = effects_text(cell.get("effects"), lang)
    if eff:
        lines.append(eff)
    if cell.get("warning"):
        lines.append(say(lang, "cell-warning", warning=cell["warning"]))
    lines.append(say(lang, "cell-test", test=cell["test"]))
    return lines


def cell_td(cell: dict[str, Any] | None, lang: str = "en") -> str:
    """One ``<td>``: glyph, tooltip (in the language ``lang``), and a link carrying the test
    id."""
    if cell is None:
        return f'<td class="jx-cell jx-missing" title="{esc(say(lang, "cell-missing"))}">·</td>'
    status = cell["status"]
    cls = "na" if status == "n/a" else status
    calls = cell.get("host_calls")
    badge = f'<sub class="jx-calls">{calls}</sub>' if calls is not None and status != "n/a" else ""
    return (
        f'<td class="jx-cell jx-{cls}"><a class="jx-link" href="#" data-test="{esc(cell["test"])}" '
        f'title="{esc(chr(10).join(cell_lines(cell, lang)))}">{GLYPH[shown(cell)]}{badge}</a></td>'
    )


def transform_header(transforms: Sequence[dict[str, Any]], lang: str = "en") -> tuple[str, str]:
    """Two header rows: transform groups (in the page's language), then vertical transform
    labels."""
    groups: list[tuple[str, int]] = []
    for t in transforms:
        if groups and groups[-1][0] == t["group"]:
            groups[-1] = (t["group"], groups[-1][1] + 1)
        else:
            groups.append((t["group"], 1))
    top = "".join(
        f'<th class="jx-group" colspan="{n}">{esc(group(lang, g))}</th>' for g, n in groups
    )
    cols = "".join(
        f'<th class="jx-t{" jx-legacy" if t.get("legacy") else ""}">'
        + tip(f"<span>{esc(t.get('label') or t['id'])}</span>", t.get("doc") or t["id"])
        + "</th>"
        for t in transforms
    )
    return top, cols


def _table(
    head_cols: int,
    transforms: Sequence[dict[str, Any]],
    rows: Iterable[str],
    caption: str,
    lang: str = "en",
) -> str:
    top, cols = transform_header(transforms, lang)
    empty = '<th class="jx-corner"></th>' * head_cols
    return (
        '<div class="jx-scroll"><table class="jx-matrix">'
        f"<caption>{esc(caption)}</caption>"
        f"<thead><tr>{empty}{top}</tr><tr>{empty}{cols}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def env_switch(matrices: Sequence[Matrix], *, label: str = "Environment", lang: str = "en") -> str:
    """The selector every matrix table on a page follows (persisted across pages)."""
    if len(matrices) < 2:
        return ""
    opts = "".join(
        f'<option value="{esc(m.key)}">{esc(m.label_in(lang))}</option>' for m in matrices
    )
    return (
        f'<p class="jx-switch"><label>{esc(label)} '
        f'<select class="jx-env-select" aria-label="{esc(label)}">{opts}</select></label></p>'
    )


def env_block(m: Matrix, first: bool, inner: str, lang: str = "en") -> str:
    """One environment's block of a page that compares environments: ``inner`` in the page
    for the first (the newest), shown; for the others a line saying the table is loading,
    the table itself in a file the page script fetches when it is chosen (``deferred``)."""
    if first:
        return f'<div class="jx-env" data-env="{esc(m.key)}">{inner}</div>'
    return (
        f'<div class="jx-env" data-env="{esc(m.key)}" data-src="{deferred.keep(inner)}" hidden>'
        f"{loading(m, lang)}</div>"
    )


def loading(m: Matrix, lang: str = "en") -> str:
    """The line an environment's block shows until the page script has loaded its table."""
    return (
        f'<p class="jx-envline jx-loading">{esc(say(lang, "loading", label=m.label_in(lang)))}</p>'
    )


def environment_line(m: Matrix, lang: str = "en") -> str:
    e = m.env
    parts = [
        f"JAX {e['jax']}",
        f"jaxlib {e['jaxlib']}",
        f"Python {e['python']}",
        say(lang, "line-platform", value=e["platform"]),
        say(lang, "line-device-kind", value=e.get("device_kind")),
        say(lang, "line-devices", n=e["device_count"]),
    ]
    if "x64" in e:
        parts.append(say(lang, "line-x64", value=say(lang, "on" if e["x64"] else "off")))
    return " · ".join(esc(p) for p in parts)


def legend(lang: str = "en") -> str:
    items = "".join(
        f'<li><span class="jx-cell jx-{"na" if s in ("n/a", "elsewhere") else s}">{GLYPH[s]}</span> '
        f"{esc(say(lang, 'legend-' + s))}</li>"
        for s in LEGEND
    )
    return (
        f'<ul class="jx-legend">{items}<li><span class="jx-cell"><sub class="jx-calls">n</sub></span> '
        f"{esc(say(lang, 'legend-calls'))}</li></ul>"
    )


def matrix_table(
    m: Matrix, td: Callable[[dict[str, Any] | None], str] = cell_td, lang: str = "en"
) -> str:
    """One environment's table: variant × computation rows, transform columns, each cell
    drawn by ``td``."""
    rows = []
    for v in m.variants:
        vid, mech = esc(v["id"]), esc(v["mechanism"])
        rows.append(
            f'<tr class="jx-vhead" data-variant="{vid}" data-mechanism="{mech}">'
            f'<th colspan="{1 + len(m.transforms)}" scope="rowgroup">'
            f"{esc(v['label'])} <code>{vid}</code></th></tr>"
        )
        for c in (c["name"] for c in m.computations):
            tds = "".join(td(m.cell(v["id"], c, t["id"])) for t in m.transforms)
            rows.append(
                f'<tr data-variant="{vid}" data-mechanism="{mech}" data-computation="{esc(c)}">'
                f'<th scope="row" class="jx-rowhead">{esc(c)}</th>{tds}</tr>'
            )
    return f'<p class="jx-envline">{environment_line(m, lang)}</p>' + _table(
        1,
        m.transforms,
        rows,
        say(lang, "caption-cells", label=m.label_in(lang), n=len(m.cells)),
        lang,
    )


def slice_for_computation(matrices: Sequence[Matrix], computation: str, lang: str = "en") -> str:
    """Variant rows × transform columns for one computation, one table per environment."""
    blocks = []
    for i, m in enumerate(matrices):
        rows = []
        for v in m.variants:
            tds = "".join(
                cell_td(m.cell(v["id"], computation, t["id"]), lang) for t in m.transforms
            )
            rows.append(
                f'<tr data-variant="{esc(v["id"])}"><th scope="row" class="jx-rowhead" '
                f'title="{esc(v.get("doc", ""))}">{esc(v["label"])}</th>{tds}</tr>'
            )
        inner = f'<p class="jx-envline">{environment_line(m, lang)}</p>' + _table(
            1,
            m.transforms,
            rows,
            say(lang, "caption-slice", computation=computation, label=m.label_in(lang)),
            lang,
        )
        blocks.append(env_block(m, i == 0, inner, lang))
    return "".join(blocks)


def aggregate(cells: Sequence[dict[str, Any]], lang: str = "en") -> tuple[str, str, str]:
    """(css class, text, tooltip) for cells of one variant × transform over computations."""
    applicable = [c for c in cells if c["status"] != "n/a"]
    if not applicable:
        return "na", GLYPH["n/a"], say(lang, "none applicable")
    ok = sum(c["status"] == "ok" for c in applicable)
    wrong = sum(c["status"] == "wrong" for c in applicable)
    n = len(applicable)
    if ok == n:
        cls, text = "ok", GLYPH["ok"]
    elif ok == 0 and wrong == 0:
        cls, text = "error", GLYPH["error"]
    elif wrong:
        cls, text = "wrong", f"{GLYPH['wrong']}<small>{ok}/{n}</small>"
    else:
        cls, text = "mixed", f"<small>{ok}/{n}</small>"
    tip = []
    for c in cells:
        line = f"{GLYPH[c['status']]} {c['computation']}"
        if c["status"] == "error":
            line += f": {c.get('error_type')}: {c.get('error')}"
        elif c["status"] in ("wrong", "n/a") and c.get("reason"):
            line += f": {c['reason']}"
        if c.get("host_calls") is not None and c["status"] != "n/a":
            line += say(lang, "tip-calls", n=c["host_calls"])
        tip.append(line)
    return cls, text, "\n".join(tip)


def selected(v: dict[str, Any], wanted: Sequence[str]) -> bool:
    """A variant matches a mechanism name or its own id (``pure_callback/vectorized``)."""
    return v["mechanism"] in wanted or v["id"] in wanted


KIND_GROUPS = (
    (("pure",), "pure computations"),
    (("effect", "impure"), "effects and impure inputs"),
)
"""The kinds of computation each summary table aggregates, and its name (an ``i18n.WORDS``
key, ``short-<name>`` its short form)."""


def comps_of(m: Matrix, kinds: Sequence[str] | None) -> list[str]:
    return [c["name"] for c in m.computations if kinds is None or c["kind"] in kinds]


def summary(
    matrices: Sequence[Matrix],
    *,
    mechanisms: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    what: str = "",
    lang: str = "en",
) -> str:
    """Variant rows × transform columns, each cell aggregated over the computations
    (of ``kinds`` only, when given). Variants for which every such cell is n/a are left out.
    ``what`` names the computations (a ``KIND_GROUPS`` name), in the page's language."""
    blocks = []
    for i, m in enumerate(matrices):
        names = comps_of(m, kinds)
        rows = []
        for v in m.variants:
            if mechanisms is not None and not selected(v, mechanisms):
                continue
            tds = []
            applicable = False
            for t in m.transforms:
                cells = [c for c in (m.cell(v["id"], n, t["id"]) for n in names) if c]
                applicable |= any(c["status"] != "n/a" for c in cells)
                cls, text, why = aggregate(cells, lang)
                head = f"{v['label']} × {t.get('label') or t['id']}\n"
                tds.append(f'<td class="jx-cell jx-{cls}">{tip(text, head + why)}</td>')
            if not applicable:
                continue
            rows.append(
                f'<tr data-variant="{esc(v["id"])}"><th scope="row" class="jx-rowhead">'
                f"{tip(esc(v['label']), v.get('doc', ''))}</th>{''.join(tds)}</tr>"
            )
        caption = say(
            lang,
            "caption-kinds",
            label=m.label_in(lang),
            what=say(lang, what or "all computations"),
            names=", ".join(names),
        )
        if not rows:
            inner = f'<p class="jx-envline">{esc(say(lang, "no row applies", caption=caption))}</p>'
        else:
            inner = _table(1, m.transforms, rows, caption, lang)
        blocks.append(env_block(m, i == 0, inner, lang))
    return "".join(blocks)


def tabs(blocks: list[tuple[str, str]]) -> str:
    """Content tabs (pymdownx.tabbed): one ``=== "label"`` block per ``(label, body)``."""
    out = []
    for label, body in blocks:
        out.append(f'=== "{label}"\n')
        out.append("\n".join(("    " + line) if line else "" for line in body.splitlines()))
        out.append("")
    return "\n".join(out)
