"""Going down and out in one turn (R12.3 `out_in_one_turn_bonus`) entered on a phone by the LAN
name: under rules with a bonus for it the round form shows the toggle beside who went out, off
and not to be ticked while nobody went out; ticked, the player out scores −10 in the ledger."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.games.test_out_in_one_turn_book import SANTIAGO
from tests.support import games
from tests.support.browser import PHONE_VIEWPORT
from tests.support.names import NAMES
from tests.support.server import Client
from tests.support.tablet import axe_violations, by_lan_name

pytestmark = pytest.mark.browser


def test_a_round_gone_down_and_out_in_one_turn_entered_on_a_phone(tablet, live_server, axe_source):
    page = by_lan_name(tablet, live_server, PHONE_VIEWPORT)
    assert page.viewport_size == {"width": 360, "height": 640}
    with Client(urlsplit(live_server).port) as tablet_api:
        game = games.create_game(tablet_api, NAMES, SANTIAGO, "Ann")
    page.goto(f"/games/{game.id}/join?key={game.key}")
    page.goto(f"/games/{game.id}")
    page.get_by_role("link", name=re.compile("Record round 1")).tap()
    expect(page.locator("h1")).to_contain_text("Record round 1")
    expect(page.locator(".cardpad .pad-rank")).to_have_count(14)  # the page's script has run
    toggle = page.get_by_label("Went down and out in one turn (−10)")
    expect(toggle).to_be_visible()
    # Nobody out: nobody went down and out either.
    page.locator(".out-choice .tile.nobody").tap()
    expect(toggle).to_be_disabled()
    page.locator(".out-choice .tile", has_text="Cat").tap()
    expect(toggle).to_be_enabled()
    page.locator(".one-turn-choice .tile").tap()
    expect(toggle).to_be_checked()
    for seat, cards in ((0, "5"), (1, "K"), (3, "7")):
        page.locator(f"#cards_{seat}").fill(cards)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_violations(page, axe_source) == []
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator('tr[data-round="1"] .badge.one-turn')).to_have_text("one turn −10")
    expect(page.locator("tfoot .total").nth(2)).to_contain_text("−10")
    assert page.problems == []
