"""The season's stamp: one row that changes whenever anything the season shows could change,
and the computed season kept per process under the stamp it was computed at.

The season (figures, ratings) is computed from every seat of every game, which takes seconds
with tens of thousands of games; it is kept per process (`players.current`, `SeasonCache`) under
this stamp, and computed again only when the stamp read at the start of a request differs from
the one it was computed under.

One season is kept: the newest. A request whose stamp matches it reads it as it is; otherwise
one thread computes it again (from the one kept, which lets the ratings carry on where the games
before are unchanged) while the others wait for it, so a change never makes every thread compute
at once. Nothing is kept where the database has no stamp.

Why a counter row, and not a stamp from aggregates (the games' count, the largest id, the sum of
the rounds' versions): an aggregate over every round is not O(1) to read, and a largest id
misses a deleted or corrected row. The counter is one row read by its primary key. Every commit
whose flushes wrote a row the season reads (a game created, finished, ended early, renamed,
archived, deleted or imported; a round recorded, corrected or undone: `SEASON_ROWS`) adds one to
it in the same transaction, so the change and the new stamp are committed together, by whichever
process made them (a second server, the `import` command): every process reading the stamp
next sees it. The row is written as the last statement before the commit, so its lock is held
for no longer than the commit takes and after every other lock of the transaction: two writers
of different games wait for each other only that long, and never in a cycle.

`generation` is a random token written when the row is made: a database made again from empty
(`init-db --reset`) starts counting again, and its stamps are never those of the one before.

Requests read the stamp before the seats, so what they compute is at least as new as the stamp
they keep it under (on PostgreSQL every statement reads the latest commits; on SQLite a request
reads one snapshot): a change committed in between is computed again at the next request.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Hashable
from typing import Any

from flask import Flask, current_app
from sqlalchemy import BigInteger, String, event, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..games.models import Game, Player, Rename, Round, RoundScore
from ..platform.database import db
from .models import PlayerMerge

# The rows the season reads: a flush that writes any of them changes the stamp at the commit.
SEASON_ROWS = (Game, Player, Round, RoundScore, Rename, PlayerMerge)
ROW_ID = 1
CHANGED = "scorekeeper.season.changed"


class SeasonStamp(db.Model):
    """The one row whose (generation, changes) stamps the season."""

    __tablename__ = "season_stamp"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    generation: Mapped[str] = mapped_column(String(32))
    changes: Mapped[int] = mapped_column(BigInteger)


def new_generation() -> str:
    return secrets.token_hex(16)


def read() -> tuple[str, int] | None:
    """The stamp now, in one statement by primary key; None where the row is missing (then
    nothing is kept: the season is computed at every request)."""
    row = db.session.execute(
        db.select(SeasonStamp.generation, SeasonStamp.changes).where(SeasonStamp.id == ROW_ID)
    ).first()
    return None if row is None else (row[0], row[1])


@event.listens_for(Session, "before_flush")
def _note_changes(session: Session, _context, _instances) -> None:
    rows = (*session.new, *session.dirty, *session.deleted)
    if any(isinstance(row, SEASON_ROWS) for row in rows):
        session.info[CHANGED] = True


@event.listens_for(Session, "before_commit")
def _count_change(session: Session) -> None:
    """Flush what is left, then count the change last (see the module's docstring)."""
    if session.in_nested_transaction():
        return  # counted when the whole transaction commits
    session.flush()
    if session.info.pop(CHANGED, False):
        session.connection().execute(
            update(SeasonStamp)
            .where(SeasonStamp.id == ROW_ID)
            .values(changes=SeasonStamp.changes + 1)
        )


@event.listens_for(Session, "after_soft_rollback")
def _forget_changes(session: Session, previous) -> None:
    if not previous.nested:
        session.info.pop(CHANGED, None)


EXTENSION = "scorekeeper.season"


class SeasonCache:
    """The newest computed season and its stamp, shared by the threads of one process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stamp: Hashable | None = None
        self._season: Any = None

    def get(self, stamp: Hashable | None, compute: Callable[[Any], Any]) -> Any:
        """The season computed at `stamp`: the one kept, or `compute(previous)` kept now."""
        if stamp is None:
            return compute(None)
        with self._lock:
            if self._season is None or self._stamp != stamp:
                self._season = compute(self._season)
                self._stamp = stamp
            return self._season

    def clear(self) -> None:
        with self._lock:
            self._stamp = self._season = None


def held() -> SeasonCache:
    """This app's season cache."""
    return current_app.extensions[EXTENSION]


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = SeasonCache()
