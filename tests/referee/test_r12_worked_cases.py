"""R12.5's worked cases through the referee's JSON API and its rules-check page, under the
`carioca` and `continental` presets a table picks by name: the answer, its reason in words and
the rule it rests on, and the rule set it applied."""

from __future__ import annotations

from html import unescape

import pytest

from tests.support.names import NAMES

SPADES = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"

# (question, rule set, body, legal, words the reason holds)
CASES = [
    ("opening", "carioca", {"round": 2, "melds": ["7♥ 7♣ JK", "Q♦ K♦ A♦ 2♦"]}, True, "ace wraps"),
    (
        "opening",
        "carioca",
        {"round": 2, "melds": ["7♥ JK JK", "3♠ 4♠ 5♠ 6♠"]},
        False,
        "holds at most 1 wild card",
    ),
    (
        "opening",
        "carioca",
        {"round": 1, "melds": ["9♠ 9♥ 9♦", "9♣ 9♠ 9♥"]},
        False,
        "different ranks",
    ),
    ("layoff", "carioca", {"round": 3, "meld": "4♣ 5♣ 6♣ JK=7♣", "cards": "JK=8♣"}, False, "apart"),
    ("layoff", "carioca", {"round": 3, "meld": "4♣ 5♣ 6♣ JK=7♣", "cards": "JK=3♣"}, True, "3♣"),
    ("opening", "carioca", {"round": 10, "melds": [SPADES], "left": 0}, True, "1 run of 13"),
    (
        "opening",
        "carioca",
        {"round": 10, "melds": [SPADES.replace("9♠", "JK")], "left": 0},
        False,
        "no wild card",
    ),
    (
        "opening",
        "carioca",
        {"round": 9, "melds": ["A♠ 2♥ 3♦ 4♣ 5♠ 6♥ 7♦ 8♣ 9♠ 10♥ J♦ Q♣ K♠"], "left": 0},
        True,
        "in any suits",
    ),
    ("take", "carioca", {"gone_down": True}, False, "only from the stock"),
    ("throw", "carioca", {"card": "JK"}, False, "never discarded"),
    (
        "solve",
        "continental",
        {"round": 1, "hand": "8♠ 8♥ 8♦ 8♣ Q♣ Q♦ Q♥ 3♥"},
        True,
        "keeping",
    ),
    ("meld", "continental", {"cards": "J♥ Q♥ K♥ A♥ 2♥"}, True, "ace wraps"),
    ("meld", "continental", {"cards": "JK=3♥ JK=4♥ 5♥ 6♥"}, False, "0 natural cards between"),
    ("meld", "continental", {"cards": "JK=4♥ 5♥ 6♥ JK=7♥"}, True, "4♥ 5♥ 6♥ 7♥"),
]


@pytest.mark.parametrize(("question", "rules", "body", "legal", "said"), CASES)
def test_r12_5_through_the_api(client, question, rules, body, legal, said):
    answer = client.post(f"/api/rules/{question}", json={"rules": rules, "players": 4, **body})
    assert answer.status_code == 200, answer.get_json()
    verdict = answer.get_json()
    assert verdict["legal"] is legal and said in verdict["reason"], verdict["reason"]
    assert verdict["rule_set"]["name"] == rules.capitalize()
    if not legal and question != "solve":
        assert verdict["rule"] in ("R5", "R11", "R12"), verdict["rule"]


@pytest.mark.parametrize("rules", ["carioca", "continental"])
def test_a_game_under_r12s_presets_scores_r12_5s_hands(client, rules):
    """A♠ K♦ 4♥ left in hand scores 34, K♣ A♥ 5♦ JK 85; continental's player who went down and
    out in one turn scores −10 (R12.2 point 5)."""
    started = client.post(
        "/api/games", json={"players": NAMES, "profile": rules, "first_dealer": "Bob"}
    )
    assert started.status_code == 201, started.get_json()
    game = started.get_json()
    key = {"X-Game-Key": game["key"]}
    leftovers = {"Ann": "A♠ K♦ 4♥", "Bob": "K♣ A♥ 5♦ JK", "Dan": "7"}
    one_turn = {"out_in_one_turn": True} if rules == "continental" else {}
    answer = client.post(
        f"/api/games/{game['id']}/rounds",
        json={"out": "Cat", "leftovers": leftovers, **one_turn},
        headers=key,
    )
    assert answer.status_code == 201, answer.get_json()
    out = -10 if rules == "continental" else 0
    assert answer.get_json()["scores"] == {"Ann": 34, "Bob": 85, "Cat": out, "Dan": 7}


def test_the_rules_check_page_answers_r12_5_under_carioca(client):
    def post(question, **fields):
        data = {"rules": "carioca", "round": "2", "players": "4", **fields}
        return unescape(client.post(f"/rules?q={question}", data=data).get_data(as_text=True))

    legal = post("opening", meld1="7♥ 7♣ JK", meld2="Q♦ K♦ A♦ 2♦")
    assert "LEGAL" in legal and "NOT LEGAL" not in legal
    assert "carioca rules: the ace wraps, so Q K A 2 is a run." in legal
    refused = post("opening", meld1="7♥ JK JK", meld2="3♠ 4♠ 5♠ 6♠")
    assert "NOT LEGAL" in refused
    assert "a meld of the opening holds at most 1 wild card; 7♥ JK JK has 2 wild cards" in refused
    escala = post("opening", round="9", meld1="A♠ 2♥ 3♦ 4♣ 5♠ 6♥ 7♦ 8♣ 9♠ 10♥ J♦ Q♣ K♠")
    assert "LEGAL" in escala and "1 run of 13 in any suits" in escala
