"""The score book's JSON API: the exact contract other tools call, and every refusal."""

from __future__ import annotations

import pytest

from tests.support.book import rounds_url, with_key
from tests.support.names import NAMES

GAME_KEYS = {
    "id",
    "profile",
    "players",
    "round",
    "contract",
    "deal",
    "dealer",
    "cutter",
    "first_player",
    "exact_cut",
    "rounds",
    "totals",
    "finished",
    "winners",
}
ROUND_KEYS = {"number", "dealer", "cutter", "cut_exact", "out", "leftovers", "scores", "version"}


@pytest.fixture
def game(client):
    """A liverpool game, Bob dealing first: round 1 is cut by Ann and opened by Cat.

    The client sends the game's edit key with every request from then on.
    """
    response = client.post(
        "/api/games", json={"players": NAMES, "profile": "liverpool", "first_dealer": "Bob"}
    )
    assert response.status_code == 201
    data = response.get_json()
    with_key(client, data.pop("key"))
    return data


def body(out="Cat", cut_exact=None, **cards):
    data = {"out": out, "leftovers": cards or {n: "5" for n in NAMES if n != out}}
    if cut_exact is not None:
        data["cut_exact"] = cut_exact
    return data


def stored(client, game):
    return client.get(f"/api/games/{game['id']}").get_json()


# --- The contract -----------------------------------------------------------------------------


def test_create_game_answers_201_with_the_full_game(client, game):
    assert set(game) >= GAME_KEYS
    assert game["players"] == NAMES
    assert game["profile"] == "liverpool"
    assert game["round"] == 1
    assert game["contract"] == "2 sets"
    assert (game["deal"], game["exact_cut"]) == (10, 41)
    assert (game["dealer"], game["cutter"], game["first_player"]) == ("Bob", "Ann", "Cat")
    assert game["rounds"] == []
    assert game["totals"] == {name: 0 for name in NAMES}
    assert (game["finished"], game["winners"]) == (False, [])
    assert client.get(f"/api/games/{game['id']}").get_json() == game


def test_create_game_sets_location(client):
    response = client.post("/api/games", json={"players": NAMES})
    assert response.headers["Location"].endswith(f"/api/games/{response.get_json()['id']}")


def test_profile_and_first_dealer_are_optional(client):
    response = client.post("/api/games", json={"players": NAMES})
    assert response.status_code == 201
    data = response.get_json()
    assert data["profile"] == "liverpool"
    assert data["dealer"] in NAMES


def test_names_may_hold_emoji_and_accents(client):
    players = ["Zoë", "👩‍👧 Mum", "José", "Łukasz"]
    response = client.post("/api/games", json={"players": players})
    assert response.status_code == 201
    assert response.get_json()["players"] == players


def test_other_profiles_take_more_players(client):
    players = ["A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8"]
    data = client.post(
        "/api/games", json={"players": players, "profile": "family", "first_dealer": "A1"}
    ).get_json()
    assert data["players"] == players
    assert (data["deal"], data["exact_cut"]) == (10, 81)


def test_record_a_round(client, game):
    response = client.post(
        rounds_url(game),
        json={
            "cut_exact": True,
            "out": "Cat",
            "leftovers": {"Ann": "A♠ K♦ 4♥", "Bob": ["7", "K"], "Dan": "JK"},
        },
    )
    assert response.status_code == 201
    played = response.get_json()
    assert set(played) >= ROUND_KEYS
    assert played["number"] == 1
    assert (played["dealer"], played["cutter"], played["out"]) == ("Bob", "Ann", "Cat")
    assert played["cut_exact"] is True
    assert played["leftovers"] == {
        "Ann": ["A♠", "4♥", "K♦"],
        "Bob": ["7", "K"],
        "Cat": [],
        "Dan": ["JK"],
    }
    assert played["scores"] == {"Ann": 29 - 50, "Bob": 17, "Cat": 0, "Dan": 15}
    assert played["version"] == 1
    state = stored(client, game)
    assert state["rounds"] == [played]
    assert state["round"] == 2
    assert (state["dealer"], state["cutter"], state["first_player"]) == ("Cat", "Bob", "Dan")
    assert state["contract"] == "1 set + 1 run"
    assert state["totals"] == {"Ann": -21, "Bob": 17, "Cat": 0, "Dan": 15}
    assert state["leaders"] == ["Ann"]
    assert state["winners"] == []


def test_cut_exact_defaults_to_false(client, game):
    played = client.post(rounds_url(game), json=body()).get_json()
    assert played["cut_exact"] is False
    assert played["scores"]["Ann"] == 5


def test_player_names_match_in_any_case(client, game):
    response = client.post(
        rounds_url(game), json={"out": "cat", "leftovers": {"ANN": "2", " bob ": "3", "dan": "4"}}
    )
    assert response.status_code == 201
    assert response.get_json()["scores"] == {"Ann": 2, "Bob": 3, "Cat": 0, "Dan": 4}


def test_the_player_out_may_be_listed_with_no_cards(client, game):
    response = client.post(rounds_url(game), json=body(Ann="2", Bob="3", Cat=[], Dan="4"))
    assert response.status_code == 201


def test_a_round_nobody_won(client, game):
    response = client.post(
        rounds_url(game), json={"out": None, "leftovers": {n: "K" for n in NAMES}}
    )
    assert response.status_code == 201
    assert response.get_json()["out"] is None
    assert response.get_json()["scores"] == {n: 10 for n in NAMES}


def test_seven_rounds_then_winners_and_409(client, game):
    for number in range(1, 8):
        out = NAMES[number % 4]
        assert client.post(rounds_url(game), json=body(out)).status_code == 201
    state = stored(client, game)
    assert state["finished"] is True
    assert state["round"] is None
    for key in ("dealer", "cutter", "first_player", "contract", "deal", "exact_cut"):
        assert state[key] is None
    # Ann went out once, the others twice; everyone scored 5 in every other round.
    assert state["totals"] == {"Ann": 30, "Bob": 25, "Cat": 25, "Dan": 25}
    assert state["winners"] == ["Bob", "Cat", "Dan"]
    refused = client.post(rounds_url(game), json=body())
    assert refused.status_code == 409
    assert "finished" in refused.get_json()["error"]
    assert len(stored(client, game)["rounds"]) == 7


def test_correct_a_round(client, game):
    client.post(rounds_url(game), json=body("Cat"))
    client.post(rounds_url(game), json=body("Dan"))
    response = client.put(
        rounds_url(game, 1),
        json={
            "out": "Bob",
            "cut_exact": True,
            "leftovers": {"Ann": ["Q"], "Cat": "Q", "Dan": "Q"},
            "version": 1,
        },
    )
    assert response.status_code == 200
    played = response.get_json()
    assert (played["number"], played["out"], played["version"]) == (1, "Bob", 2)
    assert played["scores"] == {"Ann": 10 - 50, "Bob": 0, "Cat": 10, "Dan": 10}
    assert stored(client, game)["totals"] == {"Ann": -35, "Bob": 5, "Cat": 15, "Dan": 10}


def test_delete_the_latest_round(client, game):
    client.post(rounds_url(game), json=body("Cat"))
    client.post(rounds_url(game), json=body("Dan"))
    assert client.delete(rounds_url(game, 1)).status_code == 409
    assert client.delete(rounds_url(game, 3)).status_code == 404
    response = client.delete(rounds_url(game, 2))
    assert response.status_code == 200
    assert [r["number"] for r in response.get_json()["rounds"]] == [1]
    assert stored(client, game)["round"] == 2
    assert client.post(rounds_url(game), json=body("Ann")).get_json()["number"] == 2


def test_list_games(client, game):
    data = client.get("/api/games").get_json()
    assert [g["id"] for g in data["games"]] == [game["id"]]


# --- Refusals: nothing is stored --------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        ({"players": NAMES, "profile": "poker"}, "unknown rule set"),
        ({"players": ["Ann", "Bob", "Cat"]}, "3 players"),
        ({"players": NAMES + ["Eve"]}, "5 players"),
        ({"players": ["Ann", "Bob"], "profile": "online"}, "2 players"),
        ({"players": [f"P{i}" for i in range(9)], "profile": "family"}, "9 players"),
        ({"players": ["Ann", "Bob", "ann", "Dan"]}, "already at the table"),
        ({"players": ["Ann", "Bob", " Ann ", "Dan"]}, "already at the table"),
        ({"players": ["Ann", "", "Cat", "Dan"]}, "empty"),
        ({"players": ["Ann", "  ", "Cat", "Dan"]}, "empty"),
        ({"players": ["Ann", "B" * 25, "Cat", "Dan"]}, "at most 24"),
        ({"players": ["Ann", "Bob\u0000", "Cat", "Dan"]}, "control character"),
        ({"players": ["Ann", "Bob\ud800", "Cat", "Dan"]}, "control character"),
        ({"players": NAMES, "first_dealer": "Zed"}, "not one of the players"),
        ({"players": "Ann Bob Cat Dan"}, "'players' must be a list"),
        ({"players": ["Ann", "Bob", "Cat", 4]}, "'players' must be a list of names"),
        ({"players": NAMES, "profile": 1}, "'profile' must be text"),
        ({"players": NAMES, "first_dealer": 0}, "'first_dealer' must be text"),
        ({"players": NAMES, "first_dealer": True}, "'first_dealer' must be text"),
        ({}, "'players' is missing"),
    ],
)
def test_refused_new_games(client, payload, problem):
    response = client.post("/api/games", json=payload)
    assert response.status_code == 400
    assert problem in response.get_json()["error"]
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('"text"', "must be a JSON object"),
    ],
)
def test_malformed_json_is_refused(client, data, problem):
    response = client.post("/api/games", data=data, content_type="application/json")
    assert response.status_code == 400
    assert problem in response.get_json()["error"]


ROUND_REFUSALS = [
    # unknown players
    ({"out": "Zed", "leftovers": {"Ann": "2", "Bob": "2", "Dan": "2"}}, "unknown player 'Zed'"),
    (
        {"out": "Cat", "leftovers": {"Ann": "2", "Bob": "2", "Dan": "2", "Zed": "2"}},
        "unknown player 'Zed'",
    ),
    # the player out holding cards
    (
        {"out": "Cat", "leftovers": {"Ann": "2", "Bob": "2", "Cat": "K", "Dan": "2"}},
        "Cat: the player who went out holds no cards",
    ),
    # another player with no cards, however it is said
    ({"out": "Cat", "leftovers": {"Ann": "2", "Bob": "2"}}, "Dan: every player who did not go out"),
    ({"out": "Cat", "leftovers": {"Ann": "2", "Bob": "2", "Dan": ""}}, "Dan: every player"),
    ({"out": "Cat", "leftovers": {"Ann": "2", "Bob": "2", "Dan": []}}, "Dan: every player"),
    ({"out": None, "leftovers": {"Ann": "2", "Bob": "2", "Cat": "2"}}, "Dan: nobody went out"),
    # bad cards
    (
        {"out": "Cat", "leftovers": {"Ann": "2", "Bob": "X9", "Dan": "2"}},
        "Bob: 'X9' (card 1) is not a card",
    ),
    ({"out": "Cat", "leftovers": {"Ann": "2", "Bob": ["7", "11"], "Dan": "2"}}, "'11' (card 2)"),
    ({"out": "Cat", "leftovers": {"Ann": "2", "Bob": "7♠=", "Dan": "2"}}, "Bob:"),
    ({"out": "Cat", "leftovers": {"Ann": "2", "Bob": "2", "Dan": "K " * 41}}, "more than the 40"),
    # more copies than the packs hold, across the round
    ({"out": "Cat", "leftovers": {"Ann": "7♠ 7♠", "Bob": "7♠", "Dan": "2"}}, "3 × 7♠"),
    ({"out": "Cat", "leftovers": {"Ann": "JK JK", "Bob": "JK", "Dan": "JK"}}, "4 jokers"),
    (
        {"out": "Cat", "leftovers": {"Ann": "7 7 7", "Bob": "7 7 7", "Dan": "7 7 7"}},
        "9 cards of rank 7",
    ),
    # wrong types
    (
        {"out": "Cat", "cut_exact": "yes", "leftovers": {"Ann": "2", "Bob": "2", "Dan": "2"}},
        "'cut_exact' must be true or false",
    ),
    ({"out": 2, "leftovers": {"Ann": "2", "Bob": "2", "Dan": "2"}}, "'out' must be text"),
    ({"out": "Cat", "leftovers": ["2", "2", "2"]}, "'leftovers' must be an object"),
    (
        {"out": "Cat", "leftovers": {"Ann": 2, "Bob": "2", "Dan": "2"}},
        "the cards of 'Ann' must be text",
    ),
    (
        {"out": "Cat", "leftovers": {"Ann": [2], "Bob": "2", "Dan": "2"}},
        "the cards of 'Ann' must be text",
    ),
    ({"out": "Cat", "leftovers": {"Ann": "2", "ann": "3", "Bob": "2", "Dan": "2"}}, "given twice"),
    ({"leftovers": {"Ann": "2", "Bob": "2", "Dan": "2"}}, "'out' is missing"),
    ({"out": "Cat"}, "'leftovers' is missing"),
]


@pytest.mark.parametrize(("payload", "problem"), ROUND_REFUSALS)
def test_refused_rounds_store_nothing(client, game, payload, problem):
    response = client.post(rounds_url(game), json=payload)
    assert response.status_code == 400, response.get_json()
    assert problem in response.get_json()["error"]
    assert stored(client, game) == game


@pytest.mark.parametrize(("payload", "problem"), ROUND_REFUSALS)
def test_refused_corrections_change_nothing(client, game, payload, problem):
    client.post(rounds_url(game), json=body("Ann"))
    before = stored(client, game)
    response = client.put(rounds_url(game, 1), json={**payload, "version": 1})
    assert response.status_code == 400
    assert problem in response.get_json()["error"]
    assert stored(client, game) == before


def test_every_problem_of_a_round_is_named_in_one_answer_by_player(client, game):
    """Ann's hand empty though nobody went out, Bob's four jokers in a game of three, Cat's
    misread card, and seven of spades that Dan and Ann hold three of together: all at once,
    each by whose hand it is, in the message and by place in `problems`."""
    payload = {
        "out": None,
        "leftovers": {"Ann": "7♠", "Bob": "JK JK JK JK", "Cat": "Q7", "Dan": "7♠ 7♠"},
    }
    response = client.post(rounds_url(game), json=payload)
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["error"] == (
        "Ann and Dan between them: 3 × 7♠, but a 2-pack game holds only 2 of each card; "
        "Bob: 4 jokers, but this game has only 3 (2 packs); "
        "Cat: 'Q7' (card 1) is not a card: write a rank (A 2-10 J Q K) and a suit "
        "(♠ ♥ ♦ ♣ or S H D C), or JK for a joker"
    )
    assert set(answer["problems"]) == {
        "leftovers.Ann",
        "leftovers.Bob",
        "leftovers.Cat",
        "leftovers.Dan",
    }
    assert answer["problems"]["leftovers.Bob"] == "4 jokers, but this game has only 3 (2 packs)"
    assert answer["problems"]["leftovers.Ann"].startswith("Ann and Dan between them: 3 × 7♠")
    assert stored(client, game) == game
    payload["leftovers"] = {"Ann": "", "Bob": "5", "Cat": "5"}
    payload["points"] = {"Dan": 0}
    answer = client.post(rounds_url(game), json=payload).get_json()
    assert answer["problems"] == {
        "leftovers.Ann": "nobody went out, so every player still holds cards (R9)",
        "points.Dan": "0 points cannot be: a player who did not go out holds at least one "
        "card, worth at least 2 (R10)",
    }


def test_a_round_body_with_several_wrong_fields_names_them_all_with_its_hands(client, game):
    payload = {
        "out": "Zed",
        "cut_exact": "yes",
        "leftovers": {"Ann": 3, "Zip": "5", "Cat": "Q7", "Dan": "JK JK", "Bob": "JK JK"},
    }
    response = client.post(rounds_url(game), json=payload)
    assert response.status_code == 400
    answer = response.get_json()
    for said in (
        "'cut_exact' must be true or false",
        "unknown player 'Zed'",
        "the cards of 'Ann' must be text",
        "unknown player 'Zip'",
        "Cat: 'Q7' (card 1) is not a card",
        "Bob and Dan between them: 4 jokers",
    ):
        assert said in answer["error"]
    assert set(answer["problems"]) == {
        "cut_exact",
        "out",
        "leftovers.Ann",
        "leftovers.Zip",
        "leftovers.Cat",
        "leftovers.Bob",
        "leftovers.Dan",
    }
    assert stored(client, game) == game


@pytest.mark.parametrize("data", ["{oops", "[]", "null"])
def test_malformed_round_bodies(client, game, data):
    response = client.post(rounds_url(game), data=data, content_type="application/json")
    assert response.status_code == 400
    assert "error" in response.get_json()
    assert stored(client, game) == game


def test_a_body_that_is_not_json(client, game):
    response = client.post(rounds_url(game), data={"out": "Cat"})
    assert response.status_code == 415
    assert stored(client, game) == game


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/games/999"),
        ("post", "/api/games/999/rounds"),
        ("put", "/api/games/999/rounds/1"),
        ("delete", "/api/games/999/rounds/1"),
    ],
)
def test_unknown_game_is_404_json(client, method, path):
    response = getattr(client, method)(path, json=body())
    assert response.status_code == 404
    assert "game 999 does not exist" in response.get_json()["error"]


@pytest.mark.parametrize("number", [1, 2, 8, 0])
def test_correcting_a_round_not_recorded_is_404(client, game, number):
    if number == 2:
        client.post(rounds_url(game), json=body())
    response = client.put(rounds_url(game, number), json={**body(), "version": 1})
    assert response.status_code == 404
    assert "error" in response.get_json()


def test_nothing_to_delete_is_404(client, game):
    response = client.delete(rounds_url(game, 1))
    assert response.status_code == 404
    assert "error" in response.get_json()


def test_api_answers_are_never_cached(client, game):
    assert client.get(f"/api/games/{game['id']}").headers["Cache-Control"] == "no-store"


# --- Versions: a change made on another device is never overwritten ---------------------------


def test_a_correction_needs_the_version(client, game):
    client.post(rounds_url(game), json=body("Cat"))
    before = stored(client, game)
    response = client.put(rounds_url(game, 1), json=body("Ann"))
    assert response.status_code == 400
    assert "'version' is missing" in response.get_json()["error"]
    for wrong in ("1", True, 1.0, [1]):
        response = client.put(rounds_url(game, 1), json={**body("Ann"), "version": wrong})
        assert response.status_code == 400, wrong
        assert "'version' must be a whole number" in response.get_json()["error"]
    assert stored(client, game) == before


def test_a_stale_correction_is_409_with_the_round_as_it_is_now(client, game):
    client.post(rounds_url(game), json=body("Cat"))
    client.post(rounds_url(game), json=body("Dan"))
    client.post(rounds_url(game), json=body("Ann"))
    for version, out in enumerate(("Bob", "Dan", "Cat"), start=1):  # on another device
        response = client.put(rounds_url(game, 3), json={**body(out), "version": version})
        assert response.status_code == 200
    current = stored(client, game)
    assert current["rounds"][2]["version"] == 4
    response = client.put(rounds_url(game, 3), json={**body("Ann"), "version": 2})
    assert response.status_code == 409
    assert response.get_json() == {
        "error": "round 3 was changed on another device (now version 4); reload and try again",
        "round": current["rounds"][2],
    }
    assert stored(client, game) == current
    # Even a correction that would change nothing is refused when it was made on an old version.
    same = {**body("Cat"), "version": 3}
    assert client.put(rounds_url(game, 3), json=same).status_code == 409
    assert client.put(rounds_url(game, 3), json={**body("Ann"), "version": 4}).status_code == 200
    assert stored(client, game)["rounds"][2]["version"] == 5


@pytest.mark.parametrize("version", [0, -1, 2, 10**40])
def test_a_version_that_never_was_is_409(client, game, version):
    client.post(rounds_url(game), json=body("Cat"))
    response = client.put(rounds_url(game, 1), json={**body("Ann"), "version": version})
    assert response.status_code == 409
    assert response.get_json()["round"]["version"] == 1


def test_recording_the_round_the_caller_believes_is_next(client, game):
    response = client.post(rounds_url(game), json={**body("Cat"), "number": 1})
    assert response.status_code == 201
    first = response.get_json()
    late = client.post(rounds_url(game), json={**body("Dan"), "number": 1})
    assert late.status_code == 409
    assert late.get_json() == {
        "error": "round 1 was recorded meanwhile on another device; the next round is 2: "
        "reload and try again",
        "round": first,
    }
    ahead = client.post(rounds_url(game), json={**body("Dan"), "number": 3})
    assert ahead.status_code == 409
    assert "the next round is 2" in ahead.get_json()["error"]
    for wrong, problem in ((0, "there is no round 0"), (8, "no round 8"), ("2", "whole number")):
        response = client.post(rounds_url(game), json={**body("Dan"), "number": wrong})
        assert response.status_code == 400
        assert problem in response.get_json()["error"]
    assert [r["number"] for r in stored(client, game)["rounds"]] == [1]


def test_the_seventh_round_recorded_twice(client, game):
    for number in range(1, 8):
        client.post(rounds_url(game), json={**body(NAMES[number % 4]), "number": number})
    late = client.post(rounds_url(game), json={**body("Cat"), "number": 7})
    assert late.status_code == 409
    assert "is finished" in late.get_json()["error"]
    assert late.get_json()["round"] == stored(client, game)["rounds"][6]


def test_undo_with_a_version(client, game):
    client.post(rounds_url(game), json=body("Cat"))
    client.put(rounds_url(game, 1), json={**body("Dan"), "version": 1})
    stale = client.delete(rounds_url(game, 1) + "?version=1")
    assert stale.status_code == 409
    assert stale.get_json()["round"]["version"] == 2
    assert client.delete(rounds_url(game, 1), json={"version": 1}).status_code == 409
    for wrong in ("abc", "1.0", "", "--1", "１"):
        response = client.delete(rounds_url(game, 1), query_string={"version": wrong})
        assert response.status_code == 400, wrong
    assert client.delete(rounds_url(game, 1), json={"version": "2"}).status_code == 400
    assert len(stored(client, game)["rounds"]) == 1
    assert client.delete(rounds_url(game, 1) + "?version=2").status_code == 200
    assert stored(client, game)["rounds"] == []


def test_a_round_recorded_again_never_reuses_a_version(client, game):
    """Undo and record again: a device holding the old round's version must still be refused."""
    client.post(rounds_url(game), json=body("Cat"))
    client.put(rounds_url(game, 1), json={**body("Dan"), "version": 1})
    client.delete(rounds_url(game, 1))
    again = client.post(rounds_url(game), json=body("Bob")).get_json()
    assert again["version"] == 3
    for old in (1, 2):
        assert (
            client.put(rounds_url(game, 1), json={**body("Ann"), "version": old}).status_code == 409
        )
    assert client.delete(rounds_url(game, 1), json={"version": 1}).status_code == 409
    assert stored(client, game)["rounds"] == [again]


def test_a_round_that_fails_half_way_stores_nothing(client, app, game):
    """All or nothing: the fourth player's line fails to save, so the round is not saved at all."""
    from scorekeeper.platform.database import db

    with app.app_context(), db.engine.begin() as connection:
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql(
                "CREATE TRIGGER refuse_seat_3 BEFORE INSERT ON round_scores WHEN NEW.seat = 3 "
                "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"
            )
        else:
            connection.exec_driver_sql(
                "CREATE FUNCTION refuse_seat_3() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                " RAISE EXCEPTION 'disk trouble' USING ERRCODE = 'check_violation'; END $$"
            )
            connection.exec_driver_sql(
                "CREATE TRIGGER refuse_seat_3 BEFORE INSERT ON round_scores FOR EACH ROW"
                " WHEN (NEW.seat = 3) EXECUTE FUNCTION refuse_seat_3()"
            )
    response = client.post(rounds_url(game), json=body("Cat"))
    assert response.status_code == 409
    assert "nothing was saved" in response.get_json()["error"]
    assert stored(client, game) == game
    with app.app_context():
        counts = [
            db.session.execute(db.text(f"SELECT count(*) FROM {table}")).scalar()
            for table in ("rounds", "round_scores")
        ]
    assert counts == [0, 0]


def test_a_busy_database_is_503_json(client, game, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from scorekeeper.platform.database import db

    def locked():
        raise OperationalError("COMMIT", {}, Exception("database is locked"))

    monkeypatch.setattr(db.session, "commit", locked)
    response = client.post(rounds_url(game), json=body("Cat"))
    assert response.status_code == 503
    assert "nothing was saved" in response.get_json()["error"]
    monkeypatch.undo()
    assert stored(client, game) == game


@pytest.mark.parametrize(
    ("name", "needle"),
    [("\u200b", "shows nothing"), ("\u202eevil", "reverses"), ("Ann\u2066", "reverses")],
)
def test_names_that_would_not_show_as_written_are_refused(client, name, needle):
    response = client.post("/api/games", json={"players": ["Bob", "Cat", "Dan", name]})
    assert response.status_code == 400
    assert needle in response.get_json()["error"]


def test_emoji_names_are_welcome(client):
    response = client.post("/api/games", json={"players": ["👨‍👩‍👧", "Bob", "Cat", "Dan"]})
    assert response.status_code == 201
