"""What the game page shows a table, measured in chromium at both tablet sizes with touch: the
standings in the first screen after every save, correction and undo, and a ledger whose cells
hold what they show."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import games
from tests.support.games import PageSender
from tests.support.names import LONG_EIGHT_NAMES, NAMES

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
