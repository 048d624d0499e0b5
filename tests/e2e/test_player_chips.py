"""The "Played here before" chips on New game: a wrapping row of round buttons, not a bulleted
list; a name at the table shows pressed; each a fingertip's size; "Start the game" close below."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.tablet import AT_ONE_SIZE, FINGERTIP, axe_violations, make_game, with_figures

pytestmark = pytest.mark.browser

SEEN = ["Zoë", "Bob", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"]

# What shows of a chip: its colours and border, and the mark before its name.
LOOK = """chip => {
    const style = getComputedStyle(chip);
    return [style.backgroundColor, style.color, style.borderColor,
            getComputedStyle(chip, '::before').content];
}"""


@AT_ONE_SIZE
def test_the_chips_are_a_row_of_buttons_with_a_pressed_state(watched, axe_source):
    page = watched
    for names in SEEN:
        make_game(page, names, 0, "liverpool")
    page.goto("/games/new")
    chips = page.locator(".player-chips .chip")
    expect(chips).to_have_count(8)
    row = page.locator(".player-chips .chip-list")
    assert row.evaluate("ul => getComputedStyle(ul).listStyleType") == "none"
    assert row.evaluate("ul => getComputedStyle(ul).display") == "flex"
    assert row.evaluate("ul => getComputedStyle(ul).flexWrap") == "wrap"
    boxes = [chips.nth(i).bounding_box() for i in range(8)]
    assert min(min(box["width"], box["height"]) for box in boxes) >= FINGERTIP
    rows = {round(box["y"]) for box in boxes}
    assert len(rows) <= 2, rows  # eight short names: a row or two, not a column

    plain = chips.nth(1).evaluate(LOOK)
    page.locator("#names-0").fill("fay")  # Eve, Fay, Gus, Hal came last: their chips first
    expect(chips.nth(1)).to_have_attribute("aria-pressed", "true")
    pressed = chips.nth(1).evaluate(LOOK)
    assert pressed[0] != plain[0] and pressed[1] != plain[1]  # filled, not only outlined
    assert pressed[3] != plain[3]  # and ticked: more than colour tells it
    assert chips.nth(2).evaluate(LOOK) == plain
    assert axe_violations(page, axe_source) == []  # a chip pressed, the others not

    start = page.get_by_role("button", name="Start the game").bounding_box()
    top = page.locator(".player-chips").bounding_box()
    with_figures(page, "new game with 8 chips", {"chips": top, "Start the game": start})
    # Between the chips and Start: the chips' title and rows, the dealer choice and four seats.
    assert start["y"] - top["y"] <= 480
