"""The multi-process page is the multi-process data, rendered by the one site engine: its
tables and timings come from the files, and every statement it makes is checked."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from jaxcb_site import claims, data, directives, distcost, distributed

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "distributed.md"


@pytest.fixture(scope="module")
def rendered() -> str:
    return directives.expand(PAGE.read_text(encoding="utf-8"), "distributed.md")


def test_the_multi_process_files_are_on_their_own_page() -> None:
    """They have columns of their own: the one-process pages never see them."""
    multi = data.load_distributed()
    assert multi, "no multi-process matrix file is committed"
    assert all(m.env["process_count"] > 1 for m in multi)
    assert all(m.env.get("process_count", 1) == 1 for m in data.load_matrices())


def test_page_has_no_typed_tables_or_numbers() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert not [line for line in text.splitlines() if line.lstrip().startswith("|")]
    prose = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    prose = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", prose, flags=re.S))
    assert not re.findall(r"\d+(?:\.\d+)?\s*(?:µs|ms|s\b|×|%)", prose), "a typed number"


def test_every_cell_of_the_tables_is_on_the_page(rendered: str) -> None:
    assert "jaxcb:dist" not in rendered, "a directive was left unrendered"
    raw = html.unescape(rendered)
    for m in data.load_distributed():
        for c in m.cells.values():
            if c["computation"] in ("sin_scale", "log_steps") and c["status"] != "n/a":
                assert f'data-test="{c["test"]}"' in raw, c["test"]


def test_every_timing_is_on_the_page(rendered: str) -> None:
    for m in data.load_distributed():
        cost = m.record.sharding_cost
        assert cost is not None, m.path.name
        for r in cost.results:
            if r.error is None:
                assert distcost._ms(r.median_s) in rendered, (r.variant, r.form, r.n)
            else:
                assert html.escape(r.error) in rendered, (r.variant, r.form, r.n)


def test_a_statement_the_data_does_not_show_fails_the_build() -> None:
    with pytest.raises(claims.ClaimError, match="does not show"):
        distributed.d_expect(
            "x.md", "debug.callback/unordered", "sin_scale", "sharded_jit", "calls=1,1"
        )
    with pytest.raises(claims.ClaimError, match="cites no measured cell"):
        distributed.d_expect("x.md", "native/jax", "log_steps", "sharded_jit", "status=ok")
