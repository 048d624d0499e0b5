"""The league in the browser, by the LAN name, on a phone (360×640) and a landscape tablet
(1024×768): the league table of two nights (one table finished each, one still in play), then a
player's nights; every page axe-clean and every control a fingertip's size."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.server import request
from tests.support.tablet import axe_violations, by_lan_name, small_controls

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE_VIEWPORT, "landscape": TABLET_VIEWPORTS["landscape"]}


def clean(page, axe_source) -> None:
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []


def night(port: int, held_on: str, names: list[str], out: str, points: dict, end: bool) -> int:
    status, made = request(port, "POST", "/api/nights", {"held_on": held_on, "players": names})
    assert status == 201, made
    status, drawn = request(port, "POST", f"/api/nights/{made['id']}/draw", {})
    assert status == 201, drawn
    table = drawn["tables"][0]
    key = drawn["keys"][str(table["game"])]
    body = {"out": out, "points": points}
    status, played = request(port, "POST", f"/api/games/{table['game']}/rounds", body, key)
    assert status == 201, played
    if end:
        status, ended = request(port, "POST", f"/api/games/{table['game']}/end", {"after": 1}, key)
        assert status == 200, ended
    return made["id"]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_league_table_and_a_players_nights(tablet, live_server, axe_source, size):
    page = by_lan_name(tablet, live_server, SIZES[size])
    port = int(live_server.rsplit(":", 1)[1])
    four = ["Ann", "Bob", "Cat", "Dan"]
    first = night(port, "2026-11-05", four, "Ann", {"Bob": 10, "Cat": 20, "Dan": 30}, True)
    second = night(port, "2026-11-12", four, "Bob", {"Ann": 5, "Cat": 40, "Dan": 25}, True)
    third = night(port, "2026-11-19", four, "Cat", {"Ann": 5, "Bob": 5, "Dan": 5}, False)
    body = {"name": "Thursday league", "scoring": "places", "nights": [first, second, third]}
    status, made = request(port, "POST", "/api/league", body)
    assert status == 201, made

    page.goto("/league")
    clean(page, axe_source)
    page.get_by_role("link", name="Thursday league").tap()
    expect(page.locator("h1")).to_have_text("Thursday league")
    rows = page.locator(".league-table tbody tr")
    expect(rows).to_have_count(4)
    # Ann 4 + 3 = 7, Bob 3 + 4 = 7 (shared 1st), Dan 1 + 2 = 3, Cat 2 + 1 = 3 (shared 3rd).
    assert [rows.nth(n).locator("td").first.inner_text() for n in range(4)] == ["1", "1", "3", "3"]
    assert page.locator(".league-table tbody th").all_inner_texts() == ["Ann", "Bob", "Cat", "Dan"]
    expect(page.get_by_text("1 table is still in play")).to_be_visible()
    expect(page.get_by_role("link", name="Download the table (CSV)")).to_be_visible()
    clean(page, axe_source)

    page.get_by_role("link", name="Ann", exact=True).tap()
    expect(page.locator("h1")).to_have_text("Ann in Thursday league")
    nights = page.locator(".player-nights tbody tr")
    expect(nights).to_have_count(3)
    expect(nights.nth(2)).to_contain_text("in play")
    clean(page, axe_source)

    page.get_by_role("link", name="2026-11-05").tap()
    expect(page.locator("h1")).to_have_text("Night of 2026-11-05: summary")
    expect(page.locator(".best-rounds")).to_contain_text("Ann went out in round 1 at table 1")
    clean(page, axe_source)
    assert page.problems == []


def test_an_organiser_changes_the_scoring_on_a_phone(tablet, live_server, axe_source):
    page = by_lan_name(tablet, live_server, PHONE_VIEWPORT)
    port = int(live_server.rsplit(":", 1)[1])
    four = ["Ann", "Bob", "Cat", "Dan"]
    first = night(port, "2026-11-05", four, "Ann", {"Bob": 10, "Cat": 20, "Dan": 30}, True)
    body = {"name": "Cup", "scoring": "places", "nights": [first]}
    status, made = request(port, "POST", "/api/league", body)
    assert status == 201, made

    page.goto(f"/league/{made['id']}")
    page.get_by_role("link", name="Change the scoring").tap()
    expect(page.locator("h1")).to_have_text("Scoring of Cup")
    clean(page, axe_source)
    page.get_by_label("Points of 1st, 2nd, … (places only)").fill("5, x")
    page.get_by_role("button", name="Change the scoring").tap()
    expect(page.get_by_role("alert")).to_contain_text("a place's points are a whole number")
    expect(page.get_by_label("Points of 1st, 2nd, … (places only)")).to_have_value("5, x")
    page.get_by_label("Scoring").select_option("normalised")
    page.get_by_role("button", name="Change the scoring").tap()
    expect(page.locator("h1")).to_have_text("Cup")
    expect(page.locator(".league-changes")).to_contain_text(
        "the scoring changed from points per place (4, 3, 2, 1) to totals against the table's "
        "mean per deal"
    )
    # Normalised over one deal: the mean is 15, so Ann −15.00 … Dan +15.00.
    cells = page.locator(".league-table tbody tr td:nth-child(4)").all_inner_texts()
    assert cells[0] == "-15.00"
    clean(page, axe_source)
    # The refused form's page is answered 400, which the browser reports: nothing else.
    assert page.problems == [
        "Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"
    ]
