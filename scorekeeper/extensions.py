"""Extensions live apart from the app so blueprints and models can import them freely."""

import sqlite3
import threading

from flask import g, has_request_context, request
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Typed declarative base for every model."""


# Objects stay readable after a commit, so answering a write needs no second transaction.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
csrf = CSRFProtect()

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
WRITER_WAIT_SECONDS = 10
# One writer at a time in this process: writers queue here and wake at once, instead of sleeping
# in SQLite's busy handler; BEGIN IMMEDIATE still serialises writers of other processes.
_writer = threading.RLock()  # re-entrant: a test may hold one request open inside another


def configure_sqlite(engine: Engine) -> None:
    """Make SQLite durable and serial: WAL, synchronous=FULL, busy timeout, BEGIN IMMEDIATE."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        # Let SQLAlchemy, not the driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={WRITER_WAIT_SECONDS * 1000}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        if has_request_context() and request.method in READ_METHODS:
            # A page that only reads takes no write lock: readers never wait for each other.
            conn.exec_driver_sql("BEGIN")
            return
        if has_request_context() and not g.get("_sqlite_writer"):
            if not _writer.acquire(timeout=WRITER_WAIT_SECONDS):
                raise OperationalError("BEGIN IMMEDIATE", None, sqlite3.OperationalError("busy"))
            g._sqlite_writer = True
        # Take the write lock at the start, so two writers queue instead of failing mid-way.
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def release_writer(_error: BaseException | None = None) -> None:
    """Let the next writer in once the request's session is closed."""
    if g.pop("_sqlite_writer", False):
        _writer.release()
