"""The discard questions on a phone and an upright tablet by the LAN name, from a game under a
table's rules that keep a down player off the discard pile and jokers out of it (R12.3): ticked
and tapped in, answered with the rule set named; nothing wider than the screen, axe-core clean."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.referee.test_r12_questions import SANTIAGO
from tests.support import games
from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.names import NAMES
from tests.support.server import Client
from tests.support.tablet import axe_violations, by_lan_name

pytestmark = pytest.mark.browser

SIZES = {"portrait": TABLET_VIEWPORTS["portrait"], "phone": PHONE_VIEWPORT}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_take_and_throw_under_the_games_rules(tablet, live_server, axe_source, size):
    with Client(urlsplit(live_server).port) as table:
        game = games.create_game(table, NAMES, SANTIAGO, "Ann")
    page = by_lan_name(tablet, live_server, SIZES[size])
    page.goto(f"/rules?q=take&game={game.id}")
    page.get_by_label("I have gone down already this deal").tap()
    page.get_by_role("button", name="Check").tap()
    verdict = page.locator("#verdict")
    expect(verdict.locator(".verdict-title")).to_have_text("DRAW FROM THE STOCK")
    expect(verdict.locator(".verdict-reason")).to_have_text(
        "Santiago rules: a player who has gone down draws only from the stock, "
        "never the top discard"
    )
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_violations(page, axe_source) == []

    page.get_by_role("link", name="May I discard this card?").tap()
    page.locator("#discard").tap()
    page.locator(".cardpad").get_by_role("button", name="JK (joker)").tap()
    expect(page.locator("#discard")).to_have_value("JK")
    page.get_by_role("button", name="Check").tap()
    expect(verdict.locator(".verdict-title")).to_have_text("NOT THIS CARD")
    expect(verdict.locator(".verdict-reason")).to_contain_text("a wild card is never discarded")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_violations(page, axe_source) == []
    page.screenshot(path=f"/tmp/throw-{size}.png", full_page=True)
    assert page.problems == []
