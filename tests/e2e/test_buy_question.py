"""Who gets the discard?, asked on a tablet either way up and on a phone, by the LAN name: the
seat lists as long as the table, the buy counts a fingertip big with their number in view, and
axe-core clean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.referee.house_rules import SMITH
from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.names import NAMES
from tests.support.tablet import FINGERTIP, axe_violations, by_lan_name, make_game, small_controls

pytestmark = pytest.mark.browser

SIZES = {**TABLET_VIEWPORTS, "phone": PHONE_VIEWPORT}


def listed(page, selector):
    return page.locator(selector).evaluate_all("(all) => all.map((e) => e.textContent.trim())")


@pytest.fixture(params=sorted(SIZES), ids=lambda name: name)
def size(request):
    return SIZES[request.param]


def test_a_games_buy_question_has_its_four_players_and_big_counts(
    tablet, live_server, size, axe_source
):
    game_id, _ = make_game(tablet(size, base_url=live_server).new_page(), NAMES, 0, SMITH.to_json())
    page = by_lan_name(tablet, live_server, size)
    page.goto(f"/rules?q=buy&game={game_id}")
    assert listed(page, "#active option") == NAMES
    assert listed(page, "#requests li") == NAMES
    assert listed(page, "#last_buyer option") == ["Nobody (first purchase)", *NAMES]
    assert listed(page, "#buys .buys-seat") == NAMES
    assert small_controls(page, "#buys input, #buys button") == []
    box = page.locator("#game_buys2")
    page.get_by_role("button", name="One more: Bob's buys this game").tap()
    page.get_by_role("button", name="One more: Bob's buys this game").tap()
    expect(box).to_have_value("2")
    # The number shows whole: no spinner over it, and the box wider than its text.
    shown = box.evaluate(
        """(e) => ({width: e.getBoundingClientRect().width, height:
            e.getBoundingClientRect().height, fits: e.scrollWidth <= e.clientWidth,
            type: e.type})"""
    )
    assert shown["type"] == "text" and shown["fits"]
    assert shown["width"] >= FINGERTIP and shown["height"] >= FINGERTIP
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert axe_violations(page, axe_source) == []
    page.screenshot(path=f"/tmp/buys-{size['width']}x{size['height']}.png", full_page=True)
    box.fill("3")
    page.select_option("#active", label="Ann")
    page.get_by_label("Bob", exact=True).check()
    page.get_by_label("Cat", exact=True).check()
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#verdict .verdict-title")).to_have_text("Cat gets it")
    assert page.problems == []


def test_without_a_game_the_lists_follow_the_number_of_players(tablet, live_server, size):
    page = by_lan_name(tablet, live_server, size)
    page.goto("/rules?q=buy&rules=family&players=4")
    expect(page.locator("#requests li")).to_have_count(4)
    expect(page.locator("#active option")).to_have_count(4)
    page.locator("#players").fill("6")
    expect(page.locator("#requests li")).to_have_count(6)
    expect(page.locator("#active option")).to_have_count(6)
    expect(page.locator("#last_buyer option")).to_have_count(7)
    page.locator("#players").fill("3")
    expect(page.locator("#requests li")).to_have_count(3)
    assert listed(page, "#active option") == ["Seat 1", "Seat 2", "Seat 3"]
    page.select_option("#active", label="Seat 1")
    page.get_by_label("Seat 3", exact=True).check()
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#verdict .verdict-title")).to_have_text("Seat 3 gets it")
    expect(page.locator("#verdict-context")).to_have_text("Family · 3 players")
    assert page.problems == []


def test_without_a_script_show_these_seats_asks_for_the_tables_seats(tablet, live_server):
    context = tablet(PHONE_VIEWPORT, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/rules?q=buy&rules=family&players=4")
    expect(page.locator("#requests li")).to_have_count(4)
    page.locator("#players").fill("6")
    page.get_by_role("button", name="Show these seats").click()
    expect(page.locator("#requests li")).to_have_count(6)
    expect(page.locator("#active option")).to_have_count(6)
    expect(page.locator("#verdict")).to_have_count(0)


def test_the_round_form_counts_the_buys_and_the_game_and_referee_remember(
    tablet, live_server, size, axe_source
):
    """Under "3 buys a game": Bob's two buys stepped in on the round form, saved with the round;
    the game page says what is left, and the buy question from the game starts from them."""
    setup = tablet(size, base_url=live_server).new_page()
    game_id, key = make_game(setup, NAMES, 0, SMITH.to_json())
    page = by_lan_name(tablet, live_server, size)
    page.goto(f"/games/{game_id}/join?key={key}")
    page.goto(f"/games/{game_id}/rounds/new")
    buys = page.locator("#buys")
    expect(buys).to_contain_text("Smith family rules allow 3 buys a game")
    assert small_controls(page, "#buys input, #buys button") == []
    more = page.get_by_role("button", name="One more: Bob's buys this deal")
    more.tap()
    more.tap()
    expect(page.locator("#buys-1")).to_have_value("2")
    assert axe_violations(page, axe_source) == []
    page.screenshot(path=f"/tmp/buys-form-{size['width']}.png", full_page=True)
    page.get_by_text("Ann", exact=True).first.tap()
    for seat in (1, 2, 3):
        page.locator(f"#cards_{seat}").fill("5")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("#buys-left")).to_have_text("Buys left: Ann 3 · Bob 1 · Cat 3 · Dan 3")
    page.goto(f"/rules?q=buy&game={game_id}")
    expect(page.locator("#game_buys2")).to_have_value("2")
    expect(page.locator("#game_buys1")).to_have_value("0")
    assert page.problems == []


# A table's own rules that buy and keep a player who has gone down from the discard (R12.3).
TALCA = {
    "version": 2,
    "name": "Talca",
    "discard_draw_after_opening": False,
    "buying": {"allowed": True},
    "players": {"min": 3, "max": 6},
}


def test_who_has_gone_down_is_asked_where_it_decides_and_follows_the_table(
    tablet, live_server, axe_source
):
    """Under rules that keep a player who has gone down from the discard, the buy question asks
    who has gone down, as many seats as the table; Bob, down, is passed over for Cat."""
    setup = tablet(PHONE_VIEWPORT, base_url=live_server).new_page()
    saved = setup.request.post(f"{live_server}/api/rulesets", data={"rules": TALCA})
    assert saved.status == 201, saved.text()
    ruleset = saved.json()["id"]
    page = by_lan_name(tablet, live_server, PHONE_VIEWPORT)
    page.goto(f"/rules?q=buy&rules=ruleset:{ruleset}&players=4")
    expect(page.locator("#down li")).to_have_count(4)
    page.locator("#players").fill("5")
    expect(page.locator("#requests li")).to_have_count(5)
    expect(page.locator("#down li")).to_have_count(5)
    assert small_controls(page, "#down label") == []
    assert axe_violations(page, axe_source) == []
    page.select_option("#active", label="Seat 1")
    page.locator("#requests").get_by_label("Seat 2", exact=True).check()
    page.locator("#requests").get_by_label("Seat 3", exact=True).check()
    page.locator("#down").get_by_label("Seat 2", exact=True).check()
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#verdict .verdict-title")).to_have_text("Seat 3 gets it")
    expect(page.locator("#verdict")).to_contain_text("Seat 2 has gone down")
    page.goto("/rules?q=buy&rules=liverpool&players=4")
    expect(page.locator("#requests li")).to_have_count(4)
    expect(page.locator("#down")).to_have_count(0)
    assert page.problems == []
