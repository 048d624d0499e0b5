"""The settings every test's app starts from, and the engine the run tests.

The whole suite runs once on SQLite and, with TEST_DATABASE_URL set (see .ci/postgres), once on
PostgreSQL, each test in a schema of its own. This module is the one place that knows which:
everything else imports TEST_CONFIG from here (never from a conftest, which pytest may import
under a second name and so give a second, stale copy of the settings).
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, make_url, text
from sqlalchemy.pool import NullPool

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
ENGINE = make_url(TEST_DATABASE_URL).get_backend_name() if TEST_DATABASE_URL else "sqlite"
# Tests that need no database at all: the rules engine.
NO_DATABASE = ("rules",)
IN_MEMORY = "sqlite://"

# The limits per client address, far past what any test does from its one address (a hostile
# test makes hundreds of games); the limits' own tests (tests/web/test_ratelimits.py) use the
# real ones. Server processes get them through the environment.
RAISED_LIMITS = {
    "RATELIMIT_NEW_GAMES": "100000 per hour",
    "RATELIMIT_IMPORTS": "100000 per hour",
    "RATELIMIT_BAD_EDIT_LINKS": "100000 per hour",
    "RATELIMIT_JOINS": "100000 per minute",
    "RATELIMIT_ORGANISER_SIGN_INS": "100000 per hour",
}

# What an app made by a test starts from. On PostgreSQL the conftest points the database at the
# running test's own database, copied from a migrated template (and back again after it); on
# SQLite each app has its own in-memory database.
TEST_CONFIG = {
    "TESTING": True,
    "SQLALCHEMY_DATABASE_URI": IN_MEMORY,
    "WTF_CSRF_ENABLED": False,
    # Every page waits for the season's figures, so a test reads them as its writes left them
    # (tests/season/test_season_behind.py tests the wait that the app has by default).
    "SEASON_WAIT_SECONDS": None,
    # Every test's database is made by the migrations, exactly as a served one is.
    "UPGRADE_ON_START": True,
    **RAISED_LIMITS,
}


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def read_past_the_app(url: str, sql: str, **params):
    """The one value `sql` reads from the database at `url`, on a connection of its own (no
    app's pool, nothing cached)."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return connection.scalar(text(sql), params)
    finally:
        engine.dispose()


@contextmanager
def _server_connection():
    engine = create_engine(TEST_DATABASE_URL, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT")
            yield connection
    finally:
        engine.dispose()


class Databases:
    """Empty databases of the engine under test: SQLite files, or PostgreSQL schemas."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.schemas: list[str] = []

    def make(self, name: str = "book") -> str:
        """The URL of a new, empty database (nothing in it, not even the tables)."""
        if TEST_DATABASE_URL is None:
            return "sqlite:///" + str(self.folder / f"{name}.sqlite")
        schema = f"test_{name}_{uuid.uuid4().hex[:10]}".lower()
        with _server_connection() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        self.schemas.append(schema)
        url = make_url(TEST_DATABASE_URL).update_query_dict({"options": f"-csearch_path={schema}"})
        return url.render_as_string(hide_password=False)

    def drop(self) -> None:
        if self.schemas:
            with _server_connection() as connection:
                for schema in self.schemas:
                    connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


def _migrate(url: str, folder: Path) -> None:
    """Bring the database at `url` to the newest revision, through the migrations, and let go of
    every connection to it."""
    from scorekeeper import create_app
    from scorekeeper.platform.database import db

    config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url, "UPGRADE_ON_START": True}
    config["SQLALCHEMY_ENGINE_OPTIONS"] = {"poolclass": NullPool}
    made = create_app(config, instance_path=str(folder / "template-instance"))
    with made.app_context():
        db.engine.dispose()


class PostgresTemplate:
    """A PostgreSQL database brought to the newest revision by the migrations once, copied with
    `CREATE DATABASE … TEMPLATE` into a database of its own for each test.

    A thread of its own makes each copy before a test asks for it and drops each copy after its
    test, on one connection, while the tests run: a test waits for neither (about 0.15 s a test
    on this machine's 2 cores)."""

    _TAKEN = "taken"

    def __init__(self, folder: Path):
        self.name = f"template_{uuid.uuid4().hex[:10]}"
        with _server_connection() as connection:
            connection.execute(text(f'CREATE DATABASE "{self.name}"'))
        _migrate(self._url(self.name), folder)
        # The next copy (or what stopped the thread); what the thread is asked to do.
        self._ready: queue.Queue[str | BaseException] = queue.Queue(maxsize=1)
        self._asked: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="test databases", daemon=True)
        self._thread.start()

    @staticmethod
    def _url(name: str) -> str:
        return make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False)

    def _work(self) -> None:
        try:
            with _server_connection() as connection:
                self._ready.put(self._made(connection))
                while (asked := self._asked.get()) is not None:
                    if asked == self._TAKEN:
                        self._ready.put(self._made(connection))
                    else:
                        connection.execute(text(f'DROP DATABASE "{asked}" WITH (FORCE)'))
        except BaseException as error:  # handed to the test that asks next
            self._ready.put(error)

    def _made(self, connection) -> str:
        name = f"test_{uuid.uuid4().hex[:12]}"
        connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{self.name}"'))
        return name

    def copy(self) -> tuple[str, str]:
        """A new database holding the migrated schema: (its name, its URL)."""
        name = self._ready.get()
        if isinstance(name, BaseException):
            self._ready.put(name)
            raise RuntimeError("the test databases' thread stopped") from name
        self._asked.put(self._TAKEN)
        return name, self._url(name)

    def drop(self, name: str) -> None:
        """Drop a copy once nothing holds it (its test has ended): after the test, not during."""
        self._asked.put(name)

    @contextmanager
    def served_copy(self, folder: Path) -> Iterator[str]:
        """The URL of a copy for a served app, dropped when the block ends."""
        name, url = self.copy()
        try:
            yield url
        finally:
            self.drop(name)

    def close(self) -> None:
        """Drop every copy left, and the template."""
        self._asked.put(None)
        self._thread.join()
        left = [self._ready.get_nowait()] if not self._ready.empty() else []
        with _server_connection() as connection:
            for name in [*(n for n in left if isinstance(n, str)), self.name]:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class MigratedTemplate:
    """An SQLite database brought to the newest revision by the migrations once, copied (with
    SQLite's backup API) into each new in-memory database: the same schema, without running
    Alembic again for every test."""

    def __init__(self, folder: Path):
        path = folder / "migrated.sqlite"
        _migrate(f"sqlite:///{path}", folder)
        self.source = sqlite3.connect(":memory:")
        migrated = sqlite3.connect(path)
        try:
            migrated.backup(self.source)
        finally:
            migrated.close()

    def connect(self) -> sqlite3.Connection:
        """A new in-memory database holding the migrated schema (shared by the app's threads,
        as SQLAlchemy's in-memory SQLite connection is)."""
        copy = sqlite3.connect(":memory:", check_same_thread=False)
        self.source.backup(copy)
        return copy

    @contextmanager
    def served_copy(self, folder: Path) -> Iterator[str]:
        """The URL of a copy in a file of `folder`, for an app served to other threads or
        processes (an in-memory copy is one connection's own)."""
        copy = sqlite3.connect(folder / "served.sqlite")
        try:
            self.source.backup(copy)
        finally:
            copy.close()
        yield "sqlite:///" + str(folder / "served.sqlite")

    def config(self) -> dict:
        """App settings for an in-memory database made from this template."""
        return {
            "SQLALCHEMY_DATABASE_URI": IN_MEMORY,
            "SQLALCHEMY_ENGINE_OPTIONS": {"creator": self.connect},
            "UPGRADE_ON_START": False,
        }
