"""The room's screen in chromium by the LAN name at 1920×1080, light and dark: a night of 32
players at 8 tables fits the screen with no scrollbar, axe-clean, its standings in type read
across a room, and a round saved at a table shows on it within 3 s with no reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.server import request
from tests.support.tablet import axe_violations, by_lan_name, moved_on_until

pytestmark = pytest.mark.browser

SCREEN = {"width": 1920, "height": 1080}
# Names as long as a club's are: the widest the cards and the standings must hold.
PLAYERS = [
    f"{first} {last}"
    for first in ("Annika", "Bertil", "Cecilia", "Dagmar", "Eskil", "Fredrika", "Gunnar", "Helga")
    for last in ("S.", "K.", "L.", "M.")
]
# Type read from across a room: the standings' smallest text, in CSS pixels.
LEAST_TYPE = 24


def post(port: int, path: str, body=None, key: str | None = None):
    status, answer = request(port, "POST", path, body if body is not None else {}, key=key)
    assert status == 201, answer
    return answer


def save_round(port: int, night: dict, number: int, out: int = 0) -> None:
    table = night["tables"][number - 1]
    names = table["players"]
    body = {"out": names[out], "leftovers": {n: "K Q 5" for n in names if n != names[out]}}
    post(port, f"/api/games/{table['game']}/rounds", body, key=night["keys"][str(table["game"])])


def overflow(page) -> dict:
    return page.evaluate(
        """() => ({
            width: document.documentElement.scrollWidth - window.innerWidth,
            height: document.documentElement.scrollHeight - window.innerHeight,
        })"""
    )


def smallest_type(page, selector: str) -> float:
    return page.evaluate(
        """(selector) => Math.min(...[...document.querySelectorAll(selector)]
            .map(e => parseFloat(getComputedStyle(e).fontSize)))""",
        selector,
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_eight_tables_fit_the_screen_and_a_save_shows_within_3_s(
    tablet, live_server, axe_source, scheme
):
    port = int(live_server.rsplit(":", 1)[1])
    night = post(port, "/api/nights", {"rules": "liverpool", "held_on": "2026-12-03"})
    post(port, f"/api/nights/{night['id']}/players", {"players": PLAYERS})
    night = post(port, f"/api/nights/{night['id']}/draw")
    assert len(night["tables"]) == 8
    for number in range(1, 9):  # every table has a last round: its widest
        save_round(port, night, number, out=number % 4)

    page = by_lan_name(
        lambda viewport, **options: tablet(viewport, color_scheme=scheme, **options),
        live_server,
        SCREEN,
    )
    page.goto(f"/nights/{night['id']}/screen")
    expect(page.locator(".screen-table")).to_have_count(8)
    expect(page.locator(".night-standings li")).to_have_count(32)
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    assert overflow(page) == {"width": 0, "height": 0}
    assert axe_violations(page, axe_source) == []
    assert smallest_type(page, ".night-standings li, .night-standings li *") >= LEAST_TYPE
    assert smallest_type(page, ".screen-places td") >= LEAST_TYPE
    assert page.locator("main button, main a, main input, main select").count() == 0

    deal = page.locator("#table-3 .screen-deal")
    expect(deal).to_have_text(re.compile(r"^Round 2 of 7"))
    page.evaluate("window.notReloaded = true")
    save_round(port, night, 3, out=1)
    expect(deal).to_have_text(re.compile(r"^Round 3 of 7"), timeout=3000)
    expect(page.locator("#table-3 thead")).to_contain_text("Round 2")
    assert page.evaluate("window.notReloaded") is True
    assert overflow(page) == {"width": 0, "height": 0}
    assert page.problems == []


def test_a_tv_browser_at_1280_by_720_sees_the_same_screen_and_a_lost_server_said(
    tablet, live_server
):
    port = int(live_server.rsplit(":", 1)[1])
    night = post(port, "/api/nights", {"rules": "liverpool", "held_on": "2026-12-03"})
    post(port, f"/api/nights/{night['id']}/players", {"players": PLAYERS})
    night = post(port, f"/api/nights/{night['id']}/draw")
    for number in range(1, 9):
        save_round(port, night, number)
    page = by_lan_name(tablet, live_server, {"width": 1280, "height": 720})
    page.clock.install()  # its checks every 2 s, moved on below
    page.goto(f"/nights/{night['id']}/screen")
    expect(page.locator(".screen-table")).to_have_count(8)
    assert overflow(page) == {"width": 0, "height": 0}
    assert smallest_type(page, ".night-standings li") >= 16  # 24 px at 1920×1080, scaled

    away = page.locator("#screen-away")
    expect(away).to_be_hidden()
    refused = []
    page.route("**/screen/state", lambda route: refused.append(route) or route.abort())
    moved_on_until(page, away.is_visible, step_ms=2000)
    assert len(refused) >= 3  # said once three checks in a row could not reach it
    expect(away).to_have_text("The screen cannot reach the score book: trying again by itself.")
    expect(page.locator(".screen-table")).to_have_count(8)  # the board stays as it was
    page.unroute("**/screen/state")
    moved_on_until(page, away.is_hidden, step_ms=2000)
