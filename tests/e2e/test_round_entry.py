"""Short round entry at the table: one card pad that follows the player being entered, a hand
counted in points, and every problem named at once, at both tablet sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import axe_violations, make_game
from tests.e2e.test_table_mishaps import with_figures

pytestmark = pytest.mark.browser

FOUR = ["Ann", "Bob", "Cat", "Dan"]
EIGHT = ["Alexandra", "Bartholomew", "Catherine", "Dominic", "Eleanor", "Frederick", "Gwen", "Hal"]


def open_round_form(page, names, profile="liverpool", rounds=0):
    """The game page as its editor, then a tap on "Record round N", as at the table."""
    game_id, key = make_game(page, names, rounds, profile)
    page.goto(f"/games/{game_id}/join?key={key}")
    page.goto(f"/games/{game_id}")
    page.get_by_role("link", name=re.compile(f"Record round {rounds + 1}")).tap()
    expect(page.locator("h1")).to_contain_text(f"Record round {rounds + 1}")
    expect(page.locator(".cardpad .pad-rank")).to_have_count(14)  # the page's script has run
    return game_id, key


def scroll_height(page) -> int:
    """The page's whole scroll height, top bar included."""
    return page.evaluate("() => document.documentElement.scrollHeight")


def active_seat(page) -> str | None:
    return page.locator(".hand.is-active").get_attribute("data-seat")


def hand(page, seat: int):
    return page.locator(f'.hand[data-seat="{seat}"]')


pad_key = "button[data-rank='{}']"


def tap(page, *ranks: str) -> None:
    for rank in ranks:
        page.locator(".cardpad").locator(pad_key.format(rank)).tap()


@pytest.mark.parametrize(
    ("names", "profile", "screens"),
    [(FOUR, "liverpool", 1.5), (EIGHT, "family", 3)],
    ids=["4 players", "8 players"],
)
def test_the_round_form_fits_the_screen_before_and_after_who_went_out(
    watched, names, profile, screens
):
    page = watched
    open_round_form(page, names, profile)
    limit = screens * page.viewport_size["height"]
    before = scroll_height(page)
    page.locator(".out-choice .tile", has_text=names[1]).tap()
    after = scroll_height(page)
    with_figures(
        page,
        f"round form height, {len(names)} players",
        {"before": before, "after who went out": after, "limit": limit},
    )
    assert before <= limit
    assert after <= limit
    # One pad for the whole form, not one a hand.
    expect(page.locator(".cardpad")).to_have_count(1)
    expect(page.locator(".cardpad .pad-rank")).to_have_count(14)
