"""Unit tests of the site's hook helpers (docs/hooks/jaxcb_site), on small made-up cells.

The cells here are test inputs for the renderers, never site data: the site only
reads docs/data/matrix/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import markdown
import pytest

from jaxcb_site import data, dirbase, directives, matrixpage, render, verdicts
from jaxcb_site.markers import AnnotateExtension, AnnotationError


def _cell(status: str, **kw: Any) -> dict[str, Any]:
    base = {
        "variant": "pure_callback/none",
        "computation": "sin_scale",
        "transform": "vmap",
        "status": status,
        "reason": None,
        "error_type": None,
        "error": None,
        "host_calls": None,
        "shapes": None,
        "effects": None,
        "test": "tests/matrix/test_matrix.py::test_cell[pure_callback/none|sin_scale|vmap]",
    }
    return {**base, **kw}


def test_verdict_of_an_error_quotes_type_and_message() -> None:
    text = verdicts.verdict_text(
        _cell(
            "error",
            error_type="NotImplementedError",
            error="vmap needs `vmap_method`",
            host_calls=0,
        )
    )
    assert text.startswith(render.GLYPH["error"])
    assert "`NotImplementedError`" in text
    assert "vmap needs 'vmap_method'" in text  # backticks cannot break the Markdown
    assert "host calls: 0" in text


def test_verdict_of_a_wrong_cell_gives_reason_and_effects() -> None:
    effects = {
        "expected": 4,
        "arrived": 0,
        "missing": 4,
        "extra": 0,
        "in_order": True,
        "verdict": "none",
    }
    text = verdicts.verdict_text(_cell("wrong", reason="0 of 4 arrived", effects=effects))
    assert "wrong" in text
    assert "0 of 4 arrived" in text
    assert "effects none: 0/4 arrived" in text


def test_cell_links_its_test_and_explains_itself() -> None:
    td = render.cell_td(_cell("ok", host_calls=3, shapes=["float32[4,8]"]))
    assert (
        'data-test="tests/matrix/test_matrix.py::test_cell[pure_callback/none|sin_scale|vmap]"'
        in td
    )
    assert "host calls: 3" in td
    assert "float32[4,8]" in td
    assert '<sub class="jx-calls">3</sub>' in td


def test_missing_cell_is_marked_not_measured() -> None:
    assert "not measured" in render.cell_td(None)


@pytest.mark.parametrize(
    ("statuses", "cls"),
    [
        (["ok", "ok", "n/a"], "ok"),
        (["error", "error"], "error"),
        (["ok", "error"], "mixed"),
        (["ok", "wrong"], "wrong"),
        (["n/a", "n/a"], "na"),
    ],
)
def test_aggregate(statuses: list[str], cls: str) -> None:
    cells = [_cell(s, computation=f"c{i}") for i, s in enumerate(statuses)]
    got, _, tip = render.aggregate(cells)
    assert got == cls
    if cls != "na":
        assert all(f"c{i}" in tip for i in range(len(statuses)))


def _write_matrix(directory: Path, jax: str, cells: list[dict[str, Any]]) -> Path:
    doc = {
        "schema": 2,
        "environment": {
            "jax": jax,
            "jaxlib": jax,
            "python": "3.12.1",
            "numpy": "2",
            "scipy": "1",
            "platform": "cpu",
            "device_kind": "cpu",
            "device_count": 4,
            "process_count": 1,
            "x64": False,
            "machine": "x86_64",
            "processor": "cpu",
            "os": "linux",
        },
        "variants": [
            {
                "id": "pure_callback/none",
                "mechanism": "pure_callback",
                "label": "none",
                "doc": "",
                "package": "p",
                "order": 1,
                "unsupported": {},
            }
        ],
        "computations": [
            {"name": "sin_scale", "kind": "pure", "signature": "", "summary": "", "source": ""}
        ],
        "transforms": [
            {"id": "vmap", "label": "vmap", "group": "batch", "doc": "", "legacy": False}
        ],
        "cells": cells,
    }
    path = directory / f"{jax}-cpu-4.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_matrices_sort_newest_first_and_render_one_block_each(tmp_path: Path) -> None:
    _write_matrix(tmp_path, "0.4.30", [_cell("ok")])
    _write_matrix(tmp_path, "0.12.0", [_cell("error", error_type="NotImplementedError", error="x")])
    _write_matrix(tmp_path, "0.10.2", [_cell("ok")])
    ms = data.load_matrices(tmp_path)
    assert [m.env["jax"] for m in ms] == ["0.12.0", "0.10.2", "0.4.30"]
    out = matrixpage.page(ms)
    assert out.count('class="jx-env"') == 3
    assert out.count(" hidden>") == 2  # only the newest is shown before the script runs
    switch = render.env_switch(ms)
    assert switch.count("<option") == 3


def test_schema_is_checked(tmp_path: Path) -> None:
    path = _write_matrix(tmp_path, "0.12.0", [_cell("maybe")])
    with pytest.raises(data.schema.SchemaError, match=r"cells\.0\.status: Input should be 'ok'"):
        data.load_matrices(tmp_path)
    path.unlink()
    _write_matrix(tmp_path, "0.12.0", [_cell("ok", transform="nope")])
    with pytest.raises(data.schema.SchemaError, match="names an unknown transform"):
        data.load_matrices(tmp_path)


def _md() -> markdown.Markdown:
    return markdown.Markdown(extensions=["pymdownx.superfences", AnnotateExtension()])


def test_annotation_marker_lands_on_the_line() -> None:
    src = (
        '<!-- jaxcb-annotate [["np.asarray(", 1], ["return", 2]] -->\n'
        "```python\n"
        "x = np.asarray(x)  # a view\n"
        "return x\n"
        "```\n"
    )
    pre = _md().preprocessors["jaxcb_annotate"]
    result = pre.run(src.splitlines())
    assert "x = np.asarray(x)  # a view (1)" in result
    assert "return x  # (2)!" in result
    assert not any("jaxcb-annotate" in line for line in result)


def test_annotation_needle_must_exist() -> None:
    pre = _md().preprocessors["jaxcb_annotate"]
    with pytest.raises(AnnotationError):
        pre.run(['<!-- jaxcb-annotate [["missing(", 1]] -->', "```python", "x = 1", "```"])


def test_unknown_directive_fails() -> None:
    with pytest.raises(directives.DirectiveError, match="unknown directive"):
        directives.expand("<!-- jaxcb:nonsense -->\n", "index.md")


def test_relative_links() -> None:
    assert dirbase.rel("computations/sin_scale.md", "matrix.md") == "../matrix.md"
    assert dirbase.rel("index.md", "computations/expm.md") == "computations/expm.md"


def test_stash_keeps_long_whole_blocks_and_puts_them_back() -> None:
    from jaxcb_site import stash

    table = '<div class="jx-scroll"><table>' + "<tr><td>1</td></tr>" * 200 + "</table></div>"
    tip = '<div class="jx-slice"><b title="two\nlines">' + "y" * 3000 + "</b></div>"
    trailing = '<div class="jx-env">' + "x" * 3000 + "</div> and text after it"
    short = '<div class="jx-facts">short</div>'
    page = f"# Title\n\n{table}\n\n    {tip.replace(chr(10), chr(10) + '    ')}\n\n{trailing}\n\n{short}\n"
    kept = stash.keep(page)
    assert table not in kept
    assert kept.count("data-jx-kept") == 2
    assert "\n    <div data-jx-kept=" in kept  # indentation (a tab, a list item) stays
    assert trailing in kept  # the block does not end its line: left to Markdown
    assert short in kept  # not worth a placeholder
    # the indented block comes back as Markdown would give it: its lines without the indent
    assert stash.restore(kept) == page.replace("\n    lines", "\nlines")
    text = f"Some text.\n\n{table}\n\nMore text.\n"
    assert stash.restore(markdown.markdown(stash.keep(text))) == markdown.markdown(text)


def test_hidden_environments_go_to_files_named_in_the_page(tmp_path: Path) -> None:
    from jaxcb_site import deferred

    for jax in ("0.12.0", "0.10.2"):
        _write_matrix(tmp_path, jax, [_cell("ok")])
    ms = data.load_matrices(tmp_path)
    newest, older = ms
    shown = render.env_block(newest, True, "<table>new</table>")
    hidden = render.env_block(older, False, "<table>old</table>")
    assert shown == f'<div class="jx-env" data-env="{newest.key}"><table>new</table></div>'
    assert "<table>" not in hidden
    assert " hidden>" in hidden
    assert f"{older.label}: loading its table…" in hidden
    page = f"<main>{shown}{hidden}</main>"
    site = tmp_path / "site"
    (site / "computations" / "sin_scale").mkdir(parents=True)
    out = deferred.place(page, "computations/sin_scale/", str(site))
    (src,) = re.findall(r'data-src="([^"]+)"', out)
    assert src.startswith(f"../../{deferred.DIR}/")
    assert src.endswith(".json")
    file = site / "computations" / "sin_scale" / src
    assert json.loads(file.read_text(encoding="utf-8")) == {"html": "<table>old</table>"}
    # the home page names the same file from the site's root; nothing else is rewritten
    assert deferred.place(page, "", str(site)) == out.replace("../../", "")
    assert deferred.files_in(site) == {file.name: {"html": "<table>old</table>"}}
    # a path from the site's root (the matrix page's files), from the Chinese matrix page
    named = f'<div data-src="{deferred.SITE}matrix/envs/{older.key}.json"></div>'
    assert deferred.place(named, "zh/matrix/", str(site)) == (
        f'<div data-src="../../matrix/envs/{older.key}.json"></div>'
    )


def test_built_pages_name_only_files_that_exist(site: Path) -> None:
    missing = []
    for p in site.rglob("*.html"):
        text = p.read_text(encoding="utf-8")
        assert "jx-deferred:" not in text, p
        for src in re.findall(r'class="jx-env"[^>]* data-src="([^"]+)"', text):
            if not (p.parent / src).is_file():
                missing.append(f"{p.relative_to(site)}: {src}")
    assert missing == []


def test_built_pages_have_no_placeholder_left(site: Path) -> None:
    left = [
        str(p.relative_to(site)) for p in site.rglob("*.html") if "data-jx-kept" in p.read_text()
    ]
    assert not left, f"pages with a block never put back: {left}"


# --- the contributors' directive table ---------------------------------------------------


def test_directive_table_lists_every_directive_with_its_arguments() -> None:
    table = directives.d_directives("contributing/site.md").splitlines()
    rows = {line.split("|")[1].strip().strip("`"): line for line in table[2:]}
    assert set(rows) == {f"jaxcb:{name}" for name in directives.DIRECTIVES} | {"jaxcb:claims-table"}
    assert rows["jaxcb:verdict"].split("|")[2].strip() == (
        "`VARIANT COMPUTATION TRANSFORM [EXPECT ...]`"
    )
    assert rows["jaxcb:gotcha"].split("|")[2].strip() == "`OID`"
    assert rows["jaxcb:legend"].split("|")[2].strip() == "–"
    for name, row in rows.items():
        assert row.split("|")[3].strip(), f"{name}: nothing says what it expands to"


def test_every_directive_on_a_page_is_in_the_table() -> None:
    import re

    used = set()
    for md in sorted(Path(directives.__file__).resolve().parents[2].rglob("*.md")):
        used |= set(re.findall(r"^[ \t]*<!-- jaxcb:([a-z-]+)", md.read_text("utf-8"), re.M))
    assert used, "no directive found under docs/"
    assert used - set(directives.DIRECTIVES) <= {"claims-table"}


def test_a_directive_without_a_docstring_fails_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(directives.DIRECTIVES, "bare", lambda src: "")
    with pytest.raises(
        directives.DirectiveError, match="jaxcb:bare: its function has no docstring"
    ):
        directives.d_directives("contributing/site.md")


def test_a_cell_left_to_another_row_is_told_from_one_that_does_not_apply() -> None:
    """A vmap_method row is measured under the transforms that batch only: its grad cell is
    measured by the pure_callback row of the same mechanism (↗); jax.debug.print has no
    value to return, so no debug.print row measures sin_scale under jit (—)."""
    m = data.load_matrices()[0]
    left = m.cell("pure_callback/sequential", "sin_scale", "grad")
    assert left is not None
    assert left["status"] == "n/a"
    assert "pure_callback/default" in left["measured_in"]
    assert render.shown(left) == "elsewhere"
    assert render.GLYPH["elsewhere"] in render.cell_td(left)
    assert render.GLYPH["elsewhere"] in matrixpage.cell_td(left)
    assert "measured in another row: " in "\n".join(render.cell_lines(left))
    for row in ("debug.print/ordered", "debug.print/unordered"):
        none = m.cell(row, "sin_scale", "jit")
        assert none is not None
        assert none["status"] == "n/a"
        assert none["measured_in"] == []
        assert render.shown(none) == "n/a"
        assert render.GLYPH["n/a"] in render.cell_td(none)


def test_every_cell_left_to_another_row_is_measured_there() -> None:
    for m in data.load_matrices():
        for (v, c, t), cell in m.cells.items():
            for other in cell.get("measured_in", []):
                measured = m.cell(other, c, t)
                assert measured is not None, (m.key, v, c, t)
                assert measured["status"] != "n/a", (m.key, v, c, t)
                assert m.variant(other)["mechanism"] == m.variant(v)["mechanism"]


def test_fold_whole_moves_each_whole_file_body_out_of_the_page() -> None:
    """A ``jx-whole`` block keeps its summary; its body, nested blocks included, becomes one
    placeholder (a block inside it is not folded again); other blocks stay; a block that is
    never closed is an error."""
    from jaxcb_site import deferred

    inner = '<details class="jx-whole"><summary>inner</summary><p>deep</p></details>'
    page = (
        '<p>a</p><details class="note jx-whole"><summary>Whole file</summary>'
        f"<pre>code</pre>{inner}</details>"
        '<details class="note"><summary>kept</summary><p>b</p></details>'
    )
    out = deferred.fold_whole(page)
    assert out.count('<div class="jx-whole-body" data-src="') == 1
    assert "<pre>code</pre>" not in out
    assert "deep" not in out
    assert out.startswith('<p>a</p><details class="note jx-whole"><summary>Whole file</summary>')
    assert out.endswith(
        '</div></details><details class="note"><summary>kept</summary><p>b</p></details>'
    )
    digest = re.search(r'data-src="[^"]*?([0-9a-f]{20})"', out)
    assert digest is not None
    kept = json.loads(deferred._PENDING[digest.group(1)])["html"]
    assert kept == f"<pre>code</pre>{inner}"
    with pytest.raises(ValueError, match="without its </details>"):
        deferred.fold_whole('<details class="jx-whole"><summary>s</summary><p>open')
