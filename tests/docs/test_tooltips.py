"""Glossary terms show their definition in the browser: on hover at 1280 px, on a tap at 390 px.

A term's first use on a page links to its glossary entry (``jaxcb_site/glossary.py``) with
the definition as its title; the page script (``docs/javascripts/jaxcb.js``) shows it in a
tooltip. On a touch screen a tap shows it and leaves the reader on the page; the tooltip
links the glossary entry. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from console import errors as _errors

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDE = {"width": 1280, "height": 900}
NARROW = {"width": 390, "height": 844}
LESSON = {"en": "learn/01-first-pure-callback/", "zh": "zh/learn/01-first-pure-callback/"}


def _first_term(page: Any) -> tuple[Any, str, str]:
    """The page's first glossary term in view, its definition and its link."""
    term = page.locator("article a.jaxcb-term").first
    term.scroll_into_view_if_needed()
    definition = term.get_attribute("data-jx-definition")  # the title, once the script ran
    href = term.get_attribute("href")
    assert definition, "a glossary term without a definition"
    assert href
    assert "glossary/#" in href
    assert term.get_attribute("title") is None  # no second tooltip from the browser
    return term, definition, href


def _shown(page: Any, term: Any, definition: str, width: int) -> Any:
    """The tooltip on screen, holding ``definition``, described by the term, inside the page."""
    tip = page.locator("#jx-term-tip")
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.locator(".jx-term-text").inner_text().strip() == definition.strip()
    assert term.get_attribute("aria-describedby") == "jx-term-tip"
    box = tip.bounding_box()
    assert box is not None
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= width, box
    return tip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_definition_shows_on_hover(page: Any, site_url: str, artifacts: Path, lang: str) -> None:
    errors = _errors(page)
    page.set_viewport_size(WIDE)
    page.goto(site_url + LESSON[lang])
    term, definition, _ = _first_term(page)
    assert not page.locator("#jx-term-tip").is_visible()
    term.hover()
    _shown(page, term, definition, WIDE["width"])
    page.screenshot(path=str(artifacts / f"tooltip-hover-1280-{lang}.png"))
    page.mouse.move(5, 5)  # away: it goes
    page.locator("#jx-term-tip").wait_for(state="hidden", timeout=5_000)
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_definition_shows_on_a_tap_and_links_the_glossary(
    browser: Any, site_url: str, artifacts: Path, lang: str
) -> None:
    context = browser.new_context(viewport=NARROW, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors = _errors(page)
        url = site_url + LESSON[lang]
        page.goto(url)
        term, definition, href = _first_term(page)
        term.tap()
        tip = _shown(page, term, definition, NARROW["width"])
        page.wait_for_timeout(500)  # a tap that navigated would have left by now
        assert page.url == url  # the reader is still on the lesson
        assert tip.is_visible()
        page.screenshot(path=str(artifacts / f"tooltip-tap-390-{lang}.png"))
        tip.locator("a.jx-term-more").tap()  # the glossary entry, from the tooltip
        page.wait_for_url("**/glossary/#*", timeout=10_000)
        assert page.url.endswith("glossary/#" + href.split("#")[1])
        page.go_back()
        term, _, _ = _first_term(page)
        term.tap()
        term.tap()  # a second tap on the term follows its link
        page.wait_for_url("**/glossary/#*", timeout=10_000)
        assert errors == []
    finally:
        context.close()
