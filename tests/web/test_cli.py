"""`flask --app scorekeeper init-db` and `backup`: the commands a person runs by hand."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.rules.presets import PRESETS
from scorekeeper.scorebook import transfer
from tests.support.book import new_game
from tests.support.config import ENGINE, TEST_CONFIG

ROOT = Path(__file__).resolve().parents[2]
SQLITE_BACKUP = pytest.mark.sqlite_only("backup through SQLite's backup API")


@pytest.fixture
def file_app(tmp_path):
    """The app on a real SQLite file (WAL, as served), with a table of rows to back up."""
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI="sqlite:///" + str(tmp_path / "live.sqlite"))
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
    assert copy == _dump(tmp_path / "live.sqlite")


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
    assert "pg_dump" in result.output and "1 games" in result.output
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
    assert _dump(target) == _dump(database)
