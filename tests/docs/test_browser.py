"""The built site in a real browser (Debian's chromium through pytest-playwright).

Served by ``site_url`` on 127.0.0.1; skipped, with the reason, where chromium or
pytest-playwright is missing (see tests/conftest.py). Screenshots of the home and
matrix pages are left in ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import searchbox
from visits import WIDTHS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


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
        block.locator("table").wait_for()  # all but the newest file load when chosen
        assert block.locator("a.jx-link").count() == len(data["cells"])
        assert data["environment"]["jax"] in block.inner_text()
        others = page.locator(f'.jx-matrix-page .jx-env:not([data-env="{path.stem}"])')
        for i in range(others.count()):
            assert not others.nth(i).is_visible()


def test_matrix_cell_shows_its_test(page: Any, site_url: str, matrix_files: list[Any]) -> None:
    if not matrix_files:
        pytest.skip("skipped: no matrix file is committed yet, so there is no cell to click")
    from jaxcb_site.data import load_matrices

    newest = load_matrices()[0]  # the table in the page; a cell's details load on click
    v, c, t = newest.variants[0]["id"], newest.computations[0]["name"], newest.transforms[0]["id"]
    test_id = newest.cell(v, c, t)["test"]
    assert test_id.startswith("tests/")
    page.goto(site_url + "matrix/")
    page.locator(".jx-env:visible a.jx-link").first.click()
    box = page.locator(".jx-detail")
    assert box.is_visible()
    page.wait_for_function(
        "t => document.querySelector('.jx-detail-cmd').textContent.includes(t)", arg=test_id
    )
    assert f'pytest "{test_id}"' in box.inner_text()
    assert f"{v} × {t} · {c}" in box.inner_text()


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
    # the chosen environment's table was not in the page: it loads from its file
    table = visible.locator("table")
    table.wait_for()
    label = next(m.label for m in load_matrices() if m.key == keys[0])
    assert table.locator("caption").inner_text() == f"sin_scale on {label}"


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


# ----------------------------------------------------------------------- search, phones, keys

NARROW = {"width": 390, "height": 844}

# query -> the pages one of which must be among the first three results
SEARCHES = {
    "effects_barrier": ("mechanisms/debug/",),
    "vmap_method": ("mechanisms/pure_callback/",),
    "jax.debug.print": ("mechanisms/debug/",),
    "io_callback vmap": ("mechanisms/io_callback/", "matrix/"),
}


@pytest.mark.parametrize("query", list(SEARCHES))
def test_search_finds_identifiers_and_their_pages(
    page: Any, site_url: str, artifacts: Path, query: str
) -> None:
    pages = searchbox.results(page, site_url, query)
    with (artifacts / "search-results.txt").open("a", encoding="utf-8") as f:
        f.write(f"{query!r}: {pages[:5]}\n")
    assert pages, f"no result for {query!r}"
    assert set(SEARCHES[query]) & set(pages[:3]), f"{query!r}: first results {pages[:3]}"
    if " " not in query:  # an identifier: the results show it, highlighted
        assert query.split(".")[-1] in page.locator(".md-search-result").inner_text()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_page_scrolls_sideways(visits: Any, width: int) -> None:
    """Every built page fits the window's width (wide tables and code scroll inside their own
    box), as the shared visit (``visits.py``) found it."""
    wider = {rel or "/": v.width for rel, v in visits[width].items() if v.width > width}
    assert {"", "matrix/", "computations/sin_scale/", "mechanisms/pure_callback/"} <= set(
        visits[width]
    )
    assert wider == {}, f"pages wider than {width} px: {wider}"


def test_quick_table_fits_a_390px_screen(page: Any, site_url: str, artifacts: Path) -> None:
    page.set_viewport_size(NARROW)
    page.goto(site_url)
    box = page.locator(".jx-scroll:has(table.jx-quick)")
    box.scroll_into_view_if_needed()
    width, visible = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width <= visible, "the quick table needs sideways scrolling at 390 px"
    heads = box.locator("thead th").count()
    assert heads >= 5  # the transform column and one per mechanism, all in view
    assert page.locator(".jx-narrow-note").first.is_visible()
    box.screenshot(path=str(artifacts / "site-quick-390.png"))


def test_wide_tables_scroll_inside_their_box_with_row_headings_in_view(
    page: Any, site_url: str, matrix_files: list[Any]
) -> None:
    if not matrix_files:
        pytest.skip("skipped: no matrix file is committed yet, so there is no wide table")
    page.set_viewport_size(NARROW)
    for path, box_sel in (
        ("", ".jx-summary .jx-env:not([hidden]) .jx-scroll"),
        ("matrix/", ".jx-matrix-page .jx-env:not([hidden]) .jx-scroll"),
    ):
        page.goto(site_url + path)
        box = page.locator(box_sel).first
        box.scroll_into_view_if_needed()
        assert box.evaluate("e => e.scrollWidth > e.clientWidth"), path
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        head = box.locator("th.jx-rowhead").first
        inside = box.evaluate(
            """(e, h) => { const b = e.getBoundingClientRect(), r = h.getBoundingClientRect();
                return r.left >= b.left - 1 && r.right <= b.right + 1; }""",
            head.element_handle(),
        )
        assert inside, f"{path}: the row heading scrolled out of view"


def _detail_text(page: Any) -> str:
    box = page.locator(".jx-detail")
    assert box.is_visible()
    return box.locator(".jx-detail-text").inner_text()


def test_home_details_open_on_a_tap(browser: Any, site_url: str, artifacts: Path) -> None:
    context = browser.new_context(viewport=NARROW, has_touch=True)
    try:
        page = context.new_page()
        page.goto(site_url)
        line = page.locator("table.jx-quick button.jx-tip.jx-q").first
        line.scroll_into_view_if_needed()
        title = line.get_attribute("title")
        assert title
        line.tap()
        assert _detail_text(page) == title
        page.screenshot(path=str(artifacts / "site-home-tap-390.png"))
    finally:
        context.close()


def test_details_open_from_the_keyboard(page: Any, site_url: str) -> None:
    page.goto(site_url)
    for sel in (
        "table.jx-quick button.jx-tip.jx-q",
        ".jx-summary .jx-env:not([hidden]) td.jx-cell button.jx-tip",
        ".jx-summary .jx-env:not([hidden]) th.jx-t button.jx-tip",
    ):
        el = page.locator(sel).first
        assert el.evaluate("e => e.tabIndex") >= 0, f"{sel} is not in the tab order"
        el.focus()
        page.keyboard.press("Enter")
        assert _detail_text(page) == el.get_attribute("title"), sel
        page.keyboard.press("Escape")
        assert not page.locator(".jx-detail").is_visible()
        assert el.evaluate("e => e === document.activeElement"), "focus did not come back"


def test_matrix_cell_details_on_a_phone(
    browser: Any, site_url: str, matrix_files: list[Any]
) -> None:
    if not matrix_files:
        pytest.skip("skipped: no matrix file is committed yet, so there is no cell to tap")
    context = browser.new_context(viewport=NARROW, has_touch=True)
    try:
        page = context.new_page()
        page.goto(site_url + "matrix/")
        cell = page.locator(".jx-env:not([hidden]) a.jx-link").first
        cell.scroll_into_view_if_needed()
        cell.tap()
        page.wait_for_function("() => document.querySelector('.jx-detail-cmd').textContent")
        box = page.locator(".jx-detail").bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= NARROW["width"]
        assert 'pytest "tests/' in page.locator(".jx-detail").inner_text()
    finally:
        context.close()


def test_matrix_mechanism_filter_has_one_entry_per_family(
    page: Any, site_url: str, matrix_files: list[tuple[Path, dict[str, Any]]]
) -> None:
    if not matrix_files:
        pytest.skip("skipped: no matrix file is committed yet, so there are no rows to filter")
    page.goto(site_url + "matrix/")
    select = page.locator('.jx-filter[data-filter="mechanism"]')
    groups = select.locator("optgroup").evaluate_all("gs => gs.map(g => g.label)")
    families = {v["mechanism"] for _, d in matrix_files for v in d["variants"]}
    assert sorted(groups) == sorted(families)  # each family once
    assert len(groups) == len(set(groups))
    family = (
        next(f for f in groups if f == "pure_callback") if "pure_callback" in groups else groups[0]
    )
    select.select_option(f"m:{family}")
    rows = page.locator(".jx-env:not([hidden]) tbody tr:visible")
    assert rows.count() > 0
    assert set(rows.evaluate_all("rs => rs.map(r => r.dataset.mechanism)")) == {family}
    variant = next(
        v["id"] for _, d in matrix_files for v in d["variants"] if v["mechanism"] == family
    )
    select.select_option(f"v:{variant}")
    assert set(rows.evaluate_all("rs => rs.map(r => r.dataset.variant)")) == {variant}


def test_matrix_page_loads_other_environments_on_demand(
    page: Any, site_url: str, matrix_files: list[Any]
) -> None:
    if len(matrix_files) < 2:
        pytest.skip("skipped: needs two committed matrix files to switch between")
    from jaxcb_site.data import load_matrices

    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if "/envs/" in r.url else None)
    page.goto(site_url + "matrix/")
    page.wait_for_load_state("load")
    assert page.locator(".jx-matrix-page .jx-env table").count() == 1
    assert fetched == []
    older = load_matrices()[-1].key
    page.locator(".jx-matrix-page .jx-env-select").select_option(older)
    page.locator(f'.jx-env[data-env="{older}"] table').wait_for()
    assert any(u.endswith(f"/envs/{older}.json") for u in fetched)


def test_a_whole_file_loads_when_opened_with_its_copy_button(page: Any, site_url: str) -> None:
    """A computation page's whole files are not in the page: opening one loads it from its
    file, highlighted, with Material's copy button, and the button copies the file."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(site_url + "computations/sin_scale/")
    details = page.locator("details.jx-whole:visible").first
    assert details.locator(".jx-whole-body").inner_html() == ""
    details.locator("summary").click()
    code = details.locator(".jx-whole-body pre > code")
    code.wait_for()
    text = code.inner_text()
    assert '"""' in text.splitlines()[0]
    assert "def sin_scale(" in text
    button = details.locator(".jx-whole-body .md-clipboard")
    assert button.count() == 1
    button.click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.strip() == text.strip()
