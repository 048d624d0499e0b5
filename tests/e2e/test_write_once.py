"""A double tap on "Start the game" or "Save round" writes once and says what happened."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.names import NAMES
from tests.support.tablet import AT_ONE_SIZE

pytestmark = pytest.mark.browser

# Two clicks on the same button, at once or 20 ms apart, as a quick finger makes them.
DOUBLE_TAP = """([selector, gap]) => {
  const button = document.querySelector(selector);
  button.click();
  if (gap === 0) button.click(); else setTimeout(() => button.click(), gap);
}"""

# Chromium folds two submits in one task into one post; 20 ms apart both may reach the server,
# unless the page's own script (drafts.js) holds the second while the first is in flight. Either
# way the server writes once: a repeated one-time token gets the first post's answer.
POSTS = {0: 1, 20: 2}


def posts(page) -> list[str]:
    sent: list[str] = []
    page.on("request", lambda request: request.method == "POST" and sent.append(request.url))
    return sent


def games(page) -> list[dict]:
    return page.request.get("/api/games").json()["games"]


def fill_new_game(page) -> None:
    page.goto("/games/new")
    for seat, name in enumerate(NAMES):
        page.locator(f"#names-{seat}").fill(name)
    page.locator('.seat[data-seat="0"] .deals-first').tap()


@pytest.mark.parametrize("gap", [0, 20])
@AT_ONE_SIZE
def test_double_tap_on_start_the_game_starts_one_game(page, gap):
    fill_new_game(page)
    sent = posts(page)
    page.evaluate(DOUBLE_TAP, ["button.primary-action", gap])
    expect(page.locator(".flash")).to_have_text("Game started: Ann deals round 1.")
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")
    assert 1 <= len(sent) <= POSTS[gap], sent
    assert len(games(page)) == 1
    # This tablet holds the game's key, whichever answer it kept.
    expect(page.get_by_role("link", name="Record round 1")).to_be_visible()


@pytest.mark.parametrize("gap", [0, 20])
@AT_ONE_SIZE
def test_double_tap_on_save_round_saves_one_round(page, gap):
    fill_new_game(page)
    page.get_by_role("button", name="Start the game").tap()
    page.get_by_role("link", name="Record round 1").tap()
    page.locator(".out-choice .tile", has_text="Ann").tap()
    for seat, card in ((1, "K"), (2, "5"), (3, "9")):
        page.locator(f"#cards_{seat}").fill(card)
    sent = posts(page)
    page.evaluate(DOUBLE_TAP, ["button.primary-action", gap])
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
    expect(page.locator("#round-title")).to_contain_text("Round 2 of 7")
    expect(page.get_by_text("meanwhile")).to_have_count(0)
    assert 1 <= len(sent) <= POSTS[gap], sent
    assert [game["round"] for game in games(page)] == [2]
