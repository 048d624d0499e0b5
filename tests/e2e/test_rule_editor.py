"""The rule set editor on the new game page, in Debian's chromium at both tablet sizes: a
family's own rules built from Liverpool, a problem named and fixed, saved and played; by
keyboard alone; axe-core on every state of the editor; every control big enough to tap."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import lan_url
from tests.support.names import NAMES
from tests.support.tablet import (
    AT_ONE_SIZE,
    DRAFTS,
    axe_violations,
    by_lan_name,
    small_controls,
    wait_for_draft,
)

pytestmark = pytest.mark.browser

# Two deals with no ace or joker left in hand, whose penalties these rules leave as Liverpool's.
TWO_DEALS = (
    ("Ann", {"Bob": ["7", "K"], "Cat": ["5"], "Dan": ["3"]}),
    ("Bob", {"Ann": ["Q"], "Cat": ["9"], "Dan": ["4"]}),
)
PENALTIES = ({"Bob": "17", "Cat": "5", "Dan": "3"}, {"Ann": "10", "Cat": "9", "Dan": "4"})


def seat(page):
    page.goto("/games/new")
    for index, name in enumerate(NAMES):
        page.locator(f"#names-{index}").fill(name)


def open_editor(page):
    page.locator(".rules-details > summary").click()
    expect(page.locator(".rule-editor")).to_be_visible()


def problem(page, place_id):
    return page.locator(f"#problem-{place_id}")


def settle(page):
    """Wait for the editor's live check to have answered the last change."""
    page.wait_for_load_state("networkidle")


@AT_ONE_SIZE
def test_build_save_and_play_a_family_rule_set(watched, tablet, live_server):
    page = watched
    seat(page)
    open_editor(page)
    page.locator("#name").fill("Smith family")
    page.locator("#values-JK").fill("50")
    page.locator("#values-A").fill("20")
    for _ in range(3):
        page.locator(".add-deal").click()
    expect(page.locator(".deal-rows > .deal-row")).to_have_count(10)
    for deal in range(10):
        page.locator(f"#deals-{deal}-cards").fill("11")
    tenth = page.locator('.deal-row[data-deal="9"]')
    expect(tenth.locator(".deal-title")).to_have_text("Deal 10")
    tenth.locator(".switch-label", has_text="Whole hand").click()  # off: a discard is kept
    for meld in range(3):
        page.locator(f"#deals-9-contract-{meld}-size").fill("5")
    page.locator("#buying-per_game").fill("3")
    # One buy a deal cannot bring 3 runs of 5 and a discard into an 11-card hand.
    page.locator("#buying-per_deal").fill("1")
    expect(problem(page, "deals-9-cards")).to_contain_text("even with 1 buy")
    expect(page.locator("#deals-9-cards")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[data-problem-list]")).to_contain_text("Deal 10: cards")
    expect(page.locator("[data-summary]")).to_have_text(re.compile("problem"))
    # Fixed: no limit a deal, 3 a game. The note says what the deal asks.
    page.locator("#buying-per_deal").fill("")
    expect(problem(page, "deals-9-cards")).to_be_hidden()
    expect(page.locator("#note-deals-9-cards")).to_have_text(
        "Deal 10 needs 16 cards: 11 dealt + the draw is 12, so it needs 2 buys"
    )
    expect(page.locator("[data-problem-list]")).to_be_hidden()
    expect(page.locator("[data-summary]")).to_have_text(
        "Smith family · 10 deals · 4 players · buying: 3 a game"
    )
    page.locator(".save-rules .switch-label").click()
    page.locator("#save_name").fill("Smith family")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 10")
    expect(page.locator(".rules-summary-line")).to_have_text(
        "Smith family · 10 deals · 4 players · buying: 3 a game"
    )

    for number, ((out, hands), penalties) in enumerate(
        zip(TWO_DEALS, PENALTIES, strict=True), start=1
    ):
        page.get_by_role("link", name=re.compile(f"Record round {number}")).click()
        page.locator(".out-choice .tile", has_text=out).click()
        for name, cards in hands.items():
            page.locator(f"#cards_{NAMES.index(name)}").fill(" ".join(cards))
            expect(
                page.locator(f'output[data-penalty-for="cards_{NAMES.index(name)}"]')
            ).to_have_text(penalties[name])
        page.get_by_role("button", name=f"Save round {number}").click()
        expect(page.locator(".flash")).to_have_text(f"Round {number} saved.")
    expect(page.locator("#round-title")).to_contain_text("Round 3 of 10")
    # The rules were saved with the start: offered on the next new game.
    page.goto("/games/new")
    expect(page.locator(".profile-select option", has_text="Smith family (ours)")).to_have_count(1)
    # Shared: its link, opened on a second tablet by the LAN name, reads out the same rules.
    page.goto("/rulesets/")
    page.get_by_role("link", name="Share Smith family").click()
    link = page.locator("#share-link").get_attribute("href")
    other = by_lan_name(tablet, live_server, page.viewport_name)
    other.goto(link.replace(live_server, lan_url(live_server)))
    expect(other.locator("h1")).to_have_text("Shared rules: Smith family")
    expect(other.locator(".ruleset-summary")).to_have_text(
        "Smith family · 10 deals · 4 players · buying: 3 a game"
    )
    for said in ("A joker left in hand is 50.", "An ace left in hand is 20.", "3 runs of 5"):
        expect(other.locator("#shared-read")).to_contain_text(said)
    expect(other.get_by_role("link", name="Start a game with these rules")).to_be_visible()
    assert other.problems == []


@AT_ONE_SIZE
def test_the_picker_fills_the_editor_and_the_seats_follow(watched):
    page = watched
    seat(page)
    open_editor(page)
    page.select_option(".profile-select", "shanghai")
    expect(page.locator(".deal-rows > .deal-row")).to_have_count(10)
    expect(page.locator("#values-2")).to_have_value("20")
    expect(page.locator("#name")).to_have_value("Shanghai")
    expect(page.locator('.seat[data-seat="7"]')).to_be_visible()
    page.locator("#players-max").fill("5")
    expect(page.locator('.seat[data-seat="5"]')).to_be_hidden()
    expect(page.locator('.seat[data-seat="4"]')).to_be_visible()


@AT_ONE_SIZE
def test_the_editor_by_keyboard_alone(watched):
    page = watched
    seat(page)

    def tab_to(selector, most=300):
        for _ in range(most):
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
        raise AssertionError(f"{selector} is never reached by Tab")

    tab_to(".rules-details > summary")
    page.keyboard.press("Enter")
    expect(page.locator(".rule-editor")).to_be_visible()
    tab_to("#values-JK")
    page.keyboard.press("Control+A")
    page.keyboard.type("50")
    page.keyboard.press("Tab")  # the + stepper of the joker's value
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "One more: Value of a joker"
    )
    page.keyboard.press("Enter")
    expect(page.locator("#values-JK")).to_have_value("51")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")  # the − stepper
    page.keyboard.press("Enter")
    expect(page.locator("#values-JK")).to_have_value("50")
    page.locator(".add-deal").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".deal-rows > .deal-row")).to_have_count(8)
    # The focus goes to the new deal's cards, ready to type.
    assert page.evaluate("document.activeElement.id") == "deals-7-cards"
    expect(page.get_by_role("button", name="One more: Deal 8: cards dealt")).to_have_count(1)
    page.keyboard.press("Control+A")
    page.keyboard.type("11")
    tab_to('[name="add_meld"][value="7"]')
    page.keyboard.press("Enter")
    expect(page.locator('.deal-row[data-deal="7"] .meld-chip')).to_have_count(4)
    page.locator('[name="remove_meld"][value="7.0"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('.deal-row[data-deal="7"] .meld-chip')).to_have_count(3)
    settle(page)
    expect(page.locator("[data-summary]")).to_contain_text("8 deals")
    page.locator("button.primary-action").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 8")


@pytest.fixture(params=["light", "dark"])
def scheme(request, page):
    page.emulate_media(color_scheme=request.param)
    return request.param


def test_axe_finds_nothing_in_any_state_of_the_editor(page, scheme, axe_source):
    seat(page)
    assert axe_violations(page, axe_source) == [], "closed"
    open_editor(page)
    assert axe_violations(page, axe_source) == [], "open"
    page.locator("#values-JK").fill("101")
    page.locator("#players-max").fill("9")
    expect(problem(page, "values-JK")).to_be_visible()
    assert axe_violations(page, axe_source) == [], "with problems"
    page.locator(".add-deal").click()
    expect(page.locator(".deal-rows > .deal-row")).to_have_count(8)
    settle(page)
    assert axe_violations(page, axe_source) == [], "with an added deal"
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".errors")).to_contain_text("problems to fix first")
    assert axe_violations(page, axe_source) == [], "refused, without the script's help"


# Every control of the editor and of saving its rules, the switches' and tiles' labels too.
EDITOR_CONTROLS = (
    ".rule-editor :is(a, button, select, input:not([type=radio]):not([type=checkbox])),"
    ".rule-editor :is(.switch-label, label.tile), .rules-details > summary,"
    ".save-rules :is(input[type=text], .switch-label)"
)


def test_every_control_of_the_editor_is_big_enough_to_tap(watched):
    page = watched
    seat(page)
    open_editor(page)
    page.locator(".add-deal").click()
    assert small_controls(page, EDITOR_CONTROLS) == []


@AT_ONE_SIZE
def test_a_draft_keeps_the_changed_rules_and_their_rows(watched):
    page = watched
    seat(page)
    open_editor(page)
    page.locator("#values-JK").fill("50")
    page.locator(".add-deal").click()
    page.locator("#deals-7-cards").fill("9")
    page.locator('[name="add_meld"][value="7"]').click()
    wait_for_draft(page, '"deals-7-contract-3-kind":"set"')
    page.reload()
    expect(page.locator(".draft-notice")).to_contain_text("Restored your entries")
    expect(page.locator(".deal-rows > .deal-row")).to_have_count(8)
    expect(page.locator('.deal-row[data-deal="7"] .meld-chip')).to_have_count(4)
    expect(page.locator("#deals-7-cards")).to_have_value("9")
    expect(page.locator("#values-JK")).to_have_value("50")
    expect(page.locator("#names-0")).to_have_value(NAMES[0])
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 8")
    page.wait_for_function(
        "prefix => !Object.keys(localStorage).some(k => k.startsWith(prefix))", arg=DRAFTS
    )


@AT_ONE_SIZE
def test_enter_in_a_field_starts_the_game_and_a_table_size_is_added_in_place(watched):
    page = watched
    seat(page)
    open_editor(page)
    page.get_by_role("button", name="Add a table size").click()
    expect(page.locator(".pack-rows > .pack-row")).to_have_count(2)
    page.locator("#packs-0-up_to").fill("4")
    page.locator("#packs-1-packs").fill("3")
    expect(page.locator("#note-packs")).to_have_text("4 players: 2 packs + 3 jokers = 107 cards")
    page.get_by_role("button", name="Remove table size step 2").click()
    expect(page.locator(".pack-rows > .pack-row")).to_have_count(1)
    page.locator("#packs-0-up_to").fill("8")
    page.locator("#names-3").press("Enter")
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")


def test_the_editor_without_a_script(tablet, live_server):
    context = tablet("portrait", base_url=live_server, java_script_enabled=False)
    page = context.new_page()
    seat(page)
    open_editor(page)  # a <details>: opens without a script
    page.get_by_role("button", name="Add a deal").click()
    expect(page.locator(".deal-rows > .deal-row")).to_have_count(8)
    expect(page.locator(".rules-details")).to_have_attribute("open", "")
    page.get_by_role("button", name="Add a table size").click()
    expect(page.locator(".pack-rows > .pack-row")).to_have_count(2)
    page.locator("#values-JK").fill("101")
    page.get_by_role("button", name="Start the game").click()
    expect(problem(page, "values-JK")).to_have_text("must be from 0 to 100, not 101")
    expect(page.locator("[data-problem-list]")).to_contain_text("Value of a joker")
    expect(page.locator("#names-0")).to_have_value(NAMES[0])
    # The new step copies the last one, so it seats no more players than it: said, then fixed.
    expect(problem(page, "packs-1-up_to")).to_have_text(
        "each step must seat more players than the last"
    )
    page.locator("#values-JK").fill("50")
    page.locator("#packs-0-up_to").fill("4")
    page.locator("#names-3").press("Enter")  # Enter starts the game, never an editor button
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 8")


def test_a_table_that_plays_to_the_right_taps_it_in_and_the_seats_follow(tablet, live_server):
    """R12.3 `direction: right` on a portrait tablet by the LAN name: tapped in the editor,
    reset when other rules are picked, and the game's dealer, cutter and first player mirror."""
    page = by_lan_name(tablet, live_server, "portrait")
    seat(page)
    open_editor(page)
    left = page.locator('input[name="direction"][value="left"]')
    right = page.locator('input[name="direction"][value="right"]')
    expect(left).to_be_checked()
    page.locator(".tile", has=right).tap()
    expect(right).to_be_checked()
    page.select_option(".profile-select", "contract")  # other rules fill every control
    expect(left).to_be_checked()
    page.locator(".tile", has=right).tap()
    expect(right).to_be_checked()
    page.locator("#name").fill("Santiago")
    page.locator('.seat[data-seat="0"] .deals-first').tap()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")
    expect(page.locator(".dealer")).to_have_text("Ann")
    expect(page.locator(".cutter")).to_have_text("Bob")  # on Ann's left
    expect(page.locator(".first-player")).to_have_text("Dan")  # on Ann's right
    assert page.problems == []


@AT_ONE_SIZE
def test_carioca_picked_offers_its_variants_and_a_tap_changes_the_rules(watched):
    page = watched
    seat(page)
    open_editor(page)
    variants = page.locator('[data-variants-of="carioca"]')
    expect(variants).to_be_hidden()
    page.select_option(".profile-select", "carioca")
    expect(page.locator("#name")).to_have_value("Carioca")
    expect(variants).to_be_visible()
    expect(page.locator('[data-variants-of="continental"]')).to_be_hidden()
    variants.get_by_role("button", name="A joker left in hand is 30").click()
    expect(page.locator("#values-JK")).to_have_value("30")
    expect(page.locator("#name")).to_have_value("Carioca")
    page.locator("#name").fill("Santiago")
    expect(page.locator('[data-variants-of="carioca"]')).to_be_hidden()
