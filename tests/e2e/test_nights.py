"""A club night in the browser, by the LAN name, on a phone (360×640) and a landscape tablet
(1024×768): set a night up, check 11 players in (the season's as chips, the rest typed), draw
4 + 4 + 3, open a table's game from the night's page as its scorekeeper; every page axe-clean
and every control a fingertip's size."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.server import request
from tests.support.tablet import axe_violations, by_lan_name, small_controls

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE_VIEWPORT, "landscape": TABLET_VIEWPORTS["landscape"]}
SEASON = ["Ann", "Bob", "Cat", "Dan"]
NEW = ["Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit"]


def clean(page, axe_source) -> None:
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_night_is_set_up_checked_in_drawn_and_its_tables_opened(
    tablet, live_server, axe_source, size
):
    page = by_lan_name(tablet, live_server, SIZES[size])
    port = int(live_server.rsplit(":", 1)[1])
    made = request(port, "POST", "/api/games", {"players": SEASON})  # the season knows them
    assert made[0] == 201, made
    page.goto("/nights")
    clean(page, axe_source)
    page.get_by_role("link", name="New night").tap()
    expect(page.locator("h1")).to_have_text("New night")
    page.get_by_label("Rules").select_option("shanghai")
    clean(page, axe_source)
    page.get_by_role("button", name="Set the night up").tap()

    expect(page.locator(".flash")).to_have_text("Night set up: check the players in.")
    for name in SEASON:
        page.locator(".chip-check", has_text=name).tap()
        expect(page.get_by_role("checkbox", name=name)).to_be_checked()
    page.get_by_label("New names, separated by commas").fill(", ".join(NEW))
    clean(page, axe_source)
    page.get_by_role("button", name="Check in", exact=True).tap()

    expect(page.locator(".flash")).to_have_text("11 players checked in.")
    expect(page.locator("#here-title")).to_have_text("11 players checked in")
    clean(page, axe_source)
    page.get_by_role("button", name="Draw the tables").tap()

    expect(page.locator(".flash")).to_have_text("Drawn: 3 tables. Hand each table its edit link.")
    tables = page.locator(".night-table")
    expect(tables).to_have_count(3)
    sizes = [tables.nth(n).locator(".table-seats li").count() for n in range(3)]
    assert sizes == [4, 4, 3]
    assert sorted(page.locator(".seat-player").all_inner_texts()) == sorted(SEASON + NEW)
    page.get_by_text("Hand table 1 its edit link").tap()
    expect(page.get_by_alt_text("QR code of table 1's edit link")).to_be_visible()
    clean(page, axe_source)
    seats = tables.nth(0).locator(".seat-player").all_inner_texts()
    dealer = tables.nth(0).locator("li:has(.deals-first) .seat-player").inner_text()

    page.get_by_role("link", name="Open table 1's game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    expect(page.locator("#round-title")).to_contain_text("Round 1")
    # This tablet drew the night: it holds the table's key, so it records the round.
    expect(page.get_by_role("link", name=re.compile("Record round 1"))).to_be_visible()
    expect(page.locator("main p").first).to_have_text(re.compile(", ".join(seats) + "$"))
    expect(page.locator(".dealer")).to_have_text(dealer)
    assert page.problems == []
