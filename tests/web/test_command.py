"""The `scorekeeper` program (`scorekeeper.command`): the app's commands and its own, the data
folder it chooses, and `serve` as `make run`."""

from __future__ import annotations

import errno
from pathlib import Path

import platformdirs
import pytest
from click.testing import CliRunner

from scorekeeper import command, serve
from scorekeeper.platform import settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def scorekeeper(monkeypatch, fresh_database, tmp_path):
    """Run `scorekeeper ARGS…` in this process on a fresh database of the engine under test;
    the environment it changes (the data folder) is put back after."""
    monkeypatch.setenv("FLASK_RUN_FROM_CLI", "")  # Flask's group sets it; put back after
    url = fresh_database("command")

    def run(*args: str, data: Path | None = None):
        env = {settings.DATA_VARIABLE: None, "DATABASE_URL": url, "SECRET_KEY": "command-test"}
        chosen = ["--data", str(data or tmp_path / "data")]
        return CliRunner().invoke(command.main, [*chosen, *args], env=env, catch_exceptions=False)

    run.url = url
    return run


def test_the_program_has_the_apps_commands_and_its_own_and_not_flasks(scorekeeper):
    listed = scorekeeper("--help").output
    for name in ("serve", "where", "db", "backup", "restore", "export", "import", "rules"):
        assert f"  {name} " in listed, name
    assert "config" in listed
    for flasks in ("  run ", "  shell ", "  routes ", "--app", "--env-file"):
        assert flasks not in listed


def test_where_says_the_data_folder_the_database_and_the_settings_file(scorekeeper, tmp_path):
    chosen = tmp_path / "our scores"
    said = scorekeeper("where", data=chosen)
    assert said.exit_code == 0, said.output
    lines = said.output.splitlines()
    assert lines[0] == f"Data folder: {chosen}"
    assert lines[1].startswith("Database: ")
    assert lines[2] == f"Settings file: {chosen / 'config.py'} (none yet)"
    assert (chosen / "secret_key").exists() or chosen.is_dir()


def test_db_upgrade_brings_a_new_database_to_this_version(scorekeeper):
    said = scorekeeper("db", "upgrade")
    assert said.exit_code == 0, said.output
    assert "Database ready at revision" in said.output
    assert "(created)" in said.output
    assert "(already there)" in scorekeeper("db", "upgrade").output


def test_backup_and_export_run_under_the_program(scorekeeper, tmp_path):
    scorekeeper("db", "upgrade")
    exported = scorekeeper("export", str(tmp_path / "games.json"))
    assert exported.exit_code == 0, exported.output
    backed = scorekeeper("backup", str(tmp_path / "games.backup"))
    assert backed.exit_code == 0, backed.output
    assert (tmp_path / "games.backup").stat().st_size > 0


def test_serve_is_make_runs_server_with_its_options(scorekeeper, monkeypatch):
    seen = {}
    monkeypatch.setattr(serve, "main", lambda argv, program: seen.update(argv=argv, prog=program))
    options = ["--host", "127.0.0.1", "--port", "0", "--https", "no", "--threads", "2"]
    said = scorekeeper("serve", *options)
    assert said.exit_code == 0, said.output
    assert seen == {"argv": options, "prog": "scorekeeper serve"}
    scorekeeper("serve", "--help")
    assert seen["argv"] == ["--help"]  # serve's own help, with every option


def test_config_options_that_cannot_be_written_are_named_together(scorekeeper):
    said = scorekeeper("config", "nginx", "--upstream", "nowhere", "--prefix", "cards")
    assert said.exit_code == 2
    assert "--upstream 'nowhere' is not host:port" in said.output
    assert "--prefix 'cards' is not a path like /cards/" in said.output


# --- The data folder ---------------------------------------------------------------------------


def test_in_a_checkout_the_data_is_in_instance(monkeypatch):
    monkeypatch.delenv(settings.DATA_VARIABLE, raising=False)
    assert settings.CHECKOUT == ROOT
    assert settings.instance_folder() == str(ROOT / "instance")


def test_installed_the_data_is_in_the_platforms_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(settings.DATA_VARIABLE, raising=False)
    monkeypatch.setattr(settings, "CHECKOUT", None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert settings.instance_folder() == platformdirs.user_data_dir("scorekeeper", appauthor=False)
    assert settings.instance_folder() == str(tmp_path / "share" / "scorekeeper")


def test_scorekeeper_data_chooses_the_folder_over_both(monkeypatch, tmp_path):
    monkeypatch.setenv(settings.DATA_VARIABLE, str(tmp_path / "elsewhere" / ".." / "book"))
    assert settings.instance_folder() == str(tmp_path / "book")
    monkeypatch.setattr(settings, "CHECKOUT", None)
    assert settings.instance_folder() == str(tmp_path / "book")


# --- serve, started as the program --------------------------------------------------------------


@pytest.fixture
def as_program(monkeypatch):
    monkeypatch.setattr(serve, "started_as", "scorekeeper serve")


def test_a_busy_port_names_the_programs_option(as_program):
    said = serve.bind_problem(OSError(errno.EADDRINUSE, "in use"), "127.0.0.1", 5000)
    assert said.startswith("port 5000 is in use: try scorekeeper serve --port ")
    said = serve.bind_problem(OSError(errno.EACCES, "denied"), "0.0.0.0", 443, "HTTPS_PORT")
    assert said.endswith("try scorekeeper serve --https-port 5443")
    said = serve.bind_problem(OSError(errno.EADDRNOTAVAIL, "no"), "10.9.9.9", 5000)
    assert said.endswith("try scorekeeper serve --host 0.0.0.0")


def test_make_run_keeps_its_own_words():
    assert serve.started_as is None
    said = serve.bind_problem(OSError(errno.EADDRINUSE, "in use"), "127.0.0.1", 5000)
    assert said.startswith("port 5000 is in use: try PORT=") and said.endswith(" make run")


def test_serving_this_machine_only_says_how_to_serve_the_table(as_program):
    said = serve.start_message("127.0.0.1", 5000, [])
    assert "start it with `scorekeeper serve` to serve the table" in said
    assert "make run" not in said


def test_a_database_not_upgraded_is_named_with_the_programs_own_step(scorekeeper, tmp_path):
    said = scorekeeper("export", str(tmp_path / "games.json"))
    assert said.exit_code != 0
    assert "run `scorekeeper db upgrade` first (it keeps every game)" in said.output
