"""Locks held by another connection, as another program or a stuck client holds them: what a
write to the score book must wait for, and at most `DATABASE_BUSY_SECONDS`."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from tests.support.config import is_sqlite


@contextlib.contextmanager
def write_locked(path: str | Path) -> Iterator[None]:
    """Another program (a large import, say) holding SQLite's write lock."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


@contextlib.contextmanager
def game_locked(url: str, game_id: int) -> Iterator[None]:
    """Another connection holding the lock a write to the game waits for, until the block ends:
    SQLite's write lock, or on PostgreSQL the game's row lock (`SELECT … FOR UPDATE`)."""
    if is_sqlite(url):
        with write_locked(url.removeprefix("sqlite:///")):
            yield
        return
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as other:
            # Should the app wait without limit again, the holder is let go in the end: the
            # test fails instead of hanging.
            other.execute(text("SET LOCAL idle_in_transaction_session_timeout = '10s'"))
            other.execute(text("SELECT id FROM games WHERE id = :id FOR UPDATE"), {"id": game_id})
            try:
                yield
            finally:
                with contextlib.suppress(DBAPIError):
                    other.rollback()
    finally:
        engine.dispose()
