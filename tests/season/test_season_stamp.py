"""The season kept per process: its stamp changes with every change the season could show,
made in this process or another one (a second app on the same database), and not otherwise."""

from __future__ import annotations

import pytest

from scorekeeper.games import gamelist, importer, service, transfer
from scorekeeper.games.models import Game
from scorekeeper.platform import cache
from scorekeeper.platform.database import db
from tests.season.seeding import entry, play_game
from tests.support.apps import app_on
from tests.support.queries import counted


def season_stamp():
    return cache.read("season")


def one_game() -> Game:
    game, _ = service.create_game(["Ann", "Bob", "Cat"], "online", first_dealer=0)
    db.session.commit()
    return game


def record(game):
    service.record_round(game, entry([0, 10, 20]))


CHANGES = {
    "a game created": lambda game: service.create_game(["Dan", "Eve", "Fay"], "online"),
    "a round recorded": record,
    "a round corrected": lambda game: service.correct_round(game, 1, entry([0, 30, 20])),
    "a round undone": lambda game: service.undo_round(game, 1),
    "a game ended early": lambda game: service.end_early(game),
    "a player renamed": lambda game: service.rename_by_name(game, {"Bob": "Rob"}),
    "a game archived": lambda game: gamelist.archive(game),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_each_change_the_season_shows_changes_the_stamp(app, change):
    with app.app_context():
        game = one_game()
        record(game)
        db.session.commit()
        before = season_stamp()
        CHANGES[change](game)
        db.session.commit()
        assert season_stamp() != before


def test_finishing_deleting_and_importing_change_the_stamp(app):
    with app.app_context():
        before = season_stamp()
        game_id = play_game(["Ann", "Bob", "Cat"], [[0, 5, 10]] * 7)  # played to the last deal
        assert db.session.get(Game, game_id).finished and season_stamp() != before
        document = transfer.export_document([db.session.get(Game, game_id)])
        document["games"][0]["id"] = 999  # imported under a number not taken here
        before = season_stamp()
        doomed = one_game()
        assert season_stamp() != before
        before = season_stamp()
        gamelist.delete(doomed)
        db.session.commit()
        assert season_stamp() != before
        before = season_stamp()
        importer.import_games(document)
        db.session.commit()
        assert season_stamp() != before


def test_a_rolled_back_change_and_other_writes_leave_the_stamp(app):
    with app.app_context():
        game = one_game()
        before = season_stamp()
        record(game)
        db.session.rollback()
        db.session.commit()
        assert season_stamp() == before


def test_a_change_made_by_another_process_is_seen(fresh_database, tmp_path):
    """Two apps on one database, as two server processes: each keeps its own season."""
    url = fresh_database("shared")
    first = app_on(url, tmp_path, "first", UPGRADE_ON_START=True)
    second = app_on(url, tmp_path, "second")
    reader = first.test_client()
    with second.app_context():
        play_game(["Ann", "Bob", "Cat"], [[0, 10, 20]], end_early=True)
    assert [p["games"] for p in reader.get("/api/players").get_json()["players"]] == [1, 1, 1]
    with counted(first) as statements:
        reader.get("/api/players")
    assert len(statements) <= 2  # kept: the stamp alone is read
    with second.app_context():
        play_game(["Ann", "Bob", "Cat"], [[0, 20, 10]], end_early=True)
    answer = {p["name"]: p for p in reader.get("/api/players").get_json()["players"]}
    assert {name: p["games"] for name, p in answer.items()} == {"Ann": 2, "Bob": 2, "Cat": 2}
    with second.app_context():
        game = db.session.get(Game, 2)
        service.correct_round(game, 1, entry([20, 0, 10]))
        db.session.commit()
    answer = {p["name"]: p for p in reader.get("/api/players").get_json()["players"]}
    assert answer["Bob"]["wins"] == 1 and answer["Ann"]["wins"] == 1
    assert first.test_client().get("/players/").status_code == 200
