"""What a browser page reports as going wrong: console errors, uncaught exceptions, failed
requests and HTTP errors, collected from the moment ``errors(page)`` is called."""

from __future__ import annotations

from typing import Any


def errors(page: Any) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: found.append(f"pageerror: {e}"))
    # A request cut short by the next navigation (net::ERR_ABORTED, e.g. the favicon) is not
    # an error; a missing file is, whether it fails or answers 4xx/5xx.
    page.on(
        "requestfailed",
        lambda r: (
            None
            if "ERR_ABORTED" in (r.failure or "")
            else found.append(f"requestfailed: {r.url} {r.failure}")
        ),
    )
    page.on(
        "response",
        lambda r: found.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
    )
    return found
