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
