"""The instance folder (the secret key, the certificates, the database) and the SQLite database
with its `-wal` and `-shm` files are this user's alone, whatever the umask: 0700 and 0600."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import create_app
from tests.support.book import new_game
from tests.support.config import TEST_CONFIG

SQLITE_FILE = pytest.mark.sqlite_only("the database files are SQLite's")
# Windows keeps no such modes (its chmod only sets or clears "read-only"): the user's own AppData
# is private to them there (docs/installation.md).
pytestmark = pytest.mark.skipif(os.name == "nt", reason="file modes are POSIX's")
# The files of one SQLite database in WAL mode.
SUFFIXES = ("", "-wal", "-shm")


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask most systems give: files 0644 and folders 0755 unless the app says otherwise."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def database_files(database: Path) -> list[Path]:
    """The database file and its `-wal` and `-shm`, each checked to be there."""
    files = [database.with_name(database.name + suffix) for suffix in SUFFIXES]
    assert all(file.exists() for file in files), files
    return files


def written(app) -> None:
    """One game written, so the database and its WAL files are in use."""
    new_game(app.test_client(), profile=None)


@SQLITE_FILE
def test_a_new_instance_folder_and_database_are_private(tmp_path):
    instance = tmp_path / "instance"
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=None)  # the file in the instance folder
    app = create_app(config, instance_path=str(instance))
    written(app)
    assert mode(instance) == 0o700
    for file in database_files(instance / "scorekeeper.sqlite"):
        assert mode(file) == 0o600, file


@SQLITE_FILE
def test_an_instance_folder_and_database_left_readable_are_made_private(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    database = instance / "scorekeeper.sqlite"
    # An earlier version's database, open in another process (its -wal and -shm are there).
    earlier = sqlite3.connect(database)
    try:
        earlier.execute("PRAGMA journal_mode=WAL")
        earlier.execute("CREATE TABLE kept (id INTEGER)")
        files = database_files(database)
        for file in files:
            file.chmod(0o644)
        config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=None)
        written(create_app(config, instance_path=str(instance)))
        assert mode(instance) == 0o700
        for file in files:
            assert mode(file) == 0o600, file
    finally:
        earlier.close()


@SQLITE_FILE
def test_a_database_elsewhere_is_private_and_its_folder_left_as_it_is(tmp_path):
    """A folder the user chose for the database may hold other things and be shared on purpose:
    only the database's own files are the app's to tighten."""
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    database = folder / "book.sqlite"
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=f"sqlite:///{database}")
    written(create_app(config, instance_path=str(tmp_path / "instance")))
    assert mode(folder) == 0o755
    for file in database_files(database):
        assert mode(file) == 0o600, file


def test_an_instance_folder_left_readable_is_made_private_on_any_engine(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    create_app(dict(TEST_CONFIG), instance_path=str(instance))
    assert mode(instance) == 0o700
