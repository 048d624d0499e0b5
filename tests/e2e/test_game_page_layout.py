"""What the game page shows a table, measured in chromium at both tablet sizes with touch: the
standings in the first screen after every save, correction and undo, and a ledger whose cells
hold what they show."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tablet import CONTRAST
from tests.support import games
from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.games import PageSender
from tests.support.names import LONG_EIGHT_NAMES, NAMES
from tests.support.tablet import (
    ROUNDS,
    by_lan_name,
    laid_out,
    make_game,
    record_round,
    small_controls,
    start_game,
    tap_cards,
)

pytestmark = pytest.mark.browser

# Every element and every word of a ledger cell that lies outside the cell's box, and every
# badge or card word split over two lines (a word's range gives one box per line it is on).
OVERFLOWS = """() => {
  const found = [];
  const inside = (box, cell) => box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5
      && box.top >= cell.top - 0.5 && box.bottom <= cell.bottom + 0.5;
  for (const cell of document.querySelectorAll('.ledger th, .ledger td')) {
    const box = cell.getBoundingClientRect();
    for (const child of cell.querySelectorAll('*')) {
      if (child.closest('.visually-hidden')) continue;
      const own = child.getBoundingClientRect();
      if (own.width && !inside(own, box)) found.push(`${child.outerHTML.slice(0, 80)} leaves its cell`);
    }
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (text.parentElement.closest('.visually-hidden')) continue;
      const whole = text.parentElement.closest('.badge, .cards');
      for (const word of text.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        const boxes = [...range.getClientRects()].filter(r => r.width > 0);
        if (boxes.some(r => !inside(r, box))) found.push(`"${word[0]}" leaves its cell`);
        if (whole && boxes.length > 1) found.push(`"${word[0]}" is broken over ${boxes.length} lines`);
      }
    }
  }
  return found;
}"""


def marked_ledger(page, names, rules):
    """A game whose ledger holds every mark a cell shows: a round with the stock run out, a
    corrected round, a cut bonus and hands counted as points; this tablet holds its key."""
    sender = PageSender(page)
    game = games.create_game(sender, names, rules)
    games.record(sender, game, None, {name: "K 7" for name in names})
    games.record(sender, game, names[1], {name: "K" for name in names if name != names[1]}, True)
    counted = {"out": names[2], "points": {name: 42 for name in names if name != names[2]}}
    assert sender.send_json("POST", game.rounds_path, counted, game.headers).status == 201
    correction = {"out": names[1], "leftovers": {names[0]: "Q"}, "version": 1}
    correction["leftovers"] |= {name: "Q" for name in names[2:]}
    assert sender.send_json("PUT", f"{game.rounds_path}/2", correction, game.headers).status == 200
    page.goto(f"/games/{game.id}/join?key={game.key}")
    return game


@pytest.mark.parametrize(
    "names,rules", [(NAMES, "liverpool"), (LONG_EIGHT_NAMES, "family")], ids=["4", "8"]
)
def test_every_ledger_cell_holds_its_badges_and_words(page, names, rules):
    marked_ledger(page, names, rules)
    ledger = page.locator(".ledger")
    expect(ledger.locator("tbody th .badge.nobody")).to_have_text("stock ran out")
    expect(ledger.locator("tbody th .badge.corrected")).to_have_text("corrected")
    expect(ledger.locator(".cards.counted").first).to_have_text("42 (counted)")
    overflows = page.evaluate(OVERFLOWS)
    assert overflows == [], overflows


# --- The standings first -----------------------------------------------------------------------


def first_screen(page, message: str) -> list[str]:
    """After `message`, the flash, the round's facts and the standings lie inside the viewport
    (the page as the redirect left it, unscrolled by the test); the standings' lines."""
    expect(page.locator(".flash")).to_have_text(message)
    height = laid_out(page).viewport_size["height"]
    for selector in (".flash", "#round .deal-facts", "#places"):
        box = page.locator(selector).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box, height)
    strip = page.locator("#places")
    # Directly under the round's facts, above the ledger and the chart.
    facts = page.locator("#round .exact-cut").bounding_box()
    assert 0 <= strip.bounding_box()["y"] - (facts["y"] + facts["height"]) <= 24
    assert strip.bounding_box()["y"] < page.locator("#chart").bounding_box()["y"]
    # Each line as a screen reader says it (the words "place" and "points" are for it only).
    return [" ".join(line.split()) for line in strip.locator("li").all_inner_texts()]


def test_the_standings_are_in_the_first_screen_after_a_save_a_correction_and_an_undo(watched):
    page = watched
    start_game(page)
    expect(page.locator("#places")).to_have_count(0)  # nothing to stand on before a round
    record_round(page, 1, *ROUNDS[1])
    assert first_screen(page, "Round 1 saved.") == [
        "place 1 Dan −47 points ★ leader",
        "place 2 Ann 0 points 47 behind",
        "place 3 Cat 15 points 62 behind",
        "place 4 Bob 17 points 64 behind",
    ]
    record_round(page, 2, *ROUNDS[2])
    # Ann and Cat level on 20: they share third place.
    assert first_screen(page, "Round 2 saved.")[1:] == [
        "place 2 Bob 17 points 49 behind",
        "place 3 Ann 20 points 52 behind",
        "place 3 Cat 20 points 52 behind",
    ]
    expect(page.locator("#places-title")).to_have_text("Standings after round 2")
    # The cut of round 2 was exact after all: Ann, who cut, gets −50.
    page.get_by_role("link", name="Correct round 2").tap()
    page.locator(".cut-choice .tile").tap()
    page.get_by_role("button", name="Save the correction").tap()
    assert first_screen(page, "Round 2 corrected.")[:2] == [
        "place 1 Dan −32 points ★ leader",
        "place 2 Ann −30 points 2 behind",
    ]
    page.get_by_role("link", name="Undo round 2").tap()
    page.get_by_role("button", name="Undo round 2").tap()
    lines = first_screen(page, "Round 2 undone: it is kept in the history below.")
    assert lines[0] == "place 1 Dan −47 points ★ leader"
    expect(page.locator("#places-title")).to_have_text("Standings after round 1")


def test_eight_players_standings_in_the_first_screen(watched):
    page = watched
    game_id, key = make_game(page, LONG_EIGHT_NAMES, 3, "family")
    page.goto(f"/games/{game_id}/join?key={key}")
    page.get_by_role("link", name=re.compile("Record round 4")).tap()
    page.locator(".out-choice .tile", has_text=LONG_EIGHT_NAMES[3]).tap()
    for seat in (0, 1, 2, 4, 5, 6, 7):
        tap_cards(page, seat, ["K"])
    page.get_by_role("button", name="Save round 4").tap()
    lines = first_screen(page, "Round 4 saved.")
    assert len(lines) == 8 and lines[0] == "place 1 Hal 11 points ★ leader"
    assert small_controls(page) == []
    page.get_by_role("link", name="Correct round 4").tap()
    page.get_by_role("button", name="Save the correction").tap()
    assert first_screen(page, "Round 4 corrected.") == lines
    page.get_by_role("link", name="Undo round 4").tap()
    page.get_by_role("button", name="Undo round 4").tap()
    assert first_screen(page, "Round 4 undone: it is kept in the history below.")[0] == (
        "place 1 Hal 1 points ★ leader"
    )


WATCHER_SIZES = {**TABLET_VIEWPORTS, "phone": PHONE_VIEWPORT}


@pytest.mark.parametrize("size", sorted(WATCHER_SIZES))
@pytest.mark.parametrize("names", [NAMES, LONG_EIGHT_NAMES], ids=["4", "8"])
def test_a_watcher_sees_the_standings_on_the_first_screen(tablet, live_server, size, names):
    """A device without the edit key, by the LAN name: the round's name, then the standings,
    every line of them in the first screen (on a phone they were 983 px down)."""
    sender = PageSender(tablet(base_url=live_server).new_page())  # the API on loopback
    game = games.create_game(sender, names, "family")
    games.play_rounds(sender, game, 3)
    page = by_lan_name(tablet, live_server, WATCHER_SIZES[size])
    page.goto(f"/games/{game.id}")
    expect(page.locator(".spectator-note")).to_be_visible()
    height = page.viewport_size["height"]
    places = page.locator("#places")
    box = places.bounding_box()
    assert box["y"] + box["height"] <= height, (box, height)
    expect(places.locator("li")).to_have_count(len(names))
    assert page.locator("#round-title").bounding_box()["y"] < box["y"]
    assert page.problems == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_ledgers_cards_read_in_a_dim_room(page, scheme):
    """The cards left under each score: at least 15 CSS pixels and 7:1 against their cell
    (WCAG's enhanced contrast), in the light theme and the dark room's (a hand counted in points,
    "42 (counted)", is a size smaller at 8 players on a tablet held upright, to fit its cell)."""
    page.emulate_media(color_scheme=scheme)
    marked_ledger(page, LONG_EIGHT_NAMES, "family")
    cards = page.locator(".ledger .cards:not(.counted)")
    expect(cards).to_have_count(15)
    sizes = cards.evaluate_all("all => all.map(e => parseFloat(getComputedStyle(e).fontSize))")
    ratio = page.evaluate(CONTRAST, [".ledger .cards", ".ledger .cards.counted"])
    ratio.pop("body")
    assert min(sizes) >= 15 and min(ratio.values()) >= 7, (sizes, ratio)
    assert page.evaluate(OVERFLOWS) == []
