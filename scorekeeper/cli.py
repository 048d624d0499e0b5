"""The management commands of `flask --app scorekeeper`: set up the database and back it up."""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy.engine import Engine

from . import database
from .extensions import db


def needs_current_database(command: Callable[..., None]) -> Callable[..., None]:
    """Refuse to run a command on a database that is not at the newest revision, saying why."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        current, head = database.current_revision(), database.head_revision()
        if current != head:
            state = "is empty" if current is None else f"is at revision {current}"
            raise click.ClickException(
                f"the database {state}, and this app needs revision {head}: "
                "run `flask --app scorekeeper init-db` first (it keeps every game)"
            )
        return command(*args, **kwargs)

    return run


def init_app(app: Flask) -> None:
    """Register every command on the app's CLI group."""
    app.cli.add_command(init_db)
    app.cli.add_command(backup)


@click.command("init-db")
@with_appcontext
@click.option("--reset", is_flag=True, help="Drop every table first (all games are lost).")
def init_db(reset: bool) -> None:
    """Bring the database to the newest revision (creating it), like `flask db upgrade`."""
    if reset:
        db.drop_all()
        with db.engine.begin() as connection:
            connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    before = database.current_revision()
    made_before_migrations = before is None and db.inspect(db.engine).has_table("games")
    after = database.upgrade()
    url = db.engine.url.render_as_string(hide_password=True)
    if made_before_migrations:
        change = f"made before migrations, stamped at {database.BASELINE} and upgraded"
    elif before is None:
        change = "created"
    else:
        change = f"upgraded from {before}" if before != after else "already there"
    click.echo(f"Database ready at revision {after} ({change}): {url}")


@click.command("backup")
@with_appcontext
@needs_current_database
@click.argument("target", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace TARGET when it already exists.")
def backup(target: Path, force: bool) -> None:
    """Copy the SQLite database to TARGET, consistent even while the app is writing."""
    engine = database_engine()
    target = target.expanduser().resolve()
    if engine.dialect.name != "sqlite":
        _backup_as_export(engine, target, force)
        return
    source = engine.url.database
    if source and source != ":memory:" and Path(source).resolve() == target:
        raise click.ClickException(f"{target} is the live database itself: name another file")
    check_target(target, force)
    tables = backup_sqlite(engine, target)
    click.echo(f"Backup written: {target} ({tables} tables, integrity ok)")


def check_target(target: Path, force: bool) -> None:
    """Refuse a file to write that exists (unless forced) or whose folder does not."""
    if target.exists() and not force:
        raise click.ClickException(f"{target} already exists: name a new file, or add --force")
    if not target.parent.is_dir():
        raise click.ClickException(f"{target.parent} is not a folder")


def _backup_as_export(engine: Engine, target: Path, force: bool) -> None:
    """On a server database, write the JSON export (every game, importable) and name pg_dump."""
    from .transfer import dumps, export_games, write_whole

    check_target(target, force)
    url = engine.url.render_as_string(hide_password=True)
    data = export_games()
    write_whole(target, dumps(data))
    click.echo(
        f"{engine.dialect.name} ({url}) is backed up by its own tools: for a copy of the whole "
        "database use pg_dump (see the README). Wrote every game as the JSON export instead "
        f"({len(data['games'])} games, restore with `flask --app scorekeeper import`): {target}"
    )


def database_engine() -> Engine:
    """The app's engine (a seam for tests that need another database kind)."""
    return db.engine


def backup_sqlite(engine: Engine, target: Path) -> int:
    """Copy through SQLite's backup API into a temporary file, check it, then move it into place.

    Returns the number of tables copied. TARGET is either left as it was or replaced whole.
    """
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    try:
        raw = engine.raw_connection()
        try:
            copy = sqlite3.connect(temporary)
            try:
                # pages=-1: one step, so the copy is one consistent snapshot of the database.
                raw.driver_connection.backup(copy, pages=-1)
                # A backup is one self-contained file: no -wal or -shm beside it.
                copy.execute("PRAGMA journal_mode=DELETE")
                result = copy.execute("PRAGMA integrity_check").fetchall()
                if result != [("ok",)]:
                    raise click.ClickException(f"the copy failed its integrity check: {result}")
                tables = copy.execute(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                ).fetchone()[0]
            finally:
                copy.close()
        finally:
            raw.close()
        _fsync(temporary)
        os.replace(temporary, target)
        _fsync(target.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    return tables


def _fsync(path: str | Path) -> None:
    """Flush a file or folder to the disk, so a power cut cannot leave half a backup."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
