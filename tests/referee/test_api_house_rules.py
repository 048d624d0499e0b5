"""The rules questions under any rule set: a preset's name, a document, or a stored game's rules."""

import json

import pytest

from tests.referee.house_rules import smith_document


def ask(client, question, body):
    return client.post(f"/api/rules/{question}", json=body)


def new_game(client, players=("Ann", "Bob", "Cat", "Dan", "Eve"), profile="family") -> int:
    body = {"players": list(players), "profile": profile, "first_dealer": players[0]}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def test_a_preset_by_name_under_rules(client):
    body = {"rules": "shanghai", "round": 1, "meld": "7♠ 7♥ JK", "card": "7♣"}
    answer = ask(client, "swap", body).get_json()
    assert answer["legal"] is True and answer["rule"] == "R11"
    assert answer["reason"].startswith("shanghai rules: a set's joker may be swapped too")
    # The same question under liverpool: a set's joker stays.
    body["rules"] = "liverpool"
    assert ask(client, "swap", body).get_json()["legal"] is False


def test_profile_still_names_a_preset(client):
    body = {"profile": "online", "round": 2, "meld": "8♠ 8♦ 8♣", "cards": "8♥"}
    answer = ask(client, "layoff", {**body, "opened_this_turn": True}).get_json()
    assert answer["legal"] is True and answer["rule"] == "R11"


def test_a_document_prices_the_hand_with_its_own_values(client):
    answer = ask(client, "score", {"rules": smith_document(), "cards": "JK A 7"}).get_json()
    assert answer["penalty"] == 50 + 20 + 7
    assert answer["rule"] == "R11"
    assert answer["reason"] == (
        "Smith family rules: a joker left in hand is 50 and an ace left in hand is 20"
    )
    plain = ask(client, "score", {"rules": smith_document(), "cards": "K 7"}).get_json()
    assert plain.pop("rule_set")["name"] == "Smith family"
    assert plain == {"penalty": 17, "cards": ["K", "7"], "rule": "R10"}


def test_a_document_sent_as_json_text_is_read_too(client):
    text = json.dumps(smith_document())
    assert ask(client, "score", {"rules": text, "cards": "JK"}).get_json()["penalty"] == 50


def test_the_round_is_one_of_the_rules_deals(client):
    body = {"rules": "shanghai", "meld": "5♠ 6♠ 7♠ 8♠", "cards": "9♠"}
    assert ask(client, "layoff", {**body, "round": 10}).get_json()["legal"] is True
    refused = ask(client, "layoff", {**body, "round": 11})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == (
        "round 11 does not exist: shanghai rules have rounds 1 to 10"
    )
    assert ask(client, "layoff", {**body, "rules": "liverpool", "round": 8}).status_code == 400


def test_a_bad_rule_set_names_every_problem(client):
    document = smith_document()
    document["values"]["JK"] = 500
    document["deals"][4]["cards"] = 40
    document["bogus"] = 1
    response = ask(client, "meld", {"rules": document, "cards": "7♠ 7♥ 7♦"})
    assert response.status_code == 400
    answer = response.get_json()
    assert set(answer["problems"]) == {"values.JK", "deals[4].cards", "bogus"}
    assert "3 problems" in answer["error"]


@pytest.mark.parametrize(
    ("rules", "where"),
    [("vegas", "rules"), (42, "rules"), ([1, 2], "rules"), ("{not json", "rules")],
)
def test_rules_that_name_nothing_playable_are_a_400_with_problems(client, rules, where):
    response = ask(client, "meld", {"rules": rules, "cards": "7♠ 7♥ 7♦"})
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["error"] and where in answer["problems"]


def test_the_rules_are_given_once(client):
    response = ask(client, "meld", {"rules": "shanghai", "profile": "online", "cards": "7♠ 7♥ 7♦"})
    assert response.status_code == 400
    assert response.get_json()["error"] == (
        "give the rules once: 'rules' and 'profile' both name them"
    )


def test_a_game_and_round_use_the_games_stored_rules(client):
    game_id = new_game(client)
    body = {"game": game_id, "round": 2, "meld": "8♠ 8♦ 8♣", "cards": "8♥"}
    # Family rules allow a lay-off on the opening turn; liverpool's do not.
    answer = ask(client, "layoff", {**body, "opened_this_turn": True}).get_json()
    assert answer["legal"] is True
    assert answer["reason"].startswith("family rules: you may lay off on the turn you open")
    # The game's five players are the table: 3 packs under family rules.
    assert ask(client, "meld", {"game": game_id, "cards": "7♠ 7♠ 7♠"}).get_json()["legal"]
    refused = ask(client, "layoff", {**body, "round": 8})
    assert refused.status_code == 400
    assert "family rules have rounds 1 to 7" in refused.get_json()["error"]


def test_an_unknown_game_is_a_404_and_a_bad_id_a_400(client):
    missing = ask(client, "meld", {"game": 999, "cards": "7♠ 7♥ 7♦"})
    assert missing.status_code == 404
    assert missing.get_json()["error"] == "game 999 does not exist"
    bad = ask(client, "meld", {"game": "one", "cards": "7♠ 7♥ 7♦"})
    assert bad.status_code == 400
    assert "'game' must be a whole number" in bad.get_json()["error"]


# Buying: limits by name, or by seat number


def test_an_asker_at_the_limit_is_passed_over_by_name(client):
    body = {
        "rules": smith_document(),
        "names": ["Ann", "Bob", "Cat", "Dan"],
        "active": 4,
        "requests": [1, 2],
        "bought": {"Ann": 3, "Bob": 1},
    }
    answer = ask(client, "buy", body).get_json()
    assert answer["buyer"] == 2 and answer["buyer_name"] == "Bob"
    assert answer["rule"] == "R11" and answer["penalty_cards"] == 1
    assert answer["reason"].startswith(
        "Ann has bought 3 times this game: Smith family rules allow 3 a game, so Bob gets"
    )
    # A name is matched as the score book matches it: "ann" and "Ánn" are Ann.
    body["bought"] = {"Ánn": 3}
    assert ask(client, "buy", body).get_json()["buyer_name"] == "Bob"


def test_the_limit_by_seat_number_when_no_names_are_given(client):
    body = {"rules": smith_document(), "active": 4, "requests": [1, 2], "bought": {"1": 3}}
    answer = ask(client, "buy", body).get_json()
    assert answer["buyer"] == 2 and answer["buyer_name"] == "Seat 2"
    assert answer["reason"].startswith("Seat 1 has bought 3 times this game")


def test_bought_names_every_problem(client):
    body = {
        "rules": smith_document(),
        "names": ["Ann", "Bob", "Cat", "Dan"],
        "active": 1,
        "requests": [2],
        "bought": {"Zed": 1, "Bob": -1, "Cat": 1.5, "Dan": "two", "Ann": True},
    }
    response = ask(client, "buy", body)
    assert response.status_code == 400
    problems = response.get_json()["problems"]
    assert problems == {
        "bought.Zed": "'Zed' is not a player: Ann, Bob, Cat, Dan",
        "bought.Bob": "the buys this game cannot be -1",
        "bought.Cat": "the buys this game must be a whole number, not 1.5",
        "bought.Dan": "the buys this game must be a whole number, not 'two'",
        "bought.Ann": "the buys this game must be a whole number, not True",
    }
    assert response.get_json()["error"].startswith("'bought' has 5 problems")


def test_bought_seats_must_be_at_the_table(client):
    body = {"active": 1, "requests": [2], "bought": {"5": 1, "0": 1, "two": 1}}
    response = ask(client, "buy", body)
    assert response.status_code == 400
    assert set(response.get_json()["problems"]) == {"bought.5", "bought.0", "bought.two"}
    assert ask(client, "buy", {**body, "bought": []}).status_code == 400


def test_both_limits_take_both_counts(client):
    document = smith_document()
    document["buying"]["per_deal"] = 2
    body = {"rules": document, "active": 1, "requests": [2, 3]}
    answer = ask(client, "buy", {**body, "bought": {"2": {"deal": 2, "game": 2}}}).get_json()
    assert answer["buyer"] == 3
    assert answer["reason"].startswith("Seat 2 has bought twice this deal")
    refused = ask(client, "buy", {**body, "bought": {"2": 2}})
    assert refused.status_code == 400
    assert "limit buys both a deal and a game" in refused.get_json()["problems"]["bought.2"]
    odd = ask(client, "buy", {**body, "bought": {"2": {"week": 1}}})
    assert "'week'" in odd.get_json()["problems"]["bought.2"]


def test_a_games_buy_uses_its_names_and_rules(client):
    game_id = new_game(client, profile="liverpool", players=("Ann", "Bob", "Cat", "Dan"))
    body = {"game": game_id, "active": 1, "requests": [3, 2], "bought": {"Bob": 40}}
    answer = ask(client, "buy", body).get_json()
    # Liverpool sets no limit: Bob's 40 buys do not matter.
    assert answer["buyer_name"] == "Bob" and answer["rule"] == "R8"
    bad = ask(client, "buy", {**body, "bought": {"Zed": 1}})
    assert bad.get_json()["problems"] == {"bought.Zed": "'Zed' is not a player: Ann, Bob, Cat, Dan"}


def test_a_rule_set_with_no_buying_says_so(client):
    answer = ask(client, "buy", {"rules": "online", "active": 1, "requests": [2]}).get_json()
    assert answer["buyer"] is None and answer["penalty_cards"] is None
    assert answer["rule"] == "R11"


def test_a_long_bought_key_is_quoted_short(client):
    body = {"active": 1, "requests": [2], "bought": {"x" * 5000: 1}}
    problem = ask(client, "buy", body).get_json()["problems"]["bought." + "x" * 5000]
    assert len(problem) < 120 and problem.startswith("'xxxx")


@pytest.mark.parametrize(
    ("question", "body"),
    [
        ("meld", {"cards": "7♣ 7♦ 7♥"}),
        ("opening", {"round": 1, "melds": ["7♣ 7♦ 7♥", "9♠ 9♥ 9♦"]}),
        ("layoff", {"round": 2, "meld": "7♣ 7♦ 7♥", "cards": "7♠"}),
        ("swap", {"round": 2, "meld": "7♠ 8♠ JK 10♠", "card": "9♠"}),
        ("solve", {"round": 1, "hand": "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"}),
        ("score", {"cards": "A♠ K♦"}),
        ("buy", {"players": 4, "active": 1, "requests": [3]}),
        ("take", {"gone_down": True}),
        ("throw", {"card": "JK"}),
    ],
)
def test_every_answer_names_the_rule_set_it_applied(client, question, body):
    preset = ask(client, question, {**body, "rules": "shanghai"}).get_json()
    assert preset["rule_set"] == {
        "key": "shanghai",
        "name": "Shanghai",
        "summary": "Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit",
    }
    own = ask(client, question, {**body, "rules": smith_document()}).get_json()
    assert own["rule_set"]["key"] is None
    assert own["rule_set"]["name"] == "Smith family"
    assert own["rule_set"]["summary"].startswith("Smith family · ")
    assert ask(client, question, body).get_json()["rule_set"]["key"] == "liverpool"
