"""The rules-check page and the reference page, through the test client."""

import json
import re
from html import unescape
from html.parser import HTMLParser

import pytest

from scorekeeper.referee.questions import TABS
from tests.referee.house_rules import SMITH
from tests.support.book import new_game, play_rounds


@pytest.mark.parametrize("question", sorted(TABS))
def test_every_tab_renders(client, question):
    response = client.get(f"/rules?q={question}")
    assert response.status_code == 200
    assert str(TABS[question].title) in response.get_data(as_text=True)


def test_unknown_tab_is_404(client):
    assert client.get("/rules?q=nonsense").status_code == 404


def post(client, question, **fields):
    data = {"rules": "liverpool", "round": "1", "players": "4", **fields}
    return client.post(f"/rules?q={question}", data=data).get_data(as_text=True)


def test_meld_verdict_shows_reading_and_rule(client):
    html = post(client, "meld", cards="5♠ 6♠ JK 8♠")
    assert "LEGAL" in html and "NOT LEGAL" not in html
    assert "7♠" in html  # what the joker stands for
    assert "R4 Melds" in html


def test_opening_verdict_illegal_contiguous_runs(client):
    html = post(client, "opening", round="3", meld1="3♠ 4♠ 5♠ 6♠", meld2="7♠ 8♠ 9♠ 10♠")
    assert "NOT LEGAL" in html
    assert "R5 Opening" in html


def test_page_and_api_give_the_same_reason(client):
    html = post(
        client, "layoff", round="1", meld="8♣ 8♦ 8♠", layoff_cards="8♥", opened_this_turn="y"
    )
    api = client.post(
        "/api/rules/layoff",
        json={"round": 1, "meld": "8♣ 8♦ 8♠", "cards": "8♥", "opened_this_turn": True},
    ).get_json()
    assert api["legal"] is False
    assert api["reason"].replace("'", "&#39;") in html


def test_bad_card_is_a_form_error_not_a_500(client):
    response = client.post(
        "/rules?q=meld",
        data={"rules": "liverpool", "round": "1", "players": "4", "cards": "7♠ Zq"},
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "CHECK THE CARDS" in html and "Zq" in html


def test_solve_shows_the_melds(client):
    html = post(client, "solve", round="1", hand="7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦")
    assert "CAN GO DOWN" in html
    assert "Keep" in html


def test_buy_names_the_buyer_by_seat_number_from_one(client):
    html = post(client, "buy", active="1", requests=["4", "3"], last_buyer="0")
    # The same seat, numbered from 1, in the title and in the reason.
    assert "Seat 3 gets it" in html
    assert "so Seat 3 gets the discard" in html
    assert "Seat 2" not in html.split('id="verdict"')[1].split("</section>")[0]


def seat_lists(html):
    """The seats each seat list offers: whose turn, who asks, who bought last, buys so far."""
    form = html.split('class="rules-form"')[1].split("</form>")[0]
    form = re.sub(r"<template.*?</template>", "", form, flags=re.S)

    def listed(start, end):
        part = form.split(start)[1].split(end)[0]
        return re.findall(r'data-seat="(\d+)"', part)

    return {
        "active": listed('id="active"', "</select>"),
        "requests": listed('id="requests"', "</ul>"),
        "last_buyer": listed('id="last_buyer"', "</select>"),
        "buys": listed('id="buys"', "</fieldset>") if 'id="buys"' in form else None,
    }


def test_only_the_tables_seats_are_offered(client):
    """A four-player table: every seat list has seats 1 to 4 and no more, hidden or not."""
    html = client.get("/rules?q=buy&players=4&rules=liverpool").get_data(as_text=True)
    four = ["1", "2", "3", "4"]
    assert seat_lists(html) == {"active": four, "requests": four, "last_buyer": four, "buys": None}
    assert 'value="5"' not in html.split('id="requests"')[1].split("</fieldset>")[0]
    five = client.get("/rules?q=buy&players=5&rules=family").get_data(as_text=True)
    assert seat_lists(five)["requests"] == ["1", "2", "3", "4", "5"]


def test_the_number_of_players_comes_first_and_the_seats_follow_without_a_script(client):
    """Players come before the seats; "Show these seats" answers with the chosen table's
    seats, keeping what was chosen and asking nothing yet."""
    html = client.get("/rules?q=buy").get_data(as_text=True)
    form = html.split('class="rules-form"')[1]
    assert form.index('id="players"') < form.index('id="active"')
    assert 'name="reseat"' in form
    answer = client.post(
        "/rules?q=buy",
        data={"rules": "family", "players": "6", "reseat": "1", "active": "2", "requests": ["5"]},
    ).get_data(as_text=True)
    six = ["1", "2", "3", "4", "5", "6"]
    assert seat_lists(answer)["requests"] == six and seat_lists(answer)["active"] == six
    assert 'id="verdict"' not in answer and 'id="input-error"' not in answer
    assert '<option data-seat="2" selected value="2">Seat 2</option>' in answer
    assert '<input checked id="requests-5"' in answer
    # Beyond the rules' table sizes, the rules' own limit stands (liverpool: 3 to 8).
    too_many = client.post(
        "/rules?q=buy", data={"rules": "liverpool", "players": "12", "reseat": "1"}
    ).get_data(as_text=True)
    assert len(seat_lists(too_many)["requests"]) == 4


def test_a_games_seats_are_its_players_by_name(client):
    """Opened from a game of four, the lists are the four players by name, and the table's
    size is the game's."""
    game_id = new_game(client, rules=SMITH.to_json()).id
    html = client.get(f"/rules?q=buy&game={game_id}&players=6").get_data(as_text=True)
    four = ["1", "2", "3", "4"]
    assert seat_lists(html) == {"active": four, "requests": four, "last_buyer": four, "buys": four}
    assert "Seat 5" not in html and "Seat 1" not in html
    for name in ("Ann", "Bob", "Cat", "Dan"):
        assert f">{name}</label>" in html


def test_buy_counts_are_typed_as_numbers_without_spinners(client):
    game_id = new_game(client, rules=SMITH.to_json()).id
    html = client.get(f"/rules?q=buy&game={game_id}").get_data(as_text=True)
    buys = html.split('id="buys"')[1].split("</fieldset>")[0]
    boxes = re.findall(r"<input[^>]*game_buys[^>]*>", buys)
    assert len(boxes) == 4
    for box in boxes:
        assert 'type="text"' in box and 'inputmode="numeric"' in box and "stepper" in box


def test_a_seat_beyond_the_table_is_a_clear_error(client):
    html = post(client, "buy", active="1", requests=["6"], last_buyer="0")
    assert "CHECK THE SEATS" in html
    assert "Request 1 is seat 6, but a 4-player table has seats 1 to 4" in html


def test_a_field_the_form_refuses_is_shown(client):
    html = post(client, "meld", players="12", cards="7♠ 7♥ 7♦")
    assert "CHECK THE CARDS" in html
    assert "Players: Number must be between 2 and 8" in html


def test_reference_page_has_every_rule_and_common_questions(client):
    html = client.get("/rules/reference").get_data(as_text=True)
    for number in range(1, 12):
        assert f'id="r{number}"' in html
    assert "May I lay off on the turn I open?" in html
    assert "Is there a discard in round 7?" in html
    assert "May I keep a joker I take back from a run?" in html


def test_opened_from_a_game_uses_its_seat_names_and_rules(client):
    created = client.post(
        "/api/games",
        json={
            "players": ["Ann", "Bob", "Cat", "Dan", "Eve"],
            "profile": "family",
            "first_dealer": "Ann",
        },
    ).get_json()
    game_id = created["id"]
    html = client.get(f"/rules?q=buy&game={game_id}").get_data(as_text=True)
    assert '<li data-seat="5"><input' in html and ">Eve</label>" in html
    assert 'data-seat="6"' not in html
    # Opened from a game, the page offers that game's rules and no preset.
    assert '<option selected value="game">Family (this game&#39;s rules)</option>' in html
    assert 'value="liverpool"' not in html.split('id="rules"')[1].split("</select>")[0]
    answer = client.post(
        f"/rules?q=buy&game={game_id}",
        data={
            "rules": "game",
            "players": "5",
            "active": "2",
            "requests": ["1", "5"],
            "last_buyer": "0",
        },
    ).get_data(as_text=True)
    assert "Eve gets it" in answer
    assert "Eve plays before Ann after Bob, whose turn it is, so Eve gets the discard" in answer
    assert "Family · 5 players" in answer


def test_opened_from_a_game_it_starts_at_the_current_round(client):
    game = new_game(client)
    game_id = game.id
    play_rounds(client, game, 6)
    html = client.get(f"/rules?q=layoff&game={game_id}").get_data(as_text=True)
    assert '<option selected value="7">' in html
    assert f'href="/games/{game_id}"' in html and "Back to the game" in html
    # Every tab keeps the game, its rules, its round and its players.
    assert f"/rules?q=buy&amp;game={game_id}&amp;round=7&amp;players=4" in html
    answer = client.post(
        f"/rules?q=layoff&game={game_id}",
        data={
            "rules": "game",
            "round": "7",
            "players": "4",
            "meld": "5♠ 6♠ 7♠ 8♠",
            "layoff_cards": "9♠",
        },
    ).get_data(as_text=True)
    assert "NOT LEGAL" in answer
    assert "Round 7 has no laying off" in answer
    assert "Round 7 of 7 · Liverpool · 4 players" in answer


def test_a_finished_game_starts_at_round_7_and_a_new_one_at_round_1(client):
    game = new_game(client)
    game_id = game.id
    assert '<option selected value="1">' in client.get(f"/rules?game={game_id}").get_data(
        as_text=True
    )
    play_rounds(client, game, 7)
    assert '<option selected value="7">' in client.get(f"/rules?game={game_id}").get_data(
        as_text=True
    )


def test_the_context_a_tab_was_given_is_kept(client):
    html = client.get("/rules?q=swap&rules=online&round=5&players=6").get_data(as_text=True)
    assert '<option selected value="online">' in html
    assert '<option selected value="5">' in html
    assert 'value="6"' in html.split('id="players"')[1].split(">")[0]
    assert "/rules?q=meld&amp;rules=online&amp;round=5&amp;players=6" in html
    assert "Back to the game" not in html


def test_context_that_does_not_fit_is_ignored(client):
    html = client.get("/rules?q=meld&profile=vegas&round=9&players=30").get_data(as_text=True)
    assert '<option selected value="liverpool">' in html
    assert '<option selected value="1">' in html


def test_game_page_links_to_the_rules_check(client):
    game_id = new_game(client).id
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/rules?game={game_id}" in html
    assert f"/rules?q=buy&amp;game={game_id}" in html


def test_unknown_game_is_404(client):
    assert client.get("/rules?game=999").status_code == 404


def test_reference_page_shows_the_updated_rulebook(client):
    html = client.get("/rules/reference").get_data(as_text=True)
    # R1: the accepted spellings and the errors.
    assert "the white ♤ ♡ ♢ ♧" in html and "JKR" in html and "semicolons" in html
    assert "JK=, JK=JK, JK=7♠=8♠" in html and "brackets included" in html
    # R6: only the contract's melds can be on the table.
    assert "no run in rounds 1 and 4, no set in round 3" in html
    # R11: online packs, the joker swap on the opening turn, and how a house rule is cited.
    assert "2 packs for 3–5 players, 3 for 6–8; jokers: 2" in html
    assert "2 packs for 3–4 players, 3 for 5–8; jokers: 2 a pack" in html
    swap_row = html.split("Swap on the opening turn</td>")[1].split("</tr>")[0]
    assert swap_row == (
        "<td>no</td><td>no</td><td>yes</td><td>yes</td><td>no</td><td>no</td><td>yes</td>"
    )
    assert "cites R11 and names the rule set" in html
    # Shanghai's ten deals, its values and its wild deuces.
    deals_row = html.split("<td>Deals</td>")[1].split("</tr>")[0]
    assert deals_row == ("<td>7</td><td>7</td><td>7</td><td>7</td><td>10</td><td>10</td><td>7</td>")
    contracts = html.split("<td>Contracts</td>")[1].split("</tr>")[0].split("<td>")[1:]
    assert [len(cell.split(" · ")) for cell in contracts] == [7, 7, 7, 7, 10, 10, 7]
    assert "whole hand" in contracts[0]
    wild_row = html.split("<td>Wild deuces</td>")[1].split("</tr>")[0]
    assert wild_row == (
        "<td>no</td><td>no</td><td>no</td><td>no</td><td>yes</td><td>no</td><td>no</td>"
    )


def test_a_blank_player_count_is_the_games(client):
    game_id = new_game(client, names=("Ann", "Bob", "Cat", "Dan", "Eve"), profile="family").id
    html = client.post(
        f"/rules?q=buy&game={game_id}",
        data={"rules": "game", "players": "", "active": "1", "requests": ["5"]},
    ).get_data(as_text=True)
    assert "Eve gets it" in html
    assert "Family · 5 players" in html


def test_opened_alone_it_offers_the_five_presets_with_their_deals(client):
    html = client.get("/rules?q=opening").get_data(as_text=True)
    select = html.split('id="rules"')[1].split("</select>")[0]
    for key in ("liverpool", "contract", "online", "family", "shanghai"):
        assert f'value="{key}"' in select
    script = json.loads(unescape(html.split("data-rules='")[1].split("'")[0]))
    assert len(script["shanghai"]["deals"]) == 10 and script["liverpool"]["players"] == [4, 4]
    assert script["online"]["players"] == [3, 8]
    # Liverpool's opening: exact sizes and its whole-hand seventh deal; three meld fields.
    assert "Each meld of the contract is exactly its size; round 7 lay" in html
    assert 'name="meld3"' in html and 'name="meld4"' not in html


def test_shanghai_rounds_go_to_ten_and_take_four_melds(client):
    html = client.get("/rules?q=opening&rules=shanghai&round=9").get_data(as_text=True)
    assert '<option selected value="9">' in html and 'value="10"' in html
    assert 'value="11"' not in html.split('id="round"')[1].split("</select>")[0]
    assert 'name="meld4"' in html and 'name="meld5"' not in html
    assert "Each meld of the contract is at least its size." in html
    assert 'min="3"' in html.split('id="players"')[1].split(">")[0]


def test_a_shanghai_answer_names_the_deal_of_ten(client):
    html = post(
        client, "layoff", rules="shanghai", round="10", meld="5♠ 6♠ 7♠ 8♠ 9♠", layoff_cards="10♠"
    )
    assert "LEGAL" in html and "NOT LEGAL" not in html
    assert "Round 10 of 10 · Shanghai · 4 players" in html


def test_a_player_count_the_rules_refuse_is_named(client):
    html = post(client, "meld", players="5", cards="7♠ 7♥ 7♦")
    assert "CHECK THE CARDS" in html
    assert "5 players: liverpool rules are for exactly 4 players" in html


def test_opened_from_a_shanghai_game_it_offers_its_ten_deals(client):
    game_id = new_game(client, names=("Ann", "Bob", "Cat"), profile="shanghai").id
    html = client.get(f"/rules?q=swap&game={game_id}&round=10").get_data(as_text=True)
    assert '<option selected value="game">Shanghai (this game&#39;s rules)</option>' in html
    assert '<option selected value="10">' in html
    answer = client.post(
        f"/rules?q=swap&game={game_id}",
        data={"rules": "game", "round": "1", "players": "3", "meld": "7♠ 7♥ JK", "card": "7♣"},
    ).get_data(as_text=True)
    assert "LEGAL" in answer and "NOT LEGAL" not in answer
    assert "shanghai rules: a set&#39;s joker may be swapped too" in answer
    assert "Round 1 of 10 · Shanghai · 3 players" in answer


def test_a_games_buy_limits_get_a_count_a_seat(client):
    """A game played under rules that limit buying (3 a game): the buy tab asks each seat's
    buys so far, and passes over a player at the limit by name."""
    game_id = new_game(client, rules=SMITH.to_json()).id
    html = client.get(f"/rules?q=buy&game={game_id}").get_data(as_text=True)
    buys = html.split('id="buys"')[1].split("</fieldset>")[0]
    assert "Buys so far — Smith family rules allow 3 a game" in buys
    assert 'aria-label="Ann: buys this game"' in buys and "this deal" not in buys
    answer = client.post(
        f"/rules?q=buy&game={game_id}",
        data={
            "rules": "game",
            "active": "1",
            "requests": ["2", "3"],
            "last_buyer": "0",
            "game_buys2": "3",
            "game_buys3": "1",
        },
    ).get_data(as_text=True)
    assert "Cat gets it" in answer
    assert "Bob has bought 3 times this game: Smith family rules allow 3 a game" in answer


def test_no_buy_counts_where_the_rules_set_no_limit(client):
    html = client.get("/rules?q=buy&rules=shanghai").get_data(as_text=True)
    assert 'id="buys"' not in html


def test_the_cards_left_field_asks_for_a_number_of_cards(client):
    """The field takes a count, and its label says so (not "Cards left", which reads as cards)."""
    html = client.get("/rules?q=opening").get_data(as_text=True)
    assert "Number of cards left in hand afterwards (optional)" in html


class Chips(HTMLParser):
    """The verdict's card chips: each as (what it shows, what a screen reader says)."""

    def __init__(self, html: str):
        super().__init__()
        self.chips: list[tuple[str, str]] = []
        self._open: list[str] = []  # the class of each element open inside a chip
        self._shown: list[str] = []
        self._said: list[str] = []
        self.feed(html.split('id="verdict"')[1].split("</section>")[0])

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if "card-chip" in classes:
            self._open = ["chip"]
            self._shown, self._said = [], []
        elif self._open:
            hidden = "visually-hidden" in classes
            self._open.append("said" if hidden else "shown" if attrs.get("aria-hidden") else "")

    def handle_endtag(self, tag):
        if not self._open:
            return
        self._open.pop()
        if not self._open:
            shown = "".join(self._shown).strip()
            said = "".join(self._said).strip() or shown
            self.chips.append((" ".join(shown.split()), " ".join(said.split())))

    def handle_data(self, data):
        if not self._open:
            return
        if "said" in self._open:
            self._said.append(data)
        elif "shown" in self._open:
            self._shown.append(data)
        else:
            self._shown.append(data)
            self._said.append(data)


def chips(html: str) -> list[tuple[str, str]]:
    return Chips(html).chips


def test_a_joker_in_a_set_shows_as_a_joker_standing_for_the_rank(client):
    shown = chips(post(client, "meld", cards="Js Jh JK"))
    assert shown == [("J♠", "J♠"), ("J♥", "J♥"), ("JK as J", "joker as jack")]


def test_a_joker_in_a_run_says_the_card_it_stands_for(client):
    shown = chips(post(client, "meld", cards="5♠ 6♠ JK 8♠"))
    assert shown[2] == ("JK as 7♠", "joker as 7 of spades")


def test_a_wild_deuce_shows_as_a_wild_2(client):
    sevens = chips(post(client, "meld", rules="shanghai", cards="7s 7h 2s"))
    assert sevens[2] == ("2♠ wild as 7", "2 of spades wild as 7")
    run = chips(post(client, "meld", rules="shanghai", cards="5♠ 6♠ 2h 8♠"))
    assert run[2] == ("2♥ wild as 7♠", "2 of hearts wild as 7 of spades")


def test_the_solver_and_the_meld_tab_show_the_same_wild_cards(client):
    meld = chips(post(client, "meld", rules="shanghai", cards="7♠ 7♥ 2♦"))
    hand = "7♠ 7♥ 2♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦"
    solved = chips(post(client, "solve", rules="shanghai", hand=hand))
    assert (
        solved[:3]
        == meld
        == [("7♠", "7♠"), ("7♥", "7♥"), ("2♦ wild as 7", "2 of diamonds wild as 7")]
    )
    joker = chips(post(client, "solve", hand="7♠ 7♥ JK 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"))
    assert joker[2] == chips(post(client, "meld", cards="7♠ 7♥ JK"))[2] == ("JK as 7", "joker as 7")
    # The cards kept are plain cards, as before.
    assert joker[-2:] == [("8♦", "8♦"), ("A♥", "A♥")]


def test_the_opening_layoff_and_swap_tabs_show_wild_cards_too(client):
    opening = chips(post(client, "opening", meld1="Q♠ Q♥ JK", meld2="9♠ 9♥ 9♦"))
    assert opening[2] == ("JK as Q", "joker as queen")
    layoff = chips(post(client, "layoff", round="2", meld="3♠ 4♠ 5♠ 6♠", layoff_cards="JK"))
    assert layoff[0] == ("JK as 2♠", "joker as 2 of spades")
    swap = chips(post(client, "swap", round="2", meld="5♥ JK JK 8♥", card="6♥"))
    assert swap == [("5♥", "5♥"), ("6♥", "6♥"), ("JK as 7♥", "joker as 7 of hearts"), ("8♥", "8♥")]


def rule_shown(html: str) -> tuple[str, bool]:
    """The verdict's rule line (tags left out) and whether its whole section is shown open."""
    verdict = html.split('id="verdict"')[1].split("</section>")[0]
    line = (
        verdict.split('id="rule-line">')[1].split("</p>")[0] if 'id="rule-line"' in verdict else ""
    )
    details = verdict.split('<details class="rule-text"')[1].split(">")[0]
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", line).split())), "open" in details


def test_a_verdict_shows_the_line_that_decides_and_folds_its_section(client):
    line, opened = rule_shown(post(client, "meld", cards="Js Jh JK"))
    assert (
        line == "R4.3 A joker stands for one missing card. Every meld needs at least one real card."
    )
    assert not opened
    touching = post(client, "opening", round="3", meld1="3♠ 4♠ 5♠ 6♠", meld2="7♠ 8♠ 9♠ 10♠")
    assert rule_shown(touching)[0].startswith("R5.2 Two runs of the same suit may not touch")
    assert "R5 Opening" in touching  # the whole section, folded beneath


def test_a_house_rule_verdict_shows_the_rule_sets_own_words_not_all_of_r11(client):
    html = post(client, "meld", rules="shanghai", cards="7s 7h 2s")
    line, opened = rule_shown(html)
    assert line == "R11 Shanghai rules: every 2 is wild as well as the jokers."
    assert not opened
    html = post(
        client, "layoff", rules="online", meld="8♠ 8♦ 8♣", layoff_cards="8♥", opened_this_turn="y"
    )
    assert rule_shown(html)[0] == "R11 Online rules: a player may lay off on the turn they open."


def test_a_verdict_names_the_rule_set_it_applied(client):
    html = post(
        client, "layoff", rules="shanghai", round="3", meld="5♠ 6♠ 7♠ 8♠", layoff_cards="2♣"
    )
    said = re.search(r'id="verdict-rules">([^<]*)<', html)
    assert said is not None
    assert unescape(said.group(1)) == (
        "Judged by Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit"
    )
    # The lay-off needs the 2♣ wild: the reason names the rules and R11 decides.
    assert "shanghai rules: the 2♣ is wild here, standing for 4♠." in unescape(html)
