"""The rules-check page in the real browser, with fingers: tap an opening together."""

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.tablet import AT_ONE_SIZE, axe_violations, by_lan_name

pytestmark = pytest.mark.browser


def tap(page, *keys):
    pad = page.locator(".cardpad")
    for key in keys:
        pad.get_by_role("button", name=key, exact=True).first.tap()


@AT_ONE_SIZE
def test_tap_an_opening_and_see_the_verdict(page):
    page.goto("/rules?q=opening")
    page.select_option("#round", "2")
    page.locator("#meld1").tap()
    tap(page, "7", "clubs", "7", "diamonds", "7", "hearts")
    page.locator("#meld2").tap()
    tap(page, "3", "spades", "4", "spades", "5", "spades", "6", "spades")
    assert page.input_value("#meld1") == "7♣ 7♦ 7♥"
    assert page.input_value("#meld2") == "3♠ 4♠ 5♠ 6♠"
    page.get_by_role("button", name="Check").tap()
    verdict = page.locator("#verdict")
    assert verdict.locator(".verdict-title").inner_text() == "LEGAL"
    assert "R5" in verdict.inner_text()


@AT_ONE_SIZE
def test_tap_contiguous_runs_is_not_legal(page):
    page.goto("/rules?q=opening")
    page.select_option("#round", "3")
    page.locator("#meld1").tap()
    tap(page, "3", "spades", "4", "spades", "5", "spades", "6", "spades")
    page.locator("#meld2").tap()
    tap(page, "7", "spades", "8", "spades", "9", "spades", "10", "spades")
    page.get_by_role("button", name="Check").tap()
    assert page.locator("#verdict .verdict-title").inner_text() == "NOT LEGAL"
    assert "touch" in page.locator("#verdict .verdict-reason").inner_text()


@AT_ONE_SIZE
def test_undo_removes_one_card(page):
    page.goto("/rules?q=meld")
    page.locator("#cards").tap()
    tap(page, "5", "spades", "6", "spades", "Q")
    assert page.input_value("#cards") == "5♠ 6♠ Q"
    tap(page, "Undo")
    assert page.input_value("#cards") == "5♠ 6♠"
    page.get_by_role("button", name="remove 5♠").tap()
    assert page.input_value("#cards") == "6♠"


@AT_ONE_SIZE
def test_joker_declared_by_tapping(page):
    page.goto("/rules?q=meld")
    page.locator("#cards").tap()
    tap(
        page,
        "5",
        "spades",
        "6",
        "spades",
        "7",
        "spades",
        "JK as… (joker standing for the next card)",
        "8",
        "spades",
    )
    assert page.input_value("#cards") == "5♠ 6♠ 7♠ JK=8♠"
    page.get_by_role("button", name="Check").tap()
    assert page.locator("#verdict .verdict-title").inner_text() == "LEGAL"
    expect(page.locator("#verdict .reading")).to_have_count(1)


# The rules check opened from a game: its round, rules, players and names, and a way back.


def ask_who_buys(page, active, *askers):
    """Choose whose turn it is and who asks, tap Check: the verdict."""
    page.select_option("#active", label=active)
    for asker in askers:
        page.get_by_label(asker, exact=True).check()
    page.get_by_role("button", name="Check").tap()
    return page.locator("#verdict")


def game_in_round(page, base_url, names, rounds_played, profile="liverpool"):
    """A game made through the JSON API, with `rounds_played` rounds recorded; its id."""
    created = page.request.post(
        f"{base_url}/api/games",
        data={"players": names, "profile": profile, "first_dealer": names[0]},
    )
    assert created.status == 201
    game = created.json()
    leftovers = {name: "7" for name in names[1:]}
    for _ in range(rounds_played):
        recorded = page.request.post(
            f"{base_url}/api/games/{game['id']}/rounds",
            data={"cut_exact": False, "out": names[0], "leftovers": leftovers},
            headers={"X-Game-Key": game["key"]},
        )
        assert recorded.status == 201
    return game["id"]


def in_view(page, locator):
    """The element is on screen, whole, at this tablet size."""
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


@AT_ONE_SIZE
def test_from_a_game_in_round_7_the_check_knows_the_round_and_the_way_back(watched, live_server):
    page = watched
    game = game_in_round(page, live_server, ["Ann", "Bob", "Cat", "Dan"], 6)
    page.goto(f"/games/{game}")
    page.get_by_role("link", name="Rule dispute? Check it").tap()
    back = page.get_by_role("link", name="← Back to the game")
    expect(back).to_be_visible()
    assert in_view(page, back)
    page.get_by_role("link", name="Can I lay this off?").tap()
    expect(page.locator("#round")).to_have_value("7")
    expect(page.locator("#rules")).to_have_value("game")
    expect(page.locator("#rules option")).to_have_text(["Liverpool (this game's rules)"])
    expect(page.locator("#players")).to_have_value("4")
    page.locator("#meld").fill("5♠ 6♠ 7♠ 8♠")
    page.locator("#layoff_cards").fill("9♠")
    page.get_by_role("button", name="Check").tap()
    verdict = page.locator("#verdict")
    expect(verdict.locator(".verdict-title")).to_have_text("NOT LEGAL")
    expect(verdict.locator("#verdict-context")).to_have_text("Round 7 of 7 · Liverpool · 4 players")
    expect(verdict.locator(".verdict-reason")).to_contain_text("Round 7 has no laying off")
    # Another tab keeps the game: its names are the seats, and only its four seats exist.
    page.get_by_role("link", name="Who gets the discard?").tap()
    seats = page.locator("#requests li")
    expect(seats.filter(has_text="Dan")).to_be_visible()
    expect(page.locator('#requests li[data-seat="5"]')).to_have_count(0)
    assert [item.inner_text().strip() for item in seats.all()] == [
        "Ann",
        "Bob",
        "Cat",
        "Dan",
    ]
    verdict = ask_who_buys(page, "Bob", "Dan", "Ann")
    # Written as said (a name stays a name for a screen reader), shown in capitals throughout.
    expect(verdict.locator(".verdict-title")).to_have_text("Dan gets it")
    assert verdict.locator(".verdict-title").inner_text() == "DAN GETS IT"
    # The reason asks it as the form does: whose turn it is, not "the active player".
    expect(verdict.locator(".verdict-reason")).to_contain_text(
        "Dan plays before Ann after Bob, whose turn it is, so Dan gets the discard"
    )
    expect(page.locator("#verdict-context")).to_have_text("Liverpool · 4 players")
    # The round is still the game's after the buying question.
    page.get_by_role("link", name="Can I swap this joker?").tap()
    expect(page.locator("#round")).to_have_value("7")
    page.get_by_role("link", name="← Back to the game").tap()
    expect(page).to_have_url(f"{live_server}/games/{game}")
    expect(page.locator("#round-title")).to_contain_text("Round 7 of 7")


@AT_ONE_SIZE
def test_tabs_keep_a_changed_context_and_offer_only_the_tables_seats(watched):
    page = watched
    page.goto("/rules?q=layoff")
    expect(page.get_by_role("link", name="← Back to the game")).to_have_count(0)
    page.select_option("#rules", "family")
    page.select_option("#round", "5")
    page.locator("#players").fill("6")
    page.get_by_role("link", name="Who gets the discard?").tap()
    expect(page.locator("#rules")).to_have_value("family")
    expect(page.locator("#players")).to_have_value("6")
    expect(page.locator('#requests li[data-seat="6"]')).to_be_visible()
    expect(page.locator('#requests li[data-seat="7"]')).to_have_count(0)
    # Fewer players: the seats beyond the table go at once, before any answer.
    page.locator("#players").fill("3")
    expect(page.locator('#requests li[data-seat="3"]')).to_be_visible()
    expect(page.locator('#requests li[data-seat="4"]')).to_have_count(0)
    expect(page.locator('#active option[value="4"]')).to_have_count(0)
    # More players: their seats come back, and go again.
    page.locator("#players").fill("8")
    expect(page.locator('#requests li[data-seat="8"]')).to_be_visible()
    expect(page.locator('#active option[value="8"]')).to_have_count(1)
    page.locator("#players").fill("3")
    expect(page.locator('#requests li[data-seat="4"]')).to_have_count(0)
    verdict = ask_who_buys(page, "Seat 1", "Seat 3")
    expect(verdict.locator(".verdict-title")).to_have_text("Seat 3 gets it")
    expect(verdict.locator(".verdict-reason")).to_have_text(
        "Seat 3 gets the discard and takes the top stock card as a penalty"
    )
    expect(page.locator("#verdict-context")).to_have_text("Family · 3 players")
    page.get_by_role("link", name="Can I swap this joker?").tap()
    expect(page.locator("#round")).to_have_value("5")
    expect(page.locator("#rules")).to_have_value("family")
    expect(page.locator("#players")).to_have_value("3")


@AT_ONE_SIZE
def test_choosing_shanghai_offers_its_ten_deals_at_once(watched):
    page = watched
    page.goto("/rules?q=layoff")
    rounds = page.locator("#round option")
    expect(rounds).to_have_count(7)
    page.select_option("#round", "6")
    page.select_option("#rules", "shanghai")
    expect(rounds).to_have_count(10)
    expect(page.locator("#round")).to_have_value("6")
    page.select_option("#round", "10")
    expect(page.locator("#players")).to_have_attribute("min", "3")
    page.locator("#meld").fill("5♠ 6♠ 7♠ 8♠")
    page.locator("#layoff_cards").fill("9♠")
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#verdict .verdict-title")).to_have_text("LEGAL")
    expect(page.locator("#verdict-context")).to_have_text("Round 10 of 10 · Shanghai · 4 players")
    # Back to liverpool: its seven deals, the chosen one kept where it exists.
    page.select_option("#rules", "liverpool")
    expect(rounds).to_have_count(7)
    expect(page.locator("#round")).to_have_value("7")
    expect(page.locator("#players")).to_have_attribute("max", "4")


@AT_ONE_SIZE
def test_the_pad_reads_the_white_suits_and_jkr_as_the_referee_does(watched):
    page = watched
    page.goto("/rules?q=meld")
    page.locator("#cards").fill("7♡ 7♢ jkr")
    pad = page.locator(".cardpad")
    for chip in ("remove 7♥", "remove 7♦", "remove JK"):
        expect(pad.get_by_role("button", name=chip)).to_be_visible()
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#verdict .verdict-title")).to_have_text("LEGAL")
    expect(page.locator("#verdict .verdict-reason")).to_contain_text("7♥ 7♦ JK is a legal set")


# Wild cards as wild cards, and the page at every size a table uses, by the LAN name.
SIZES = {**TABLET_VIEWPORTS, "phone": PHONE_VIEWPORT}


def wide(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth")


def asked(page, question, rules="liverpool", **fields):
    """Open a tab, fill its fields, tap Check: the verdict's wild chips as (shown, said)."""
    page.goto(f"/rules?q={question}&rules={rules}")
    for name, text in fields.items():
        page.fill(f"#{name}", text)
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#verdict")).to_be_visible()
    wild = page.locator("#verdict .wild-chip")
    return [
        (chip.locator("[aria-hidden]").inner_text(), chip.locator(".visually-hidden").inner_text())
        for chip in wild.all()
    ]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_wild_cards_read_as_wild_on_every_tab_and_size(tablet, live_server, axe_source, size):
    page = by_lan_name(tablet, live_server, SIZES[size])
    assert asked(page, "meld", cards="Js Jh JK") == [("JK as J", "joker as jack")]
    assert axe_violations(page, axe_source) == []
    assert wide(page) <= SIZES[size]["width"]
    hand = "7♠ 7♥ 2♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦"
    deuce = [("2♦ wild as 7", "2 of diamonds wild as 7")]
    assert asked(page, "solve", "shanghai", hand=hand) == deuce
    assert asked(page, "meld", "shanghai", cards="7♠ 7♥ 2♦") == deuce
    # The line that decides comes first, R11's whole section folded beneath it.
    expect(page.locator("#rule-line")).to_have_text(
        "R11 Shanghai rules: every 2 is wild as well as the jokers."
    )
    expect(page.locator("#verdict details.rule-text li").first).to_be_hidden()
    assert axe_violations(page, axe_source) == []
    assert wide(page) <= SIZES[size]["width"]
    assert page.problems == []


@pytest.mark.parametrize("question", ["opening", "meld", "layoff", "swap", "solve", "buy"])
def test_every_tab_fits_a_phone(tablet, live_server, question):
    """No sideways scroll at 360 px: the rules, round and players pickers wrap to the screen."""
    page = by_lan_name(tablet, live_server, PHONE_VIEWPORT)
    page.goto(f"/rules?q={question}")
    assert wide(page) <= PHONE_VIEWPORT["width"], f"the page is {wide(page)} px wide"
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#verdict, #input-error")).to_be_visible()
    assert wide(page) <= PHONE_VIEWPORT["width"], f"the page is {wide(page)} px wide"
    assert page.problems == []
