"""The foundation: the factory, the instance folder, the database and the CLI."""

from pathlib import Path

import pytest
from conftest import TEST_CONFIG

from scorekeeper import create_app, database
from scorekeeper.extensions import db


def test_test_config_is_honoured(app):
    assert app.testing
    assert app.config["SQLALCHEMY_DATABASE_URI"] == TEST_CONFIG["SQLALCHEMY_DATABASE_URI"]
    assert app.config["WTF_CSRF_ENABLED"] is False


def test_default_config_is_not_testing(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app(instance_path=str(tmp_path / "inst"))
    assert not app.testing
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("inst/scorekeeper.sqlite")


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


def test_two_instances_get_different_keys(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = create_app(instance_path=str(tmp_path / "a")).config["SECRET_KEY"]
    second = create_app(instance_path=str(tmp_path / "b")).config["SECRET_KEY"]
    assert first != second


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


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"ok": True}


@pytest.mark.parametrize("path", ["/static/style.css", "/static/favicon.svg"])
def test_static_files_are_served(client, path):
    assert client.get(path).status_code == 200
