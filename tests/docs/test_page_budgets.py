"""Every built page within its budgets, measured in a real browser (Debian's chromium).

A page is at most ``HEIGHT_PX`` tall at 1280 px wide, and its HTML plus the images a reader
who scrolls through it loads (an image in a closed block or a hidden tab that says
``loading="lazy"`` waits until it is shown) weigh at most ``BYTES`` together. The search index,
loaded once for the whole site, is left out. Every page is measured, of the Chinese site those with a
translation (the others are the English pages again). The heights at 390 px and
the weights are written to ``test-artifacts/page-budgets.json``, the tallest pages printed.
The same visits (``visits.py``, shared with ``test_code_blocks``) check that every page
loads cleanly: one pass over the site.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from visits import weight

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HEIGHT_PX = 12_000  # at 1280 px wide
BYTES = 1_000_000  # the page's HTML and its images
WIDE = 1280  # the width the budget and the weights are read at (visits.py: 1280 and 390)
#: what went wrong while the pages were measured (``measured`` fills it)
PROBLEMS: list[str] = []

# A page over a budget (its English path; the same page under zh/ too), with the reason it
# may be. A page that grows past a budget is split or folded (the gotchas and the edge cases
# fold their scripts, the performance page has a page per measurement, the harness API a page
# per room, the API reference lists its parameters instead of tabling them, the performance
# targets fold each target's table), or named here with its reason; an entry that no page
# needs any more fails.
EXCEPTIONS: dict[str, str] = {}


def _excepted(rel: str) -> bool:
    return rel.removeprefix("zh/") in EXCEPTIONS


@pytest.fixture(scope="module")
def measured(visits: Any, site: Path, artifacts: Path) -> dict[str, dict[str, int]]:
    """Height at 1280 and 390 px, HTML and image bytes of every page of the built site."""
    out: dict[str, dict[str, int]] = {}
    for width, seen in visits.items():
        for rel, visit in seen.items():
            PROBLEMS.extend(f"{rel or '/'} at {width} px: {e}" for e in visit.problems)
            row = out.setdefault(rel, {})
            row[f"height_{width}"] = visit.height
            if width == WIDE:
                row["html"], row["images"] = weight(site, rel, visit.images)
    (artifacts / "page-budgets.json").write_text(json.dumps(out, indent=1), encoding="utf-8")
    tallest = sorted(out.items(), key=lambda kv: -kv[1]["height_1280"])[:8]
    for rel, row in tallest:
        print(
            f"{rel or '/'}: {row['height_1280']} px at 1280, {row['height_390']} px at 390, "
            f"{(row['html'] + row['images']) / 1e3:.0f} kB"
        )
    return out


def test_every_page_loads_without_console_errors(measured: dict[str, dict[str, int]]) -> None:
    """Measured in the same visits: each page answers, shows its title and reports no console
    error, uncaught exception or failed request, at both widths."""
    assert PROBLEMS == []


def test_every_page_is_measured(measured: dict[str, dict[str, int]]) -> None:
    assert len(measured) > 40
    assert {"gotchas/", "performance/", "zh/gotchas/", "zh/performance/"} <= set(measured)
    assert all(row["height_1280"] > 0 and row["html"] > 0 for row in measured.values())


def test_no_page_is_taller_than_the_budget(measured: dict[str, dict[str, int]]) -> None:
    over = {
        rel: row["height_1280"]
        for rel, row in measured.items()
        if row["height_1280"] > HEIGHT_PX and not _excepted(rel)
    }
    assert over == {}, f"taller than {HEIGHT_PX} px at 1280 px wide: {over}"


def test_no_page_weighs_more_than_the_budget(measured: dict[str, dict[str, int]]) -> None:
    over = {
        rel: row["html"] + row["images"]
        for rel, row in measured.items()
        if row["html"] + row["images"] > BYTES and not _excepted(rel)
    }
    assert over == {}, f"more than {BYTES} bytes of HTML and images: {over}"


def test_exceptions_are_pages_over_a_budget(measured: dict[str, dict[str, int]]) -> None:
    """An exception that no page needs any more goes."""
    for rel in EXCEPTIONS:
        row = measured[rel]
        assert row["height_1280"] > HEIGHT_PX or row["html"] + row["images"] > BYTES, (
            f"{rel} is within both budgets now: drop its exception"
        )
