"""A hand counted in points at the table, not by its cards: the engine, the score book, the API,
the round form without its script, export and import, and the migration that made room for it."""

from __future__ import annotations

import json
import re

import flask_migrate
import pytest
from sqlalchemy import text

from scorekeeper.games import importer, transfer
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS
from scorekeeper.rules.scoring import LeftoverError, most_points, score_round
from tests.support.apps import app_on
from tests.support.book import rounds_url, with_key
from tests.support.names import NAMES

# --- The engine ---------------------------------------------------------------------------------


def hands(**cards):
    return {int(seat[1:]): parse_cards(text, rank_only=True) for seat, text in cards.items()}


def test_the_most_points_a_hand_can_count():
    # Every card of the game (R8's buying lets a hand take the stock) at the highest penalty.
    assert most_points(PRESETS["liverpool"], 4) == (2 * 52 + 3) * 15 == 1605
    assert most_points(PRESETS["online"], 8) == (3 * 52 + 2) * 25 == 3950
    assert most_points(PRESETS["family"], 3) == (2 * 52 + 4) * 15


def test_a_counted_hand_scores_its_points_with_the_cut_bonus():
    result = score_round(
        4, 2, hands(s0="A", s3="7"), cutter=1, cut_exact=True, counted={1: 25}, rules=LIVERPOOL
    )
    assert result.penalties == (15, 25, 0, 7)
    assert result.scores == (15, -25, 0, 7)


def test_the_copy_limit_skips_counted_hands_and_still_checks_the_cards():
    jokers = hands(s0="JK JK", s1="JK JK")
    with pytest.raises(LeftoverError) as refused:
        score_round(4, 2, {**jokers, 3: parse_cards("5", rank_only=True)}, 0, False, LIVERPOOL)
    assert refused.value.problems == {(0, 1): "4 jokers, but this game has only 3 (2 packs)"}
    # Bob's four jokers' worth is counted, not shown: no copy of anything is known.
    result = score_round(4, 2, hands(s0="JK JK", s3="5"), 0, False, LIVERPOOL, counted={1: 60})
    assert result.penalties == (30, 60, 0, 5)


@pytest.mark.parametrize(
    ("points", "problem"),
    [
        (1, "1 points cannot be: a player who did not go out holds at least one card"),
        (0, "0 points cannot be"),
        (-3, "-3 points cannot be: a hand counts 0 to 1605"),
        (1606, "1606 points cannot be: a hand counts 0 to 1605"),
        ("25a", "the points must be a whole number, not '25a'"),
        (True, "the points must be a whole number, not True"),
        (2.5, "the points must be a whole number, not 2.5"),
        (None, "no points given"),
    ],
)
def test_impossible_points_are_refused(points, problem):
    with pytest.raises(LeftoverError) as caught:
        score_round(4, 2, hands(s0="A", s3="7"), 0, False, LIVERPOOL, counted={1: points})
    assert caught.value.seat == 1
    assert problem in str(caught.value)


def test_the_player_out_counts_nothing_and_cards_and_points_do_not_mix():
    with pytest.raises(LeftoverError, match="scores 0, not 5"):
        score_round(4, 2, hands(s0="A", s1="2", s3="7"), 0, False, LIVERPOOL, counted={2: 5})
    with pytest.raises(LeftoverError, match="not both"):
        score_round(4, 2, hands(s0="A", s1="2", s3="7"), 0, False, LIVERPOOL, counted={1: 5})


def test_every_wrong_hand_is_named_at_once():
    with pytest.raises(LeftoverError) as caught:
        score_round(4, 2, hands(s0="A", s2="7"), 0, False, LIVERPOOL, counted={3: 1})
    assert caught.value.problems.keys() == {1, 2, 3}


def test_every_copy_limit_is_named_by_the_hand_or_the_hands_that_hold_it():
    """Bob alone holds four jokers; Ann and Dan hold three seven of spades only together; a
    hand wrong for another reason does not hide either (R1)."""
    held = hands(s0="7♠ 7♠ 5", s1="JK JK JK JK", s3="7♠ K")
    with pytest.raises(LeftoverError) as refused:
        score_round(4, 2, held, 0, False, LIVERPOOL)
    assert refused.value.problems == {
        1: "4 jokers, but this game has only 3 (2 packs)",
        (0, 3): "3 × 7♠, but a 2-pack game holds only 2 of each card",
    }
    held = hands(s0="7 7 7 7 7", s1="7 7 7 7")
    with pytest.raises(LeftoverError) as refused:
        score_round(4, 0, held, 0, False, LIVERPOOL)
    assert refused.value.problems == {
        0: "the player who went out holds no cards (R10)",
        2: "every player who did not go out still holds at least one card (R10)",
        3: "every player who did not go out still holds at least one card (R10)",
        (0, 1): "9 cards of rank 7, but a 2-pack game holds only 8",
    }


# --- The API ------------------------------------------------------------------------------------


@pytest.fixture
def game(client):
    response = client.post("/api/games", json={"players": NAMES, "first_dealer": "Bob"})
    data = response.get_json()
    with_key(client, data.pop("key"))
    return data


def test_the_api_records_points_and_returns_them(client, game):
    body = {"out": "Ann", "leftovers": {"Bob": "7 K"}, "points": {"Cat": 25, "dan": 40}}
    response = client.post(rounds_url(game), json=body)
    assert response.status_code == 201, response.get_json()
    played = response.get_json()
    assert played["points"] == {"Cat": 25, "Dan": 40}
    assert played["leftovers"] == {"Ann": [], "Bob": ["7", "K"]}
    assert played["penalties"] == {"Ann": 0, "Bob": 17, "Cat": 25, "Dan": 40}
    assert played["scores"]["Cat"] == 25 - 50 * 0  # Ann cuts round 1; no exact cut here
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert state["totals"] == {"Ann": 0, "Bob": 17, "Cat": 25, "Dan": 40}
    assert state["rounds"][0] == played
    # The round as GET gives it goes back as a correction that changes nothing.
    again = {k: played[k] for k in ("out", "cut_exact", "leftovers", "points", "version")}
    unchanged = client.put(rounds_url(game, 1), json=again)
    assert unchanged.status_code == 200, unchanged.get_json()
    assert unchanged.get_json()["version"] == 1


def test_a_hand_goes_from_points_to_cards_with_history(client, game):
    client.post(
        rounds_url(game),
        json={"out": "Ann", "leftovers": {"Bob": "7"}, "points": {"Cat": 25, "Dan": 3}},
    )
    fixed = {"out": "Ann", "leftovers": {"Bob": "7", "Cat": "K Q 5"}, "points": {"Dan": 3}}
    response = client.put(rounds_url(game, 1), json={**fixed, "version": 1})
    assert response.status_code == 200
    assert response.get_json()["points"] == {"Dan": 3}
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Cat: counted = 25 → 5 Q K = 25" in page
    assert "3 (counted)" in page


@pytest.mark.parametrize(
    ("points", "problem"),
    [
        ({"Bob": 25}, "Bob is given twice"),
        ({"Cat": "25"}, "the points of 'Cat' must be a whole number, not '25'"),
        ({"Cat": True}, "the points of 'Cat' must be a whole number, not True"),
        ({"Cat": 99999}, "Cat: 99999 points cannot be: a hand counts 0 to 1605"),
        ({"Cat": 1}, "Cat: 1 points cannot be"),
        ({"Ann": 5}, "Ann: the player who went out scores 0, not 5"),
        ({"Eve": 5}, "unknown player 'Eve'"),
        ([25], "'points' must be an object"),
    ],
)
def test_bad_points_are_refused_by_the_api(client, game, points, problem):
    body = {"out": "Ann", "leftovers": {"Bob": "7", "Dan": "2"}, "points": points}
    response = client.post(rounds_url(game), json=body)
    assert response.status_code == 400
    assert problem in response.get_json()["error"]
    assert client.get(f"/api/games/{game['id']}").get_json()["rounds"] == []


def test_the_api_names_every_problem_at_once(client, game):
    body = {"out": "Ann", "leftovers": {"Bob": "7 Z"}, "points": {"Cat": 1}}
    error = client.post(rounds_url(game), json=body).get_json()["error"]
    assert error.startswith("Bob: 'Z' (card 2) is not a card")
    assert "; Cat: 1 points cannot be" in error
    assert "; Dan: every player who did not go out still holds at least one card" in error


def test_the_player_out_given_zero_points_simply_went_out(client, game):
    body = {"out": "Ann", "leftovers": {"Bob": "7", "Cat": "7", "Dan": "7"}, "points": {"Ann": 0}}
    played = client.post(rounds_url(game), json=body).get_json()
    assert played["points"] == {}
    assert played["scores"]["Ann"] == 0


# --- The round form, without its script ----------------------------------------------------------


def test_the_form_takes_points_and_names_each_problem(app, client):
    app.config["WTF_CSRF_ENABLED"] = False
    made = client.post("/api/games", json={"players": NAMES, "first_dealer": "Bob"}).get_json()
    client.get(f"/games/{made['id']}/join?key={made['key']}")
    url = f"/games/{made['id']}/rounds/new"
    bad = {"out": "0", "cards_1": "7 Z", "counted_2": "y", "points_2": "x", "cards_3": "2"}
    page = client.post(url, data=bad).get_data(as_text=True)
    assert "&#39;Z&#39; (card 2) is not a card" in page
    assert "The points must be a whole number, not &#39;x&#39;" in page
    assert '<li><a href="#hand-1">Bob</a>: &#39;Z&#39; (card 2)' in page
    assert '<li><a href="#hand-2">Cat</a>: The points must be' in page
    good = {"out": "0", "cards_1": "7", "counted_2": "y", "points_2": "25", "cards_3": "2"}
    assert client.post(url, data=good).status_code == 302
    played = client.get(f"/api/games/{made['id']}").get_json()["rounds"][0]
    assert played["points"] == {"Cat": 25}
    edit = client.get(f"/games/{made['id']}/rounds/1/edit").get_data(as_text=True)
    toggle = re.search(r'<input [^>]*id="counted_2"[^>]*>', edit).group()
    assert " checked " in toggle
    points = re.search(r'<input [^>]*id="points_2"[^>]*>', edit).group()
    assert 'value="25"' in points and 'inputmode="numeric"' in points and 'type="number"' in points


# --- Export and import --------------------------------------------------------------------------


def counted_document(app) -> dict:
    client = app.test_client()
    made = client.post("/api/games", json={"players": NAMES, "first_dealer": "Bob"}).get_json()
    with_key(client, made["key"])
    client.post(
        rounds_url(made),
        json={"out": "Ann", "leftovers": {"Bob": "7"}, "points": {"Cat": 25, "Dan": 3}},
    )
    client.put(
        rounds_url(made, 1),
        json={
            "out": "Ann",
            "leftovers": {"Bob": "7", "Dan": "3"},
            "points": {"Cat": 30},
            "version": 1,
        },
    )
    with app.app_context():
        return json.loads(transfer.dumps(transfer.export_games()))


def test_export_and_import_carry_counted_hands(app, tmp_path, fresh_database):
    document = counted_document(app)
    lines = document["games"][0]["rounds"][0]["scores"]
    assert [line["counted"] for line in lines] == [False, False, True, False]
    assert lines[2] == {
        "seat": 2,
        "leftovers": "",
        "penalty": 30,
        "bonus": 0,
        "score": 30,
        "counted": True,
        "buys": 0,
    }
    assert document["games"][0]["history"][0]["before"]["counted"] == [False, False, True, True]
    target = app_on(fresh_database("points-target"), tmp_path, "target", UPGRADE_ON_START=True)
    with target.app_context():
        assert importer.import_games(document) == 1
        assert json.loads(transfer.dumps(transfer.export_games())) == document
    assert target.test_client().get("/api/games/1").get_json()["rounds"][0]["points"] == {"Cat": 30}


def test_a_document_without_counted_hands_still_imports(app, tmp_path, fresh_database):
    client = app.test_client()
    made = client.post("/api/games", json={"players": NAMES}).get_json()
    with_key(client, made["key"])
    client.post(
        rounds_url(made), json={"out": "Ann", "leftovers": {"Bob": "7", "Cat": "7", "Dan": "7"}}
    )
    with app.app_context():
        document = json.loads(transfer.dumps(transfer.export_games()))
    for line in document["games"][0]["rounds"][0]["scores"]:
        del line["counted"]  # as exported before hands could be counted
    target = app_on(fresh_database("old-doc"), tmp_path, "old", UPGRADE_ON_START=True)
    with target.app_context():
        assert importer.import_games(document) == 1


SCORES = ("games", 0, "rounds", 0, "scores")


@pytest.mark.parametrize(
    ("path", "value", "problem"),
    [
        ((*SCORES, 2, "penalty"), 9000, "Cat: 9000 points cannot be: a hand counts 0 to 1605"),
        ((*SCORES, 2, "leftovers"), "K", "leftovers (game 1, round 1) must be '' for Cat"),
        ((*SCORES, 1, "counted"), True, "leftovers (game 1, round 1) must be '' for Bob"),
        (
            (*SCORES, 0, "counted"),
            True,
            "scores[0].counted (game 1, round 1) must be false for Ann",
        ),
        ((*SCORES, 2, "counted"), "yes", "scores[2].counted must be true or false"),
        (("games", 0, "history", 0, "before", "counted"), [True], "must hold one true or false"),
        (
            ("games", 0, "history", 0, "before", "penalties", 2),
            5000,
            "5000 points cannot be: a hand counts 0 to 1605",
        ),
        (("games", 0, "history", 0, "before", "penalties", 3), 1, "1 points cannot be"),
    ],
)
def test_broken_counted_hands_are_refused_on_import(
    app, tmp_path, fresh_database, path, value, problem
):
    document = counted_document(app)
    place = document
    for part in path[:-1]:
        place = place[part]
    place[path[-1]] = value
    if path[-1] == "penalty":
        place["score"] = value + place["bonus"]
    target = app_on(fresh_database("broken"), tmp_path, "broken", UPGRADE_ON_START=True)
    with target.app_context(), pytest.raises(importer.ImportRefused) as caught:
        importer.import_games(document)
    assert problem in str(caught.value)


# --- The migration --------------------------------------------------------------------------------


def test_the_migration_keeps_every_hand_as_cards_and_goes_back(fresh_database, tmp_path):
    app = app_on(fresh_database("points"), tmp_path)
    with app.app_context():
        database.upgrade("0003_archive")
        db.session.execute(
            text(
                "INSERT INTO games (id, profile, first_dealer, created_at)"
                " VALUES (1, 'liverpool', 0, '2026-01-01 20:00:00')"
            )
        )
        for seat, name in enumerate(NAMES):
            db.session.execute(
                text("INSERT INTO players (game_id, seat, name, name_key) VALUES (1, :s, :n, :k)"),
                {"s": seat, "n": name, "k": name.lower()},
            )
        db.session.execute(
            text(
                "INSERT INTO rounds (id, game_id, number, dealer, cutter, cut_exact, out, version,"
                " recorded_at) VALUES (1, 1, 1, 0, 3, false, 0, 1, '2026-01-01 20:30:00')"
            )
        )
        for seat, (cards, penalty) in enumerate([("", 0), ("7", 7), ("K", 10), ("A", 15)]):
            db.session.execute(
                text(
                    "INSERT INTO round_scores (round_id, seat, leftovers, penalty, bonus, score)"
                    " VALUES (1, :s, :c, :p, 0, :p)"
                ),
                {"s": seat, "c": cards, "p": penalty},
            )
        db.session.commit()
        db.session.remove()
        assert database.upgrade("0004_points_entry") == "0004_points_entry"
        rows = db.session.execute(
            text("SELECT seat, leftovers, penalty, counted FROM round_scores ORDER BY seat")
        ).all()
        assert [tuple(row) for row in rows] == [
            (0, "", 0, False),
            (1, "7", 7, False),
            (2, "K", 10, False),
            (3, "A", 15, False),
        ]
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision="0003_archive")
        columns = {c["name"] for c in db.inspect(db.engine).get_columns("round_scores")}
        assert "counted" not in columns
        rows = db.session.execute(text("SELECT seat, leftovers, penalty FROM round_scores")).all()
        assert len(rows) == 4
        db.session.remove()
        database.upgrade()
    game = app.test_client().get("/api/games/1").get_json()
    assert game["rounds"][0]["points"] == {}
    assert game["totals"] == {"Ann": 0, "Bob": 7, "Cat": 10, "Dan": 15}


def test_points_typed_without_the_toggle_count_when_no_cards_are_given(app, client):
    """A browser that cannot hide the unticked points field: what was typed is not thrown away."""
    app.config["WTF_CSRF_ENABLED"] = False
    made = client.post("/api/games", json={"players": NAMES}).get_json()
    client.get(f"/games/{made['id']}/join?key={made['key']}")
    data = {"out": "0", "cards_1": "7", "points_2": "25", "cards_3": "2", "points_3": "9"}
    assert client.post(f"/games/{made['id']}/rounds/new", data=data).status_code == 302
    played = client.get(f"/api/games/{made['id']}").get_json()["rounds"][0]
    assert played["points"] == {"Cat": 25}  # Dan's cards win over a stray number
    assert played["scores"] == {"Ann": 0, "Bob": 7, "Cat": 25, "Dan": 2}
