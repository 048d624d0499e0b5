"""Rendered game pages, kept while the game is unchanged: the page left open on the table is
asked for again and again, and it changes only when a round is recorded, corrected or undone."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

PAGES_KEPT = 256


class PageCache:
    """A small thread-safe LRU of rendered pages, keyed on whatever identifies their content."""

    def __init__(self, size: int = PAGES_KEPT):
        self.size = size
        self._pages: OrderedDict[Hashable, str] = OrderedDict()
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

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()

    def __len__(self) -> int:
        return len(self._pages)
