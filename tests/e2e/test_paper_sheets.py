"""Bringing in an old paper sheet on a tablet either way up (768x1024 and 1024x768): preview,
problems, then import, with nothing axe-core finds on the way."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.games.papersheets import template_text
from tests.support.tablet import AT_ONE_SIZE, axe_violations

pytestmark = pytest.mark.browser


@AT_ONE_SIZE
def test_a_sheet_is_previewed_then_imported(page, axe_source, tmp_path):
    page.goto("/games/")
    page.get_by_role("link", name="Bring in paper sheets").click()
    assert page.locator("h1").inner_text() == "Bring in old paper sheets"
    assert axe_violations(page, axe_source) == []

    # A mistake first: named by row and column, and no way to import.
    page.get_by_label("Or paste its rows").fill(
        template_text().replace("round,3,,10,", "round,3,,ten,")
    )
    page.get_by_role("button", name="Preview").click()
    # The preview is a new page: wait for it (a count taken at once may read the page before).
    problems = page.locator(".sheet-problems li")
    expect(problems).to_have_count(1)
    assert (
        problems.first.inner_text() == "Row 10, column D (Ann): must be a whole number, not 'ten'"
    )
    expect(page.locator("#import-form")).to_have_count(0)
    assert axe_violations(page, axe_source) == []

    # The template as downloaded, from a file.
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(template_text(), encoding="utf-8")
    page.get_by_label("A CSV file").set_input_files(str(sheet))
    page.get_by_label("Or paste its rows").fill("")
    page.get_by_role("button", name="Preview").click()
    assert page.locator("#preview-title").inner_text() == "2 games to import"
    rows = page.locator(".sheet-games tbody tr")
    expect(rows).to_have_count(2)
    assert "Ann 70, Bob 195, Cat 265, Dan 235" in rows.nth(0).inner_text()
    assert "ended early after round 4 of 7" in rows.nth(1).inner_text()
    assert axe_violations(page, axe_source) == []
    button = page.get_by_role("button", name="Import 2 games")
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= page.viewport_size["width"]
    button.click()
    page.wait_for_url("**/games/1")
    assert (
        "Imported 2 games from a paper sheet (games 1 to 2)." in page.locator(".flash").inner_text()
    )
    assert "from a paper sheet" in page.locator("#summary .kicker").inner_text()
    assert axe_violations(page, axe_source) == []
    page.goto("/games/")
    expect(page.locator(".badge.from-sheet")).to_have_count(2)
