"""One cell's verdict in words (``<!-- jaxcb:verdict -->``, the claims under a heading) and
the overview of a page's claims (``<!-- jaxcb:claims-table -->``), checked against the cells
by the rules of ``claims.py``."""

from __future__ import annotations

import re
from typing import Any

from . import claims, render
from .data import load_matrices
from .dirbase import DirectiveError, no_data
from .render import GLYPH, esc


def verdict_text(cell: dict[str, Any]) -> str:
    """One sentence for one cell, generated from its fields."""
    status = cell["status"]
    if status == "ok":
        s = f"{GLYPH['ok']} works"
    elif status == "error":
        s = f"{GLYPH['error']} raises `{cell.get('error_type')}`: {_md_quote(cell.get('error'))}"
    elif status == "wrong":
        s = f"{GLYPH['wrong']} runs but is wrong: {cell.get('reason') or ''}"
    else:
        s = f"{GLYPH['n/a']} not applicable: {cell.get('reason') or ''}"
    extra = []
    if cell.get("host_calls") is not None and status != "n/a":
        extra.append(f"host calls: {cell['host_calls']}")
    eff = render.effects_text(cell.get("effects"))
    if eff:
        extra.append(eff)
    if cell.get("warning"):
        extra.append(f"warns: {_md_quote(cell['warning'])}")
    if extra:
        s += " (" + "; ".join(extra) + ")"
    return s


def _md_quote(text: str | None) -> str:
    t = (text or "").replace("|", "\\|").replace("`", "'")
    return f"“{t}”"


def d_verdict(src: str, variant: str, computation: str, transform: str, *expect: str) -> str:
    """What the cell says in every committed environment that has the variant (others
    cannot say), newest first, and, with ``FIELD=VALUE`` expectations (what the claim says),
    whether it agrees. Consecutive releases whose cells say the same are one line, named by
    their range (:func:`runs`); with more than three lines, those between the newest and the
    oldest are folded."""
    ms = load_matrices()
    if not ms:
        return no_data()
    wanted = claims.parse(expect) if expect else None
    said = []
    for m in ms:
        if m.variant(variant) is None:
            continue
        cell = m.cell(variant, computation, transform)
        agrees = ""
        if wanted is not None and cell is not None:
            ok = not claims.mismatches([(m, cell)], wanted)
            agrees = " — **as the claim says**" if ok else " — **not as the claim says**"
        text = f"{verdict_text(cell) if cell else 'not measured'}{agrees}"
        said.append((m, cell, text))
    lines = []
    for group in runs(said, lambda row: (row[2], _where(row[0]))):
        name = f'<span class="jx-env-name"{_title(group[0][1], group)}>{esc(_range_label(group))}</span>'
        lines.append(f"- {name}: {group[0][2]}")
    if not lines:
        lines.append(f"- *No committed matrix file has a `{variant}` row yet.*")
    says = (
        f" · the claim says {', '.join(f'<code>{esc(e)}</code>' for e in expect)}" if expect else ""
    )
    head = (
        f'<p class="jx-claim-key">measured as <code>{esc(variant)}</code> × '
        f"<code>{esc(transform)}</code> · <code>{esc(computation)}</code>{says}</p>"
    )
    if len(lines) > 3:  # the newest and the oldest shown, the lines between folded
        between = "\n".join("    " + line for line in lines[1:-1])
        fold = f'??? note "{len(lines) - 2} more between them"\n\n{between}'
        return head + "\n\n" + lines[0] + "\n\n" + fold + "\n\n" + lines[-1]
    return head + "\n\n" + "\n".join(lines)


def runs(rows: list[Any], same: Any) -> list[list[Any]]:
    """``rows`` (newest file first, each ``(matrix, ...)``) cut into runs of consecutive
    rows for which ``same(row)`` is equal."""
    out: list[list[Any]] = []
    for row in rows:
        if out and same(out[-1][-1]) == same(row):
            out[-1].append(row)
        else:
            out.append([row])
    return out


def _where(m: Any) -> str:
    """A file's label without its JAX version: platform and devices."""
    return str(m.label).removeprefix(f"JAX {m.env['jax']}")


def _range_label(group: list[Any]) -> str:
    """``JAX 0.12.0.1 · cpu · 4 devices`` for one file; for a run, the oldest and the newest
    release and how many: ``JAX 0.8.3 – 0.12.0.1 (5 releases) · cpu · 4 devices``."""
    newest, oldest = group[0][0], group[-1][0]
    if len(group) == 1:
        return str(newest.label)
    span = f"JAX {oldest.env['jax']} – {newest.env['jax']} ({len(group)} releases)"
    return span + _where(newest)


def _title(cell: dict[str, Any] | None, group: list[Any] | None = None) -> str:
    """The tooltip of an environment's name: the test that measures the cell and, for a
    run of releases, each of them."""
    if cell is None:
        return ""
    each = ""
    if group is not None and len(group) > 1:
        each = " · JAX " + ", ".join(row[0].env["jax"] for row in reversed(group))
    return f' title="{esc(cell["test"])}{esc(each)}"'


CLAIM = re.compile(r"^### (\d+)\. (.+?) \{ #(claim-\d+) \}\s*$", re.M)


VERDICT = re.compile(r"^<!-- jaxcb:verdict (\S+) (\S+) (\S+)((?: \S+=\S+)*) -->\s*$", re.M)


def claims_table(markdown: str) -> str:
    """The overview of the claims on the page: headings ``### N. text { #claim-N }`` and the
    verdict directives under each (those with ``FIELD=VALUE``: what the claim says). For each
    claim, the verdict in each matrix file by ``claims.VERDICT_RULE``, consecutive releases
    with the same verdict named as one range (newest first), and the verdict over all files."""
    ms = load_matrices()
    if not ms:
        return no_data()
    heads = list(CLAIM.finditer(markdown))
    if not heads:
        raise DirectiveError("claims-table: no '### N. claim { #claim-N }' heading on the page")
    rows = ["| claim | by release, newest first | verdict |", "|---|---|---|"]
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(markdown)
        keys = VERDICT.findall(markdown, h.end(), end)
        checked = [(v, c, t, claims.parse(tuple(e.split()))) for v, c, t, e in keys if e.strip()]
        everywhere: list[bool] = []
        per_file = []
        for m in ms:
            found = [
                not claims.mismatches([(m, cell)], want)
                for v, c, t, want in checked
                if m.variant(v) and (cell := m.cell(v, c, t)) and cell["status"] != "n/a"
            ]
            everywhere += found
            per_file.append((m, claims.verdict(found) if found else "not measured"))
        spans = [
            f'<span title="JAX {esc(", ".join(row[0].env["jax"] for row in reversed(group)))}">'
            f"{group[0][1]} {_span(group)}</span>"
            for group in runs(per_file, lambda row: (row[1], _where(row[0])))
        ]
        title = h.group(2).replace("|", "\\|")
        rows.append(
            f"| [{h.group(1)}. {title}](#{h.group(3)}) | {'; '.join(spans)} "
            f"| **{claims.verdict(everywhere)}** |"
        )
    places = sorted({_where(m).strip(" ·") for m in ms})
    return (
        claims.VERDICT_RULE
        + " (*not measured* in a release: the file has none of the claim's cells.) Every file: "
        + "; ".join(esc(p) for p in places)
        + ".\n\n"
        + "\n".join(rows)
    )


def _span(group: list[Any]) -> str:
    """``0.12.0.1``, or ``0.8.3 – 0.12.0.1`` for a run of releases (oldest first)."""
    newest, oldest = group[0][0].env["jax"], group[-1][0].env["jax"]
    return newest if len(group) == 1 else f"{oldest} – {newest}"
