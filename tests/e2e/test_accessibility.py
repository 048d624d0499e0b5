"""axe-core (4.x from npm, axe.run's defaults, best practices included) finds nothing on the pages
a person sees, at both tablet sizes, in both themes."""

from __future__ import annotations

import pytest

from tests.support.browser import TABLET_VIEWPORTS
from tests.support.names import LONG_EIGHT_NAMES, NAMES
from tests.support.tablet import AT_ONE_SIZE, FINGERTIP, axe_violations, make_game

pytestmark = pytest.mark.browser


@pytest.fixture(params=["light", "dark"])
def scheme(request, page):
    page.emulate_media(color_scheme=request.param)
    return request.param


@AT_ONE_SIZE
def test_the_check_itself_names_what_it_finds(page, axe_source):
    """What every test here asserts empty does find things: a button with no name and a field
    with no label, put on the home page, are each named with where they are."""
    page.goto("/")
    page.evaluate(
        """() => {
            const main = document.querySelector("main");
            main.append(Object.assign(document.createElement("button"), {id: "nameless"}));
            main.append(Object.assign(document.createElement("input"), {id: "unlabelled"}));
        }"""
    )
    found = axe_violations(page, axe_source)
    assert any(line.startswith("button-name (critical): #nameless") for line in found), found
    assert any(line.startswith("label (critical): #unlabelled") for line in found), found


def test_home_and_new_game(page, scheme, axe_source):
    for path in ("/", "/games/new", "/games/", "/offline", "/rules/reference"):
        page.goto(path)
        assert axe_violations(page, axe_source) == [], path


@pytest.mark.parametrize(
    "names,profile", [(NAMES, "liverpool"), (LONG_EIGHT_NAMES, "family")], ids=["4", "8"]
)
@pytest.mark.parametrize("role", ["spectator", "editor"])
def test_game_page(page, scheme, axe_source, names, profile, role):
    game_id, key = make_game(page, names, 3, profile)
    if role == "editor":
        page.goto(f"/games/{game_id}/join?key={key}")
    page.goto(f"/games/{game_id}")
    assert axe_violations(page, axe_source) == []
    if role == "editor":
        page.locator("#share summary").click()
        assert axe_violations(page, axe_source) == []


def test_finished_game_page(page, scheme, axe_source):
    game_id, _ = make_game(page, NAMES, 7, "liverpool")
    page.goto(f"/games/{game_id}")
    assert page.locator("#standings").is_visible()
    assert axe_violations(page, axe_source) == []


def verdict_page(page):
    page.goto("/rules?q=opening")
    page.select_option("#round", "2")
    page.fill("#meld1", "7♣ 7♦ 7♥")
    page.fill("#meld2", "3♠ 4♠ 6♠")
    page.get_by_role("button", name="Check").click()
    assert page.locator("#verdict .verdict-title").inner_text() == "NOT LEGAL"


def test_rules_page_with_a_verdict(page, scheme, axe_source):
    verdict_page(page)
    assert axe_violations(page, axe_source) == []
    page.goto("/rules?q=buy&players=4")
    page.get_by_role("button", name="Check").click()
    # The click only starts the post: wait for the page it answers with.
    page.locator("#verdict").wait_for(state="visible")
    assert axe_violations(page, axe_source) == []


@pytest.mark.parametrize("size", list(TABLET_VIEWPORTS))
@pytest.mark.parametrize(
    "question,entries",
    [
        # A verdict with a heading under it (the readings, the melds to lay down).
        ("meld", {"#cards": "5♠ 6♠ JK 8♠"}),
        ("solve", {"#hand": "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"}),
        ("buy", {}),
        # What to fix instead of a verdict.
        ("meld", {"#cards": "5♠ ZZ"}),
    ],
    ids=["readings", "melds", "buy", "input-error"],
)
def test_rules_check_with_a_verdict_at_both_sizes(page, axe_source, size, question, entries):
    """The verdict's headings follow the page's (h1, its h2, their h3), and the way to the rules
    is a fingertip's size, at both tablet sizes."""
    page.set_viewport_size(TABLET_VIEWPORTS[size])
    page.goto(f"/rules?q={question}&players=4")
    for selector, text in entries.items():
        page.fill(selector, text)
    if question == "buy":
        page.get_by_label("Seat 3", exact=True).check()
    page.get_by_role("button", name="Check").click()
    # The click only starts the post: wait for the page it answers with (is_visible() alone
    # would look at the page before it, whenever the answer takes longer than the click).
    page.locator("#verdict, #input-error").first.wait_for(state="visible")
    assert axe_violations(page, axe_source) == []
    link = page.get_by_role("link", name="Read the rules (R1–R11) and common questions")
    box = link.bounding_box()
    assert box["height"] >= FINGERTIP and box["width"] >= FINGERTIP, box


def test_rules_page_card_pad_names_match_their_labels(page, axe_source):
    """Every pad key's accessible name holds the text it shows ("JK (joker)", "Undo")."""
    verdict_page(page)
    assert axe_violations(page, axe_source) == []
    pad = page.locator(".cardpad")
    for shown in ("JK", "Undo", "Clear", "JK as…"):
        key = pad.locator(".pad-key", has_text=shown).first
        name = key.evaluate("k => k.getAttribute('aria-label') || k.textContent")
        assert shown in name.replace("⌫ ", "")
