"""Revision 0020_league_scoring_changes: the upgrade adds the table of scoring changes and keeps
every league as it was scored; the downgrade drops the changes and keeps each league's scoring
of the day."""

from __future__ import annotations

import flask_migrate

from scorekeeper.league.models import League, LeagueNight
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from tests.league.helpers import night, post
from tests.support.apps import app_on

BEFORE = "0019_backups"
REVISION = "0020_league_scoring_changes"
TABLE = "league_scoring_changes"


def tables(app) -> set[str]:
    with app.app_context():
        return set(db.inspect(db.engine).get_table_names())


def test_the_upgrade_keeps_every_league_and_its_scoring(fresh_database, tmp_path):
    app = app_on(fresh_database("changes-up"), tmp_path)
    with app.app_context():
        database.upgrade(BEFORE)
    assert TABLE not in tables(app)
    client = app.test_client()
    drawn = night(client, "2026-11-05", [["Ann", "Bob", "Cat", "Dan"]], {})
    with app.app_context():
        # The league as 0018 stored it: the app of today reads its changes too.
        db.session.execute(
            db.text(
                "INSERT INTO leagues (id, name, name_key, scoring, points, created_at) "
                "VALUES (1, 'Club', 'club', 'places', '[5, 2]', '2026-11-01 20:00:00')"
            )
        )
        db.session.execute(
            db.text(
                "INSERT INTO league_nights (league_id, night_id, added_at) "
                "VALUES (1, :night, '2026-11-05 20:00:00')"
            ),
            {"night": drawn["id"]},
        )
        db.session.commit()
        database.upgrade(REVISION)
        assert database.current_revision() == REVISION
        league = db.session.scalars(db.select(League)).one()
        assert (league.scoring, league.points, league.changes) == ("places", [5, 2], [])
        assert db.session.scalar(db.select(db.func.count(LeagueNight.id))) == 1
    # The id was written by hand: PostgreSQL's sequence moves past it.
    with app.app_context():
        database.move_sequences_past_ids(db.session.connection())
        db.session.commit()
    changed = post(client, "/api/league/1/scoring", {"scoring": "normalised"})
    assert changed.status_code == 200, changed.json
    assert changed.json["scoring"] == "normalised"


def test_the_downgrade_drops_the_changes_and_keeps_the_scoring_of_the_day(fresh_database, tmp_path):
    app = app_on(fresh_database("changes-down"), tmp_path)
    with app.app_context():
        database.upgrade()
    client = app.test_client()
    assert post(client, "/api/league", {"name": "Club", "scoring": "places"}).status_code == 201
    assert post(client, "/api/league/1/scoring", {"scoring": "normalised"}).status_code == 200
    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision=BEFORE)
        assert database.current_revision() == BEFORE
    assert TABLE not in tables(app)
    with app.app_context():
        row = db.session.execute(db.text("SELECT scoring, name FROM leagues")).one()
        assert tuple(row) == ("normalised", "Club")
