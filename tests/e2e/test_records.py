"""The records and a player's page with their records and rivals, on a tablet held upright and
on a phone: nothing wider than the screen, the filters' targets a fingertip each, the filters
working as a plain form, and axe-core finding nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import games
from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.games import PageSender
from tests.support.seasons import hand_made_season
from tests.support.tablet import axe_violations, noting_problems, small_controls

pytestmark = pytest.mark.browser

SIZES = {"portrait": TABLET_VIEWPORTS["portrait"], "phone": PHONE_VIEWPORT}
# The filters' targets: each period's whole tile, the number box and the button.
FILTER_TARGETS = ".season-filters .tile, .season-filters input[type=number], .season-filters button"


@pytest.fixture(params=sorted(SIZES))
def sized(request, tablet, live_server):
    page = noting_problems(tablet(SIZES[request.param], base_url=live_server).new_page())
    yield page
    assert page.problems == []


def fits(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_records_and_a_players_page(sized, axe_source, scheme):
    page = sized
    page.emulate_media(color_scheme=scheme)
    made = hand_made_season(PageSender(page))
    page.goto("/players/records")
    expect(page.locator("h1")).to_have_text("Records")
    rows = page.locator(".records-table tbody tr")
    expect(rows).to_have_count(8)  # seven records, the costliest hand held twice
    comeback = page.locator('tr[data-record="best_comeback"]')
    expect(comeback.locator(".figure")).to_have_text("40 points behind, then won")
    expect(comeback.locator(".where a")).to_have_attribute("href", f"/games/{made[1].id}#round-1")
    fits(page)
    assert small_controls(page, FILTER_TARGETS) == []
    assert axe_violations(page, axe_source) == []

    # The filters are a plain form: at least 2 games leaves Dan's records to others.
    page.locator(".season-filters .tile", has_text="This year").tap()
    page.fill("#min_games", "2")
    page.get_by_role("button", name="Show").tap()
    expect(page).to_have_url("/players/records?period=year&min_games=2")
    expect(page.locator(".records-table")).not_to_contain_text("Dan")
    page.goto("/players/records?min_games=many")
    expect(page.locator("#filter-problems")).to_contain_text("min_games must be a whole number")
    # The browser notes the page's 400 in its console: expected here, and only here.
    assert page.problems == [
        "Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"
    ]
    page.problems.clear()
    assert axe_violations(page, axe_source) == []

    page.goto("/players/records")
    page.locator('tr[data-record="longest_streak"] .holder a').tap()
    expect(page.locator("h1")).to_have_text("Ann")
    expect(page.locator("#player-records li")).to_have_count(2)
    expect(page.locator("#rivals .nemesis dd")).to_have_text("Bob: 3–2 in 5 games")
    expect(page.locator("#rivals .beaten dd")).to_have_count(2)
    fits(page)
    assert axe_violations(page, axe_source) == []
    page.locator("#player-records li", has_text="Costliest").get_by_role("link").tap()
    expect(page.locator("#round-2")).to_be_in_viewport()


# The players' table at its widest: long names, a rating's uncertainty and a provisional badge.
LONG_NAMES = ["Bartholomew", "Evangeline", "Maximilian"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_players_table_fits_the_screen(sized, axe_source, scheme):
    """The table fits a tablet held upright with every column (it was 952 px wide in a 746 px
    column) and a phone with the columns that matter most (the rest are on each player's page);
    the explanation of the rating comes after it, and a game in play is in no figure."""
    page = sized
    page.emulate_media(color_scheme=scheme)
    sender = PageSender(page)
    hand_made_season(sender)
    played = games.create_game(sender, LONG_NAMES, "family", LONG_NAMES[0])
    games.play(
        sender, played, [(LONG_NAMES[1], True, {n: "K" for n in LONG_NAMES if n != LONG_NAMES[1]})]
    )
    page.goto("/players/")
    table = page.locator(".players-table")
    expect(table.locator("tbody tr")).to_have_count(7)
    fits(page)
    wrap = page.locator(".players-table").locator("xpath=..")
    widths = wrap.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] <= widths[1], f"the table is {widths[0]} px wide in a {widths[1]} px frame"
    shown = table.locator("thead th:visible")
    headings = [shown.nth(index).get_attribute("data-column") for index in range(shown.count())]
    assert headings[:4] == ["name", "rating", "games", "wins"]
    if page.viewport_size["width"] >= 768:
        assert len(headings) == 10
    # Evangeline is in play only: no game, no round out (her cut bonus waits for the game's end).
    evangeline = table.locator("tbody tr", has_text="Evangeline")
    expect(evangeline.locator('[data-column="games"]')).to_have_text("0")
    note = page.locator(".ratings-note")
    assert note.bounding_box()["y"] > table.bounding_box()["y"] + table.bounding_box()["height"]
    assert small_controls(page, ".players-table thead a") == []
    assert axe_violations(page, axe_source) == []
