"""Merging two players in the browser, at tablet (portrait) and phone size: pick the other
player on a player's page, confirm, see them as one, undo; every page passes axe-core and every
control is a fingertip's size."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import games
from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.games import PageSender
from tests.support.tablet import axe_violations, noting_problems, small_controls

pytestmark = pytest.mark.browser

SIZES = {"portrait": TABLET_VIEWPORTS["portrait"], "phone": PHONE_VIEWPORT}


def finished(page, names, winner):
    """A finished Family game where `winner` goes out every deal (0) and the rest hold a 5 (35)."""
    sender = PageSender(page)
    game = games.create_game(sender, names, "family", None)
    rest = {name: "5" for name in names if name != winner}
    games.play(sender, game, [(winner, False, rest)] * 7)


@pytest.mark.parametrize("size", list(SIZES))
def test_merge_confirm_and_undo(tablet, live_server, axe_source, size):
    page = noting_problems(tablet(SIZES[size], base_url=live_server).new_page())
    finished(page, ["Ann", "Bob", "Cat"], "Ann")
    finished(page, ["Annie", "Bob", "Dan"], "Bob")

    page.goto("/players/Ann")
    expect(page.locator(".games").first).to_have_text("1")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page, "#merges button, #merges select") == []
    page.get_by_label("Merge with another player…").select_option("Annie")
    page.get_by_role("button", name="Merge…").click()

    expect(page.locator("h1")).to_have_text("Merge Annie into Ann?")
    expect(page.locator(".merge-summary")).to_have_text(
        "Annie's 1 game becomes Ann's: Ann will have 2 games. Every game keeps the names as played."
    )
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []
    page.get_by_role("button", name="Merge Annie into Ann").click()

    page.wait_for_url("**/players/Ann")
    expect(page.locator(".flash")).to_contain_text("Ann has 2 games")
    expect(page.locator(".also-played-as")).to_have_text("Also played as Annie.")
    expect(page.locator(".games").first).to_have_text("2")
    undo = page.get_by_role("button", name="Undo the merge of Annie into Ann")
    expect(page.locator(".merge-undo")).to_contain_text("Annie was merged into Ann on")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page, "#merges button, #merges select") == []
    undo.click()

    page.wait_for_url("**/players/Ann")
    expect(page.locator(".flash")).to_have_text("Annie is counted apart from Ann again.")
    expect(page.locator(".games").first).to_have_text("1")
    expect(page.locator(".also-played-as")).to_have_count(0)
    assert axe_violations(page, axe_source) == []
    assert page.problems == []
