"""Renaming a player and ending a game early, by touch at both tablet sizes: every control a
fingertip wide, every problem named beside its field, axe clean on every state."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.names import NAMES
from tests.support.tablet import AT_ONE_SIZE, axe_violations, make_game, small_controls

pytestmark = pytest.mark.browser


@AT_ONE_SIZE
def test_a_misspelt_name_is_put_right_and_the_game_ended_early(page, axe_source):
    game_id, key = make_game(page, NAMES, 3, "liverpool")
    page.goto(f"/games/{game_id}/join?key={key}")
    page.get_by_role("link", name="Rename players").tap()
    expect(page.locator("h1")).to_have_text("Rename players")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []
    page.locator("#names-1").fill("ánn")
    page.locator("#names-3").fill("")
    page.get_by_role("button", name="Save the names").tap()
    expect(page.locator("#names-1")).to_have_value("ánn")  # nothing typed is lost
    expect(page.locator("#names-1-error")).to_contain_text("looks like 'Ann'")
    expect(page.locator("#names-3-error")).to_contain_text("the new name is empty")
    expect(page.get_by_role("alert")).to_contain_text("Bob:")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []
    page.locator("#names-1").fill("Bobby")
    page.locator("#names-3").fill("Dan")
    page.get_by_role("button", name="Save the names").tap()
    expect(page.locator(".ledger thead")).to_contain_text("Bobby (was Bob)")
    expect(page.locator("#history")).to_contain_text("Bob → Bobby")
    page.get_by_role("link", name="End after round 3").tap()
    expect(page.locator("h1")).to_have_text("End the game here?")
    assert axe_violations(page, axe_source) == []
    assert small_controls(page) == []
    page.get_by_role("button", name="End after this round").tap()
    expect(page.locator("#summary .kicker")).to_contain_text("ended early after round 3 of 7")
    assert axe_violations(page, axe_source) == []
    page.get_by_role("link", name="Take back the early end").tap()
    expect(page.locator("h1")).to_have_text("Take back the early end?")
    page.get_by_role("button", name="Play on").tap()
    expect(page.locator("#round-title")).to_contain_text("Round 4 of 7")
