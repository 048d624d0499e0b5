"""Names that look alike are one name at a table: case, accents, look-alike letters, invisibles."""

from __future__ import annotations

import string

import flask_migrate
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from scorekeeper.games.names import clean_name, kept_as_played, name_key, seat_keys
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from tests.support.apps import app_on
from tests.support.book import new_game

LOOK_ALIKE = ["ann", "Ánn", "A\u0301nn", "Anń", "\u0410nn", "ＡＮＮ", "Ann\u200b"]


@pytest.mark.parametrize("other", LOOK_ALIKE, ids=ascii)
def test_the_api_refuses_a_second_seat_that_looks_like_the_first(client, other):
    answer = client.post("/api/games", json={"players": ["Ann", "Bob", other]})
    assert answer.status_code == 400, answer.get_json()
    error = answer.get_json()["error"]
    assert error.startswith("player 3: ")
    assert "already at the table" in error or "invisible character (U+200B)" in error
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize(
    "name", ["Jo\u200bhn", "Jo\u2060hn", "Jo\ufeffhn", "Jo\u00adhn", "Jo\u3164hn", "A\ufe00"]
)
def test_invisible_and_format_characters_are_refused(client, name):
    answer = client.post("/api/games", json={"players": [name, "Bob", "Cat"]})
    assert answer.status_code == 400
    assert "invisible character" in answer.get_json()["error"]


def test_names_are_kept_in_nfkc_and_emoji_sequences_stay_whole(client):
    cook = "\U0001f469\u200d\U0001f373"  # woman cook: the joiner makes the picture
    answer = client.post("/api/games", json={"players": ["ﬁona", "ＢＯＢ", cook, "Zoë"]})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["players"] == ["fiona", "BOB", cook, "Zoë"]


def test_distinct_names_stay_distinct():
    keys = {name_key(clean_name(name)) for name in ["Ann", "Anna", "Bob", "Rob", "Zoë", "Zoey"]}
    assert len(keys) == 6


def test_the_new_game_page_marks_the_look_alike_seat(client):
    page = client.post(
        "/games/new",
        data={"names-0": "Ann", "names-1": "Bob", "names-2": "\u0410nn", "profile": "liverpool"}
        | {"first_dealer": "random"},
    )
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "looks like" in html and "already at the table" in html
    assert client.get("/api/games").get_json()["games"] == []


def test_a_player_is_found_by_any_look_alike_spelling(client):
    game = new_game(client, ["Zoë", "Bob", "Cat", "Dan"], profile=None)
    answer = client.post(
        f"/api/games/{game.id}/rounds",
        json={"out": "zoe", "leftovers": {"BOB": "K", "Cat": "5", "Dan": "9"}},
        headers=game.headers,
    )
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["out"] == "Zoë"


def test_the_upgrade_recomputes_every_name_key(fresh_database, tmp_path):
    """Rows made at the baseline get the new keys; look-alike seats accepted then are kept."""
    app = app_on(fresh_database("rekey"), tmp_path)
    with app.app_context():
        database.upgrade("0001_baseline")
        db.session.execute(
            text(
                "INSERT INTO games (id, profile, first_dealer, created_at)"
                " VALUES (1, 'liverpool', 0, '2026-01-01 20:00:00')"
            )
        )
        for seat, name in enumerate(["Zoë", "Ann", "\u0410nn", "Dan"]):
            db.session.execute(
                text("INSERT INTO players (game_id, seat, name, name_key) VALUES (1, :s, :n, :k)"),
                {"s": seat, "n": name, "k": name.casefold()},
            )
        db.session.commit()
        db.session.remove()
        assert database.upgrade("0002_write_once") == "0002_write_once"
        rows = db.session.execute(text("SELECT name, name_key FROM players ORDER BY seat")).all()
        assert [tuple(row) for row in rows] == [
            ("Zoë", "zoe"),
            ("Ann", "ann"),
            ("\u0410nn", "ann#2"),
            ("Dan", "dan"),
        ]
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision="0001_baseline")
        rows = db.session.execute(text("SELECT name_key FROM players ORDER BY seat")).all()
        assert [row[0] for row in rows] == ["zoë", "ann", "\u0430nn", "dan"]
        db.session.remove()
    client = app.test_client()
    with app.app_context():
        database.upgrade()
    # Both seats of the old game are still told apart by their names as written.
    game = client.get("/api/games/1").get_json()
    assert game["players"] == ["Zoë", "Ann", "\u0410nn", "Dan"]


@given(st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=30))
def test_a_name_in_capitals_shares_the_key_of_the_name_in_small_letters(text):
    """Case alone never makes two names: the skeleton takes a capital I for an l, the key not."""
    assert name_key(text.upper()) == name_key(text.lower()) == name_key(text)


@pytest.mark.parametrize(
    ("first", "other"), [("Ivan", "IVAN"), ("Bill", "BILL"), ("Ivan", "\u0406van"), ("Li", "LI")]
)
def test_the_api_refuses_a_seat_that_differs_by_a_capital_i(client, first, other):
    answer = client.post("/api/games", json={"players": [first, "Bob", "Cat", other]})
    assert answer.status_code == 400, answer.get_json()
    assert "already at the table" in answer.get_json()["error"]


@pytest.mark.parametrize(
    ("kept", "today"),
    [("Ｂｏｂ", "Bob"), ("ﬁona", "fiona"), ("Tab\u200bby", "Tabby"), ("\u202eAnn", "ann")],
)
def test_a_name_kept_from_before_the_rules_has_the_key_of_its_spelling_today(kept, today):
    assert name_key(kept) == name_key(today)


def test_the_joiner_inside_an_emoji_still_makes_the_key():
    assert name_key("👩\u200d🍳") != name_key("👩🍳")


@pytest.mark.parametrize(
    ("names", "kept"),
    [
        (["Ｂｏｂ", "ﬁona", "Tab\u200bby", "Ann"], True),
        (["Ann", "Аnn"], True),  # look-alikes, different when case-folded
        (["Ann", "ANN"], False),  # the first releases refused these too
        ([" Ann", "Bob"], False),
        (["Ann\tLee", "Bob"], False),
        (["Ann\x07", "Bob"], False),
        (["A" * 25, "Bob"], False),
        (["", "Bob"], False),
    ],
)
def test_names_kept_as_played_are_exactly_what_the_first_releases_kept(names, kept):
    assert kept_as_played(names) is kept


def test_look_alike_seats_get_a_key_each():
    assert seat_keys(["Ann", "Аnn", "ann"]) == ["ann", "ann#1", "ann#2"]
