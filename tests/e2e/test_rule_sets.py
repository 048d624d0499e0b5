"""A game under a rule set other than liverpool's, as a tablet on the table's Wi-Fi sees it: a
Shanghai game's round form counts by Shanghai's values and copies at the landscape tablet size,
and its game page reads on a phone."""

from __future__ import annotations

import json
import re
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS, lan_url
from tests.support.names import NAMES
from tests.support.saved import SMITH, smith_document
from tests.support.server import json_headers
from tests.support.tablet import by_lan_name, make_game

pytestmark = pytest.mark.browser

# Rounds recorded before the page is opened: the ninth of Shanghai's ten deals is next.
PLAYED = 8


@pytest.fixture
def shanghai(tablet, live_server):
    """A Shanghai game of four with eight rounds in, made through the API on loopback:
    (id, edit key)."""
    setup = tablet("landscape", base_url=live_server).new_page()
    made = make_game(setup, NAMES, PLAYED, "shanghai")
    setup.close()
    return made


def no_sideways_scroll(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def test_a_shanghai_round_form_on_the_landscape_tablet(tablet, live_server, shanghai):
    game_id, key = shanghai
    page = by_lan_name(tablet, live_server, "landscape")
    assert page.viewport_size == TABLET_VIEWPORTS["landscape"]
    page.goto(f"/games/{game_id}/join?key={key}")
    expect(page.locator("#round-title")).to_contain_text(f"Round {PLAYED + 1} of 10")
    # Opened by the LAN name, the edit-link code works on another tablet: no loopback note.
    expect(page.get_by_text("a name only this machine reaches")).to_have_count(0)
    page.get_by_role("link", name=re.compile(f"Record round {PLAYED + 1}")).tap()
    expect(page.locator("h1")).to_contain_text(f"Record round {PLAYED + 1} of 10")
    expect(page.locator(".lead .deal")).to_have_text("11")
    expect(page.locator(".cardpad .pad-rank")).to_have_count(14)  # the pad's script has run
    expect(page.locator(".cut-choice")).to_have_count(0)  # no exact-cut bonus in Shanghai
    page.locator(".out-choice .tile", has_text=NAMES[0]).tap()
    penalty = page.locator('.hand[data-seat="1"] [data-penalty-for]')
    cards = page.locator("#cards_1")
    # A wild 2 counts Shanghai's 20, a joker 20, an ace 15.
    cards.fill("2 JK A")
    expect(penalty).to_have_text("55")
    # Four players play two packs and a joker a pack: a third joker is one too many.
    cards.fill("JK JK JK")
    expect(penalty).to_contain_text("more JK than this game's packs hold")
    cards.fill("JK JK")
    expect(penalty).to_have_text("40")
    no_sideways_scroll(page)
    assert page.problems == []


def test_a_shanghai_game_page_on_a_phone(tablet, live_server, shanghai):
    game_id, _ = shanghai
    page = by_lan_name(tablet, live_server, PHONE_VIEWPORT)
    page.goto(f"/games/{game_id}")
    expect(page.locator("#round-title")).to_contain_text(f"Round {PLAYED + 1} of 10")
    expect(page.locator(".rules-summary-line")).to_have_text(
        "Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit"
    )
    expect(page.locator(".ledger-count")).to_have_text(f"{PLAYED} of 10 rounds")
    expect(page.locator("table.ledger tbody tr")).to_have_count(PLAYED)
    expect(page.locator("#round-title")).to_be_in_viewport()
    no_sideways_scroll(page)
    assert page.problems == []


def test_the_new_game_page_and_its_rule_editor_on_a_phone(tablet, live_server):
    """A phone by the LAN name: the seats, and the rule editor opened, fit its 360 px."""
    page = by_lan_name(tablet, live_server, PHONE_VIEWPORT)
    page.goto("/games/new")
    no_sideways_scroll(page)
    page.locator(".rules-details > summary").click()
    expect(page.locator(".rule-editor")).to_be_visible()
    no_sideways_scroll(page)
    assert page.problems == []


def test_the_new_game_page_seats_what_the_chosen_rules_allow(tablet, live_server):
    page = by_lan_name(tablet, live_server, "landscape")
    page.goto("/games/new")
    limits = page.locator(".seat-limits")
    expect(limits).to_have_text("These rules seat exactly 4 players.")
    expect(page.locator('.seat[data-seat="4"]')).to_be_hidden()
    page.select_option(".profile-select", "shanghai")
    expect(limits).to_have_text("These rules seat 3 to 8 players.")
    expect(page.locator('.seat[data-seat="7"]')).to_be_visible()
    for seat, name in enumerate(["Ann", "Bob", "Cat"]):
        page.locator(f"#names-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 10")
    expect(page.locator(".deal")).to_have_text("11")
    assert page.problems == []


def save_smith(live_server: str) -> int:
    """The Smith family's rules saved as the table's, by the API on loopback: the saved id."""
    body = json.dumps({"rules": smith_document()}).encode()
    request = Request(f"{live_server}/api/rulesets", data=body, headers=json_headers())
    with urlopen(request) as answer:
        assert answer.status == 201
        return json.load(answer)["id"]


@pytest.mark.parametrize(
    "viewport", ["landscape", "portrait", PHONE_VIEWPORT], ids=["landscape", "portrait", "phone"]
)
def test_saved_rules_picked_unchanged_say_saved_as_never_save_again(tablet, live_server, viewport):
    """The table's saved rules, picked as they are, say "Saved as" where the switch to save them
    was; a change brings the switch back, and going back to them takes it away again."""
    saved = save_smith(live_server)
    page = by_lan_name(tablet, live_server, viewport)
    saved_as = page.locator(".save-rules .saved-as")
    switch = page.get_by_text("Save these rules as our table's rules")
    page.goto("/games/new")
    expect(saved_as).to_be_hidden()
    expect(switch).to_be_visible()

    page.select_option(".profile-select", f"ruleset:{saved}")
    expect(saved_as).to_have_text(f"Saved as “{SMITH}”: our table's rules, unchanged.")
    expect(switch).to_be_hidden()
    no_sideways_scroll(page)

    page.locator(".rules-details > summary").click()
    page.locator("#values-JK").fill("40")
    expect(switch).to_be_visible()
    expect(saved_as).to_be_hidden()
    page.locator("#values-JK").fill("50")
    expect(saved_as).to_be_visible()
    expect(switch).to_be_hidden()
    assert page.problems == []


def test_saved_rules_say_saved_as_without_the_page_script(tablet, live_server):
    context = tablet(PHONE_VIEWPORT, base_url=lan_url(live_server), java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/games/new?ruleset={save_smith(live_server)}")
    expect(page.locator(".save-rules .saved-as")).to_have_text(
        f"Saved as “{SMITH}”: our table's rules, unchanged."
    )
    expect(page.get_by_text("Save these rules as our table's rules")).to_be_hidden()
    no_sideways_scroll(page)
