"""The built site in a real browser (Debian's chromium through pytest-playwright).

Served by ``site_url`` on 127.0.0.1; skipped, with the reason, where chromium or
pytest-playwright is missing (see tests/conftest.py). Screenshots of the home and
matrix pages are left in ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _pages(site: Path) -> list[str]:
    """Every page of the built site, as a path relative to its root."""
    out = []
    for index in sorted(site.rglob("index.html")):
        rel = index.parent.relative_to(site).as_posix()
        if rel.startswith(("assets", "search")):
            continue
        out.append("" if rel == "." else rel + "/")
    return out


def _errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    # A request cut short by the next navigation (net::ERR_ABORTED, e.g. the favicon) is not
    # an error; a missing file is, whether it fails or answers 4xx/5xx.
    page.on(
        "requestfailed",
        lambda r: (
            None
            if "ERR_ABORTED" in (r.failure or "")
            else errors.append(f"requestfailed: {r.url} {r.failure}")
        ),
    )
    page.on(
        "response",
        lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
    )
    return errors


def test_every_page_loads_without_console_errors(page: Any, site: Path, site_url: str) -> None:
    errors = _errors(page)
    paths = _pages(site)
    assert len(paths) > 20
    for path in paths:
        response = page.goto(site_url + path)
        assert response is not None, path
        assert response.ok, path
        page.wait_for_load_state("load")
        assert page.locator("h1").first.is_visible(), path
    assert errors == []


def test_chosen_mechanism_follows_to_the_next_page(page: Any, site_url: str) -> None:
    page.goto(site_url + "computations/sin_scale/")
    page.locator(".tabbed-labels label", has_text="io_callback").first.click()
    page.goto(site_url + "computations/sum_mean/")
    # content.tabs.link: the io_callback tab is the selected one here too
    active = page.evaluate(
        """() => {
            const set = document.querySelector('.tabbed-set');
            const inputs = [...set.querySelectorAll(':scope > input')];
            const i = inputs.findIndex(x => x.checked);
            return set.querySelectorAll(':scope > .tabbed-labels > label')[i].textContent.trim();
        }"""
    )
    assert active == "io_callback"
    assert page.locator(".tabbed-block:visible").first.inner_text().find("io_callback") >= 0


def test_matrix_shows_every_committed_version(
    page: Any, site_url: str, matrix_files: list[tuple[Path, dict[str, Any]]], artifacts: Path
) -> None:
    page.goto(site_url + "matrix/")
    if not matrix_files:
        assert page.get_by_text("No measured data yet").is_visible()
        return
    select = page.locator(".jx-matrix-page .jx-env-select")
    if len(matrix_files) > 1:
        options = select.locator("option").all_inner_texts()
        assert len(options) == len(matrix_files)
    for path, data in matrix_files:
        if len(matrix_files) > 1:
            select.select_option(path.stem)
        block = page.locator(f'.jx-matrix-page .jx-env[data-env="{path.stem}"]')
        assert block.is_visible()
        assert block.locator("a.jx-link").count() == len(data["cells"])
        assert data["environment"]["jax"] in block.inner_text()
        others = page.locator(f'.jx-matrix-page .jx-env:not([data-env="{path.stem}"])')
        for i in range(others.count()):
            assert not others.nth(i).is_visible()


def test_matrix_cell_shows_its_test(page: Any, site_url: str, matrix_files: list[Any]) -> None:
    if not matrix_files:
        pytest.skip("skipped: no matrix file is committed yet, so there is no cell to click")
    page.goto(site_url + "matrix/")
    cell = page.locator(".jx-env:visible a.jx-link").first
    test_id = cell.get_attribute("data-test")
    assert test_id is not None
    assert test_id.startswith("tests/")
    cell.click()
    box = page.locator(".jx-detail")
    assert box.is_visible()
    assert f'pytest "{test_id}"' in box.inner_text()


def test_matrix_filters_narrow_rows(page: Any, site_url: str, matrix_files: list[Any]) -> None:
    if not matrix_files:
        pytest.skip("skipped: no matrix file is committed yet, so there are no rows to filter")
    page.goto(site_url + "matrix/")
    page.locator('.jx-filter[data-filter="computation"]').select_option("expm")
    rows = page.locator(".jx-env:visible tbody tr[data-computation]:visible")
    assert rows.count() > 0
    assert set(rows.evaluate_all("rs => rs.map(r => r.dataset.computation)")) == {"expm"}


def test_environment_choice_follows_to_the_next_page(
    page: Any, site_url: str, matrix_files: list[tuple[Path, dict[str, Any]]]
) -> None:
    if len(matrix_files) < 2:
        pytest.skip("skipped: needs two committed matrix files to switch between")
    from jaxcb_site.data import load_matrices

    older = load_matrices()[-1].key  # the site shows the newest first: pick another one
    page.goto(site_url + "matrix/")
    page.locator(".jx-matrix-page .jx-env-select").select_option(older)
    page.goto(site_url + "computations/sin_scale/")
    visible = page.locator(".jx-slice .jx-env:visible")
    keys = visible.evaluate_all("els => els.map(e => e.dataset.env)")
    options = page.locator(".jx-slice .jx-env-select option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    assert keys == ([older] if older in options else [options[0]])


def test_search_finds_vmap_method(page: Any, site_url: str) -> None:
    page.goto(site_url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    # typed key by key: Material's search reacts to keyboard events, not to fill()
    page.locator("input.md-search__input").press_sequentially("vmap_method", delay=20)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=30_000)
    assert results.count() > 0
    assert "vmap_method" in page.locator(".md-search-result").inner_text()


@pytest.mark.parametrize(("name", "path"), [("home", ""), ("matrix", "matrix/")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshot(
    page: Any, site_url: str, artifacts: Path, name: str, path: str, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(site_url + path)
    page.wait_for_load_state("load")
    out = artifacts / f"site-{name}-{scheme}.png"
    page.screenshot(path=str(out), full_page=True)
    assert out.stat().st_size > 10_000
