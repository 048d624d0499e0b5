"""What a page computes from the database, kept per process under a stamp that moves with
every write to the rows it shows, in this process or another.

A stamp is a row of `stamps`, named for what it stamps (`season`, `game 12`): a random
generation made with the row and a count of the commits that changed what it stamps. A feature
says which rows move which stamps (`stamp_rows`); every commit whose flushes wrote such a row adds
one to each of their stamps in the same transaction, so the change and the new stamp are
committed together, by whichever process made them (a second server, the `import` command).
Reading a stamp is one statement by primary key.

Why a counter row, and not a stamp summed from the rows themselves (their count, the largest id,
the sum of their versions): an aggregate is not O(1) to read, and a round undone and recorded
again sums to what it was. The counters are written as the commit's last statements, in the
order of their names, so their locks are held for no longer than the commit takes and after
every other lock of the transaction: two writers wait for each other only that long, and never in
a cycle. A stamp's row is made by its first change (an insert that adds one to the row a racing
twin made first); a name that never changed reads as the database's own stamp, made with the
tables, with no change counted.

A page asked for many times a second may read its stamp `recently`: a change this process
commits is seen at once, another process's within the few seconds the page allows.

`Kept` keeps one value per key with the stamp it was computed at, the newest only. A request
whose stamp matches reads it as it is; otherwise one thread computes it again (given the value
kept before, which lets the season's ratings carry on from it) while the others asking for the
same key wait for it, so a change never makes every thread compute at once. A value that takes
seconds to compute (the season at 20,000 games) is asked for with `get_or_older`: it is computed
in a thread of its own and, past a few tenths of a second of waiting, a request gets the value
kept before (and is told so) or, where none was ever kept (a server just started), `Pending`; the
new value is computed with the collector's full walks paused (`collector_paused`) and kept once
done, out of the collector's way (`settle`). A value made from something still pending (a page
showing the season's figures where it can) is `provisional`: served, never kept.
"""

from __future__ import annotations

import contextlib
import gc
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any

from flask import Flask, current_app, g, has_app_context
from sqlalchemy import BigInteger, String, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from .database import db

EXTENSION = "scorekeeper.stamps"
KEPT = "scorekeeper.kept"
RECENT = "scorekeeper.stamps.recent"
COUNTED = "scorekeeper.stamps.counted"
CHANGED = "scorekeeper.stamps.changed"
NAME_MAX = 40
RECENT_KEPT = 1024
# The database's own stamp, made with its tables: never counted, its generation is what a stamp
# that never changed reads, so no two databases' unchanged stamps are the same.
DATABASE = "database"

# A row's stamps: the names of the stamps a flushed row moves (none: it moves no stamp).
Namer = Callable[[object], Iterable[str]]
# Set on `g` when this request made something from a value still pending (`provisional`).
PROVISIONAL = "scorekeeper_provisional"


class Pending(Exception):
    """No value of the key was ever kept, and its computation goes on past the wait
    (`Kept.get_or_older`): the caller says so, or does without it (`provisional`)."""

    def __init__(self, key: Hashable) -> None:
        super().__init__(f"the value of {key} is still being computed")
        self.key = key


def provisional() -> None:
    """What this request computes from now on is served but not kept by any `Kept`: it was made
    without a value still pending (a game page without the chances of a season not yet worked
    out), and the next request makes it again."""
    if has_app_context():
        setattr(g, PROVISIONAL, True)


def _is_provisional() -> bool:
    return has_app_context() and g.get(PROVISIONAL, False)


class Stamp(db.Model):
    """A stamp's row: what it stamps, its generation and how many commits changed it."""

    __tablename__ = "stamps"

    name: Mapped[str] = mapped_column(String(NAME_MAX), primary_key=True)
    generation: Mapped[str] = mapped_column(String(32))
    changes: Mapped[int] = mapped_column(BigInteger)


def new_generation() -> str:
    return secrets.token_hex(16)


def read(name: str) -> tuple[str, int] | None:
    """The stamp now, in one statement by primary key: its row, or the database's own stamp
    with no change counted where it never changed; None where the database has no stamps."""
    found = db.session.execute(
        db.select(Stamp.name, Stamp.generation, Stamp.changes).where(rows_for(name))
    )
    return chosen(found, name)


def rows_for(name: str):
    """The condition on `Stamp` that finds the rows `chosen` reads the stamp `name` from (for a
    statement that reads a stamp beside something else: one statement, not two)."""
    return Stamp.name.in_((name, DATABASE))


def chosen(found: Iterable, name: str) -> tuple[str, int] | None:
    """The stamp `name` from the rows `rows_for(name)` found, each (name, generation, changes)."""
    rows = {row[0]: (row[1], row[2]) for row in found if row[0] is not None}
    if name in rows:
        return rows[name]
    return (rows[DATABASE][0], 0) if DATABASE in rows else None


def stamp_rows(app: Flask, namer: Namer) -> None:
    """From now on, a commit that wrote a row adds one to each stamp `namer(row)` names."""
    app.extensions.setdefault(EXTENSION, []).append(namer)


def _namers() -> list[Namer]:
    if not has_app_context():
        return []
    return current_app.extensions.get(EXTENSION, [])


@event.listens_for(Session, "after_flush")
def _note_changes(session: Session, _context) -> None:
    """The stamps this flush moves (after the flush, so a new row has its id)."""
    namers = _namers()
    if not namers:
        return
    changed = session.info.setdefault(CHANGED, set())
    for row in (*session.new, *session.dirty, *session.deleted):
        for namer in namers:
            changed.update(namer(row))


@event.listens_for(Session, "before_commit")
def _count_changes(session: Session) -> None:
    """Flush what is left, then count the changes last (see the module's docstring)."""
    if session.in_nested_transaction():
        return  # counted when the whole transaction commits
    session.flush()
    counted = sorted(session.info.pop(CHANGED, ()))
    if not counted:
        return  # a commit that wrote nothing stamped (a page's read) touches no connection
    session.info[COUNTED] = counted
    connection = session.connection()
    for name in counted:
        connection.execute(_count(connection.dialect.name, name))


@event.listens_for(Session, "after_commit")
def _forget_recent(session: Session) -> None:
    """The stamps this process just moved are read afresh at their next request."""
    counted = session.info.pop(COUNTED, ())
    if counted and has_app_context():
        _recent().forget(counted)


def _count(dialect: str, name: str):
    """Add one to the stamp `name`, making its row (and its generation) at its first change."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(Stamp).values(name=name, generation=new_generation(), changes=1)
    return statement.on_conflict_do_update(
        index_elements=[Stamp.name], set_={"changes": Stamp.changes + 1}
    )


@event.listens_for(Session, "after_soft_rollback")
def _forget_changes(session: Session, previous) -> None:
    if not previous.nested:
        session.info.pop(CHANGED, None)
        session.info.pop(COUNTED, None)


class _Recent:
    """Stamps read lately, each with when it was read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._read: dict[str, tuple[Any, float]] = {}

    def get(self, name: str, seconds: float) -> Any:
        with self._lock:
            known = self._read.get(name)
        if known is None or time.monotonic() - known[1] > seconds:
            return None
        return known[0]

    def put(self, name: str, value: Any) -> None:
        with self._lock:
            self._read[name] = (value, time.monotonic())
            while len(self._read) > RECENT_KEPT:
                self._read.pop(next(iter(self._read)))

    def forget(self, names: Iterable[str]) -> None:
        with self._lock:
            for name in names:
                self._read.pop(name, None)


def _recent() -> _Recent:
    return current_app.extensions.setdefault(RECENT, _Recent())


def recently(name: str, read: Callable[[], Any], seconds: float) -> Any:
    """`read()` (a stamp `name`, and whatever is read beside it), or its answer of less than
    `seconds` ago: for a page asked for many times a second. A change this process commits
    forgets it at once; another process's shows within `seconds`. None is never kept."""
    recent = _recent()
    value = recent.get(name, seconds)
    if value is None:
        value = read()
        if value is not None:
            recent.put(name, value)
    return value


class Kept:
    """The newest value computed for each key and the stamp it was computed at, shared by the
    threads of one process; the least recently asked for go beyond `size` keys."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._values: OrderedDict[Hashable, tuple[Hashable, Any]] = OrderedDict()
        # Each key's lock, held while its value is computed (by `get` or in a thread of its own).
        self._computing: dict[Hashable, threading.Lock] = {}
        # The error of each key's last computation in a thread of its own, where it failed.
        self._failures: dict[Hashable, Exception] = {}

    def get(self, key: Hashable, stamp: Hashable | None, compute: Callable[[Any], Any]) -> Any:
        """The value of `key` computed at `stamp`: the one kept, or `compute(previous)` kept
        now (`previous`: the value kept at an older stamp, or None). Nothing is kept under no
        stamp."""
        if stamp is None:
            return compute(None)
        kept = self._kept(key, stamp)
        if kept is not None:
            return kept[1]
        with self._lock:
            computing = self._computing.setdefault(key, threading.Lock())
        with computing:
            kept = self._kept(key, stamp)
            if kept is not None:
                return kept[1]
            with self._lock:
                previous = self._values.get(key, (None, None))[1]
            value = compute(previous)
            if _is_provisional():
                return value
            with self._lock:
                self._values[key] = (stamp, value)
                self._values.move_to_end(key)
                while len(self._values) > self.size:
                    gone, _ = self._values.popitem(last=False)
                    self._computing.pop(gone, None)
            return value

    def get_or_older(
        self, key: Hashable, stamp: Hashable, compute: Callable[[Any], Any], wait: float
    ) -> tuple[Any, bool]:
        """(the value of `key` at `stamp`, True), computed in a thread of its own (in an app
        context of this app) and kept once done, if it is done within `wait` seconds; else (the
        value kept at an older stamp, False), or `Pending` where none was ever kept. Whoever asks
        meanwhile waits for the same computation, never one of their own, and no longer than
        `wait`: no request waits behind another's computation longer than that."""
        kept = self._kept(key, stamp)
        if kept is not None:
            return kept[1], True
        with self._lock:
            older = self._values.get(key)
            computing = self._computing.setdefault(key, threading.Lock())
            self._failures.pop(key, None)
        if computing.acquire(blocking=False):
            app = current_app._get_current_object()
            threading.Thread(
                target=self._compute_apart,
                args=(app, key, stamp, compute, older[1] if older else None, computing),
                name=f"computing {key}",
                daemon=True,
            ).start()
        # Held while any computation of the key runs: acquiring it is waiting for that one.
        if wait > 0 and computing.acquire(timeout=wait):
            computing.release()
        kept = self._kept(key, stamp)
        if kept is not None:
            return kept[1], True
        with self._lock:
            older = self._values.get(key)
            failure = self._failures.get(key)
        if older is not None:
            return older[1], False
        if failure is not None:
            raise failure  # nothing to show instead: the computation's own error
        raise Pending(key)

    def _compute_apart(self, app: Flask, key, stamp, compute, previous, computing) -> None:
        """`compute(previous)` in an app context of its own, kept under `stamp` and settled
        (`settle`); a failure is logged and kept for the request that waited on it, and the
        next request tries again."""
        try:
            with app.app_context(), collector_paused():
                # Only reads: on SQLite it takes no write lock, so writes go on meanwhile.
                db.session.connection(execution_options={"read_only": True})
                value = compute(previous)
            settle()  # before any request can find it
            with self._lock:
                self._values[key] = (stamp, value)
                self._values.move_to_end(key)
        except Exception as error:
            app.logger.exception("the value of %s could not be computed", key)
            with self._lock:
                self._failures[key] = error
        finally:
            computing.release()

    def _kept(self, key: Hashable, stamp: Hashable) -> tuple[Hashable, Any] | None:
        with self._lock:
            kept = self._values.get(key)
            if kept is None or kept[0] != stamp:
                return None
            self._values.move_to_end(key)
            return kept

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


# How many more objects than the last `settle` left frozen may be frozen before the garbage
# collector is given them back once: about 170 seasons' worth of what other threads hold.
FROZEN_SLACK = 100_000
_settling = threading.Lock()
_frozen_after: list[int] = []


class _Pause:
    """How many computations apart pause the collector, and whether it was on before the first."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.computations = 0
        self.was_on = False


_pause = _Pause()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No full collection while a value is computed apart (the season: 130,000 objects that
    survive, which each collection would walk again with every thread stopped, 50-80 ms at a
    time beside the requests), until the last such computation ends; `settle` then takes what
    it made out of the collections for good. Reference counting frees all else meanwhile."""
    with _pause.lock:
        if _pause.computations == 0:
            _pause.was_on = gc.isenabled()
            gc.disable()
        _pause.computations += 1
    try:
        yield
    finally:
        with _pause.lock:
            _pause.computations -= 1
            if _pause.computations == 0 and _pause.was_on:
                gc.enable()


def settle() -> None:
    """Take every object alive now (above all a value just computed apart, and the app itself)
    out of the garbage collector's full collections (`gc.freeze`).

    A season of 20,000 games is 130,000 objects that live until the next one is kept. Python's
    collector went over all of them again in each full collection, 9-10 times while a season
    was computed, 76-235 ms each with every thread stopped (bench/README.md). A frozen value
    is still freed when nothing refers to it any more. What a freeze also holds is the garbage
    other threads make of what they held at that moment (about 600 objects a season, in
    cycles that only the collector frees): once the frozen objects pass the number the last
    settling left by `FROZEN_SLACK`, they are given back and collected once before the freeze."""
    with _settling:
        if _frozen_after and gc.get_freeze_count() > _frozen_after[-1] + FROZEN_SLACK:
            gc.unfreeze()
            gc.collect()
            _frozen_after.clear()
        gc.freeze()
        if not _frozen_after:
            _frozen_after.append(gc.get_freeze_count())


def keep(app: Flask, name: str, size: int) -> Kept:
    """Give the app a `Kept` of `size` keys under `name` (a feature's pages, the season)."""
    made = app.extensions.setdefault(KEPT, {})[name] = Kept(size)
    return made


def kept(name: str) -> Kept:
    """This app's `Kept` called `name`."""
    return current_app.extensions[KEPT][name]


def forget_all(app: Flask) -> None:
    """Forget every value kept and every stamp read lately: the next page is drawn afresh."""
    for kept_values in app.extensions.get(KEPT, {}).values():
        kept_values.clear()
    app.extensions.pop(RECENT, None)
