"""The foundation: the factory, the instance folder, the database and the CLI."""

from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from tests.support.config import TEST_CONFIG

# These build the app from its defaults alone, and the default database is a SQLite file in the
# instance folder.
DEFAULTS = pytest.mark.sqlite_only("the default database is a SQLite file in the instance folder")


def test_test_config_is_honoured(app):
    assert app.testing
    assert app.config["SQLALCHEMY_DATABASE_URI"] == TEST_CONFIG["SQLALCHEMY_DATABASE_URI"]
    assert app.config["WTF_CSRF_ENABLED"] is False


@DEFAULTS
def test_default_config_is_not_testing(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app(instance_path=str(tmp_path / "inst"))
    assert not app.testing
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("inst/scorekeeper.sqlite")


@DEFAULTS
def test_first_start_creates_instance_database_and_secret_key(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    instance = tmp_path / "fresh"
    app = create_app(instance_path=str(instance))
    assert instance.is_dir()
    with app.app_context():
        assert database.upgrade() == database.head_revision()
    assert (instance / "scorekeeper.sqlite").is_file()
    key_file = instance / "secret_key"
    assert key_file.is_file()
    assert app.config["SECRET_KEY"] == key_file.read_text().strip()
    assert len(app.config["SECRET_KEY"]) == 64
    # The key is kept: a second start reads the same one.
    assert create_app(instance_path=str(instance)).config["SECRET_KEY"] == app.config["SECRET_KEY"]


@DEFAULTS
def test_two_instances_get_different_keys(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app(instance_path=str(tmp_path / "a")).config["SECRET_KEY"]
    second = create_app(instance_path=str(tmp_path / "b")).config["SECRET_KEY"]
    assert first != second


@DEFAULTS
def test_environment_overrides_instance_config(tmp_path, monkeypatch):
    instance = tmp_path / "inst"
    instance.mkdir()
    (instance / "config.py").write_text("SECRET_KEY = 'from-file'\nAPP_NAME_MARK = 'file'\n")
    app = create_app(instance_path=str(instance))
    assert app.config["SECRET_KEY"] == "from-file"
    assert app.config["APP_NAME_MARK"] == "file"
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///" + str(tmp_path / "env.sqlite"))
    app = create_app(instance_path=str(instance))
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.sqlite")
    with app.app_context():
        database.upgrade()
    assert Path(tmp_path / "env.sqlite").exists()
    # test_config has the last word.
    app = create_app({"SECRET_KEY": "from-test"}, instance_path=str(instance))
    assert app.config["SECRET_KEY"] == "from-test"


@DEFAULTS
def test_sqlite_is_durable(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app(instance_path=str(tmp_path / "inst"))
    with app.app_context():
        journal = db.session.execute(db.text("PRAGMA journal_mode")).scalar()
        synchronous = db.session.execute(db.text("PRAGMA synchronous")).scalar()
    assert journal == "wal"
    assert synchronous == 2  # FULL


def test_init_db_command(runner):
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0
    assert "Database ready" in result.output


def test_home_page(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'name="viewport"' in html
    assert "Liverpool Scorekeeper" in html
    for href, label in (
        ("/games/new", "New game"),
        ("/games/", "Games"),
        ("/rules", "Rules check"),
    ):
        assert f'href="{href}"' in html and label in html


@pytest.mark.parametrize("path", ["/static/style.css", "/static/favicon.svg"])
def test_static_files_are_served(client, path):
    assert client.get(path).status_code == 200


@DEFAULTS
@pytest.mark.parametrize("left", ["", "\n", "0123456789abcdef", "x" * 31])
def test_an_empty_or_short_key_file_is_replaced_never_used(tmp_path, monkeypatch, left):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    instance = tmp_path / "inst"
    instance.mkdir()
    key_file = instance / "secret_key"
    key_file.write_text(left)
    key = create_app(instance_path=str(instance)).config["SECRET_KEY"]
    assert len(key) == 64 and key != left.strip()
    assert key_file.read_text() == key
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    # No temporary file is left beside it, and the new key is kept from then on.
    assert sorted(path.name for path in instance.iterdir()) == ["secret_key"]
    assert create_app(instance_path=str(instance)).config["SECRET_KEY"] == key


@DEFAULTS
def test_a_key_file_of_32_characters_or_more_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    instance = tmp_path / "inst"
    instance.mkdir()
    (instance / "secret_key").write_text("k" * 32 + "\n")
    assert create_app(instance_path=str(instance)).config["SECRET_KEY"] == "k" * 32


@DEFAULTS
def test_the_key_file_is_written_whole_then_renamed(tmp_path, monkeypatch):
    """The key is fsynced in a temporary file that only then takes the key file's name."""
    import os

    monkeypatch.delenv("SECRET_KEY", raising=False)
    instance = tmp_path / "inst"
    instance.mkdir()
    synced, placed = [], []
    real_fsync, real_link = os.fsync, os.link

    def fsync(descriptor):
        synced.append(descriptor)
        return real_fsync(descriptor)

    def link(source, target):
        # Whole and on disk before it gets the name.
        assert len(Path(source).read_text()) == 64 and synced
        placed.append(Path(target).name)
        return real_link(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "link", link)
    create_app(instance_path=str(instance))
    assert placed == ["secret_key"]
