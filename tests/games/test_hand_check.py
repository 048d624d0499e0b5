"""The one check of a hand (`roundvalues.check_hand`): its coded refusals, and the same words on
every path a hand is typed on (the JSON API's round, a phone's send)."""

from __future__ import annotations

import pytest

from scorekeeper.games.errors import HandRefused
from scorekeeper.games.roundvalues import Hand, check_hand, read_cards
from scorekeeper.rules.ruleset import LIVERPOOL
from tests.support.book import new_game


def refusal(hand: Hand, **how) -> HandRefused:
    with pytest.raises(HandRefused) as caught:
        check_hand(hand, LIVERPOOL, 4, **how)
    return caught.value


def test_a_hand_by_its_cards_reads_them_in_order_with_their_penalty():
    hand = check_hand(Hand("cards", cards="7 K A♠"), LIVERPOOL, 4)
    assert (hand.kind, hand.text, hand.points, hand.penalty) == ("cards", "A♠ 7 K", None, 32)
    listed = check_hand(Hand("cards", cards=["JK", "3♣"]), LIVERPOOL, 4)
    assert (listed.text, listed.penalty) == ("3♣ JK", 18)


def test_points_and_going_out_count_as_given():
    assert check_hand(Hand("points", points=25), LIVERPOOL, 4).penalty == 25
    assert check_hand(Hand("points", points=0), LIVERPOOL, 4, went_out=True).penalty == 0
    out = check_hand(Hand("out"), LIVERPOOL, 4)
    assert (out.kind, out.cards, out.penalty) == ("out", (), 0)


@pytest.mark.parametrize(
    ("hand", "how", "code", "words"),
    [
        (Hand("cards", cards="7 Z"), {}, "not_card", "'Z' (card 2) is not a card"),
        (Hand("points", points=-3), {}, "points", "-3 points cannot be"),
        (Hand("points", points=5), {"went_out": True}, "points", "scores 0, not 5 (R10)"),
        (Hand("points", points="x"), {}, "points", "must be a whole number, not 'x'"),
        (Hand("cards", cards=""), {"alone": True}, "no_cards", "no cards given"),
        (
            Hand("cards", cards="JK JK JK JK JK"),
            {"alone": True},
            "over",
            "5 jokers, but this game has only 3",
        ),
        (Hand("folded"), {}, "kind", "send the cards left in hand"),
    ],
)
def test_each_refusal_has_its_code(hand, how, code, words):
    refused = refusal(hand, **how)
    assert refused.code == code
    assert words in refused.message
    assert refused.status == 400


def test_in_a_round_an_empty_hand_and_copies_are_judged_across_the_hands():
    assert check_hand(Hand("cards", cards=""), LIVERPOOL, 4).cards == ()
    assert check_hand(Hand("cards", cards="JK JK JK JK JK"), LIVERPOOL, 4).penalty == 75


def test_reading_the_cards_alone_refuses_as_the_check_does():
    with pytest.raises(HandRefused) as caught:
        read_cards("A Q?")
    assert caught.value.code == "not_card"
    assert caught.value.message == refusal(Hand("cards", cards="A Q?")).message


def test_the_api_round_and_a_phone_refuse_a_card_in_the_same_words(client):
    game = new_game(client)
    words = refusal(Hand("cards", cards="7 Z")).message
    round_answer = client.post(
        f"/api/games/{game.id}/rounds",
        json={"out": "Cat", "leftovers": {"Ann": "7 Z", "Bob": "5", "Dan": "5"}},
        headers=game.write_headers,
    )
    assert round_answer.status_code == 400
    assert round_answer.get_json()["problems"]["leftovers.Ann"] == words
    opened = client.post(f"/api/games/{game.id}/rounds/1/open", headers=game.write_headers)
    code = opened.get_json()["code"]
    token = client.post(f"/api/join/{code}", json={"seat": "Ann"}).get_json()["token"]
    sent = client.put(
        f"/api/join/{code}/hand", json={"cards": "7 Z"}, headers={"X-Seat-Token": token}
    )
    assert sent.status_code == 400
    assert sent.get_json()["error"] == words
