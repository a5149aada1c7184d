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
    """One line per committed environment that has the variant (others cannot say), and,
    with ``FIELD=VALUE`` expectations (what the claim says), whether the cell agrees. With
    more than three, the lines of the files between the newest and the oldest are folded."""
    ms = load_matrices()
    if not ms:
        return no_data()
    wanted = claims.parse(expect) if expect else None
    lines = []
    for m in ms:
        if m.variant(variant) is None:
            continue
        cell = m.cell(variant, computation, transform)
        name = f'<span class="jx-env-name"{_title(cell)}>{esc(m.label)}</span>'
        agrees = ""
        if wanted is not None and cell is not None:
            ok = not claims.mismatches([(m, cell)], wanted)
            agrees = " — **as the claim says**" if ok else " — **not as the claim says**"
        lines.append(f"- {name}: {verdict_text(cell) if cell else 'not measured'}{agrees}")
    if not lines:
        lines.append(f"- *No committed matrix file has a `{variant}` row yet.*")
    says = (
        f" · the claim says {', '.join(f'<code>{esc(e)}</code>' for e in expect)}" if expect else ""
    )
    head = (
        f'<p class="jx-claim-key">measured as <code>{esc(variant)}</code> × '
        f"<code>{esc(transform)}</code> · <code>{esc(computation)}</code>{says}</p>"
    )
    if len(lines) > 3:  # the newest and the oldest file shown, the releases between folded
        between = "\n".join("    " + line for line in lines[1:-1])
        fold = f'??? note "The {len(lines) - 2} releases between"\n\n{between}'
        return head + "\n\n" + lines[0] + "\n\n" + fold + "\n\n" + lines[-1]
    return head + "\n\n" + "\n".join(lines)


def _title(cell: dict[str, Any] | None) -> str:
    return f' title="{esc(cell["test"])}"' if cell else ""


CLAIM = re.compile(r"^### (\d+)\. (.+?) \{ #(claim-\d+) \}\s*$", re.M)


VERDICT = re.compile(r"^<!-- jaxcb:verdict (\S+) (\S+) (\S+)((?: \S+=\S+)*) -->\s*$", re.M)


def claims_table(markdown: str) -> str:
    """The overview of the claims on the page: headings ``### N. text { #claim-N }`` and the
    verdict directives under each (those with ``FIELD=VALUE``: what the claim says), one
    column per matrix file and the verdict over all of them, by ``claims.VERDICT_RULE``."""
    ms = load_matrices()
    if not ms:
        return no_data()
    heads = list(CLAIM.finditer(markdown))
    if not heads:
        raise DirectiveError("claims-table: no '### N. claim { #claim-N }' heading on the page")
    cols = " | ".join(esc(m.label) for m in ms)
    rows = [f"| claim | {cols} | verdict |", "|---|" + "---|" * len(ms) + "---|"]
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(markdown)
        keys = VERDICT.findall(markdown, h.end(), end)
        checked = [(v, c, t, claims.parse(tuple(e.split()))) for v, c, t, e in keys if e.strip()]
        everywhere: list[bool] = []
        cells = []
        for m in ms:
            found = [
                not claims.mismatches([(m, cell)], want)
                for v, c, t, want in checked
                if m.variant(v) and (cell := m.cell(v, c, t)) and cell["status"] != "n/a"
            ]
            everywhere += found
            cells.append(claims.verdict(found) if found else "·")
        title = h.group(2).replace("|", "\\|")
        rows.append(
            f"| [{h.group(1)}. {title}](#{h.group(3)}) | "
            + " | ".join(cells)
            + f" | **{claims.verdict(everywhere)}** |"
        )
    return (
        claims.VERDICT_RULE
        + " (· where the file has none of the claim's cells.)\n\n"
        + "\n".join(rows)
    )
