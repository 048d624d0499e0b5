"""`flask --app scorekeeper init-db`, `backup` and `rules`: the commands a person runs by hand."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from flask_babel import force_locale, gettext

from scorekeeper import create_app
from scorekeeper.games import transfer
from scorekeeper.platform.database import db
from scorekeeper.rules import sharing
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, RuleSet
from tests.support.apps import app_on
from tests.support.book import new_game
from tests.support.config import ENGINE, TEST_CONFIG
from tests.support.names import NAMES
from tests.support.saved import SMITH, save_ruleset, smith_document

ROOT = Path(__file__).resolve().parents[2]
SQLITE_BACKUP = pytest.mark.sqlite_only("backup through SQLite's backup API")


@pytest.fixture
def file_app(tmp_path):
    """The app on a real SQLite file (WAL, as served), with a table of rows to back up."""
    # A writer holding the database makes `backup` wait a second at most to note its time.
    config = dict(
        TEST_CONFIG,
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(tmp_path / "live.sqlite"),
        DATABASE_BUSY_SECONDS=1,
    )
    application = create_app(config, instance_path=str(tmp_path / "instance"))
    with application.app_context():
        with db.engine.begin() as connection:
            connection.exec_driver_sql(
                "CREATE TABLE ledger (id INTEGER PRIMARY KEY, seat INTEGER, points INTEGER, note TEXT)"
            )
            connection.exec_driver_sql(
                "INSERT INTO ledger (seat, points, note) VALUES (?, ?, ?)",
                [(seat % 4, seat * 5, f"hand {seat} ♠") for seat in range(500)],
            )
        db.engine.dispose()
    return application


def _dump(path: Path) -> dict[str, list[tuple]]:
    """Every table's rows, in order, read straight from the file."""
    connection = sqlite3.connect(path)
    try:
        names = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {
            name: connection.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall()
            for name in names
        }
    finally:
        connection.close()


def _integrity(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()


def test_init_db_reset_keeps_working(runner):
    result = runner.invoke(args=["init-db", "--reset"])
    assert result.exit_code == 0, result.output
    assert "Database ready" in result.output


@SQLITE_BACKUP
def test_backup_is_a_sound_copy(file_app, tmp_path):
    target = tmp_path / "backup.sqlite"
    result = file_app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert "Backup written" in result.output
    assert _integrity(target) == "ok"
    copy = _dump(target)
    assert "ledger" in copy
    assert len(copy["ledger"]) == 500
    # The live database has noted the backup's time since (/healthz), the copy not yet.
    live = _dump(tmp_path / "live.sqlite")
    assert len(live.pop("backups")) == 1
    assert copy.pop("backups") == []
    assert copy == live


@SQLITE_BACKUP
def test_backup_is_one_self_contained_file(file_app, tmp_path):
    target = tmp_path / "backup.sqlite"
    assert file_app.test_cli_runner().invoke(args=["backup", str(target)]).exit_code == 0
    connection = sqlite3.connect(target)
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        connection.close()
    assert not Path(str(target) + "-wal").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".backup")) == []


@SQLITE_BACKUP
def test_backup_leaves_out_a_write_still_in_progress(file_app, tmp_path):
    """A consistent copy: committed rows are in it, a transaction not yet committed is not."""
    writer = sqlite3.connect(tmp_path / "live.sqlite", isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("INSERT INTO ledger (seat, points, note) VALUES (1, 999, 'uncommitted')")
        target = tmp_path / "mid-write.sqlite"
        result = file_app.test_cli_runner().invoke(args=["backup", str(target)])
        assert result.exit_code == 0, result.output
        writer.execute("COMMIT")
    finally:
        writer.close()
    assert _integrity(target) == "ok"
    rows = _dump(target)["ledger"]
    assert len(rows) == 500
    assert all(row[3] != "uncommitted" for row in rows)


@SQLITE_BACKUP
def test_backup_of_the_in_memory_test_database(runner, tmp_path):
    target = tmp_path / "memory-copy.sqlite"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert _integrity(target) == "ok"


@SQLITE_BACKUP
def test_backup_refuses_to_overwrite_without_force(file_app, tmp_path):
    target = tmp_path / "old-backup.sqlite"
    target.write_bytes(b"an older backup")
    runner = file_app.test_cli_runner()
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code != 0
    assert "already exists" in result.output
    assert target.read_bytes() == b"an older backup"
    result = runner.invoke(args=["backup", "--force", str(target)])
    assert result.exit_code == 0, result.output
    assert _integrity(target) == "ok"


@SQLITE_BACKUP
def test_backup_refuses_the_live_database_as_target(file_app, tmp_path):
    result = file_app.test_cli_runner().invoke(
        args=["backup", "--force", str(tmp_path / "live.sqlite")]
    )
    assert result.exit_code != 0
    assert "live database itself" in result.output
    assert len(_dump(tmp_path / "live.sqlite")["ledger"]) == 500


@SQLITE_BACKUP
def test_backup_into_a_missing_folder_fails_clearly(file_app, tmp_path):
    result = file_app.test_cli_runner().invoke(
        args=["backup", str(tmp_path / "no-such-folder" / "b.sqlite")]
    )
    assert result.exit_code != 0
    assert "is not a folder" in result.output


@pytest.mark.skipif(ENGINE == "sqlite", reason="a server database's backup")
def test_backup_of_a_server_database_writes_the_export_and_names_pg_dump(runner, app, tmp_path):
    new_game(app.test_client(), rules="shanghai")
    target = tmp_path / "backup.json"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert "pg_dump" in result.output and "(1 game," in result.output
    with app.app_context():
        assert target.read_text() == transfer.dumps(transfer.export_games())
    # The backup holds each game's own rules, whole.
    assert json.loads(target.read_text())["games"][0]["rules"] == PRESETS["shanghai"].to_json()
    again = runner.invoke(args=["backup", str(target)])
    assert again.exit_code != 0 and "already exists" in again.output


@SQLITE_BACKUP
def test_flask_command_line_backup(tmp_path):
    """The real `flask --app scorekeeper backup FILE`, as a person types it."""
    database = tmp_path / "games.sqlite"
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", SECRET_KEY="cli-test")
    env.pop("FLASK_DEBUG", None)
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    init = subprocess.run(
        [*flask, "init-db"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert init.returncode == 0, init.stderr
    target = tmp_path / "copy.sqlite"
    result = subprocess.run(
        [*flask, "backup", str(target)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Backup written" in result.stdout
    assert _integrity(target) == "ok"
    live = _dump(database)
    assert [kind for _, _, kind in live.pop("backups")] == ["sqlite"]  # noted for /healthz
    assert _dump(target) == {**live, "backups": []}


# --- The table's saved rule sets: rules list, export, import ----------------------------------


def test_a_saved_rule_set_goes_through_export_and_import_byte_for_byte(
    app, runner, fresh_database, tmp_path
):
    """Export, import into a fresh database, export again: the same bytes, the same bytes as
    the API's document written as the file, and the rules the first tablet saved."""
    client = app.test_client()
    saved = save_ruleset(client, smith_document("Smith family · Ñoño"))
    first = tmp_path / "smith.rules.json"
    result = runner.invoke(args=["rules", "export", "SMITH FAMILY · ÑOÑO", str(first)])
    assert result.exit_code == 0, result.output
    text = first.read_text(encoding="utf-8")
    api_rules = client.get(f"/api/rulesets/{saved['id']}").get_json()["rules"]
    assert sharing.file_text(RuleSet.parse(api_rules)) == text
    assert json.loads(text) == api_rules and list(json.loads(text)) == list(LIVERPOOL.to_json())

    other = app_on(fresh_database("other-tablet"), tmp_path, "other")
    result = other.test_cli_runner().invoke(args=["rules", "import", str(first)])
    assert result.exit_code == 0, result.output
    assert 'Saved "Smith family · Ñoño"' in result.output
    again = tmp_path / "again.rules.json"
    result = other.test_cli_runner().invoke(
        args=["rules", "export", "smith family · nono", str(again)]
    )
    assert result.exit_code == 0, result.output
    assert again.read_bytes() == first.read_bytes()
    listing = other.test_cli_runner().invoke(args=["rules", "list"])
    assert listing.exit_code == 0
    assert "Smith family · Ñoño · 8 deals · 4 players · buying: 3 a game" in listing.output


def test_rules_list_shows_the_most_recent_first(app, runner):
    assert runner.invoke(args=["rules", "list"]).output == "No rule set is saved yet.\n"
    client = app.test_client()
    jones = save_ruleset(client, "online", "Jones")
    save_ruleset(client)
    assert (
        client.post("/api/games", json={"players": NAMES, "ruleset": jones["id"]}).status_code
        == 201
    )
    lines = runner.invoke(args=["rules", "list"]).output.splitlines()
    assert [line.split("\t")[1].split(" · ")[0] for line in lines] == ["Jones", "Smith family"]
    assert lines[0].startswith(f"{jones['id']}\t") and "(last game: never)" in lines[1]


def test_rules_export_refuses_to_overwrite_without_force_and_an_unknown_name(app, runner, tmp_path):
    save_ruleset(app.test_client())
    target = tmp_path / "old.json"
    target.write_text("an older file")
    result = runner.invoke(args=["rules", "export", SMITH, str(target)])
    assert result.exit_code != 0 and "already exists" in result.output
    assert target.read_text() == "an older file"
    assert runner.invoke(args=["rules", "export", SMITH, str(target), "--force"]).exit_code == 0
    assert RuleSet.parse(target.read_text()) == RuleSet.parse(smith_document())
    result = runner.invoke(args=["rules", "export", "Jones", str(tmp_path / "jones.json")])
    assert result.exit_code != 0
    assert "no saved rule set is named 'Jones' (saved: 'Smith family')" in result.output
    assert not (tmp_path / "jones.json").exists()
    stdout = runner.invoke(args=["rules", "export", SMITH, "-"])
    assert stdout.exit_code == 0 and stdout.output == target.read_text()


def test_rules_import_names_every_problem_and_saves_nothing(app, runner, tmp_path):
    document = smith_document()
    document["values"]["JK"] = 500
    document["deals"][4]["cards"] = 2
    document["colour"] = "red"
    bad = tmp_path / "bad.rules.json"
    bad.write_text(json.dumps(document))
    result = runner.invoke(args=["rules", "import", str(bad)])
    assert result.exit_code != 0
    assert "nothing was saved" in result.output
    for place in ("values.JK", "colour", "deals[4]"):
        assert f"  {place}" in result.output, result.output
    for text in ("shanghai", "{not json", ""):
        bad.write_text(text)
        result = runner.invoke(args=["rules", "import", str(bad)])
        assert result.exit_code != 0 and "nothing was saved" in result.output, result.output
    result = runner.invoke(args=["rules", "import", str(tmp_path / "missing.json")])
    assert result.exit_code != 0 and "cannot read" in result.output
    assert runner.invoke(args=["rules", "list"]).output == "No rule set is saved yet.\n"


def test_rules_import_says_a_name_is_taken_and_takes_another_by_name(app, runner, tmp_path):
    save_ruleset(app.test_client())
    file = tmp_path / "smith.rules.json"
    file.write_text(sharing.file_text(RuleSet.parse(smith_document())))
    result = runner.invoke(args=["rules", "import", str(file)])
    assert result.exit_code != 0
    assert '"Smith family" is already saved' in result.output
    result = runner.invoke(args=["rules", "import", str(file), "--name", "Shanghai"])
    assert result.exit_code != 0 and "Shanghai is a preset" in result.output
    result = runner.invoke(args=["rules", "import", str(file), "--name", "Smiths at the lake"])
    assert result.exit_code == 0, result.output
    names = [
        line.split("\t")[1].split(" · ")[0]
        for line in runner.invoke(args=["rules", "list"]).output.splitlines()
    ]
    assert names == ["Smiths at the lake", SMITH]


def test_rules_import_reads_the_standard_input(app, runner):
    result = runner.invoke(
        args=["rules", "import", "-"], input=sharing.file_text(PRESETS["family"].renamed("Nana"))
    )
    assert result.exit_code == 0, result.output
    assert 'Saved "Nana"' in result.output


def test_a_command_speaks_the_default_language(app_with, tmp_path):
    """A command has no request: what it says is in DEFAULT_LANGUAGE, through the catalog; what
    it writes for machines (the rule set's document) is the same in every language."""
    app = app_with(DEFAULT_LANGUAGE="fi")
    runner = app.test_cli_runner()
    empty = runner.invoke(args=["rules", "list"]).output
    save_ruleset(app.test_client())
    listed = runner.invoke(args=["rules", "list"]).output
    target = tmp_path / "old.json"
    target.write_text("an older file")
    refused = runner.invoke(args=["rules", "export", SMITH, str(target)])
    written = runner.invoke(args=["rules", "export", SMITH, "-"]).output
    with app.app_context(), force_locale("fi"):
        nothing = gettext("No rule set is saved yet.")
        never = gettext("(last game: %(when)s)", when=gettext("never"))
        exists = gettext(
            "%(target)s already exists: name a new file, or add --force", target=target
        )
    assert empty == nothing + "\n"
    assert listed.rstrip("\n").endswith("\t" + never)
    assert "ei koskaan" in listed  # "never" in the shipped fi catalog
    assert refused.exit_code != 0 and exists in refused.output
    assert RuleSet.parse(written) == RuleSet.parse(smith_document())


def test_a_database_not_upgraded_is_named_with_flasks_own_step(fresh_database, tmp_path):
    app = app_on(fresh_database("empty"), tmp_path)
    result = app.test_cli_runner().invoke(args=["export", str(tmp_path / "games.json")])
    assert result.exit_code != 0
    assert "run `flask --app scorekeeper init-db` first (it keeps every game)" in result.output
