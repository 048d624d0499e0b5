"""The web app around the engine: settings, extensions, the database, errors, the features'
blueprints and the commands, put together by `make_app` (called as `scorekeeper.create_app`)."""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask

from . import cli, games, home, league, nights, organisers, phones, referee, rulesets, season
from .platform import (
    assets,
    database,
    errorpages,
    formpages,
    language,
    limits,
    security,
    settings,
    shared,
)
from .platform.http import csrf
from .tls import views as tls_views

# A key file shorter than this was cut short (a real one has 64 hex digits): it is replaced.
SECRET_KEY_MIN = 32


def make_app(test_config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then the environment, then test_config."""
    app = Flask(
        "scorekeeper",
        instance_relative_config=True,
        instance_path=instance_path or settings.instance_folder(),
        template_folder=str(settings.shipped("templates")),
        static_folder=str(settings.shipped("static")),
    )
    private_instance_folder(app.instance_path)
    configure(app, test_config)

    database.init_app(app)
    csrf.init_app(app)
    if app.config["UPGRADE_ON_START"]:
        # Tests start from an empty database each time; `make run` upgrades in `serve`.
        with app.app_context():
            database.upgrade()

    security.init_app(app)
    language.init_app(app)
    assets.init_app(app)
    errorpages.init_app(app)
    formpages.init_app(app)
    # A club's Redis (`REDIS_URL`), before the limits that count in it.
    shared.init_app(app)
    limits.init_app(app)
    app.register_blueprint(home.bp)
    # The organisers' sign-in, and the refusal of what only an organiser may do.
    organisers.init_app(app)
    # The step a tablet takes once to open the secure address (`/trust`).
    app.register_blueprint(tls_views.bp)
    # The features: each registers its own pages, API and error answers.
    games.init_app(app)
    rulesets.init_app(app)
    season.init_app(app)
    phones.init_app(app)
    nights.init_app(app)
    league.init_app(app)
    referee.init_app(app)
    cli.init_app(app, make_app)
    return app


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The settings (`scorekeeper.platform.settings`): their defaults, then instance/config.py, then the
    environment, then test_config; the database and the secret key filled in when none is set."""
    app.config.from_mapping(settings.defaults())
    app.config.from_pyfile("config.py", silent=True)
    for name in settings.ENVIRONMENT:
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    if app.config["DATABASE_URL"]:
        app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config["SQLALCHEMY_DATABASE_URI"]:
        app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(
            app.instance_path, "scorekeeper.sqlite"
        )
    app.config["SQLALCHEMY_DATABASE_URI"] = database.database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = (
            secrets.token_hex(32) if app.testing else _instance_secret_key(app.instance_path)
        )
    if not app.config["WTF_CSRF_SECRET_KEY"]:
        app.config["WTF_CSRF_SECRET_KEY"] = app.config["SECRET_KEY"]


def private_instance_folder(folder: str) -> None:
    """Make the instance folder, or tighten one an earlier version made, to this user alone
    (0700) whatever the umask: it holds the secret key, the certificates and the database."""
    Path(folder).mkdir(mode=database.PRIVATE_FOLDER, parents=True, exist_ok=True)
    os.chmod(folder, database.PRIVATE_FOLDER)


def _instance_secret_key(instance_path: str) -> str:
    """The key kept in the instance folder; made on first start, and made again when unusable.

    A key file left empty or cut short (a crash while it was written, two processes starting
    at once) is never used: a new key replaces it whole, written to a temporary file, flushed
    to disk and renamed into place, so no process ever reads a half-written key.
    """
    path = Path(instance_path) / "secret_key"
    key = _read_key(path)
    if key is not None:
        return key
    handle, temporary = tempfile.mkstemp(prefix=".secret_key.", dir=instance_path)
    try:
        with os.fdopen(handle, "w") as stream:
            stream.write(secrets.token_hex(32))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o600)
        if not path.exists():
            # Made only when still missing: a process that started at the same moment and
            # made it first keeps its key, and this one reads it below.
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)
        elif _read_key(path) is None:
            os.replace(temporary, path)
        _fsync_folder(instance_path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    key = _read_key(path)
    if key is None:
        raise RuntimeError(f"{path} holds no usable secret key and cannot be replaced")
    return key


def _read_key(path: Path) -> str | None:
    """The key in the file, or None when it is missing, unreadable or shorter than a real key."""
    try:
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return key if len(key) >= SECRET_KEY_MIN else None


def _fsync_folder(folder: str) -> None:
    """Make a rename in the folder durable too."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
