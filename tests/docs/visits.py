"""One pass of a real browser over every built page, at 1280 and at 390 px wide.

Each page is loaded once per width, and everything the site tests read from a whole page is
read in that visit: whether it loaded cleanly (:mod:`console`), its height and width, its
language, the images it loads and the code blocks it shows. ``test_page_budgets``,
``test_code_blocks`` and ``test_learn`` check what it found (the ``visits`` fixture of
``conftest.py``); before they shared it, each loaded its pages itself: the learning path's
pages three times at each width.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlparse

from console import errors

WIDTHS = {1280: {"width": 1280, "height": 900}, 390: {"width": 390, "height": 844}}
DOCS = Path(__file__).resolve().parents[2] / "docs"

# The images the page loads as the reader scrolls it: every <img> that is shown with the
# default tabs and closed blocks, and every one that is not lazy (the browser fetches those
# wherever they are).
IMAGES = """() => [...document.querySelectorAll('article img')]
  .filter(i => i.loading !== 'lazy' || i.getClientRects().length > 0)
  .map(i => i.getAttribute('src'))"""

# For each visible code or output block: how much of it is wider than its column, whether it
# is plain text, and how it shows what it hides.
CODE_BLOCKS = """() => [...document.querySelectorAll('article pre > code')]
  .filter(c => c.offsetParent !== null)
  .map(c => {
    const cs = getComputedStyle(c);
    const box = c.closest('.highlight');
    return {
      hidden: c.scrollWidth - c.clientWidth,
      width: c.clientWidth,
      text: !!box && box.classList.contains('language-text'),
      overflow: cs.overflowX,
      attachment: cs.backgroundAttachment,
      image: cs.backgroundImage,
      first: c.textContent.split('\\n').find(l => l.trim()) || '',
    };
  })"""


@dataclasses.dataclass
class Visit:
    """What one page showed at one width."""

    height: int
    width: int  # the page's own width: wider than the window, it scrolls sideways
    lang: str  # <html lang>
    blocks: list[dict[str, Any]]
    images: list[str]
    problems: list[str]


def pages(site: Path) -> list[str]:
    """Every page of the built site; of the Chinese site, the pages with a source of their own
    (``page.zh.md``): the others are the English page again, in Chinese navigation."""
    out = []
    for index in sorted(site.rglob("index.html")):
        rel = index.parent.relative_to(site).as_posix()
        if rel.startswith(("assets", "search")) or "/assets/" in f"/{rel}/":
            continue
        if rel.startswith("zh/") or rel == "zh":
            src = rel.removeprefix("zh").strip("/") or "index"
            if not (DOCS / f"{src}.zh.md").exists() and not (DOCS / src / "index.zh.md").exists():
                continue
        out.append("" if rel == "." else rel + "/")
    return out


def weight(site: Path, rel: str, srcs: list[str]) -> tuple[int, int]:
    """The page's HTML and its images, in bytes, read from the built site."""
    html = (site / rel / "index.html").stat().st_size
    images = 0
    for src in sorted(set(srcs)):
        path = urlparse(urljoin(f"http://site/{rel}", src)).path.lstrip("/")
        file = site / path
        assert file.is_file(), f"{rel}: image {src} is not in the built site"
        images += file.stat().st_size
    return html, images


def visit_all(browser: Any, site: Path, site_url: str) -> dict[int, dict[str, Visit]]:
    """``{width: {page: Visit}}`` for every page of :func:`pages`."""
    out: dict[int, dict[str, Visit]] = {}
    for width, viewport in WIDTHS.items():
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        found = errors(page)
        seen = out[width] = {}
        for rel in pages(site):
            before = len(found)
            response = page.goto(site_url + rel)
            page.wait_for_load_state("load")
            if response is None or not response.ok:
                found.append(f"HTTP {response.status if response else 'no response'}")
            if not page.locator("h1").first.is_visible():
                found.append("no visible h1")
            seen[rel] = Visit(
                height=page.evaluate("document.documentElement.scrollHeight"),
                width=page.evaluate("document.documentElement.scrollWidth"),
                lang=page.evaluate("document.documentElement.lang"),
                blocks=page.evaluate(CODE_BLOCKS),
                images=page.evaluate(IMAGES),
                problems=found[before:],
            )
        context.close()
    return out
