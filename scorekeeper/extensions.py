"""Extensions live apart from the app so blueprints and models can import them freely."""

from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Typed declarative base for every model."""


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()


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
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        # Take the write lock at the start, so two writers queue instead of failing mid-way.
        conn.exec_driver_sql("BEGIN IMMEDIATE")
