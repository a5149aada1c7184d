"""The ``<!-- jaxcb:NAME args -->`` directives and what each expands to.

A directive stands alone on a line of a page; ``DIRECTIVES`` maps its name to the function
that expands it, called with the page's path and the directive's arguments. The table of
all of them, with their arguments and what they expand to, is generated from
``DIRECTIVES`` and the functions' docstrings by ``<!-- jaxcb:directives -->`` on the
contributors' page (``docs/contributing/site.md``): a directive without a docstring fails
the build there.
"""

from __future__ import annotations

import inspect
import posixpath
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import (
    behaviour,
    claims,
    code,
    data,
    distributed,
    examples,
    lessons,
    matrixpage,
    perf,
    render,
    toxenvs,
)
from .data import Matrix, load_matrices
from .render import GLYPH, esc

# alone on a line; indented (inside a list item) the expansion keeps the indentation
DIRECTIVE = re.compile(r"^([ \t]*)<!-- jaxcb:([a-z-]+)((?:[ \t]+[^\s]+)*)[ \t]*-->[ \t]*$", re.M)


class DirectiveError(ValueError):
    pass


def rel(src_uri: str, target: str) -> str:
    """A link from the page ``src_uri`` to the docs file ``target``."""
    return posixpath.relpath(target, posixpath.dirname(src_uri) or ".")


def _catalog() -> dict[str, dict[str, Any]]:
    """The computations, as the committed matrix files record them."""
    return {c["name"]: c for c in data.computations()}


def _no_data() -> str:
    return (
        '!!! warning "No measured data yet"\n\n'
        "    No matrix file exists under `docs/data/matrix/`. Run `jaxcb matrix --write` "
        "and rebuild the site."
    )


def d_legend(src: str) -> str:
    """The cell legend: what each glyph of a matrix cell means."""
    return render.legend()


def d_environments(src: str) -> str:
    """One row per matrix file: JAX, jaxlib, Python, NumPy, SciPy, platform, devices, x64,
    cells and how long the run took."""
    ms = load_matrices()
    if not ms:
        return _no_data()
    rows = [
        "| file | JAX | jaxlib | Python | NumPy | SciPy | platform | device kind | devices | x64 | cells | run took |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
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
            f"{'on' if e.get('x64') else 'off'} | {len(m.cells)} | {took} |"
        )
    return "\n".join(rows)


def _in_docs(m: Matrix) -> bool:
    from .data import MATRIX_DIR

    return m.path.parent.resolve() == MATRIX_DIR.resolve()


def d_matrix(src: str) -> str:
    """The newest file's table in the page, the others loaded on demand (``matrixpage``)."""
    ms = load_matrices()
    if not ms:
        return _no_data()
    return matrixpage.page(ms)


def d_summary(src: str, *mechanisms: str) -> str:
    """One table for the pure computations, one for effects and impure inputs."""
    ms = load_matrices()
    if not ms:
        return _no_data()
    mech = list(mechanisms) or None
    if mech:
        ms = [m for m in ms if any(render.selected(v, mech) for v in m.variants)]
        if not ms:
            return (
                '!!! warning "Not measured yet"\n\n'
                f"    No committed matrix file has a {', '.join(f'`{x}`' for x in mech)} row."
            )
    tables = "".join(
        render.summary(ms, mechanisms=mech, kinds=kinds, what=what)
        for kinds, what in render.KIND_GROUPS
    )
    return (
        '<div class="jx-summary" data-search-exclude>'
        + render.env_switch(ms, label="JAX version / platform")
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
        return _no_data()
    m = ms[0]
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
                cls, text, tip = render.aggregate(cells)
                errs = sorted(
                    {c.get("error_type") for c in cells if c["status"] == "error"} - {None}
                )
                err = f' <small class="jx-errtype">{esc(", ".join(errs))}</small>' if errs else ""
                lines.append(
                    render.tip(
                        f'{text} <span class="jx-qwhat">{esc(what.split()[0])}</span>{err}',
                        what + chr(10) + tip,
                        f"jx-q jx-{cls}",
                    )
                )
            tds.append(f'<td class="jx-qcell">{"".join(lines) or GLYPH["n/a"]}</td>')
        rows.append(
            f'<tr><th scope="row" class="jx-rowhead">'
            f"{render.tip(esc(t.get('label') or tid), t.get('doc', ''))}</th>{''.join(tds)}</tr>"
        )
    return (
        '<p class="jx-narrow-note" data-search-exclude>In each cell the first line is the pure '
        "computations, the second the effects and impure inputs; tap a line for what it "
        "aggregates.</p>"
        '<div class="jx-scroll" data-search-exclude><table class="jx-matrix jx-quick">'
        f"<caption>{esc(m.label)}</caption>"
        f'<thead><tr><th class="jx-corner">transform</th>{head}</tr></thead>'
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
        return _no_data()
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
        return _no_data()
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
        blocks.append(render.env_block(m, i == 0, table))
    return (
        '<div class="jx-summary" data-search-exclude>'
        + render.env_switch(ms, label="JAX version / platform")
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
    for c in _catalog().values():
        page = rel(src, f"computations/{c['name']}.md")
        lines.append(
            f"| [`{c['name']}`]({page}) | {c['kind']} | "
            f"`{c['signature']}` | {c['summary']} | {c['source']} |"
        )
    return "\n".join(lines)


def d_computation(src: str, name: str) -> str:
    """One computation's page body: its catalog facts, a code tab per mechanism package and
    its slice of the measured matrix."""
    cat = _catalog()
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
            + render.env_switch(measured, label="JAX version / platform")
            + render.legend()
            + render.slice_for_computation(measured, name)
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
        slice_md = _no_data()
    return (
        f"{facts}\n\n## The code, side by side\n\n"
        "Pick a mechanism; the choice follows you to every computation page.\n\n"
        f"{code.tabs(name)}\n\n## Measured\n\n{slice_md}"
    )


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
    with ``FIELD=VALUE`` expectations (what the claim says), whether the cell agrees."""
    ms = load_matrices()
    if not ms:
        return _no_data()
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
    return head + "\n\n" + "\n".join(lines)


def _title(cell: dict[str, Any] | None) -> str:
    return f' title="{esc(cell["test"])}"' if cell else ""


def d_api(src: str, package: str) -> str:
    """A mkdocstrings block for the package and each public module, in catalog order."""
    from .data import ROOT

    pkg_dir = next(iter(ROOT.glob(f"packages/*/src/{package}")), None)
    if pkg_dir is None:
        raise DirectiveError(f"no package {package} under packages/*/src")

    # the command lines (cli.py) are documented on the "Run it yourself" page, not as an API
    def public(d: Path) -> list[str]:
        return sorted(
            p.stem for p in d.glob("*.py") if not p.stem.startswith("_") and p.stem != "cli"
        )

    order = {c: i for i, c in enumerate(_catalog())}
    names = sorted(public(pkg_dir), key=lambda n: (order.get(n, len(order)), n))
    blocks = [f"::: {package}.{n}" for n in names]
    # a sub-package (the core's rooms): its own docstring, then each of its modules
    for room in sorted(d for d in pkg_dir.iterdir() if (d / "__init__.py").is_file()):
        blocks.append(f"::: {package}.{room.name}\n    options:\n      members: false")
        blocks += [f"::: {package}.{room.name}.{n}" for n in public(room)]
    return "\n\n".join(blocks)


def d_check_rules(src: str, what: str = "rules") -> str:
    """``jaxcb check``'s rule table (``rules``), its findings on the two source texts' code
    (``seeds``) or its precision and recall on its corpus (``corpus``), the last two checked
    at build time, from ``jaxcb_check`` (standard library only)."""
    from jaxcb_check import checker as check

    def md(s: str) -> str:  # table-cell text; `code spans` kept as written
        parts = re.split(r"(`[^`]*`)", s)
        return "".join(
            p if p.startswith("`") else esc(p).replace("*", "\\*") for p in parts
        ).replace("|", "\\|")

    if what == "rules":
        rows = [
            "| rule | what it finds | replacement | heuristic? | JAX facts (source) |",
            "|---|---|---|---|---|",
        ]
        cited: dict[tuple[Any, ...], str] = {}
        for r in check.RULES:
            facts = cited.setdefault(r.facts, r.id)
            cell = (
                f"as `{facts}`"
                if facts != r.id
                else "<br>".join(f"{md(f.text)} ([{md(f.source)}]({f.url}))" for f in r.facts)
            )
            kind = "**yes**" if r.heuristic else "no"
            note = f": {md(r.note)}" if r.note else ""
            rows.append(
                f"| `{r.id}` | {md(r.title)} | {md(r.replacement)} | {kind}{note} | {cell} |"
            )
        return "\n".join(rows)
    if what == "corpus":
        return _check_corpus(check)
    if what != "seeds":
        raise DirectiveError(f"check-rules: unknown argument {what!r} (rules, seeds or corpus)")
    seeds = sorted(data.ROOT.glob("tests/core/seeds/*.py"))
    report = check.check_paths([str(p) for p in seeds])
    if not seeds or report.errors:
        raise DirectiveError(f"check-rules seeds: tests/core/seeds/*.py: {report.errors}")
    # Each file is shown under the name of the text it comes from (its header says: `the
    # Chinese pure_callback tutorial`), as a reader who saved that code would have it.
    shown: dict[Path, tuple[str, str, str]] = {}
    for p in seeds:
        head = " ".join(
            ln.lstrip("#").strip() for ln in p.read_text(encoding="utf-8").splitlines()[:8]
        )
        text = re.sub(r"\s+", " ", head)
        title = re.search(r'text "([^"]+)"', text)
        known = re.search(
            r"\((the Chinese pure_callback tutorial|JAX's early External callbacks guide)", text
        )
        who = known.group(1) if known else p.stem
        file = re.sub(r"[^a-z0-9]+", "_", re.sub(r"^(the|jax's) ", "", who.lower())).strip("_")
        shown[p] = (f"{file}.py", who, title.group(1) if title else who)
    out = ["```text", "$ jaxcb check " + " ".join(f for f, _, _ in shown.values())]
    items = []
    for p, (file, who, title) in shown.items():
        lines = p.read_text(encoding="utf-8").splitlines()
        mine = [f for f in report.findings if f.path == str(p)]
        out += [f.text().replace(str(p), file, 1) for f in mine]
        flagged = "".join(
            f"\n    - line {f.line}: `{lines[f.line - 1].strip()}` → `{f.rule}`" for f in mine
        )
        n = f"{len(mine)} finding{'s' * (len(mine) != 1)}"
        items.append(f"- `{file}`, the code of {who} (“{title}”): {n}{flagged}")
    return "\n".join([*out, "```", "", *items])


DIRECTIVES: dict[str, Callable[..., str]] = {
    "api": d_api,
    "calls": d_calls,
    "check-rules": d_check_rules,  # docs/check.md (jaxcb_check)
    "computation": d_computation,
    "contracts": d_contracts,
    "computations": d_computations,
    "environments": d_environments,
    "legend": d_legend,
    "matrix": d_matrix,
    "quick": d_quick,
    "summary": d_summary,
    "variants": d_variants,
    "verdict": d_verdict,
    **perf.DIRECTIVES,  # bench-NAME: the performance page
    **behaviour.DIRECTIVES,  # exceptions, dispatch, gotchas (docs/data/behaviour)
    **claims.DIRECTIVES,  # expect: a statement about behaviour, checked against its cells
    "example": examples.directive,  # a runnable example and its recorded output
    **distributed.DIRECTIVES,  # dist-NAME: the multi-process page (docs/distributed.md)
    **lessons.DIRECTIVES,  # lesson-head, cell, shows, lesson-file: the learning path
    **toxenvs.DIRECTIVES,  # tox-envs: tox.ini's environments (docs/run.md)
}


EXPECT = re.compile(r"#\s*expect:\s*(JXC\d{3}(?:\s*,\s*JXC\d{3})*)\s*$")


def _check_corpus(check: Any) -> str:
    """The checker run on ``tests/core/check_corpus`` now: precision and recall against the
    ``# expect:`` comments, in all and per rule."""
    files = sorted(data.ROOT.glob("tests/core/check_corpus/*.py"))
    report = check.check_paths([str(p) for p in files])
    if not files or report.errors:
        raise DirectiveError(f"check-rules corpus: tests/core/check_corpus: {report.errors}")
    got = {(Path(f.path).name, f.line, f.rule) for f in report.findings}
    want = set()
    for p in files:
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1):
            m = EXPECT.search(line)
            if m:
                want |= {(p.name, n, r.strip()) for r in m.group(1).split(",")}
    true = got & want

    def pct(a: int, b: int) -> str:
        return f"{a / b:.0%}" if b else "–"

    rows = ["| rule | expected | reported | right |", "|---|---|---|---|"]
    for r in check.RULES:
        w = {x for x in want if x[2] == r.id}
        g = {x for x in got if x[2] == r.id}
        rows.append(f"| `{r.id}` | {len(w)} | {len(g)} | {len(w & g)} |")
    return (
        f"On {len(files)} files ({', '.join(f'`{p.name}`' for p in files)}), checked when this "
        f"page was built: {len(got)} findings for {len(want)} expected, **precision "
        f"{pct(len(true), len(got))}, recall {pct(len(true), len(want))}**.\n\n" + "\n".join(rows)
    )


def _arguments(fn: Callable[..., str]) -> str:
    """The directive's arguments as its signature names them: ``NAME``, ``[NAME]`` when it
    has a default, ``[NAME ...]`` for any number."""
    out = []
    for p in list(inspect.signature(fn).parameters.values())[1:]:  # after the page's path
        name = p.name.upper()
        if p.kind is p.VAR_POSITIONAL:
            out.append(f"[{name} ...]")
        elif p.default is not p.empty:
            out.append(f"[{name}]")
        else:
            out.append(name)
    return " ".join(out)


def d_directives(src: str) -> str:
    """Every directive the site engine knows, from its own table: name, arguments, what it
    expands to (the first paragraph of its function's docstring) and the module defining it."""
    rows = ["| directive | arguments | expands to | module |", "|---|---|---|---|"]
    for name, fn in sorted(DIRECTIVES.items()):
        doc = inspect.getdoc(fn)
        if not doc:
            raise DirectiveError(f"jaxcb:{name}: its function has no docstring to list")
        what = " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")
        module = fn.__module__.rsplit(".", 1)[-1]
        args = _arguments(fn)
        rows.append(f"| `jaxcb:{name}` | {f'`{args}`' if args else '–'} | {what} | `{module}.py` |")
    rows.append(
        "| `jaxcb:claims-table` | – | "
        + " ".join((inspect.getdoc(claims_table) or "").split("\n\n")[0].split())
        + " | `directives.py` |"
    )
    return "\n".join(rows)


DIRECTIVES["directives"] = d_directives  # this table itself (docs/contributing/site.md)


CLAIM = re.compile(r"^### (\d+)\. (.+?) \{ #(claim-\d+) \}\s*$", re.M)
VERDICT = re.compile(r"^<!-- jaxcb:verdict (\S+) (\S+) (\S+)((?: \S+=\S+)*) -->\s*$", re.M)


def claims_table(markdown: str) -> str:
    """The overview of the claims on the page: headings ``### N. text { #claim-N }`` and the
    verdict directives under each (those with ``FIELD=VALUE``: what the claim says), one
    column per matrix file and the verdict over all of them, by ``claims.VERDICT_RULE``."""
    ms = load_matrices()
    if not ms:
        return _no_data()
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


def expand(markdown: str, src_uri: str) -> str:
    if "<!-- jaxcb:claims-table -->" in markdown:
        markdown = markdown.replace("<!-- jaxcb:claims-table -->", claims_table(markdown), 1)

    def sub(m: re.Match[str]) -> str:
        indent, name, args = m.group(1), m.group(2), shlex.split(m.group(3))
        if name not in DIRECTIVES:
            raise DirectiveError(f"{src_uri}: unknown directive jaxcb:{name}")
        try:
            out = DIRECTIVES[name](src_uri, *args)
        except TypeError as e:
            raise DirectiveError(f"{src_uri}: jaxcb:{name} {args}: {e}") from e
        if name == "shows":  # a check that shows nothing: its line goes, the paragraph stays
            return DROP
        return "\n".join(indent + line if line else line for line in out.split("\n"))

    return re.sub(rf"^{DROP}\n?", "", DIRECTIVE.sub(sub, markdown), flags=re.M)


DROP = "\x00jaxcb-drop\x00"
