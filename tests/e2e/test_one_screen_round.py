"""A round entered on one screen: four players' round shows who went out, the cut, every hand,
the card pad and Save at once on a tablet, held either way; with eight the pad and Save stay in
sight (the dock) while each hand is entered; a phone still takes a round."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_round_entry import active_seat, open_round_form, tap
from tests.e2e.test_table_mishaps import round_one_saved_offline
from tests.support.browser import PHONE_VIEWPORT
from tests.support.names import LONG_EIGHT_NAMES as EIGHT
from tests.support.names import NAMES as FOUR
from tests.support.tablet import FINGERTIP, axe_violations, small_controls, with_figures

pytestmark = pytest.mark.browser

# What a finger taps on the round form: a radio or checkbox is tapped by its whole tile.
TARGETS = (
    "main button, main .button, main select, main .tile, main .points-switch,"
    " main input:not([type=hidden], [type=radio], [type=checkbox])"
)

# The element's box, whether it lies wholly inside the screen, and whether what shows at its
# middle is the element itself (not the dock or anything else over it).
IN_SIGHT = """el => {
    const box = el.getBoundingClientRect();
    const inside = box.top >= 0 && box.left >= 0
        && box.bottom <= innerHeight && box.right <= innerWidth;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {top: Math.round(box.top), bottom: Math.round(box.bottom), inside,
            on_top: Boolean(hit) && el.contains(hit)};
}"""


def in_sight(page, locator) -> dict:
    """The element's box; fails unless it is wholly on the screen and nothing covers it."""
    seen = locator.evaluate(IN_SIGHT)
    assert seen["inside"] and seen["on_top"], f"{locator} is not in sight: {seen}"
    return seen


def dock_in_sight(page, save: str) -> None:
    """The pad, its Next key and the Save button `save`, each in sight."""
    for part in (page.locator(".cardpad"), page.locator(".cardpad .pad-next")):
        in_sight(page, part)
    in_sight(page, page.get_by_role("button", name=save))


def the_round_at_once(page, names) -> dict:
    """Every part of the round form a table needs, each in sight: their boxes by name."""
    parts = {f"out: {name}": page.locator(".out-choice .tile", has_text=name) for name in names}
    parts["the cut"] = page.locator(".cut-choice .tile")
    for seat, name in enumerate(names):
        parts[f"hand: {name}"] = page.locator(f'.hand[data-seat="{seat}"]')
    parts["pad"] = page.locator(".cardpad")
    parts["Next"] = page.locator(".cardpad .pad-next")
    parts["Save"] = page.get_by_role("button", name="Save round 1")
    return {what: in_sight(page, part) for what, part in parts.items() if part.is_visible()}


def next_within_the_pad(page) -> None:
    """The pad's Next key lies inside the pad's own box (it was cut off by a pixel)."""
    pad = page.locator(".cardpad").bounding_box()
    key = page.locator(".cardpad .pad-next").bounding_box()
    assert key["y"] >= pad["y"] and key["y"] + key["height"] <= pad["y"] + pad["height"], (key, pad)


def test_a_four_player_round_is_entered_on_one_screen(watched):
    page = watched
    open_round_form(page, FOUR)
    boxes = the_round_at_once(page, FOUR)
    assert small_controls(page, TARGETS) == []
    next_within_the_pad(page)
    with_figures(page, "4-player round form", {"Save": boxes["Save"], "pad": boxes["pad"]})
    # The whole round by taps, and still nothing scrolled.
    page.locator(".out-choice .tile", has_text="Bob").tap()
    page.locator(".cut-choice .tile").tap()
    for ranks in (("K", "7"), ("A",), ("JK", "3")):
        tap(page, *ranks)
        the_round_at_once(page, [name for name in FOUR if name != "Bob"])
        page.locator(".cardpad .pad-next").tap()
    expect(page.get_by_role("button", name="Save round 1")).to_be_focused()
    assert page.evaluate("() => scrollY") == 0
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")


def test_eight_hands_keep_the_pad_and_save_in_sight_with_at_most_one_scroll(watched, axe_source):
    page = watched
    open_round_form(page, EIGHT, "family")
    height = page.viewport_size["height"]
    whole = page.evaluate("() => document.documentElement.scrollHeight")
    assert whole <= 2 * height  # one scroll at the most
    page.locator(".out-choice .tile", has_text=EIGHT[1]).tap()
    seen = {}
    for _ in range(len(EIGHT) - 1):
        seat = active_seat(page)
        name = EIGHT[int(seat)]
        seen[name] = in_sight(page, page.locator(f'.hand[data-seat="{seat}"]'))["top"]
        dock_in_sight(page, "Save round 1")
        tap(page, "5")
        page.locator(".cardpad .pad-next").tap()
    next_within_the_pad(page)
    assert axe_violations(page, axe_source) == []  # the dock over the hands
    with_figures(page, "8-player round form", {"page height": whole, "each hand's top": seen})
    assert len(seen) == len(EIGHT) - 1
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
    # Its correction: the longer "Save the correction" beside the pad leaves each key its size.
    page.get_by_role("link", name="Correct round 1").tap()
    expect(page.locator(".cardpad .pad-rank")).to_have_count(14)
    dock_in_sight(page, "Save the correction")
    assert small_controls(page, TARGETS) == []


def test_a_save_waiting_for_the_network_says_so_above_the_dock(page):
    """The notice goes in just above the dock: it is not left under it, nor is Save (offline,
    the browser notes each refused request as an error: `page`, not `watched`)."""
    round_one_saved_offline(page)
    in_sight(page, page.locator(".offline-notice"))
    dock_in_sight(page, "Save round 1")


def test_a_phone_takes_a_round_without_a_sideways_scroll(tablet, live_server):
    page = tablet(PHONE_VIEWPORT, base_url=live_server).new_page()
    open_round_form(page, FOUR)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE_VIEWPORT["width"]
    assert small_controls(page, TARGETS) == []
    keys = page.locator(".cardpad .pad-key").evaluate_all(
        "keys => keys.map(k => k.getBoundingClientRect()).map(b => Math.min(b.width, b.height))"
    )
    assert min(keys) >= FINGERTIP
    page.locator(".out-choice .tile", has_text="Ann").tap()
    for ranks in (("K",), ("7",), ("A",)):
        tap(page, *ranks)
        page.locator(".cardpad .pad-next").tap()
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
