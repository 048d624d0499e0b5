"""The referee's JSON API, exactly as other tools call it."""

import pytest

from scorekeeper.games.errors import HandRefused
from scorekeeper.games.roundvalues import Hand, check_hand
from scorekeeper.rules.ruleset import PRESETS, RuleSet
from tests.support.book import new_game


def ask(client, question, body):
    return client.post(f"/api/rules/{question}", json=body)


def test_meld_example_from_the_contract(client):
    response = ask(client, "meld", {"cards": "5♠ 6♠ JK 8♠"})
    assert response.status_code == 200
    data = response.get_json()
    assert data["legal"] is True
    assert data["kind"] == "run"
    assert data["readings"] == [["5♠", "6♠", "7♠", "8♠"]]
    assert data["rule"] == "R4"
    assert data["reason"]


def test_meld_accepts_a_list_of_cards(client):
    data = ask(client, "meld", {"cards": ["7s", "7h", "7d"]}).get_json()
    assert data["legal"] is True and data["kind"] == "set"


def test_meld_reports_every_reading(client):
    data = ask(client, "meld", {"cards": "5♠ 6♠ 7♠ JK"}).get_json()
    assert data["legal"] is True
    assert sorted(data["readings"]) == sorted([["4♠", "5♠", "6♠", "7♠"], ["5♠", "6♠", "7♠", "8♠"]])


def test_meld_declared_joker_fixes_its_place(client):
    data = ask(client, "meld", {"cards": "5♠ 6♠ 7♠ JK=8♠"}).get_json()
    assert data["readings"] == [["5♠", "6♠", "7♠", "8♠"]]


def test_meld_wrapping_run_is_not_legal(client):
    data = ask(client, "meld", {"cards": "K♠ A♠ 2♠ 3♠"}).get_json()
    assert data["legal"] is False
    assert data["rule"] == "R4"
    assert data["readings"] == []


def test_opening_example_from_the_contract(client):
    body = {"round": 2, "melds": ["7♣ 7♦ 7♥", "3♠ 4♠ 5♠ 6♠"], "left": 4}
    data = ask(client, "opening", body).get_json()
    assert data["legal"] is True
    assert data["melds"] == [["7♣", "7♦", "7♥"], ["3♠", "4♠", "5♠", "6♠"]]


def test_opening_contiguous_runs_refused(client):
    body = {"round": 3, "melds": ["3♠ 4♠ 5♠ 6♠", "7♠ 8♠ 9♠ 10♠"]}
    data = ask(client, "opening", body).get_json()
    assert data["legal"] is False
    assert data["rule"] == "R5"
    assert "touch" in data["reason"]


def test_opening_needs_a_card_left_for_the_discard(client):
    body = {"round": 1, "melds": ["7♠ 7♥ 7♦", "9♠ 9♥ 9♦"], "left": 0}
    assert ask(client, "opening", body).get_json()["legal"] is False


def test_round_seven_whole_hand(client):
    body = {"round": 7, "melds": ["A♠ 2♠ 3♠ 4♠", "5♥ 6♥ 7♥ 8♥", "9♦ 10♦ J♦ Q♦ K♦"], "left": 0}
    assert ask(client, "opening", body).get_json()["legal"] is True
    body["left"] = 1
    assert ask(client, "opening", body).get_json()["legal"] is False


def test_layoff_onto_a_meld_the_round_cannot_have(client):
    body = {"round": 1, "meld": "3♠ 4♠ 5♠ 6♠", "cards": "7♠"}
    data = ask(client, "layoff", body).get_json()
    assert data["legal"] is False and data["rule"] == "R6"
    assert "only sets are on the table" in data["reason"]


def test_malformed_joker_declaration_is_a_400(client):
    response = ask(client, "meld", {"cards": "5♠ 6♠ JK= 8♠"})
    assert response.status_code == 400
    assert "'JK=' (card 3)" in response.get_json()["error"]


def test_layoff_on_the_opening_turn_refused(client):
    body = {"round": 3, "meld": "3♠ 4♠ 5♠ 6♠", "cards": "7♠", "opened_this_turn": True}
    data = ask(client, "layoff", body).get_json()
    assert data["legal"] is False and data["rule"] == "R6"
    body["opened_this_turn"] = False
    assert ask(client, "layoff", body).get_json()["legal"] is True


def test_swap_exact_card_only(client):
    body = {"round": 3, "meld": "7♠ 8♠ JK 10♠", "card": "9♠", "opened_this_turn": False}
    data = ask(client, "swap", body).get_json()
    assert data["legal"] is True and data["rule"] == "R7"
    body["card"] = "9♥"
    assert ask(client, "swap", body).get_json()["legal"] is False


def test_solve_finds_the_worked_opening(client):
    hand = "7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦"
    data = ask(client, "solve", {"round": 1, "hand": hand}).get_json()
    assert data["legal"] is True
    assert len(data["melds"]) == 2
    used = [card for meld in data["melds"] for card in meld]
    assert sorted(used + data["left"]) == sorted(hand.split())
    assert ask(client, "opening", {"round": 1, "melds": data["melds"]}).get_json()["legal"]


def test_solve_says_no_when_there_is_none(client):
    data = ask(
        client, "solve", {"round": 4, "hand": "2♠ 4♥ 6♦ 8♣ 10♠ Q♥ A♦ 3♣ 5♠ 7♥ 9♦"}
    ).get_json()
    assert data["legal"] is False
    assert data["melds"] == []


def test_solve_out_of_steps_is_a_400_naming_the_hand_never_a_verdict(client, monkeypatch):
    """A hand with more ways to try than the search's budget (R11's own contracts): no verdict,
    the reason in the asker's language."""
    from scorekeeper.rules.opening import solver

    monkeypatch.setattr(solver, "SOLVE_STEPS", 5)
    rules = {**PRESETS["liverpool"].to_json(), "name": "Wild table", "wild_deuces": True}
    body = {"round": 7, "rules": rules, "hand": "4♠ 5♠ 6♠ 2♥ 8♥ 9♥ JK J♥ 3♦ 4♦ 5♦ 6♦ 7♦"}
    answer = ask(client, "solve", body)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert "These 13 cards can be laid out in too many ways" in error
    assert "legal" not in answer.get_json()
    finnish = client.post("/api/rules/solve", json=body, headers={"Accept-Language": "fi"})
    assert finnish.status_code == 400
    assert (
        "Nämä kortit (13 korttia) voi asettaa pöytään liian monella tavalla"
        in (finnish.get_json()["error"])
    )


@pytest.mark.parametrize(
    ("cards", "penalty"),
    [("A♠ K♦ 4♥", 29), ("K♣ A♥ 5♦ JK", 45), ("7 K JK", 32), ("10♠ 2♦", 12)],
)
def test_score(client, cards, penalty):
    assert ask(client, "score", {"cards": cards}).get_json()["penalty"] == penalty


def test_score_online_joker_is_25(client):
    data = ask(client, "score", {"cards": "JK", "profile": "online"}).get_json()
    assert data["penalty"] == 25 and data["rule"] == "R11"
    assert ask(client, "score", {"cards": "K♠", "profile": "online"}).get_json()["rule"] == "R10"
    assert ask(client, "score", {"cards": "JK"}).get_json()["rule"] == "R10"


@pytest.mark.parametrize(
    ("body", "buyer"),
    [
        ({"players": 4, "active": 1, "requests": [4, 3], "last_buyer": None}, 3),
        ({"players": 4, "active": 1, "requests": [4, 3], "last_buyer": 3}, 4),
        ({"players": 4, "active": 3, "requests": [2, 1], "last_buyer": None}, 1),
        ({"players": 4, "active": 1, "requests": [], "last_buyer": None}, None),
        ({"players": 4, "active": 1, "requests": [1]}, None),
    ],
)
def test_buy_seats_are_numbered_from_one(client, body, buyer):
    data = ask(client, "buy", body).get_json()
    assert data["buyer"] == buyer
    if buyer is not None:
        # The same seat number in the field, the name field and the reason.
        assert data["buyer_name"] == f"Seat {buyer}"
        assert f"Seat {buyer} gets the discard" in data["reason"]
    else:
        assert data["buyer_name"] is None


def test_buy_with_names_uses_them_in_the_reason(client):
    body = {"names": ["Ann", "Bob", "Cat", "Dan"], "active": 1, "requests": [4, 3]}
    data = ask(client, "buy", body).get_json()
    assert data["buyer"] == 3
    assert data["buyer_name"] == "Cat"
    assert data["reason"] == (
        "Cat plays before Dan after Ann, whose turn it is, so Cat gets the discard and takes "
        "the top stock card as a penalty"
    )
    assert "Seat" not in data["reason"]


def test_buy_not_in_online_profile(client):
    body = {"players": 4, "active": 1, "requests": [2], "profile": "online"}
    data = ask(client, "buy", body).get_json()
    assert data["buyer"] is None
    assert data["rule"] == "R11"
    assert data["reason"].startswith("Online rules have no buying")


@pytest.mark.parametrize(
    ("question", "body", "needle"),
    [
        ("meld", {"cards": "5♠ 6♠ Zq 8♠"}, "Zq"),
        ("meld", {}, "cards"),
        ("meld", {"cards": 7}, "cards"),
        ("meld", {"cards": "7♠ 7♠ 7♠"}, "7♠"),
        ("meld", {"cards": "JK JK JK JK"}, "joker"),
        ("meld", {"cards": "7♠ 7♥", "profile": "vegas"}, "vegas"),
        ("opening", {"round": 8, "melds": ["7♣ 7♦ 7♥"]}, "round"),
        ("opening", {"round": "2", "melds": ["7♣ 7♦ 7♥"]}, "round"),
        ("opening", {"round": True, "melds": ["7♣ 7♦ 7♥"]}, "round"),
        ("opening", {"round": 1, "melds": "7♣ 7♦ 7♥"}, "melds"),
        ("opening", {"round": 1, "melds": ["7♣ 7♦ 7♥"], "left": -1}, "left"),
        (
            "layoff",
            {"round": 3, "meld": "3♠ 4♠ 5♠ 6♠", "cards": "7♠", "opened_this_turn": "no"},
            "opened_this_turn",
        ),
        ("swap", {"round": 3, "meld": "7♠ 8♠ JK 10♠", "card": "9♠ 9♥"}, "card"),
        ("solve", {"round": 1, "hand": " ".join(["7♠"] * 50)}, "50"),
        ("score", {"cards": "A♠ Xx"}, "Xx"),
        ("buy", {"players": 4, "active": 7, "requests": [1]}, "seat 7"),
        ("buy", {"players": 4, "active": 1, "requests": [5]}, "seats 1 to 4"),
        ("buy", {"players": 4, "active": 0, "requests": [1]}, "seats 1 to 4"),
        ("buy", {"players": 4, "active": 1, "requests": [2], "last_buyer": 0}, "last_buyer"),
        ("buy", {"players": 4, "active": 1, "requests": ["one"]}, "one"),
        ("buy", {"players": 9, "active": 1, "requests": [2]}, "9"),
        ("buy", {"names": ["Ann", "Bob"], "active": 1, "requests": [2]}, "2 players"),
        ("buy", {"players": 4, "names": ["Ann"], "active": 1, "requests": [2]}, "1 names"),
        ("buy", {"names": ["Ann", 7, "Cat", "Dan"], "active": 1, "requests": [2]}, "name 2"),
    ],
)
def test_bad_input_is_a_400_that_names_the_problem(client, question, body, needle):
    response = ask(client, question, body)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert needle in error


@pytest.mark.parametrize("payload", ["not json", "[1, 2]", '"text"', "{bad json"])
def test_malformed_json_is_a_400(client, payload):
    response = client.post("/api/rules/meld", data=payload, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.get_json()


def test_non_json_body_is_415(client):
    response = client.post("/api/rules/meld", data={"cards": "7♠"})
    assert response.status_code == 415
    assert "JSON" in response.get_json()["error"]


def test_unknown_question_is_a_json_404(client):
    response = ask(client, "teleport", {})
    assert response.status_code == 404
    assert "teleport" in response.get_json()["error"]


def test_presets_listed_as_documents(client):
    presets = client.get("/api/rules/presets").get_json()
    assert [p["key"] for p in presets] == [
        "liverpool",
        "contract",
        "online",
        "family",
        "shanghai",
        "carioca",
        "continental",
    ]
    shanghai = presets[4]["rules"]
    assert len(shanghai["deals"]) == 10 and shanghai["wild_deuces"] is True
    assert shanghai["values"]["2"] == 20 and shanghai["joker_swap"] == "any"
    # Each document is a rule set a question may send back, and it reads as the preset.
    for preset in presets:
        assert RuleSet.parse(preset["rules"]) == PRESETS[preset["key"]]
    # The older address answers the same list.
    assert client.get("/api/rules/profiles").get_json() == presets


def test_answers_declare_their_wild_cards_as_played(client):
    jacks = ask(client, "meld", {"cards": "Js Jh JK"}).get_json()
    assert jacks["readings"] == [["J♠", "J♥", "J"]]  # as before
    assert jacks["declared"] == [["J♠", "J♥", "JK=J"]]
    hand = "7♠ 7♥ 2c 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"
    solved = ask(client, "solve", {"round": 1, "hand": hand, "rules": "shanghai"}).get_json()
    assert solved["melds"][0] == ["7♠", "7♥", "2♣"]  # as before
    assert solved["declared"] == [["7♠", "7♥", "2♣=7"], ["9♠", "9♥", "9♦"]]


def test_the_penalty_question_refuses_a_hand_as_the_round_api_does(client):
    """The penalty question reads its cards by the one check of a hand: a card it cannot read
    is refused in the words the round API gives for the same hand."""
    game = new_game(client)
    refused = ask(client, "score", {"cards": "7 Z"})
    assert refused.status_code == 400
    round_answer = client.post(
        f"/api/games/{game.id}/rounds",
        json={"out": "Cat", "leftovers": {"Ann": "7 Z", "Bob": "5", "Dan": "5"}},
        headers=game.write_headers,
    )
    assert round_answer.status_code == 400
    words = round_answer.get_json()["problems"]["leftovers.Ann"]
    assert refused.get_json() == {"error": words}
    with pytest.raises(HandRefused) as caught:
        check_hand(Hand("cards", cards="7 Z"), PRESETS["liverpool"], 4)
    assert caught.value.code == HandRefused.NOT_CARD and caught.value.message == words
    # A hand it can read is priced as the round prices it (R10).
    assert ask(client, "score", {"cards": ["7", "K"]}).get_json()["penalty"] == 17
