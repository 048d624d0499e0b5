"""Revision 0019_backups: the upgrade adds the record of backups taken and keeps every game; the
downgrade drops it and keeps them too."""

from __future__ import annotations

import flask_migrate

from scorekeeper.games.models import Game
from scorekeeper.platform import backups, database
from scorekeeper.platform.database import db
from tests.support.apps import app_on
from tests.support.book import new_game, play_rounds

BEFORE = "0018_league"


def has_backups_table(app) -> bool:
    with app.app_context():
        return db.inspect(db.engine).has_table("backups")


def test_the_upgrade_keeps_every_game_and_adds_the_backups(fresh_database, tmp_path):
    app = app_on(fresh_database("backups-up"), tmp_path)
    with app.app_context():
        database.upgrade(BEFORE)
    assert not has_backups_table(app)
    client = app.test_client()
    game = new_game(client)
    play_rounds(client, game, 2)
    with app.app_context():
        database.upgrade("0019_backups")
        assert database.current_revision() == "0019_backups"
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1
        assert backups.last() is None
    assert client.get("/healthz").json == {"ok": True, "last_backup": None}
    assert client.get(f"/api/games/{game.id}").json["rounds"]


def test_the_downgrade_drops_the_backups_and_keeps_the_games(fresh_database, tmp_path):
    app = app_on(fresh_database("backups-down"), tmp_path)
    with app.app_context():
        database.upgrade()
    new_game(app.test_client())
    with app.app_context():
        backups.record("sqlite")
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision=BEFORE)
        assert database.current_revision() == BEFORE
    assert not has_backups_table(app)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1
        db.session.remove()
        database.upgrade()
        assert backups.last() is None
