"""The SQL statements a block of code sends: for tests that a page costs a fixed number of them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from scorekeeper.platform.database import db


@contextmanager
def counted(app) -> Iterator[list[str]]:
    """Every statement the app's engine runs inside the block, in order."""
    statements: list[str] = []

    def listener(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", listener)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", listener)
