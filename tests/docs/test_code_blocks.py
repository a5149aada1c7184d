"""No text hidden inside a code or output block, at 1280 px and at 390 px.

A block whose lines are wider than the column either wraps them (recorded output and other
plain text: ``language-text``, so an error message is read whole) or scrolls sideways with a
cue on the edge where more is hidden (a shadow: background layers that scroll with the text
cover it once that edge is reached; ``docs/stylesheets/jaxcb.css``). The page's own width is
``test_browser``'s concern; this one looks inside each block, on every page of the built site
(those ``test_page_budgets`` measures, in the same visits: ``visits.py``). The count of blocks
wider than their column goes to ``test-artifacts/code-overflow.txt``.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from visits import CODE_BLOCKS, WIDTHS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _problem(block: dict[str, Any]) -> str | None:
    """Why text in this block is hidden, or None."""
    if block["hidden"] <= 1:
        return None
    if block["text"]:
        return f"plain text (output) {block['hidden']} px wider than its column, not wrapped"
    if block["overflow"] not in ("auto", "scroll"):
        return f"{block['hidden']} px cut off (overflow-x: {block['overflow']})"
    layers = block["attachment"].split(", ")
    if "local" not in layers or "scroll" not in layers or "gradient" not in block["image"]:
        return f"{block['hidden']} px to scroll to, with no cue on its edge"
    return None


@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_text_hidden_in_a_code_block(visits: Any, artifacts: Path, width: int) -> None:
    """Every page's visible blocks, as the shared visit (``visits.py``) found them."""
    problems: list[str] = []
    lines: list[str] = []
    for rel, visit in visits[width].items():
        if not visit.blocks:
            continue
        wide = [b for b in visit.blocks if b["hidden"] > 1]
        lines.append(
            f"{width} px {rel or '/'}: {len(wide)} of {len(visit.blocks)} blocks wider than "
            "the column"
        )
        for b in visit.blocks:
            why = _problem(b)
            if why:
                problems.append(f"{rel or '/'} ({width} px): {why}: {b['first'][:60]!r}")
    with (artifacts / "code-overflow.txt").open("a", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    # the pages that teach with code are among those visited, in both languages
    assert {"learn/01-first-pure-callback/", "zh/learn/01-first-pure-callback/"} <= set(
        visits[width]
    )
    assert {"recipes/", "check/", "mechanisms/pure_callback/", "zh/recipes/"} <= set(visits[width])
    assert len(lines) > 15
    assert not problems, "\n".join(problems)


def test_output_blocks_wrap_and_code_blocks_scroll(page: Any, site_url: str) -> None:
    """Lesson 1 at 390 px: its recorded error message is on screen whole, and a code block
    that scrolls shows a shadow on its right edge until it is scrolled to its end."""
    page.set_viewport_size(WIDTHS[390])
    page.goto(site_url + "learn/01-first-pure-callback/")
    outputs = [b for b in page.evaluate(CODE_BLOCKS) if b["text"]]
    assert outputs
    assert all(b["hidden"] <= 1 for b in outputs)
    error = page.locator("article .language-text pre > code", has_text="Expected").first
    assert error.evaluate("c => c.scrollWidth <= c.clientWidth + 1")
    wide = page.locator("article .language-python pre > code").evaluate_all(
        "cs => cs.findIndex(c => c.scrollWidth > c.clientWidth + 1)"
    )
    assert wide >= 0, "no code block of lesson 1 scrolls at 390 px: pick another page"
    code = page.locator("article .language-python pre > code").nth(wide)
    code.scroll_into_view_if_needed()
    box = code.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] - 3, box["y"] + box["height"] / 2
    before = _pixel(page, x, y)
    code.evaluate("c => { c.scrollLeft = c.scrollWidth; }")
    page.wait_for_timeout(100)
    after = _pixel(page, x, y)
    assert sum(before) < sum(after) - 15, f"no shadow on the edge: {before} then {after}"


def _pixel(page: Any, x: float, y: float) -> tuple[int, ...]:
    """The colour on screen at (x, y)."""
    from PIL import Image

    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})
    return tuple(Image.open(io.BytesIO(png)).convert("RGB").getpixel((0, 0)))
