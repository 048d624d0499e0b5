"""A whole seven-round game played through the pages at tablet size, by tapping."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.tablet import (
    AT_ONE_SIZE,
    ROUNDS,
    fill_round,
    record_round,
    start_game,
    tap_cards,
)

pytestmark = pytest.mark.browser

WRONG_ROUND_5 = ("Dan", False, {"Ann": ["10"], "Bob": ["10"], "Cat": ["10"]})


@AT_ONE_SIZE
def test_a_whole_game_by_tapping(watched):
    page = watched
    start_game(page)

    for number in range(1, 5):
        record_round(page, number, *ROUNDS[number])
        expect(page.locator("#round-title")).to_contain_text(f"Round {number + 1} of 7")

    # Round 1 shows the cut bonus; after round 1 Dan leads on −47.
    first = page.locator('tr[data-round="1"]')
    expect(first.locator("td").nth(3)).to_contain_text("−47")
    expect(first.locator(".badge.cut")).to_have_text("cut −50")

    # A correction: Ann held only the Q in round 2. Take the J back with its chip.
    page.get_by_role("link", name="Correct round 2").tap()
    expect(page.locator("#cards_0")).to_have_value("J Q")
    page.locator('.cardpad[data-for="cards_0"]').get_by_role("button", name="remove J").tap()
    expect(page.locator('output[data-penalty-for="cards_0"]')).to_have_text("10")
    page.get_by_role("button", name="Save the correction").tap()
    expect(page.locator(".flash")).to_have_text("Round 2 corrected.")
    expect(page.locator("#history")).to_contain_text("Ann: J Q = 20 → Q = 10")

    # Round 5 goes in wrong, is undone, and is recorded again.
    record_round(page, 5, *WRONG_ROUND_5)
    page.get_by_role("link", name="Undo round 5").tap()
    expect(page.locator("h1")).to_have_text("Undo round 5 of 7?")
    page.get_by_role("button", name="Undo round 5").tap()
    expect(page.locator("#round-title")).to_contain_text("Round 5 of 7")
    expect(page.locator("#history")).to_contain_text("round 5 undone")
    record_round(page, 5, *ROUNDS[5])

    for number in (6, 7):
        record_round(page, number, *ROUNDS[number])

    standings = page.locator("#standings")
    expect(standings.locator(".verdict-title")).to_have_text("Ann wins")
    lines = standings.locator(".final-standings li")
    expect(lines).to_have_count(4)
    for index, (name, total) in enumerate(
        [("Ann", "−6"), ("Cat", "7"), ("Bob", "41"), ("Dan", "46")]
    ):
        expect(lines.nth(index).locator(".name")).to_have_text(name)
        expect(lines.nth(index).locator(".total")).to_have_text(total)
    totals = page.locator(".ledger tfoot td.total")
    expect(totals).to_have_text([re.compile(r"^−6"), "41", "7", "46"])
    expect(page.get_by_role("link", name=re.compile("Record round"))).to_have_count(0)

    # The game is listed as finished, and it survives a reload.
    page.goto("/games/")
    expect(page.locator(".game-card.finished")).to_contain_text("Winner: Ann (−6)")


def test_errors_show_beside_the_player(watched):
    page = watched
    start_game(page)
    page.get_by_role("link", name="Record round 1").tap()
    fill_round(page, "Ann", False, {"Bob": ["7"], "Cat": ["7"]})  # Dan forgotten
    page.get_by_role("button", name="Save round 1").tap()
    dan = page.locator('.hand[data-seat="3"]')
    expect(dan.locator(".error")).to_contain_text("Every player who did not go out")
    expect(page.locator('.hand[data-seat="0"]')).to_be_hidden()  # Ann is still out
    expect(page.locator("#cards_1")).to_have_value("7")
    tap_cards(page, 3, ["K"])
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")


def test_tap_targets_on_game_pages(watched):
    page = watched
    start_game(page)
    for path in ("/games/new", page.url, page.url + "/rounds/new", "/games/"):
        page.goto(path)
        for element in page.locator(
            "a, button, select, input:not([type=radio]):not([type=checkbox]):not([type=hidden])"
        ).all():
            if element.is_visible():
                box = element.bounding_box()
                assert box["height"] >= 48, element.evaluate("e => e.outerHTML")
        for element in page.locator("label.tile").all():
            if element.is_visible():
                assert element.bounding_box()["height"] >= 48


@AT_ONE_SIZE
def test_a_second_tablet_watches_then_joins_by_the_edit_link(watched, tablet, live_server):
    page = watched
    start_game(page)
    game_url = page.url
    page.locator("#share summary").tap()
    qr = page.locator("img.edit-qr")
    expect(qr).to_be_visible()
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("img => img.naturalWidth") > 0  # the QR code loaded, within the CSP
    join = page.locator("a.edit-link").get_attribute("href")
    assert re.fullmatch(r"/games/\d+/join\?key=[A-Za-z0-9_-]{22}", join)

    problems = []
    other = tablet(page.viewport_size, base_url=live_server).new_page()
    other.on("pageerror", lambda error: problems.append(str(error)))
    other.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    other.goto(game_url)
    expect(other.locator(".spectator-note")).to_contain_text("Spectator")
    expect(other.get_by_role("link", name=re.compile("Record round"))).to_have_count(0)
    other.goto(join)
    expect(other).to_have_url(game_url)  # the key does not stay in the address bar
    expect(other.locator(".flash")).to_contain_text("can now record")
    record_round(other, 1, *ROUNDS[1])
    assert problems == []
    page.reload()
    expect(page.locator('tr[data-round="1"]')).to_be_visible()
    expect(page.locator("#round-title")).to_contain_text("Round 2 of 7")
