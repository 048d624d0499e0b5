"""Revision 0006 (saved rule sets) on a database that already holds games: every row is kept on
the way up, down and up again, and the way down is refused while a saved rule set would be lost."""

from __future__ import annotations

import json

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.exc import IntegrityError

from scorekeeper.games.names import name_key
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import PRESETS
from scorekeeper.rulesets import service as rulesets
from tests.support.apps import app_on
from tests.support.names import NAMES
from tests.support.saved import SMITH, smith_document

BEFORE = "0005_game_rules"
REVISION = "0006_saved_rule_sets"
# Every table a database at 0005 holds rows in.
TABLES = ("games", "players", "rounds", "round_scores", "round_changes", "write_once")


def seed_at_0005(app) -> None:
    """Three games under the schema of 0005 (a preset, another, a table's own document), each
    with a recorded round and its scores, one with a correction and one kept write."""
    documents = [PRESETS["liverpool"].to_json(), PRESETS["online"].to_json(), smith_document()]
    statements = {
        "games": "INSERT INTO games (id, rules, first_dealer, created_at)"
        " VALUES (:id, :rules, 0, '2026-11-01 20:00:00')",
        "players": "INSERT INTO players (game_id, seat, name, name_key) VALUES (:g, :s, :n, :k)",
        "rounds": "INSERT INTO rounds (id, game_id, number, dealer, cutter, cut_exact, out,"
        " version, recorded_at) VALUES (:g, :g, 1, 0, 3, false, 0, 2, '2026-11-01 20:10:00')",
        "round_scores": "INSERT INTO round_scores (round_id, seat, leftovers, penalty, bonus,"
        " score, counted) VALUES (:g, :s, :cards, :p, 0, :p, false)",
        "round_changes": "INSERT INTO round_changes (game_id, round_number, action, changed_at,"
        " before, after) VALUES (1, 1, 'corrected', '2026-11-01 20:20:00', '{}', '{}')",
        "write_once": "INSERT INTO write_once (scope, key_hash, request_hash, status, body,"
        " created_at) VALUES ('api new game', 'k', 'r', 201, '{}', '2026-11-01 20:00:00')",
    }
    with app.app_context():
        database.upgrade(BEFORE)
        run = db.session.execute
        for game_id, document in enumerate(documents, start=1):
            run(db.text(statements["games"]), {"id": game_id, "rules": json.dumps(document)})
            run(db.text(statements["rounds"]), {"g": game_id})
            for seat, name in enumerate(NAMES):
                run(
                    db.text(statements["players"]),
                    {"g": game_id, "s": seat, "n": name, "k": name_key(name)},
                )
                cards, points = ("", 0) if seat == 0 else ("K", 10)
                run(
                    db.text(statements["round_scores"]),
                    {"g": game_id, "s": seat, "cards": cards, "p": points},
                )
        run(db.text(statements["round_changes"]))
        run(db.text(statements["write_once"]))
        db.session.commit()
        db.session.remove()


def stored_rows(app) -> dict[str, list[dict]]:
    """Every row of every table of 0005, by id, JSON decoded."""
    with app.app_context(), db.engine.connect() as connection:
        rows = {}
        for table in TABLES:
            found = connection.execute(db.text(f"SELECT * FROM {table} ORDER BY id")).mappings()
            rows[table] = [
                {
                    k: json.loads(v)
                    if k in ("rules", "before", "after") and isinstance(v, str)
                    else v
                    for k, v in row.items()
                }
                for row in found
            ]
    return rows


# Columns later revisions add to 0005's tables (0008: the early end, playing again; 0011: from
# a paper sheet): empty (or false) in every row an upgrade keeps.
LATER_COLUMNS = {
    "games": ("ended_after", "played_again_at", "from_sheet"),
    "rounds": ("out_in_one_turn",),
    "round_scores": ("buys",),
}


def as_at_0005(rows: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The rows without the columns later revisions added, each of which must be empty."""
    kept = {}
    for table, found in rows.items():
        later = LATER_COLUMNS.get(table, ())
        assert all(not row[column] for row in found for column in later if column in row)
        kept[table] = [{k: v for k, v in row.items() if k not in later} for row in found]
    return kept


def tables(app) -> set[str]:
    with app.app_context():
        return set(db.inspect(db.engine).get_table_names())


def differences(app) -> list:
    with app.app_context(), db.engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), db.metadata)


def downgrade(revision: str = BEFORE) -> None:
    flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision=revision)


def test_the_upgrade_keeps_every_game_and_so_do_down_and_up_again(fresh_database, tmp_path):
    app = app_on(fresh_database("saved-up"), tmp_path)
    seed_at_0005(app)
    before = stored_rows(app)
    assert [len(before[table]) for table in TABLES] == [3, 12, 3, 12, 1, 1]
    with app.app_context():
        assert database.upgrade() == database.head_revision()
    assert "saved_rule_sets" in tables(app)
    assert as_at_0005(stored_rows(app)) == before
    assert differences(app) == []
    with app.app_context():
        assert rulesets.saved() == []
        db.session.remove()
        downgrade()
        assert database.current_revision() == BEFORE
    assert "saved_rule_sets" not in tables(app)
    assert stored_rows(app) == before
    with app.app_context():
        assert database.upgrade(REVISION) == REVISION
    assert stored_rows(app) == before
    with app.app_context():
        database.upgrade()  # the app of today reads the games once they are upgraded again
    # The games read as they did, the table's own rules among them.
    client = app.test_client()
    assert client.get("/api/games/3").get_json()["rules"] == smith_document()
    assert client.get("/api/games/2").get_json()["profile"] == "online"


def test_the_upgraded_table_keeps_look_alike_names_apart_by_its_unique_key(
    fresh_database, tmp_path
):
    app = app_on(fresh_database("saved-key"), tmp_path)
    with app.app_context():
        database.upgrade(REVISION)
        insert = db.text(
            "INSERT INTO saved_rule_sets (name, name_key, rules, created_at, updated_at)"
            " VALUES (:name, :key, '{}', '2026-12-01 20:00:00', '2026-12-01 20:00:00')"
        )
        with db.engine.begin() as connection:
            connection.execute(insert, {"name": SMITH, "key": name_key(SMITH)})
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(insert, {"name": "SMITH FAMILY", "key": name_key("SMITH FAMILY")})


def test_the_downgrade_is_refused_while_a_rule_set_is_saved(fresh_database, tmp_path, caplog):
    app = app_on(fresh_database("saved-down"), tmp_path)
    seed_at_0005(app)
    with app.app_context():
        database.upgrade()
        rulesets.save(PRESETS["family"], SMITH)
        rulesets.save(PRESETS["online"], "Jones")
        db.session.commit()
        db.session.remove()
    before = stored_rows(app)
    with app.app_context():
        with pytest.raises(SystemExit):  # the refusal, as `flask db downgrade` reports it
            downgrade()
        assert database.current_revision() == database.head_revision()
        assert [row.name for row in rulesets.saved()] == ["Jones", SMITH]
        db.session.remove()
    assert "cannot downgrade below 0006_saved_rule_sets" in caplog.text
    assert "'Smith family', 'Jones'" in caplog.text and "Nothing was changed" in caplog.text
    assert stored_rows(app) == before


def test_the_upgrade_gives_every_player_the_key_names_have_now(fresh_database, tmp_path):
    """Keys stored by the older `name_key` (which read a capital I as an l: "IVAN" was "lvan")
    are made anew, so a game of 0005's "IVAN" and a later game's "Ivan" are one player on
    /players; two seats of one old game that now share a key keep their names."""
    app = app_on(fresh_database("saved-rekey"), tmp_path)
    seed_at_0005(app)
    older = {"IVAN": "lvan", "Ivan": "ivan", "BILL": "blll", "Bill": "bill"}
    with app.app_context():
        with db.engine.begin() as connection:
            for game_id, seated in (
                (1, ("IVAN", "BILL")),
                (2, ("Ivan", "Bill")),
                (3, ("IVAN", "Ivan")),
            ):
                for seat, name in enumerate(seated):
                    connection.execute(
                        db.text(
                            "UPDATE players SET name = :n, name_key = :k"
                            " WHERE game_id = :g AND seat = :s"
                        ),
                        {"n": name, "k": older[name], "g": game_id, "s": seat},
                    )
        database.upgrade()
        with db.engine.connect() as connection:
            keys = connection.execute(
                db.text("SELECT game_id, seat, name_key FROM players WHERE seat < 2 ORDER BY id")
            ).all()
        db.session.remove()
    assert [tuple(row) for row in keys] == [
        (1, 0, "ivan"),
        (1, 1, "bill"),
        (2, 0, "ivan"),
        (2, 1, "bill"),
        (3, 0, "ivan"),
        (3, 1, "ivan#1"),
    ]
    listed = app.test_client().get("/api/players").get_json()["players"]
    # "BILL" (game 1) and "Bill" (game 2) are one player; game 3's second Ivan keeps its seat's
    # own key, apart from the first.
    named = sorted(player["name"] for player in listed)
    assert named == ["Bill", "Cat", "Dan", "IVAN", "Ivan"]
