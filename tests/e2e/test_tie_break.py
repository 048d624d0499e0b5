"""A game won on deals won (R12.3 `tie_break: deals_won`) read on a phone by the LAN name: the
summary says how the tie was broken, the passed-over player stands second, nothing is wider
than the screen and axe-core finds nothing, light and dark."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.games.test_tie_break_book import LEVEL_ON_30, SANTIAGO
from tests.support import games
from tests.support.browser import PHONE_VIEWPORT
from tests.support.names import NAMES
from tests.support.server import Client
from tests.support.tablet import axe_violations, by_lan_name

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_summary_of_a_tie_broken_on_deals_won_on_a_phone(
    tablet, live_server, axe_source, scheme
):
    page = by_lan_name(tablet, live_server, PHONE_VIEWPORT)
    page.emulate_media(color_scheme=scheme)
    # The game is played at the table's tablet; the phone only reads it.
    with Client(urlsplit(live_server).port) as tablet_api:
        game = games.create_game(tablet_api, NAMES, SANTIAGO, "Ann")
        games.play(tablet_api, game, LEVEL_ON_30)
    page.goto(f"/games/{game.id}")
    expect(page.locator("#standings-title")).to_have_text("Ann wins")
    expect(page.locator(".tie-break")).to_have_text("Level on 30, Ann wins on deals won: 2 to 1.")
    places = page.locator(".final-standings li")
    expect(places.nth(0)).to_contain_text("1. Ann")
    expect(places.nth(1)).to_contain_text("2. Bob")
    expect(places.locator(".badge")).to_have_count(1)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_violations(page, axe_source) == []
    assert page.problems == []
