"""Short round entry at the table: one card pad that follows the player being entered, a hand
counted in points, and every problem named at once, at both tablet sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.rules.cards import notation
from tests.support.names import LONG_EIGHT_NAMES as EIGHT
from tests.support.names import NAMES as FOUR
from tests.support.tablet import (
    AT_ONE_SIZE,
    axe_violations,
    make_game,
    wait_for_draft,
    with_figures,
)

pytestmark = pytest.mark.browser


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


def expect_pad_for(page, words: str) -> None:
    """The pad's head: "Cards for" or "Points for", then the hand picked in its list."""
    lead, name = words.rsplit(" ", 1)
    expect(page.locator(".pad-who label")).to_have_text(lead)
    expect(page.locator(".pad-who option:checked")).to_have_text(name)


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


@AT_ONE_SIZE
def test_one_pad_follows_the_player_and_steps_past_who_went_out(watched, axe_source):
    """A typical round by tapping: who went out, each other hand's cards, "Next", Save."""
    page = watched
    game_id, _ = open_round_form(page, FOUR)
    taps = 0

    def tapping(locator):
        nonlocal taps
        locator.tap()
        taps += 1

    assert active_seat(page) == "0"  # the first hand is the pad's at once
    expect(hand(page, 0)).to_have_attribute("aria-current", "true")
    tapping(page.locator(".out-choice .tile", has_text="Bob"))
    expect(hand(page, 1)).to_be_hidden()
    for rank in ("K", "7"):
        tapping(page.locator(".cardpad " + pad_key.format(rank)))
    expect(page.locator("#cards_0")).to_have_value("K 7")
    expect(page.locator('output[data-penalty-for="cards_0"]')).to_have_text("17")
    expect_pad_for(page, "Cards for Ann")
    # "Next" skips Bob, who went out.
    tapping(page.get_by_role("button", name="Next: Cat"))
    assert active_seat(page) == "2"
    expect(hand(page, 0)).not_to_have_attribute("aria-current", "true")
    expect_pad_for(page, "Cards for Cat")
    tapping(page.locator(".cardpad " + pad_key.format("A")))
    tapping(page.get_by_role("button", name="Next: Dan"))
    assert active_seat(page) == "3"
    for rank in ("JK", "3"):
        tapping(page.locator(".cardpad " + pad_key.format(rank)))
    # A tap on a hand gives it the pad: Ann's J was forgotten.
    page.locator("#hand-0 .hand-name").tap()
    assert active_seat(page) == "0"
    expect(page.locator("#cards_0")).not_to_be_focused()  # no keyboard popped up
    tap(page, "J")
    expect(page.locator("#cards_0")).to_have_value("K 7 J")
    page.locator("#hand-3 .penalty").tap()
    assert active_seat(page) == "3"
    # After the last hand, "Done" leads to Save.
    page.get_by_role("button", name="Done").tap()
    expect(page.get_by_role("button", name="Save round 1")).to_be_focused()
    assert axe_violations(page, axe_source) == []  # the form with cards entered
    tapping(page.get_by_role("button", name="Save round 1"))
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
    with_figures(page, "taps for a 4-player round (5 cards, one player out)", {"taps": taps})
    assert taps <= 9
    scores = page.request.get(f"/api/games/{game_id}").json()["rounds"][0]["scores"]
    assert scores == {"Ann": 27, "Bob": 0, "Cat": 15, "Dan": 18}


@AT_ONE_SIZE
def test_the_pad_spells_and_reads_cards_by_the_servers_notation(watched):
    """Its keys are the notation's ranks, joker and suits, red where it says; what a player types
    in any spelling the engine reads shows on the chips as the engine writes it, and counts."""
    page = watched
    open_round_form(page, FOUR)
    spec = notation()
    pad = page.locator(".cardpad")
    expect(pad.locator(".pad-rank")).to_have_text([*spec["ranks"], spec["joker"]])
    expect(pad.locator(".pad-suit")).to_have_text([suit["symbol"] for suit in spec["suits"]])
    red = [suit["symbol"] for suit in spec["suits"] if suit["red"]]
    expect(pad.locator(".pad-suit.suit-red")).to_have_text(red)
    page.locator(".out-choice .tile", has_text="Dan").tap()
    page.locator("#cards_0").fill("7h jkr t♢ q")
    expect(pad.locator(".pad-chip")).to_have_text(["7♥ ×", "JK ×", "10♦ ×", "Q ×"])
    expect(pad.locator(".pad-chip.suit-red")).to_have_text(["7♥ ×", "10♦ ×"])
    expect(page.locator('output[data-penalty-for="cards_0"]')).to_have_text("42")
    # A suit tap gives the last card, a rank alone, its suit.
    pad.locator("button[data-suit='♣']").tap()
    expect(page.locator("#cards_0")).to_have_value("7h jkr t♢ Q♣")


@AT_ONE_SIZE
def test_a_hand_counted_in_points_goes_into_the_ledger_and_the_api(watched, axe_source):
    page = watched
    game_id, key = open_round_form(page, FOUR)
    page.locator(".out-choice .tile", has_text="Ann").tap()
    tap(page, "5")  # Bob's hand, by its cards
    cat = page.get_by_role("region", name="Cat")
    cat.get_by_role("checkbox", name="Points").tap()
    points = page.get_by_label("Cat points")
    expect(points).to_be_focused()  # the number keypad opens at once
    expect(points).to_have_attribute("inputmode", "numeric")
    expect(page.locator("#cards_2")).to_be_hidden()
    assert active_seat(page) == "2"
    expect_pad_for(page, "Points for Cat")
    expect(page.locator(".cardpad .pad-ranks")).to_be_hidden()
    points.fill("25")  # a count the card field read as the card 2
    expect(page.locator('output[data-penalty-for="cards_2"]')).to_have_text("25")
    page.get_by_role("button", name="Next: Dan").tap()
    tap(page, "K")
    assert axe_violations(page, axe_source) == []  # the form with points entered
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
    cell = page.locator('tr[data-round="1"] td').nth(2)
    expect(cell.locator(".score")).to_have_text("25")
    expect(cell.locator(".cards")).to_have_text("25 (counted)")
    played = page.request.get(f"/api/games/{game_id}").json()["rounds"][0]
    assert played["points"] == {"Cat": 25}
    assert "Cat" not in played["leftovers"]
    assert played["scores"] == {"Ann": 0, "Bob": 5, "Cat": 25, "Dan": 10}
    # The correction form opens as it was entered: Cat in points.
    page.get_by_role("link", name="Correct round 1").tap()
    expect(page.get_by_label("Cat points")).to_have_value("25")
    expect(cat.get_by_role("checkbox", name="Points")).to_be_checked()
    expect(page.locator("#cards_2")).to_be_hidden()


@AT_ONE_SIZE
def test_a_reload_keeps_a_hand_counted_in_points(watched):
    page = watched
    open_round_form(page, FOUR)
    page.locator(".out-choice .tile", has_text="Ann").tap()
    page.get_by_role("region", name="Cat").get_by_role("checkbox", name="Points").tap()
    page.get_by_label("Cat points").fill("25")
    wait_for_draft(page, '"points_2":"25"')  # written 150 ms after the last change
    page.reload()
    expect(page.get_by_label("Cat points")).to_have_value("25")
    expect(
        page.get_by_role("region", name="Cat").get_by_role("checkbox", name="Points")
    ).to_be_checked()
    expect(page.locator("#cards_2")).to_be_hidden()
    expect(page.locator('output[data-penalty-for="cards_2"]')).to_have_text("25")


@AT_ONE_SIZE
def test_every_problem_is_named_at_once(watched, axe_source):
    page = watched
    open_round_form(page, FOUR)
    page.locator(".out-choice .tile", has_text="Ann").tap()
    page.get_by_role("button", name="Save round 1").tap()  # Bob, Cat and Dan left empty
    summary = page.locator(".errors-summary")
    expect(summary.get_by_role("link")).to_have_text(["Bob", "Cat", "Dan"])
    for seat in (1, 2, 3):
        expect(hand(page, seat).locator(".error")).to_contain_text("still holds at least one card")
    # A bad number of points and a bad card: both named, each beside its hand.
    page.get_by_role("region", name="Bob").get_by_role("checkbox", name="Points").tap()
    page.get_by_label("Bob points").fill("1")
    page.locator("#cards_2").fill("7 Z")
    page.locator("#cards_3").fill("K")
    page.get_by_role("button", name="Save round 1").tap()
    expect(summary.get_by_role("link")).to_have_text(["Bob", "Cat"])
    expect(hand(page, 1).locator(".error")).to_contain_text("1 points cannot be")
    expect(page.get_by_label("Bob points")).to_have_attribute("aria-invalid", "true")
    expect(hand(page, 2).locator(".error")).to_contain_text("'Z' (card 2) is not a card")
    expect(hand(page, 3).locator(".error")).to_have_count(0)
    expect(page.get_by_label("Bob points")).to_have_value("1")  # nothing typed is lost
    expect(page.locator("#cards_2")).to_have_value("7 Z")
    assert axe_violations(page, axe_source) == []  # the form with its errors


@AT_ONE_SIZE
def test_a_mistyped_round_is_told_whole_in_one_save(watched, axe_source):
    """Who went out not picked, Bob's four jokers, Cat's 'Q7', and seven of spades Ann and Dan
    hold three of together: the first save names all of it, by player, and keeps the typing."""
    page = watched
    open_round_form(page, FOUR)
    typed = {"cards_0": "7♠ 7♠", "cards_1": "JK JK JK JK", "cards_2": "Q7", "cards_3": "7♠"}
    for field, cards in typed.items():
        page.locator(f"#{field}").fill(cards)
    page.get_by_role("button", name="Save round 1").tap()
    summary = page.locator(".errors-summary li")
    expect(summary).to_have_text(
        [
            "Tap the player who went out, or “nobody”.",
            "Ann and Dan between them: 3 × 7♠, but a 2-pack game holds only 2 of each card",
            "Bob: 4 jokers, but this game has only 3 (2 packs)",
            re.compile(r"^Cat: 'Q7' \(card 1\) is not a card"),
        ]
    )
    expect(hand(page, 0).locator(".error")).to_contain_text("Ann and Dan between them")
    expect(hand(page, 3).locator(".error")).to_contain_text("Ann and Dan between them")
    for field, cards in typed.items():
        expect(page.locator(f"#{field}")).to_have_value(cards)
    assert axe_violations(page, axe_source) == []


def tab_to_save(page, limit: int = 15) -> list[str]:
    """Tab from what has focus until Save has it; what each press reached, in order."""
    stops = []
    save = page.get_by_role("button", name=re.compile("^Save"))
    while not save.evaluate("b => b === document.activeElement"):
        page.keyboard.press("Tab")
        stops.append(
            page.evaluate(
                """() => {
                    const el = document.activeElement, hand = el.closest('.hand');
                    if (hand) return 'hand ' + hand.dataset.seat;
                    if (el.id === 'pad-hand') return 'hand list';
                    if (el.closest('.pad-keys, .pad-line') && el.classList.contains('pad-key')
                        && !el.classList.contains('pad-chip')) return 'pad';
                    if (el.classList.contains('pad-chip')) return 'chips';
                    return el.outerHTML.slice(0, 80);
                }"""
            )
        )
        assert len(stops) <= limit, stops
    return stops


@AT_ONE_SIZE
def test_arrow_keys_move_within_the_pad_and_tab_reaches_save(watched):
    page = watched
    open_round_form(page, FOUR)
    page.locator(".out-choice .tile", has_text="Ann").tap()
    page.locator("#cards_1").focus()
    stops = tab_to_save(page)
    with_figures(page, "Tab presses from the first hand to Save, 4 players", {"tabs": len(stops)})
    # Each hand is one stop, the pad is one, then Save.
    assert stops[:-1] == ["hand 2", "hand 3", "hand list", "pad"]
    # Shift+Tab from Save lands on the pad's first rank, where entering a hand starts.
    page.keyboard.press("Shift+Tab")
    expect(page.locator(".cardpad " + pad_key.format("A"))).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.locator(".cardpad " + pad_key.format("2"))).to_be_focused()
    page.keyboard.press("End")  # the last of the pad's keys: the step to the next player
    expect(page.locator(".cardpad .pad-next")).to_be_focused()
    page.keyboard.press("Home")  # the first: the hand's "Points" switch, above the ranks
    expect(page.get_by_role("button", name="Points for Dan")).to_be_focused()
    page.keyboard.press("ArrowDown")  # to the row below, the ranks
    assert page.evaluate("document.activeElement.classList.contains('pad-rank')")
    page.keyboard.press("ArrowDown")  # the row below again, not the next key
    below = page.evaluate("document.activeElement.textContent")
    assert below not in ("A", "2")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.classList.contains('pad-rank')"), below
    page.locator(".cardpad " + pad_key.format("A")).focus()
    page.keyboard.press("Enter")
    # Tab went through every hand, and the pad followed: the last hand focused has it.
    assert active_seat(page) == "3"
    expect(page.locator("#cards_3")).to_have_value("A")
    # One Tab stop for the keys, one for the chips of the hand.
    for group in (".pad-key:not(.pad-chip)", ".pad-chips .pad-chip"):
        stops = page.evaluate(
            "sel => [...document.querySelectorAll(sel)].filter(k => k.tabIndex === 0).length",
            ".cardpad " + group,
        )
        assert stops == 1, group


@AT_ONE_SIZE
def test_eight_players_tab_count(watched):
    page = watched
    open_round_form(page, EIGHT, "family")
    page.locator("#cards_0").focus()
    stops = tab_to_save(page)
    with_figures(page, "Tab presses from the first hand to Save, 8 players", {"tabs": len(stops)})
    assert stops[:-1] == [f"hand {seat}" for seat in range(1, 8)] + ["hand list", "pad"]


@AT_ONE_SIZE
def test_a_hand_is_counted_in_points_by_keyboard_alone(watched):
    """The hands' toggles are out of the Tab order; the pad's list picks a hand and its "Points"
    key stands in for that hand's toggle."""
    page = watched
    game_id, _ = open_round_form(page, FOUR)
    page.locator(".out-choice .tile", has_text="Ann").tap()
    page.locator("#cards_1").focus()
    page.keyboard.type("K 7")
    page.keyboard.press("Tab")
    page.keyboard.type("A")  # Cat's hand
    page.keyboard.press("Tab")  # Dan's
    page.keyboard.press("Tab")
    hands = page.locator(".pad-who select")  # its label says "Cards for" or "Points for"
    expect(hands).to_be_focused()
    expect_pad_for(page, "Cards for Dan")
    expect(hands.locator("option", has_text="Ann")).to_be_disabled()  # Ann went out
    page.keyboard.press("Tab")  # the pad, at its first rank
    expect(page.locator(".cardpad " + pad_key.format("A"))).to_be_focused()
    page.keyboard.press("ArrowUp")
    switch = page.get_by_role("button", name="Points for Dan")
    expect(switch).to_be_focused()
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Enter")
    dan = page.get_by_role("region", name="Dan")
    expect(dan.get_by_role("checkbox", name="Points")).to_be_checked()
    expect(page.get_by_label("Dan points")).to_be_focused()  # the number is typed next
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect_pad_for(page, "Points for Dan")
    page.keyboard.type("40")
    expect(page.locator('output[data-penalty-for="cards_3"]')).to_have_text("40")
    # Back in the list, the arrow key picks Cat: the pad and its "Points" key are Cat's now.
    page.keyboard.press("Tab")
    expect(hands).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect_pad_for(page, "Cards for Cat")
    assert active_seat(page) == "2"
    page.keyboard.press("Tab")
    cat_switch = page.get_by_role("button", name="Points for Cat")
    expect(cat_switch).to_be_focused()
    page.keyboard.press("Enter")
    cat = page.get_by_role("region", name="Cat").get_by_role("checkbox", name="Points")
    expect(cat).to_be_checked()
    expect(page.get_by_label("Cat points")).to_be_focused()
    cat_switch.press("Enter")  # back to cards: what was typed is still there
    expect(cat).not_to_be_checked()
    expect(page.locator("#cards_2")).to_have_value("A")
    expect(cat_switch).to_be_focused()
    expect(cat_switch).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="Save round 1").press("Enter")
    expect(page.locator(".flash")).to_have_text("Round 1 saved.")
    played = page.request.get(f"/api/games/{game_id}").json()["rounds"][0]
    assert played["points"] == {"Dan": 40}
    assert played["scores"] == {"Ann": 0, "Bob": 17, "Cat": 15, "Dan": 40}


@AT_ONE_SIZE
def test_removing_a_chip_keeps_focus_among_the_chips(watched):
    page = watched
    open_round_form(page, FOUR)
    page.locator(".out-choice .tile", has_text="Dan").tap()
    tap(page, "A", "K", "7")
    chips = page.locator(".cardpad .pad-chip")
    chips.nth(1).focus()
    page.keyboard.press("Enter")  # removes the K
    expect(page.locator("#cards_0")).to_have_value("A 7")
    expect(page.get_by_role("button", name="remove 7")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="remove A")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#cards_0")).to_have_value("")
    assert page.evaluate("document.activeElement.classList.contains('pad-key')")


@AT_ONE_SIZE
def test_without_javascript_hands_are_typed_and_counted(browser, page, live_server):
    game_id, key = make_game(page, FOUR, 0, "liverpool")
    context = browser.new_context(
        viewport=page.viewport_size, has_touch=True, base_url=live_server, java_script_enabled=False
    )
    try:
        tab = context.new_page()
        tab.goto(f"/games/{game_id}/join?key={key}")
        tab.goto(f"/games/{game_id}/rounds/new")
        tab.locator(".out-choice .tile", has_text="Ann").tap()
        tab.locator("#cards_1").fill("A K 7 JK")
        expect(tab.get_by_label("Cat points")).to_be_hidden()  # until Points is ticked
        tab.get_by_role("region", name="Cat").get_by_role("checkbox", name="Points").tap()
        expect(tab.locator("#cards_2")).to_be_hidden()
        tab.get_by_label("Cat points").fill("25")
        tab.get_by_role("region", name="Dan").get_by_role("checkbox", name="Points").tap()
        tab.get_by_label("Dan points").fill("40")
        tab.get_by_role("button", name="Save round 1").tap()
        expect(tab.locator(".flash")).to_have_text("Round 1 saved.")
    finally:
        context.close()
    played = page.request.get(f"/api/games/{game_id}").json()["rounds"][0]
    assert played["scores"] == {"Ann": 0, "Bob": 47, "Cat": 25, "Dan": 40}
    assert played["points"] == {"Cat": 25, "Dan": 40}
