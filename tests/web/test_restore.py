"""`restore FILE`: what `backup` wrote (an SQLite copy on SQLite, the export on PostgreSQL) put
back into a database of either kind, byte for byte as exported before, the table's saved rule
sets, merges and paper sheets' records with its games; refused over games unless --force; and
/healthz saying the last backup's age."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.platform import backups
from scorekeeper.platform.database import db
from tests.league.helpers import night
from tests.support.apps import app_on
from tests.support.book import new_game, play_rounds
from tests.support.config import ENGINE, TEST_CONFIG
from tests.support.names import NAMES
from tests.support.saved import save_ruleset
from tests.support.sheets import import_sheet

SQLITE_ONLY = pytest.mark.sqlite_only("restores an SQLite copy through the export")


def book_with_games(url: str, tmp_path: Path, name: str):
    """An app on the database at `url` holding three games, two with rounds played, a club's
    night of two more tables with a league counting it, a game from a paper sheet, a saved rule
    set and two merges, one undone and one in force."""
    app = app_on(url, tmp_path, name, UPGRADE_ON_START=True)
    client = app.test_client()
    first = new_game(client)
    play_rounds(client, first, 2)
    new_game(client, names=list(reversed(NAMES)), rules="shanghai")
    third = new_game(client)
    play_rounds(client, third, 1)
    tables = [["Ann", "Bob", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"]]
    drawn = night(client, "2026-11-05", tables, {1: [("Ann", {"Bob": 10, "Cat": 20, "Dan": 5})]})
    league = {"name": "Thursdays", "scoring": "places", "nights": [drawn["id"]]}
    assert client.post("/api/league", json=league).status_code == 201
    import_sheet(app)
    save_ruleset(client)
    merges = []
    for source, into in (("Hal", "Dan"), ("Eve", "Ann")):
        merged = client.post("/api/players/merges", json={"from": source, "into": into})
        assert merged.status_code == 201, merged.get_json()
        merges.append(merged.get_json()["merge"]["id"])
    assert client.delete(f"/api/players/merges/{merges[0]}").status_code == 200
    return app


def held(exported: dict) -> tuple[int, ...]:
    """How many games, nights, leagues, saved rule sets, merges (in force) and sheets' records
    an export holds."""
    in_force = [row for row in exported["merges"] if row["undone_at"] is None]
    return (
        *(len(exported[name]) for name in ("games", "nights", "leagues", "rule_sets", "merges")),
        len(in_force),
        len(exported["sheets"]),
    )


def export_bytes(app, target: Path) -> bytes:
    result = app.test_cli_runner().invoke(args=["export", str(target)])
    assert result.exit_code == 0, result.output
    return target.read_bytes()


def invoke(app, *args: str):
    return app.test_cli_runner().invoke(args=list(args))


def test_backup_restore_export_gives_the_same_export_byte_for_byte(fresh_database, tmp_path):
    source = book_with_games(fresh_database("source"), tmp_path, "source")
    before = export_bytes(source, tmp_path / "before.json")
    exported = json.loads(before)
    assert held(exported) == (6, 1, 1, 1, 2, 1, 1)
    backup = tmp_path / "nightly.backup"
    assert invoke(source, "backup", str(backup)).exit_code == 0
    # What backup wrote on this engine: an SQLite copy, or the export.
    assert backup.read_bytes().startswith(b"SQLite format 3\0") == (ENGINE == "sqlite")

    target = app_on(fresh_database("target"), tmp_path, "target")
    result = invoke(target, "restore", str(backup))
    assert result.exit_code == 0, result.output
    assert "Restored 6 games" in result.output
    assert export_bytes(target, tmp_path / "after.json") == before


def test_restore_over_games_is_refused_without_force_and_says_why(fresh_database, tmp_path):
    source = book_with_games(fresh_database("source"), tmp_path, "source")
    backup = tmp_path / "nightly.backup"
    assert invoke(source, "backup", str(backup)).exit_code == 0
    before = export_bytes(source, tmp_path / "before.json")

    target = app_on(fresh_database("target"), tmp_path, "target", UPGRADE_ON_START=True)
    new_game(target.test_client(), names=["Zed", "Yan", "Xia", "Wim"])
    kept = export_bytes(target, tmp_path / "kept.json")
    refused = invoke(target, "restore", str(backup))
    assert refused.exit_code != 0
    assert "the database holds 1 game" in refused.output
    assert "--force" in refused.output
    assert export_bytes(target, tmp_path / "still.json") == kept  # nothing changed

    forced = invoke(target, "restore", "--force", str(backup))
    assert forced.exit_code == 0, forced.output
    assert export_bytes(target, tmp_path / "after.json") == before
    # From the export too: what the backup held, written over what the target held.
    over = invoke(target, "restore", "--force", str(tmp_path / "before.json"))
    assert over.exit_code == 0, over.output
    assert export_bytes(target, tmp_path / "over.json") == before
    assert held(json.loads(before)) == (6, 1, 1, 1, 2, 1, 1)
    # The export over games, forced: the games replaced in one transaction.
    again = invoke(target, "restore", "--force", str(tmp_path / "kept.json"))
    assert again.exit_code == 0, again.output
    assert export_bytes(target, tmp_path / "again.json") == kept


def test_a_refused_export_leaves_the_games_as_they_were(fresh_database, tmp_path):
    target = book_with_games(fresh_database("target"), tmp_path, "target")
    kept = export_bytes(target, tmp_path / "kept.json")
    document = json.loads(kept)
    document["games"][1]["players"] = "not a list"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    result = invoke(target, "restore", "--force", str(bad))
    assert result.exit_code != 0
    assert "bad.json" in result.output
    assert export_bytes(target, tmp_path / "after.json") == kept


def test_a_file_that_is_no_backup_is_refused(fresh_database, tmp_path):
    target = app_on(fresh_database("target"), tmp_path, "target")
    text = tmp_path / "notes.txt"
    text.write_text("the scores, roughly\n", encoding="utf-8")
    result = invoke(target, "restore", str(text))
    assert result.exit_code != 0
    assert "is not JSON" in result.output
    missing = invoke(target, "restore", str(tmp_path / "missing.backup"))
    assert missing.exit_code != 0 and "does not exist" in missing.output


@SQLITE_ONLY
def test_an_sqlite_copy_goes_into_a_database_that_is_no_file_through_the_export(tmp_path):
    """An SQLite backup into a database that is not an SQLite file (PostgreSQL; here one in
    memory) is read out as the export, from a temporary copy: the backup stays as it was."""
    source = book_with_games(f"sqlite:///{tmp_path / 'source.sqlite'}", tmp_path, "source")
    before = export_bytes(source, tmp_path / "before.json")
    backup = tmp_path / "nightly.sqlite"
    assert invoke(source, "backup", str(backup)).exit_code == 0
    copied = backup.read_bytes()

    target = app_on("sqlite://", tmp_path, "memory", UPGRADE_ON_START=True)
    result = invoke(target, "restore", str(backup))
    assert result.exit_code == 0, result.output
    assert export_bytes(target, tmp_path / "after.json") == before
    assert held(json.loads(before)) == (6, 1, 1, 1, 2, 1, 1)
    assert backup.read_bytes() == copied


@pytest.mark.sqlite_only("the live database is an SQLite file")
def test_the_live_database_is_not_restored_onto_itself(tmp_path):
    live = tmp_path / "live.sqlite"
    app = app_on(f"sqlite:///{live}", tmp_path, UPGRADE_ON_START=True)
    result = invoke(app, "restore", str(live))
    assert result.exit_code != 0
    assert "is the live database itself" in result.output


def test_healthz_says_the_last_backups_age(fresh_database, tmp_path):
    app = book_with_games(fresh_database("book"), tmp_path, "book")
    client = app.test_client()
    assert client.get("/healthz").json == {"ok": True, "last_backup": None}
    assert invoke(app, "backup", str(tmp_path / "first.backup")).exit_code == 0
    said = client.get("/healthz").json["last_backup"]
    assert said["kind"] == ("sqlite" if ENGINE == "sqlite" else "export")
    assert said["at"].endswith("Z")
    with app.app_context():
        # The backup, as if taken a day ago: its age is counted from its time.
        row = backups.last()
        row.taken_at = row.taken_at.replace(year=row.taken_at.year - 1)
        db.session.commit()
    assert client.get("/healthz").json["last_backup"]["age_seconds"] >= 365 * 24 * 3600


def test_only_the_newest_backups_are_kept(app):
    with app.app_context():
        for _ in range(backups.KEEP + 5):
            backups.record("export")
        assert db.session.scalar(db.select(db.func.count(backups.Backup.id))) == backups.KEEP


def test_another_process_sees_the_backup(fresh_database, tmp_path):
    """The time is kept in the database, so a second app on it (another server process) says
    the same."""
    url = fresh_database("shared")
    first = book_with_games(url, tmp_path, "first")
    assert invoke(first, "backup", str(tmp_path / "b.backup")).exit_code == 0
    second = app_on(url, tmp_path, "second", **{"TESTING": TEST_CONFIG["TESTING"]})
    assert second.test_client().get("/healthz").json["last_backup"] is not None
