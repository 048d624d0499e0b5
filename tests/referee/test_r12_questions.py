"""The referee under R12.3's settings, through the JSON API and the rules-check page: the
discard questions a table argues about, "May I take the top discard?" once gone down
(`discard_draw_after_opening`) and "May I discard this card?" for a wild card (`discard_wild`),
where a swapped-out joker goes (`freed_joker_to`), no buying nor taking several discards
(`buying.take_several`) and sets of different ranks (`distinct_set_ranks`); every problem a clear
400 or form error."""

from __future__ import annotations

import pytest

from tests.support.book import new_game
from tests.support.names import NAMES

SANTIAGO = {
    "version": 2,
    "name": "Santiago",
    "discard_wild": False,
    "discard_draw_after_opening": False,
}


def ask(client, question, body, **headers):
    return client.post(f"/api/rules/{question}", json=body, headers=headers)


def test_a_player_who_has_gone_down_draws_from_the_stock_under_the_tables_rules(client):
    answer = ask(client, "take", {"gone_down": True, "rules": SANTIAGO}).get_json()
    assert answer["legal"] is False
    assert answer["reason"] == (
        "Santiago rules: a player who has gone down draws only from the stock, "
        "never the top discard"
    )
    assert answer["rule"] == "R11" and answer["settings"] == ["discard_draw_after_opening"]
    assert answer["code"] == "discard.no_take_down"
    assert answer["rule_set"]["name"] == "Santiago"
    assert ask(client, "take", {"gone_down": False, "rules": SANTIAGO}).get_json()["legal"]
    assert ask(client, "take", {"gone_down": True}).get_json()["legal"]  # liverpool's


def test_a_joker_is_never_discarded_under_the_tables_rules(client):
    answer = ask(client, "throw", {"card": "JK", "rules": SANTIAGO}).get_json()
    assert answer["legal"] is False and answer["settings"] == ["discard_wild"]
    assert (
        answer["reason"] == "Santiago rules: a wild card is never discarded, and JK is a wild card"
    )
    assert ask(client, "throw", {"card": "7♠", "rules": SANTIAGO}).get_json()["legal"]
    assert ask(client, "throw", {"card": "JK"}).get_json()["legal"]


def test_a_games_rules_decide(client):
    game = new_game(client, NAMES, SANTIAGO)
    answer = ask(client, "throw", {"card": "JK", "game": game.id}).get_json()
    assert answer["legal"] is False and answer["rule_set"]["name"] == "Santiago"


@pytest.mark.parametrize(
    ("question", "body", "error"),
    [
        ("throw", {"card": "JK 7♠"}, "'card' is the one card to discard, not 2"),
        ("throw", {}, "card"),
        ("throw", {"card": "7"}, "has no suit"),
        ("take", {"gone_down": "yes"}, "gone_down"),
    ],
)
def test_bad_questions_are_a_400_naming_the_problem(client, question, body, error):
    response = ask(client, question, body)
    assert response.status_code == 400
    assert error in response.get_json()["error"]


def test_the_answer_is_in_the_askers_language(client):
    answer = ask(client, "throw", {"card": "JK", "rules": SANTIAGO}, **{"Accept-Language": "fi"})
    reason = answer.get_json()["reason"]
    assert reason.startswith("Santiago") and "JK" in reason and "wild card" not in reason


def test_the_page_answers_without_a_script_from_a_games_rules(client):
    game = new_game(client, NAMES, SANTIAGO)
    page = client.get(f"/rules?q=take&game={game.id}").get_data(as_text=True)
    assert "I have gone down already this deal" in page
    html = client.post(
        f"/rules?q=take&game={game.id}", data={"gone_down": "y", "players": "4"}
    ).get_data(as_text=True)
    assert "DRAW FROM THE STOCK" in html
    assert "a player who has gone down draws only from the stock" in html
    html = client.post(
        f"/rules?q=throw&game={game.id}", data={"discard": "JK", "players": "4"}
    ).get_data(as_text=True)
    assert "NOT THIS CARD" in html
    html = client.post(
        f"/rules?q=throw&game={game.id}", data={"discard": "", "players": "4"}
    ).get_data(as_text=True)
    assert 'id="input-error"' in html and "holds no cards" in html


def test_a_swap_says_where_the_freed_joker_goes_under_the_tables_rules(client):
    madrid = {"version": 2, "name": "Madrid", "joker_swap": "runs", "freed_joker_to": "run"}
    body = {"round": 2, "meld": "7♠ 8♠ JK 10♠", "card": "9♠", "rules": madrid}
    answer = ask(client, "swap", body).get_json()
    assert answer["legal"] and answer["joker_to"] == "lay it off on a run this turn"
    assert answer["settings"] == ["freed_joker_to"]
    spoken = ask(client, "swap", body, **{"Accept-Language": "es-MX"}).get_json()
    assert "corrida" in spoken["reason"] and "escalera" not in spoken["reason"]


def test_with_no_buying_and_no_taking_several_the_buy_question_says_so(client):
    carioca_like = {"version": 2, "name": "Santiago", "buying": {"allowed": False}}
    body = {"players": 4, "active": 1, "requests": [3]}
    several = ask(client, "buy", {**body, "rules": carioca_like}).get_json()
    assert several["code"] == "buy.no_buying" and "take several discards" in several["reason"]
    carioca_like["buying"]["take_several"] = False
    answer = ask(client, "buy", {**body, "rules": carioca_like}).get_json()
    assert answer["legal"] is False and answer["code"] == "buy.no_buying_top_only"
    assert answer["reason"] == (
        "Santiago rules have no buying, and a player takes only the top discard, never several"
    )


def test_two_sets_of_one_rank_are_refused_as_an_opening_and_by_the_search(client):
    apart = {"version": 2, "name": "Santiago", "distinct_set_ranks": True}
    body = {"round": 1, "melds": ["9♠ 9♥ 9♦", "9♣ 9♠ 9♥"], "rules": apart}
    answer = ask(client, "opening", body).get_json()
    assert answer["legal"] is False and answer["code"] == "laid.same_rank"
    assert answer["settings"] == ["distinct_set_ranks"]
    solved = ask(
        client, "solve", {"round": 1, "hand": "9♠ 9♥ 9♦ 9♣ 9♠ 9♥ 3♣ 4♦ K♠ Q♥ 2♣", "rules": apart}
    ).get_json()
    assert solved["legal"] is False and solved["code"] == "solver.same_rank"
    mexico = ask(client, "opening", body, **{"Accept-Language": "es-MX"}).get_json()
    assert "tercias" in mexico["reason"] and "tríos" not in mexico["reason"]


# A table's own rules that buy and keep a player who has gone down from the discard.
TALCA = {
    "version": 2,
    "name": "Talca",
    "discard_draw_after_opening": False,
    "buying": {"allowed": True},
}
SEATED = {"players": 4, "active": 1, "names": ["Ana", "Beto", "Caro", "Dani"]}


def test_a_buyer_who_has_gone_down_is_passed_over_under_the_tables_rules(client):
    body = {**SEATED, "requests": [2, 3], "down": [2], "rules": TALCA}
    answer = ask(client, "buy", body).get_json()
    assert answer["buyer"] == 3 and answer["buyer_name"] == "Caro"
    assert answer["reason"] == (
        "Beto has gone down, and under Talca rules a player who has gone down takes no "
        "discard, so Caro gets the discard and takes the top stock card as a penalty"
    )
    assert answer["rule"] == "R11" and answer["settings"] == ["discard_draw_after_opening"]
    # Nobody else asked: nobody buys it.
    alone = ask(client, "buy", {**body, "requests": [2]}).get_json()
    assert alone["buyer"] is None and alone["legal"] is False
    assert alone["code"] == "buy.skipped_all"
    assert alone["reason"].endswith("takes no discard, so nobody buys it")
    # Liverpool's players may take a discard once down: Beto plays first and gets it.
    liverpool = ask(client, "buy", {**body, "rules": "liverpool"}).get_json()
    assert liverpool["buyer"] == 2 and liverpool["rule"] == "R8"


@pytest.mark.parametrize(
    ("down", "error"),
    [
        (5, "'down' must be a list"),
        (["2"], "seat down 1 must be a seat number from 1 to 4, not '2'"),
        ([2, 9], "seat down 2 is seat 9, but a 4-player table has seats 1 to 4"),
    ],
)
def test_bad_seats_down_are_a_400_naming_them(client, down, error):
    body = {**SEATED, "requests": [2], "down": down, "rules": TALCA}
    response = ask(client, "buy", body)
    assert response.status_code == 400
    assert error in response.get_json()["error"]


def test_the_page_asks_who_has_gone_down_only_where_the_rules_keep_them_from_the_discard(
    client,
):
    game = new_game(client, NAMES[:4], TALCA)
    page = client.get(f"/rules?q=buy&game={game.id}").get_data(as_text=True)
    assert 'name="down"' in page and "Who has gone down this deal?" in page
    plain = new_game(client, NAMES[:4])
    assert 'name="down"' not in client.get(f"/rules?q=buy&game={plain.id}").get_data(as_text=True)
    html = client.post(
        f"/rules?q=buy&game={game.id}",
        data={"active": "1", "requests": ["2", "3"], "down": ["2"], "last_buyer": "0"},
    ).get_data(as_text=True)
    assert f"{NAMES[1]} has gone down" in html
    assert f"{NAMES[2].upper()} GETS IT" in html.upper()
