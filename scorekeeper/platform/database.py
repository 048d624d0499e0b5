"""The database under the score book: the models' base and session (`db`), engine set-up per
engine, the writer queue, migrations.

SQLite (the default, one machine) and PostgreSQL (a club's several app processes) are both real
engines here. Each write is serialised: on SQLite by one `BEGIN IMMEDIATE` transaction per
writing request, queued in this process behind one lock; on PostgreSQL by locking the game's row
before its rounds are read (`games.ledger.get_game` with `for_update`). Either way a request
waits at most `DATABASE_BUSY_SECONDS` for the write before it, then is answered 503 busy: a
held lock never ties up the server's threads.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime

import sqlalchemy as sa
from flask import Flask, current_app, g, has_request_context, request
from flask_babel import gettext as _
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import DeclarativeBase

from . import settings


class Base(DeclarativeBase):
    """Typed declarative base for every model."""


# Every model and query imports these from here, never from the app, so none needs the app made.
# Objects stay readable after a commit, so answering a write needs no second transaction.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()


@event.listens_for(db.Model, "init", propagate=True)
@event.listens_for(db.Model, "load", propagate=True)
def settle_state(row: object, *_given) -> None:
    """Give a row's state (SQLAlchemy's `InstanceState`) its own attribute dict as the row is
    made or loaded, while the row is surely alive.

    On CPython 3.11 an object keeps its first attributes inline and makes them a dict when it
    gets one more. A collection of garbage that runs while that dict is made (any allocation may
    start one) and frees the state's row calls the state back (`InstanceState._cleanup`, a
    weak reference's callback), which writes into the same inline attributes: the dict being
    made is left pointing at freed memory, and the process crashes soon after. The games list
    did so on its second or third showing once the book held 100 finished games
    (`tests/web/test_database.py`). With its dict made here, a state never makes one later."""
    _ = inspect(row).__dict__


# Flask-Migrate's folder, at the top of the project beside templates/ and static/.
MIGRATIONS = settings.shipped("migrations")
# The revision that reproduces the schema of databases made before migrations existed.
BASELINE = "0001_baseline"

# The database files and the instance folder are this user's alone, whatever the umask.
PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700

READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# The mark of a view that writes nothing whatever its method (`writeonce.reads_only`,
# e.g. a rules question posted as a form): like a GET, it takes no write lock.
READS_ONLY = "reads_only"
# One writer at a time in this process: writers queue here and wake at once, instead of sleeping
# in SQLite's busy handler; BEGIN IMMEDIATE still serialises writers of other processes.
_writer = threading.RLock()  # re-entrant: a test may hold one request open inside another

# An id column is SQL INTEGER: 64-bit on SQLite, 32-bit on PostgreSQL. An id outside its range
# names no row, and some drivers cannot even send it.
ID_RANGES = {"sqlite": range(-(2**63), 2**63)}
PORTABLE_ID_RANGE = range(-(2**31), 2**31)

# The drivers' words for a table or column that is not there: the database is behind the app.
SQLITE_MISSING = ("no such table", "no such column")
POSTGRES_MISSING = frozenset({"42P01", "42703"})  # SQLSTATE undefined_table, undefined_column
SEQUENCE_USED_UP = "2200H"  # SQLSTATE sequence_generator_limit_exceeded


def utcnow() -> datetime:
    """Naive UTC, since SQLite keeps no time zone: every stored time is UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


def database_url(url: str) -> str:
    """The SQLAlchemy URL for a `DATABASE_URL`: `postgres://…` and `postgresql://…` use psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


# Connections each process keeps open to PostgreSQL (more are opened, then closed, at a peak).
POOL_SIZE = 8


def init_app(app: Flask) -> None:
    """Set up the engine for its kind, the writer queue and Flask-Migrate's `flask db` commands."""
    # Registered before the database: teardowns run in reverse, so the session closes first.
    app.teardown_appcontext(release_writer)
    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() == "postgresql":
        # A club's server runs for weeks: a connection dropped by the database is replaced.
        chosen = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
        # A connection kept for each of the server's worker threads (`serve`'s 8), so eight
        # phones sending at once never open and close connections of their own (unless the
        # settings choose a pool of their own).
        pool = {} if "poolclass" in chosen else {"pool_size": POOL_SIZE}
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_pre_ping": True, **pool, **chosen}
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    wait = float(app.config["DATABASE_BUSY_SECONDS"])
    with app.app_context():
        configure_sqlite(db.engine, wait)
        configure_postgres(db.engine, wait, float(app.config["DATABASE_STATEMENT_SECONDS"]))


def close_connections(app: Flask) -> None:
    """Close every connection the app's engines keep, as a served app stops: SQLite folds its
    write-ahead log back into the file as the last one closes (no `-wal` or `-shm` left beside
    it), and PostgreSQL's sessions end at once rather than at the process's exit."""
    with app.app_context():
        for engine in db.engines.values():
            engine.dispose()


def id_range() -> range:
    """The ids the app's database can hold (see ID_RANGES)."""
    return ID_RANGES.get(db.engine.dialect.name, PORTABLE_ID_RANGE)


def row_by_id(model, row_id: int, missing: Callable[[int], Exception], for_update: bool = False):
    """The row of `model` with that id, or `missing(row_id)` raised (an id past the database's
    range too); locked for a write (`for_update`: a row lock on PostgreSQL, the one writer on
    SQLite)."""
    if row_id not in id_range():
        raise missing(row_id)
    query = db.select(model).where(model.id == row_id)
    if for_update:
        query = query.with_for_update()
    found = db.session.scalar(query)
    if found is None:
        raise missing(row_id)
    return found


def configure_sqlite(engine: Engine, wait: float) -> None:
    """Make SQLite durable and serial: WAL, synchronous=FULL, busy timeout, BEGIN IMMEDIATE.

    A writer waits up to `wait` seconds (`DATABASE_BUSY_SECONDS`) for the one before it; then
    the request is answered 503 (see `security.database_busy`).
    """
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        private_sqlite_files(engine.url.database)
        # Let SQLAlchemy, not the driver, decide when transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={_milliseconds(wait)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        if conn.get_execution_options().get("read_only") or _request_only_reads():
            # A page that only reads takes no write lock: readers never wait for each other.
            conn.exec_driver_sql("BEGIN")
            return
        deadline = time.monotonic() + wait
        if has_request_context() and not g.get("_sqlite_writer"):
            if not _writer.acquire(timeout=wait):
                raise OperationalError("BEGIN IMMEDIATE", None, sqlite3.OperationalError("busy"))
            g._sqlite_writer = True
        # Take the write lock at the start, so two writers queue instead of failing mid-way.
        # SQLite's busy handler gets only what is left of the wait: a writer queued behind
        # another in this process waits `wait` in all, not once here and again in SQLite.
        _set_busy_timeout(conn, deadline - time.monotonic())
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        finally:
            _set_busy_timeout(conn, wait)


def _set_busy_timeout(conn: Connection, seconds: float) -> None:
    """How long SQLite's busy handler lets this connection's next statement wait for a lock."""
    conn.exec_driver_sql(f"PRAGMA busy_timeout={_milliseconds(seconds)}")


def configure_postgres(engine: Engine, wait: float, statement: float) -> None:
    """Bound every wait of a request on PostgreSQL, which is then answered 503 busy: a lock is
    waited for `wait` seconds (`DATABASE_BUSY_SECONDS`, as on SQLite), and a statement runs for
    `statement` seconds (`DATABASE_STATEMENT_SECONDS`) in a page that only reads, `wait` seconds
    in a write.

    A write's statements touch one game's rows and take milliseconds; the one that may run long
    is the one waiting for the game's row lock, which `lock_timeout` alone does not bound: a
    second waiter waits for the first's place in the queue, then again for the holder. Only
    requests are bounded, each transaction with `SET LOCAL` (`set_config(…, true)`), so the bounds
    end with it and do not depend on how the pool made or checked the connection: the commands
    (`import`, `backup`, `flask db upgrade`) and the migrations a process runs as it starts,
    waiting for another's advisory lock, run as long as they need.
    """
    if engine.dialect.name != "postgresql":
        return
    bounds = text(
        "SELECT set_config('lock_timeout', :lock, true), "
        "set_config('statement_timeout', :statement, true)"
    )
    # PostgreSQL's 0 is "no limit": a wait of 0 (never wait) is its shortest, 1 ms.
    lock = f"{max(1, _milliseconds(wait))}ms"
    writes = bounds.bindparams(lock=lock, statement=lock)
    reads = bounds.bindparams(lock=lock, statement=f"{_milliseconds(statement)}ms")

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        if has_request_context():
            conn.execute(reads if _request_only_reads() else writes)


def _milliseconds(seconds: float) -> int:
    """A timeout of `seconds` in the milliseconds SQLite and PostgreSQL take; never below 0."""
    return max(0, round(seconds * 1000))


def private_sqlite_files(path: str | None) -> None:
    """Keep an SQLite database file and its `-wal` and `-shm` readable by this user alone (0600),
    whatever the umask: they hold every game and the edit keys' hashes.

    Called as each connection opens, before it reads: SQLite gives the `-wal` and `-shm` files
    it makes the database file's mode, so once the database file is private they are made private
    too; those an earlier version left readable are tightened here.
    """
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(name, PRIVATE_FILE)


def _request_only_reads() -> bool:
    """True inside a request that writes nothing: a GET, or a view marked `READS_ONLY`."""
    if not has_request_context():
        return False
    if request.method in READ_METHODS:
        return True
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, READS_ONLY, None))


def release_writer(_error: BaseException | None = None) -> None:
    """Let the next writer in once the request's session is closed."""
    if g.pop("_sqlite_writer", False):
        _writer.release()


# --- Migrations ----------------------------------------------------------------------------


def upgrade(revision: str = "head") -> str | None:
    """Bring the app's database to `revision` (the newest by default); returns where it is now.

    A database made before migrations existed is recognised in `migrations/env.py` and stamped
    at the baseline first, so every row it holds is kept.
    """
    import flask_migrate

    flask_migrate.upgrade(directory=str(MIGRATIONS), revision=revision)
    return current_revision()


def head_revision() -> str:
    """The newest revision in migrations/."""
    from alembic.script import ScriptDirectory

    config = current_app.extensions["migrate"].migrate.get_config(str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


def schema_missing(error: DBAPIError) -> bool:
    """True when the database lacks a table or column the app uses: never set up, or not
    upgraded to this version. That is neither busy nor mended by trying again."""
    original = error.orig
    if isinstance(original, sqlite3.OperationalError):
        return str(original).startswith(SQLITE_MISSING)
    return getattr(original, "sqlstate", None) in POSTGRES_MISSING


def ids_used_up(error: DBAPIError) -> bool:
    """True when an id sequence has handed out its last number (PostgreSQL, after an import of a
    game numbered at the top of the id range): no retry mends it."""
    return getattr(error.orig, "sqlstate", None) == SEQUENCE_USED_UP


def revision_problem() -> str | None:
    """Why the database is not at this app's newest revision, in words; None when it is."""
    current, head = current_revision(), head_revision()
    if current == head:
        return None
    if current is None:
        return _("the database is empty, and this app needs revision %(head)s", head=head)
    return _(
        "the database is at revision %(current)s, and this app needs revision %(head)s",
        current=current,
        head=head,
    )


def current_revision() -> str | None:
    """The revision the database is at, or None for an empty database."""
    from alembic.runtime.migration import MigrationContext

    with db.engine.connect() as connection:
        connection.execution_options(read_only=True)
        return MigrationContext.configure(connection).get_current_revision()


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """One connection and one transaction for a whole migration run, kept safe for every row.

    On PostgreSQL one process at a time migrates (several app processes may start at once). On
    SQLite foreign keys are off while tables are rebuilt, since dropping the old copy of a table
    would otherwise delete every row that refers to it; they are checked before the commit.
    """
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Only outside a transaction does SQLite take this pragma.
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    # Held until this transaction ends; the number is this app's own.
                    connection.execute(text("SELECT pg_advisory_xact_lock(7217001)"))
                yield connection
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration broke references: {broken[:5]}")
        finally:
            if sqlite:
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")


def adopt_legacy(connection: Connection, context) -> bool:
    """Stamp a database made by `create_all` (tables, no alembic_version) at the baseline.

    Called by `migrations/env.py` inside the migration's transaction, before it runs.
    """
    tables = set(inspect(connection).get_table_names())
    if "games" not in tables or "alembic_version" in tables:
        return False
    current_app.logger.warning("database made before migrations: stamped at %s", BASELINE)
    context.get_context().stamp(context.script, BASELINE)
    return True


_players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def rekey_players(connection: Connection, keys_of: Callable[[Sequence[str]], list[str]]) -> None:
    """Give every game's seats the keys `keys_of` makes from its names in seat order (a
    migration's step: `names.seat_keys` today). Names are never changed."""
    rows = connection.execute(
        sa.select(_players.c.id, _players.c.game_id, _players.c.name).order_by(
            _players.c.game_id, _players.c.seat
        )
    ).all()
    games: dict[int, list] = {}
    for row in rows:
        games.setdefault(row.game_id, []).append(row)
    new_keys: dict[int, str] = {}
    for seated in games.values():
        keys = keys_of([row.name for row in seated])
        new_keys.update(zip((row.id for row in seated), keys, strict=True))
    # Out of the way first: the unique (game, key) must hold after every single UPDATE.
    for row_id in new_keys:
        connection.execute(
            _players.update().where(_players.c.id == row_id).values(name_key=f"\x01{row_id}")
        )
    for row_id, key in new_keys.items():
        connection.execute(_players.update().where(_players.c.id == row_id).values(name_key=key))


def move_sequences_past_ids(connection: Connection) -> None:
    """After rows were written with explicit ids, let each id sequence continue after the largest.

    SQLite needs nothing: its next id is always past the largest one stored.
    """
    if connection.dialect.name != "postgresql":
        return
    for table in db.metadata.sorted_tables:
        if "id" not in table.c:
            continue  # keyed by name (the stamps): no sequence
        # Marked as called at the largest id, the sequence hands out the next one: a largest id
        # at the very top of the id range (2147483647) is stored, where setting the sequence to
        # one past it would overflow.
        connection.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                f" coalesce(max(id), 1), max(id) IS NOT NULL) FROM {table.name}"
            )
        )
