"""Rendered game pages, kept while the game is unchanged: the page left open on the table is
asked for again and again, and it changes only when a round is recorded, corrected or undone.

A page is kept under the game's stamp (`ledger.game_stamp`: the edit key's hash, the finish,
the number of rounds and the sum of their versions, the number of history entries, the archive
time) with whether the tablet edits and the address it used. Every commit in this process that
touches a game forgets that game's stamp at once, so the next request reads it afresh; a stamp
is also re-read from the database after `STAMP_SECONDS`, which bounds how long a change made by
another process (a second server, the `game-key` or `import` command) can go unseen.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable

from flask import Flask, current_app, has_app_context
from sqlalchemy import event
from sqlalchemy.orm import Session

from .models import Game

PAGES_KEPT = 256
STAMP_SECONDS = 1.0
EXTENSION = "scorekeeper.pages"


class PageCache:
    """A small thread-safe LRU of rendered pages, with each game's last known stamp."""

    def __init__(self, size: int = PAGES_KEPT, stamp_seconds: float = STAMP_SECONDS):
        self.size = size
        self.stamp_seconds = stamp_seconds
        self._pages: OrderedDict[Hashable, str] = OrderedDict()
        self._stamps: dict[int, tuple[tuple, float]] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            page = self._pages.get(key)
            if page is not None:
                self._pages.move_to_end(key)
            return page

    def put(self, key: Hashable, page: str) -> None:
        with self._lock:
            self._pages[key] = page
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)

    def stamp(self, game_id: int) -> tuple | None:
        """The game's stamp if it was read recently enough, else None (read it again)."""
        with self._lock:
            known = self._stamps.get(game_id)
        if known is None or time.monotonic() - known[1] > self.stamp_seconds:
            return None
        return known[0]

    def remember(self, game_id: int, stamp: tuple) -> None:
        with self._lock:
            self._stamps[game_id] = (stamp, time.monotonic())
            while len(self._stamps) > self.size:
                self._stamps.pop(next(iter(self._stamps)))

    def forget(self, game_ids) -> None:
        """The games changed: their stamps must be read again."""
        with self._lock:
            for game_id in game_ids:
                self._stamps.pop(game_id, None)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()
            self._stamps.clear()

    def __len__(self) -> int:
        return len(self._pages)


def pages() -> PageCache:
    """This app's page cache."""
    return current_app.extensions[EXTENSION]


def init_app(app: Flask) -> None:
    """Give the app its cache (the session listeners below forget a game's stamp whenever a
    commit touched the game)."""
    app.extensions[EXTENSION] = PageCache()


def _touched_games(session: Session) -> set[int]:
    """The games whose rows this flush writes: the game itself, or rows that name it."""
    touched = set()
    for row in (*session.new, *session.dirty, *session.deleted):
        game_id = getattr(row, "game_id", None)
        if game_id is None and isinstance(row, Game):
            game_id = row.id
        if game_id is None and getattr(row, "round", None) is not None:
            game_id = row.round.game_id
        if game_id is not None:
            touched.add(game_id)
    return touched


@event.listens_for(Session, "before_flush")
def _before_flush(session: Session, _context, _instances) -> None:
    session.info.setdefault(EXTENSION, set()).update(_touched_games(session))


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    touched = session.info.pop(EXTENSION, None)
    if touched and has_app_context() and EXTENSION in current_app.extensions:
        pages().forget(touched)


@event.listens_for(Session, "after_soft_rollback")
def _after_rollback(session: Session, _previous) -> None:
    session.info.pop(EXTENSION, None)
