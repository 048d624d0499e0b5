"""Revision 0018_league: the upgrade adds the leagues' tables and keeps every night and game; the
downgrade drops the leagues and keeps the nights that counted for them."""

from __future__ import annotations

import flask_migrate

from scorekeeper.games.models import Game
from scorekeeper.league.models import League, LeagueNight
from scorekeeper.nights.models import Night
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from tests.support.apps import app_on
from tests.support.names import NAMES

BEFORE = "0017_nights"
LEAGUE_TABLES = {"leagues", "league_nights"}


def tables(app) -> set[str]:
    with app.app_context():
        return set(db.inspect(db.engine).get_table_names())


def test_the_upgrade_keeps_every_night_and_adds_the_leagues(fresh_database, tmp_path):
    app = app_on(fresh_database("league-up"), tmp_path)
    with app.app_context():
        database.upgrade(BEFORE)
    assert not tables(app) & LEAGUE_TABLES
    client = app.test_client()
    night = client.post("/api/nights", json={"rules": "liverpool", "players": NAMES})
    assert night.status_code == 201, night.json
    assert client.post(f"/api/nights/{night.json['id']}/draw", json={}).status_code == 201
    with app.app_context():
        database.upgrade()
        assert database.current_revision() == database.head_revision()
        assert db.session.scalar(db.select(db.func.count(Night.id))) == 1
        assert [game.names for game in db.session.scalars(db.select(Game))] != []
    assert tables(app) >= LEAGUE_TABLES
    made = client.post(
        "/api/league", json={"name": "Club", "scoring": "places", "nights": [night.json["id"]]}
    )
    assert made.status_code == 201, made.json


def test_the_downgrade_drops_the_leagues_and_keeps_their_nights(fresh_database, tmp_path):
    app = app_on(fresh_database("league-down"), tmp_path)
    with app.app_context():
        database.upgrade()
    client = app.test_client()
    night = client.post("/api/nights", json={"rules": "liverpool", "players": NAMES})
    assert client.post(f"/api/nights/{night.json['id']}/draw", json={}).status_code == 201
    for name, scoring in (("Points", "places"), ("Normalised", "normalised")):
        made = client.post(
            "/api/league", json={"name": name, "scoring": scoring, "nights": [night.json["id"]]}
        )
        assert made.status_code == 201, made.json
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(LeagueNight.id))) == 2
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision=BEFORE)
        assert database.current_revision() == BEFORE
    assert not tables(app) & LEAGUE_TABLES
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Night.id))) == 1
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 1
        db.session.remove()
        database.upgrade()
        assert db.session.scalar(db.select(db.func.count(League.id))) == 0
        assert db.session.scalar(db.select(db.func.count(Night.id))) == 1
