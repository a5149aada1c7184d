"""The pages Material's search box lists for a query, as a reader who types it sees them."""

from __future__ import annotations

from typing import Any

# the results' links, as paths from the site's root, best first
_READ = """() => [...document.querySelectorAll('.md-search-result__list > .md-search-result__item')]
    .map(li => new URL(li.querySelector('a').href).pathname)"""


def results(page: Any, url: str, query: str) -> list[str]:
    """Open ``url``, type ``query`` into the search box, and return the result pages (paths
    from the root without a leading slash, each page once), once the list has settled."""
    page.goto(url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    # typed key by key: Material's search reacts to keyboard events, not to fill()
    box = page.locator("input.md-search__input")
    box.press_sequentially(query, delay=20)
    # Chinese characters are typed as text, with no key events: the keyup that an input method
    # sends when it commits the word is what tells the search box to search
    box.dispatch_event("keyup")
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    before: list[str] = []
    for _ in range(50):
        page.wait_for_timeout(200)
        now = page.evaluate(_READ)
        if now and now == before:
            break
        before = now
    out: list[str] = []
    for path in before:
        path = path.lstrip("/")
        if path not in out:
            out.append(path)
    return out
