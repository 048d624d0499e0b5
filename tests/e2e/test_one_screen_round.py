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


def warn_every_hand(page, names) -> list[str]:
    """Ann out; then a card that is not one, four jokers, and a seven of spades in every other
    hand, so each hand's live check says why it cannot count it; the reasons shown, in order."""
    page.locator(".out-choice .tile", has_text=names[0]).tap()
    typed = ["Q7", "JK JK JK JK JK JK JK JK JK"] + ["7♠ 5"] * (len(names) - 3)
    for seat, cards in enumerate(typed, start=1):
        page.locator(f"#cards_{seat}").fill(cards)
    return page.locator(".hand:not([hidden]) [data-penalty-for]").all_inner_texts()


def last_hand_in_reach(page, names, *, at_foot: bool = True) -> dict:
    """No sideways scroll, and the page scrolled to its foot, as a finger would: the last hand
    wholly in sight there, not under the dock; on a phone, whose pad follows the hands rather
    than staying over them, wholly in sight once scrolled to."""
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"]
    page.mouse.move(page.viewport_size["width"] / 2, 100)
    page.mouse.wheel(0, 10_000)
    page.wait_for_function(
        "() => innerHeight + scrollY >= document.documentElement.scrollHeight - 1"
    )
    last = page.locator(f'.hand[data-seat="{len(names) - 1}"]')
    if not at_foot:
        last.evaluate("el => el.scrollIntoView({block: 'nearest'})")
    return in_sight(page, last)


@pytest.mark.parametrize(
    ("names", "profile"), [(FOUR, "liverpool"), (EIGHT, "family")], ids=["4 players", "8 players"]
)
def test_the_live_check_says_why_and_its_warnings_leave_the_last_hand_above_the_dock(
    watched, names, profile
):
    page = watched
    open_round_form(page, names, profile)
    shown = warn_every_hand(page, names)
    assert shown[0] == "? — 'Q7' is not a card"
    assert shown[1] == "? — more JK than this game's packs hold"
    if len(names) > 4:
        together = ", ".join(names[3:])
        assert shown[2:] == [f"? — more 7♠ than this game's packs hold, counting {together}"] * (
            len(names) - 3
        )
    seen = last_hand_in_reach(page, names)
    with_figures(page, f"last hand under warnings, {len(names)} players", seen)


@pytest.mark.parametrize(("names", "profile"), [(FOUR, "liverpool"), (EIGHT, "family")])
def test_a_phones_warnings_leave_the_last_hand_in_reach(tablet, live_server, names, profile):
    page = tablet(PHONE_VIEWPORT, base_url=live_server).new_page()
    open_round_form(page, names, profile)
    assert warn_every_hand(page, names)[0] == "? — 'Q7' is not a card"
    last_hand_in_reach(page, names, at_foot=False)
