"""Revision 0017_nights: the upgrade adds the nights' tables and keeps every game; the downgrade
drops the nights and keeps the games their draws made."""

from __future__ import annotations

import flask_migrate

from scorekeeper.games.models import Game, Player
from scorekeeper.nights.models import Night, NightPlayer, NightTable
from scorekeeper.platform import cache, database
from scorekeeper.platform.database import db
from tests.support.apps import app_on
from tests.support.names import NAMES

BEFORE = "0016_out_in_one_turn"
NIGHT_TABLES = {"nights", "night_players", "night_tables"}


def tables(app) -> set[str]:
    with app.app_context():
        return set(db.inspect(db.engine).get_table_names())


def test_the_upgrade_keeps_every_game_and_adds_the_nights(fresh_database, tmp_path):
    app = app_on(fresh_database("nights-up"), tmp_path)
    with app.app_context():
        database.upgrade(BEFORE)
    assert not tables(app) & NIGHT_TABLES
    client = app.test_client()
    made = client.post("/api/games", json={"players": NAMES})
    assert made.status_code == 201, made.json
    with app.app_context():
        database.upgrade()
        assert database.current_revision() == database.head_revision()
        assert [game.names for game in db.session.scalars(db.select(Game))] == [NAMES]
    assert tables(app) >= NIGHT_TABLES
    night = client.post("/api/nights", json={"rules": "shanghai", "players": NAMES * 1})
    assert night.status_code == 201, night.json
    drawn = client.post(f"/api/nights/{night.json['id']}/draw", json={})
    assert drawn.status_code == 201, drawn.json


def test_the_downgrade_drops_the_nights_and_keeps_their_games(fresh_database, tmp_path):
    app = app_on(fresh_database("nights-down"), tmp_path)
    with app.app_context():
        database.upgrade()
    client = app.test_client()
    night = client.post("/api/nights", json={"rules": "shanghai", "players": NAMES + ["Eve"]})
    drawn = client.post(f"/api/nights/{night.json['id']}/draw", json={})
    assert drawn.status_code == 201, drawn.json
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(NightPlayer.id))) == 5
        assert db.session.scalar(db.select(db.func.count(NightTable.id))) == 1
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision=BEFORE)
        assert database.current_revision() == BEFORE
    assert not tables(app) & NIGHT_TABLES
    with app.app_context():
        stamped = app.extensions.get(cache.EXTENSION)
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1
        assert db.session.scalar(db.select(db.func.count(Player.id))) == 5
        db.session.remove()
        database.upgrade()
        assert db.session.scalar(db.select(db.func.count(Night.id))) == 0
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1
        assert stamped is not None
