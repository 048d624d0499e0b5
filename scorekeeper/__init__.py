"""Liverpool Scorekeeper: the scorebook and referee for a Liverpool Rummy table."""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask

from . import assets, cli, database, home, jsonapi, paths, referee, scorebook, security
from .extensions import csrf

# Settings the environment may give, over the defaults and instance/config.py.
ENVIRONMENT = ("DATABASE_URL", "SECRET_KEY", "TRUSTED_PROXIES")
# A key file shorter than this was cut short (a real one has 64 hex digits): it is replaced.
SECRET_KEY_MIN = 32


def create_app(
    test_config: dict[str, Any] | None = None, instance_path: str | None = None
) -> Flask:
    """Build the app: defaults, then instance/config.py, then the environment, then test_config."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=instance_path or paths.instance_folder(),
        template_folder=str(paths.shipped("templates")),
        static_folder=str(paths.shipped("static")),
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
    if app.config.get("UPGRADE_ON_START"):
        # Tests start from an empty database each time; `make run` upgrades in `serve`.
        with app.app_context():
            database.upgrade()

    security.init_app(app)
    assets.init_app(app)
    jsonapi.init_app(app)
    app.register_blueprint(home.bp)
    scorebook.init_app(app)
    referee.init_app(app)
    cli.init_app(app)
    return app


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
