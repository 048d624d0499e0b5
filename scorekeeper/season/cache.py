"""The computed season kept per process, under the stamp it was computed at (`stamp.py`).

One season is kept: the newest. A request whose stamp matches it reads it as it is; otherwise
one thread computes it again (from the one kept, which lets the ratings carry on where the games
before are unchanged) while the others wait for it, so a change never makes every thread compute
at once. Nothing is kept where the database has no stamp.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

from flask import Flask, current_app

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
