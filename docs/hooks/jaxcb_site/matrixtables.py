"""The directives over the measured matrix and the catalog: the legend, the environments,
the full matrix, the summaries, the home page's short table, the measured contracts, host
calls per variant, the variants, the catalog's table and each computation's page."""

from __future__ import annotations

from typing import Any

from . import code, data, matrixpage, render
from .data import Matrix, load_matrices
from .dirbase import DirectiveError, catalog, no_data, rel
from .i18n import language, say, word
from .render import GLYPH, esc


def d_legend(src: str) -> str:
    """The cell legend: what each glyph of a matrix cell means."""
    return render.legend(language(src))


def d_environments(src: str) -> str:
    """One row per matrix file: JAX, jaxlib, Python, NumPy, SciPy, platform, devices, x64,
    cells and how long the run took."""
    ms = load_matrices()
    if not ms:
        return no_data()
    lang = language(src)
    head = [
        say(lang, "env-file"),
        *("JAX", "jaxlib", "Python", "NumPy", "SciPy"),
        say(lang, "env-platform"),
        say(lang, "env-device-kind"),
        say(lang, "env-devices"),
        "x64",
        say(lang, "env-cells"),
        say(lang, "env-took"),
    ]
    rows = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for m in ms:
        e = m.env
        link = (
            f"[`{m.path.name}`]({rel(src, 'data/matrix/' + m.path.name)})"
            if _in_docs(m)
            else f"`{m.path.name}`"
        )
        took = f"{e['duration_s']:.0f} s" if e.get("duration_s") is not None else "?"
        rows.append(
            f"| {link} | {e['jax']} | {e['jaxlib']} | {e['python']} | {e.get('numpy', '?')} | "
            f"{e.get('scipy', '?')} | {e['platform']} | {e.get('device_kind', '?')} | {e['device_count']} | "
            f"{say(lang, 'on' if e.get('x64') else 'off')} | {len(m.cells)} | {took} |"
        )
    return "\n".join(rows)


def _in_docs(m: Matrix) -> bool:
    from .data import MATRIX_DIR

    return m.path.parent.resolve() == MATRIX_DIR.resolve()


def d_matrix(src: str) -> str:
    """The newest file's table in the page, the others loaded on demand (``matrixpage``)."""
    ms = load_matrices()
    if not ms:
        return no_data()
    return matrixpage.page(ms, label=word(src, "jax-platform"), lang=language(src))


def d_summary(src: str, *mechanisms: str) -> str:
    """One table for the pure computations, one for effects and impure inputs."""
    ms = load_matrices()
    if not ms:
        return no_data()
    mech = list(mechanisms) or None
    if mech:
        ms = [m for m in ms if any(render.selected(v, mech) for v in m.variants)]
        if not ms:
            return (
                '!!! warning "Not measured yet"\n\n'
                f"    No committed matrix file has a {', '.join(f'`{x}`' for x in mech)} row."
            )
    lang = language(src)
    tables = "".join(
        render.summary(ms, mechanisms=mech, kinds=kinds, what=what, lang=lang)
        for kinds, what in render.KIND_GROUPS
    )
    return (
        '<div class="jx-summary" data-search-exclude>'
        + render.env_switch(ms, label=word(src, "jax-platform"), lang=lang)
        + tables
        + "</div>"
    )


QUICK_TRANSFORMS = (
    "jit",
    "jit_unused",
    "vmap",
    "grad",
    "hessian",
    "scan",
    "vmap_cond",
    "shard_map",
    "sharded_jit",
    "checkpoint_grad",
    "export",
)


def d_quick(src: str) -> str:
    """Transforms as rows, one column per mechanism (its first variant), newest matrix;
    each cell aggregates the pure computations and, separately, the effects."""
    ms = load_matrices()
    if not ms:
        return no_data()
    m = ms[0]
    lang = language(src)
    cols: list[dict[str, Any]] = []
    for v in m.variants:
        if all(c["mechanism"] != v["mechanism"] for c in cols):
            cols.append(v)
    tmap = {t["id"]: t for t in m.transforms}
    head = "".join(
        '<th scope="col">'
        + render.tip(
            f"<code>{esc(v['mechanism'])}</code><br><small>{esc(v['id'])}</small>", v.get("doc", "")
        )
        + "</th>"
        for v in cols
    )
    rows = []
    for tid in QUICK_TRANSFORMS:
        if tid not in tmap:
            continue
        t = tmap[tid]
        tds = []
        for v in cols:
            lines = []
            for kinds, what in render.KIND_GROUPS:
                names = render.comps_of(m, kinds)
                cells = [c for c in (m.cell(v["id"], n, tid) for n in names) if c]
                if all(c["status"] == "n/a" for c in cells):
                    continue
                cls, text, tip = render.aggregate(cells, lang)
                errs = sorted(
                    {c.get("error_type") for c in cells if c["status"] == "error"} - {None}
                )
                err = f' <small class="jx-errtype">{esc(", ".join(errs))}</small>' if errs else ""
                short = say(lang, "short-" + what)
                lines.append(
                    render.tip(
                        f'{text} <span class="jx-qwhat">{esc(short)}</span>{err}',
                        say(lang, what) + chr(10) + tip,
                        f"jx-q jx-{cls}",
                    )
                )
            tds.append(f'<td class="jx-qcell">{"".join(lines) or GLYPH["n/a"]}</td>')
        rows.append(
            f'<tr><th scope="row" class="jx-rowhead">'
            f"{render.tip(esc(t.get('label') or tid), t.get('doc', ''))}</th>{''.join(tds)}</tr>"
        )
    return (
        f'<p class="jx-narrow-note" data-search-exclude>{esc(say(lang, "quick-note"))}</p>'
        '<div class="jx-scroll" data-search-exclude><table class="jx-matrix jx-quick">'
        f"<caption>{esc(m.label_in(lang))}</caption>"
        f'<thead><tr><th class="jx-corner">{esc(say(lang, "quick-corner"))}</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _phrase(cell: dict[str, Any] | None) -> str:
    """What one cell says, in a few words (for tables of measured contracts)."""
    if cell is None:
        return "not measured"
    status, calls = cell["status"], cell.get("host_calls")
    n = "" if calls is None else f", {calls} host call{'s' if calls != 1 else ''}"
    if status == "ok":
        return f"works{n}"
    if status == "error":
        return f"raises `{cell.get('error_type')}`"
    if status == "wrong":
        fx = cell.get("effects") or {}
        return f"runs, wrong{n}" + (f" ({fx['verdict']} records)" if fx else "")
    return "—"


def d_contracts(src: str, computation: str, *transforms: str) -> str:
    """Every variant measured under every transform (not the rows scoped to some), one row
    each, one column per transform: what the newest committed file measured, in words."""
    ms = load_matrices()
    if not ms:
        return no_data()
    m = ms[0]
    tmap = {t["id"]: t for t in m.transforms}
    missing = [t for t in transforms if t not in tmap]
    if missing:
        raise DirectiveError(f"{src}: contracts: no transform {missing} in {m.label}")
    head = " | ".join(esc(tmap[t]["label"]) for t in transforms)
    rows = [f"| variant | {head} |", "|---|" + "---|" * len(transforms)]
    for v in m.variants:
        if v.get("transforms") is not None:
            continue
        cells = [_phrase(m.cell(v["id"], computation, t)) for t in transforms]
        if all(c in ("—", "not measured") for c in cells):
            continue
        rows.append(f"| {esc(v['label'])} | " + " | ".join(cells) + " |")
    return (
        f"*`{computation}` on {esc(m.label)}; every cell is in the [matrix]({rel(src, 'matrix.md')}).*\n\n"
        + "\n".join(rows)
    )


def d_calls(src: str, transform: str, *wanted: str) -> str:
    """Variants (mechanism names or variant ids) × pure computations under one transform:
    status, host calls and the argument types the host function received."""

    def rows_of(m: Matrix) -> list[dict[str, Any]]:
        return [v for v in m.variants if render.selected(v, wanted)]

    ms = [m for m in load_matrices() if rows_of(m)]
    if not ms:
        return no_data()
    blocks = []
    for i, m in enumerate(ms):
        names = render.comps_of(m, ("pure",))
        head = "".join(f"<th><code>{esc(n)}</code></th>" for n in names)
        rows = []
        for v in rows_of(m):
            tds = []
            for n in names:
                c = m.cell(v["id"], n, transform)
                if c is None:
                    tds.append('<td class="jx-cell jx-missing">·</td>')
                    continue
                cls = "na" if c["status"] == "n/a" else c["status"]
                calls = c.get("host_calls")
                shapes = ", ".join(c.get("shapes") or [])
                detail = []
                if calls is not None and c["status"] != "n/a":
                    detail.append(f"{calls} call{'s' if calls != 1 else ''}")
                if shapes and c["status"] != "n/a":
                    detail.append(f"<code>{esc(shapes)}</code>")
                if c["status"] == "error":
                    detail.append(esc(c.get("error_type") or ""))
                tip = "\n".join(render.cell_lines(c))
                tds.append(
                    f'<td class="jx-cell jx-{cls} jx-calls-cell">'
                    + render.tip(f"{render.GLYPH[c['status']]} {'<br>'.join(detail)}", tip)
                    + "</td>"
                )
            rows.append(
                f'<tr><th scope="row" class="jx-rowhead">{esc(v["label"])}</th>{"".join(tds)}</tr>'
            )
        t = next((x for x in m.transforms if x["id"] == transform), {"doc": transform})
        table = (
            '<div class="jx-scroll"><table class="jx-matrix jx-callstable">'
            f"<caption>{esc(m.label)} · {esc(t.get('doc') or transform)}</caption>"
            f'<thead><tr><th class="jx-corner"></th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
        blocks.append(render.env_block(m, i == 0, table, language(src)))
    return (
        '<div class="jx-summary" data-search-exclude>'
        + render.env_switch(ms, label=word(src, "jax-platform"), lang=language(src))
        + "".join(blocks)
        + "</div>"
    )


def d_variants(src: str, *wanted: str) -> str:
    """The variants (by mechanism name or variant id) the committed matrix files describe,
    with the JAX versions that measured each."""
    vs = [v for v in data.variants() if render.selected(v, wanted)]
    if not vs:
        raise DirectiveError(f"no committed matrix file has a variant of {list(wanted)}")
    lines = ["| variant | label | what it is | package | measured on |", "|---|---|---|---|---|"]
    for v in vs:
        where = ", ".join(m.env["jax"] for m in load_matrices() if m.variant(v["id"]))
        lines.append(
            f"| `{v['id']}` | {v['label']} | {v['doc']} | `{v['package']}` | JAX {where} |"
        )
    return "\n".join(lines)


def d_computations(src: str) -> str:
    """The catalog as a table: each computation linked to its page, with its kind,
    signature, summary and source."""
    lines = ["| computation | kind | signature | what | from |", "|---|---|---|---|---|"]
    for c in catalog().values():
        page = rel(src, f"computations/{c['name']}.md")
        lines.append(
            f"| [`{c['name']}`]({page}) | {c['kind']} | "
            f"`{c['signature']}` | {c['summary']} | {c['source']} |"
        )
    return "\n".join(lines)


def d_computation(src: str, name: str) -> str:
    """One computation's page body: its catalog facts, a code tab per mechanism package and
    its slice of the measured matrix."""
    cat = catalog()
    if name not in cat:
        raise DirectiveError(f"unknown computation {name!r}")
    c = cat[name]
    facts = (
        f'<p class="jx-facts"><code>{esc(c["signature"])}</code> · {esc(c["summary"])} · '
        f"<em>{esc(c['kind'])}</em> · from {esc(c['source'])}</p>"
    )
    ms = load_matrices()
    measured = [m for m in ms if any(x["name"] == name for x in m.computations)]
    if measured:
        table = (
            '<div class="jx-slice" data-search-exclude>'
            + render.env_switch(measured, label=word(src, "jax-platform"), lang=language(src))
            + render.legend(language(src))
            + render.slice_for_computation(measured, name, language(src))
            + "</div>"
        )
        matrix_link = rel(src, "matrix.md")
        slice_md = (
            f"Every row is a variant, every column a transform; hover a cell for the error line, "
            f"the host call count and the test that measured it, or click, tap or focus it "
            f"(Tab, then Enter) for the same details and the command that re-runs it. "
            f"The [full matrix]({matrix_link}) has every computation.\n\n{table}"
        )
    else:
        slice_md = no_data()
    return (
        f"{facts}\n\n## The code, side by side\n\n"
        "Pick a mechanism; the choice follows you to every computation page.\n\n"
        f"{code.tabs(name)}\n\n## Measured\n\n{slice_md}"
    )
