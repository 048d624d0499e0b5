"""Liverpool Scorekeeper: the scorebook and referee for a Liverpool Rummy table."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from . import cli, database, pagecache, security, transfer
from .extensions import csrf

ROOT = Path(__file__).resolve().parent.parent
# Settings the environment may give, over the defaults and instance/config.py.
ENVIRONMENT = ("DATABASE_URL", "SECRET_KEY", "TRUSTED_PROXIES")


def create_app(
    test_config: dict[str, Any] | None = None, instance_path: str | None = None
) -> Flask:
    """Build the app: defaults, then instance/config.py, then the environment, then test_config."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=instance_path or str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite"),
        # A game evening is long: a form opened at the start must still submit at midnight.
        WTF_CSRF_TIME_LIMIT=12 * 60 * 60,
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    app.config.from_pyfile("config.py", silent=True)
    for name in ENVIRONMENT:
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    if app.config.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = database.database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = (
            secrets.token_hex(32) if app.testing else _instance_secret_key(app.instance_path)
        )

    database.init_app(app)
    csrf.init_app(app)
    from . import models  # noqa: F401  (registers the tables)

    if app.config.get("UPGRADE_ON_START"):
        # Tests start from an empty database each time; `make run` upgrades in `serve`.
        with app.app_context():
            database.upgrade()

    pagecache.init_app(app)
    security.init_app(app)
    _register_blueprints(app)
    cli.init_app(app)
    transfer.register_cli(app)
    return app


def _instance_secret_key(instance_path: str) -> str:
    """Read the key kept in the instance folder, making it on first start."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def _register_blueprints(app: Flask) -> None:
    """Attach every feature's blueprint, the home page and the bare health check."""
    from . import api, game_actions, games, home, player_pages, referee, rounds

    api.init_app(app)
    app.register_blueprint(home.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(game_actions.bp)
    app.register_blueprint(player_pages.bp)
