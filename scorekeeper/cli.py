"""The commands of `flask --app scorekeeper` (and of `scorekeeper`, `scorekeeper.command`): set
up, back up and restore, export, import, re-key a game, the table's saved rule sets (`rules list`,
`rules export`, `rules import`), and the organiser password's hash for the setting
(`organiser-password`).

What a command says is in the setting `DEFAULT_LANGUAGE` (a command has no request to ask);
what it writes for machines (exports, rule set documents) is the same in every language."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup, FlaskGroup, with_appcontext
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from .games import keys, papersheets
from .games.errors import ImportRefused, NoSuchGame, NoSuchRuleSet, ScorebookError
from .games.importer import import_games
from .games.models import Game
from .games.transfer import dumps, export_games
from .platform import backups, cache, database, language, organisers
from .platform.database import db
from .rules import sharing
from .rules.errors import RuleSetError
from .rules.ruleset import RuleSet
from .rulesets import service as rulesets


def needs_current_database(command: Callable[..., None]) -> Callable[..., None]:
    """Refuse to run a command on a database that is not at the newest revision, saying why."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        problem = database.revision_problem()
        if problem is not None:
            raise click.ClickException(
                _(
                    "%(problem)s: run `%(command)s` first (it keeps every game)",
                    problem=problem,
                    command=upgrade_command(),
                )
            )
        return command(*args, **kwargs)

    return run


def upgrade_command() -> str:
    """The command that upgrades the database, as the program running now spells it."""
    context = click.get_current_context(silent=True)
    root = context.find_root().command if context is not None else None
    if isinstance(root, FlaskGroup) and root.name == "scorekeeper":
        return "scorekeeper db upgrade"
    return "flask --app scorekeeper init-db"


def init_app(app: Flask, factory: Callable[..., Flask] | None = None) -> None:
    """Register every command on the app's CLI group; `factory` makes another app (`restore`
    reads an SQLite backup through one, into a database of another kind)."""
    app.extensions[FACTORY] = factory
    for command in (
        init_db,
        backup,
        restore_command,
        export_command,
        import_command,
        import_sheet_command,
        game_key_command,
        organiser_password_command,
        rules_group,
    ):
        app.cli.add_command(command)


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
        change = _(
            "made before migrations, stamped at %(baseline)s and upgraded",
            baseline=database.BASELINE,
        )
    elif before is None:
        change = _("created")
    elif before != after:
        change = _("upgraded from %(before)s", before=before)
    else:
        change = _("already there")
    click.echo(
        _(
            "Database ready at revision %(revision)s (%(change)s): %(url)s",
            revision=after,
            change=change,
            url=url,
        )
    )


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
        raise click.ClickException(
            _("%(target)s is the live database itself: name another file", target=target)
        )
    check_target(target, force)
    tables = backup_sqlite(engine, target)
    note_backup("sqlite")
    click.echo(
        ngettext(
            "Backup written: %(target)s (%(num)s table, integrity ok)",
            "Backup written: %(target)s (%(num)s tables, integrity ok)",
            tables,
            target=target,
        )
    )


def check_target(target: Path, force: bool) -> None:
    """Refuse a file to write that exists (unless forced) or whose folder does not."""
    if target.exists() and not force:
        raise click.ClickException(
            _("%(target)s already exists: name a new file, or add --force", target=target)
        )
    if not target.parent.is_dir():
        raise click.ClickException(_("%(folder)s is not a folder", folder=target.parent))


def _backup_as_export(engine: Engine, target: Path, force: bool) -> None:
    """On a server database, write the JSON export (every game, importable) and name pg_dump."""
    check_target(target, force)
    url = engine.url.render_as_string(hide_password=True)
    data = export_games()
    write_whole(target, dumps(data))
    note_backup("export")
    click.echo(
        ngettext(
            "%(kind)s (%(url)s) is backed up by its own tools: for a copy of the whole database "
            "use pg_dump (see the README). Wrote every game as the JSON export instead "
            "(%(num)s game, put back with `scorekeeper restore`): %(target)s",
            "%(kind)s (%(url)s) is backed up by its own tools: for a copy of the whole database "
            "use pg_dump (see the README). Wrote every game as the JSON export instead "
            "(%(num)s games, put back with `scorekeeper restore`): %(target)s",
            len(data["games"]),
            kind=engine.dialect.name,
            url=url,
            target=target,
        )
    )


def note_backup(kind: str) -> None:
    """Note the time of the backup just written, for /healthz; a database too busy to take the
    note (another writer holding it) leaves the backup good, and is said."""
    try:
        backups.record(kind)
    except DBAPIError as error:
        db.session.rollback()
        click.echo(
            _(
                "The backup is written, but its time could not be noted for /healthz: %(problem)s",
                problem=getattr(error, "orig", None) or error,
            ),
            err=True,
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
                    raise click.ClickException(
                        _("the copy failed its integrity check: %(result)s", result=result)
                    )
                tables = copy.execute(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                ).fetchone()[0]
            finally:
                copy.close()
        finally:
            raw.close()
        _fsync(temporary)
        os.replace(temporary, target)
        _fsync_folder(target.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    return tables


def _fsync(path: str | Path, flags: int = os.O_RDWR) -> None:
    """Flush a file to the disk, so a power cut cannot leave half a backup (opened for writing:
    Windows flushes no file opened only to read)."""
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(path: Path) -> None:
    """Flush a folder (the rename into it) to the disk; Windows opens no folder as a file, and
    its renames need no such step."""
    if os.name != "nt":
        _fsync(path, os.O_RDONLY)


# --- Restore: what `backup` wrote, put back -----------------------------------------------------

# The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"
# Where `init_app` keeps the app factory, for `restore`'s reading of an SQLite backup.
FACTORY = "scorekeeper.factory"
# The tables a restore keeps: the record of backups taken (the restored data is no new backup).
KEPT_ON_RESTORE = frozenset({backups.Backup.__tablename__})


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace the games this database holds.")
@with_appcontext
def restore_command(file: Path, force: bool) -> None:
    """Put back what `backup` wrote to FILE (an SQLite copy or an export), into this database
    whatever its kind: all of it or nothing. Refused while the database holds games, unless
    --force; stop the servers first."""
    file = file.expanduser().resolve()
    database.upgrade()  # a restore is as often into a new database as into one in use
    held = db.session.scalar(db.select(db.func.count(Game.id)))
    db.session.rollback()
    if held and not force:
        raise click.ClickException(
            ngettext(
                "the database holds %(num)s game, which restoring %(file)s would replace: back "
                "it up first (`scorekeeper backup FILE`), then add --force",
                "the database holds %(num)s games, which restoring %(file)s would replace: back "
                "them up first (`scorekeeper backup FILE`), then add --force",
                held,
                file=file,
            )
        )
    engine = database_engine()
    if is_sqlite_file(file) and _sqlite_file_of(engine) is not None:
        if _sqlite_file_of(engine) == file:
            raise click.ClickException(
                _("%(file)s is the live database itself: name a backup", file=file)
            )
        restore_sqlite(engine, file)
        database.upgrade()  # a backup from before this version is brought up to it
        count = db.session.scalar(db.select(db.func.count(Game.id)))
    else:
        data = export_of_sqlite(file) if is_sqlite_file(file) else read_document(str(file))
        count = replace_games(data, file)
    click.echo(
        ngettext(
            "Restored %(num)s game from %(file)s",
            "Restored %(num)s games from %(file)s",
            count,
            file=file,
        )
    )


def is_sqlite_file(file: Path) -> bool:
    """Whether FILE is an SQLite database (what `backup` writes on SQLite)."""
    try:
        with open(file, "rb") as stream:
            return stream.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError as error:
        raise click.ClickException(
            _("cannot read %(file)s: %(problem)s", file=file, problem=error)
        ) from None


def _sqlite_file_of(engine: Engine) -> Path | None:
    """The file of an SQLite database; None for another kind, or one in memory."""
    name = engine.url.database
    if engine.dialect.name != "sqlite" or not name or name == ":memory:":
        return None
    return Path(name).resolve()


def _sound_sqlite(file: Path) -> sqlite3.Connection:
    """An open connection to the SQLite file, refused when it fails its integrity check."""
    source = sqlite3.connect(file)
    try:
        result = source.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.DatabaseError as error:
        source.close()
        raise click.ClickException(
            _(
                "%(file)s cannot be read: %(problem)s; nothing was restored",
                file=file,
                problem=error,
            )
        ) from None
    if result != [("ok",)]:
        source.close()
        raise click.ClickException(
            _(
                "%(file)s failed its integrity check (%(result)s): nothing was restored",
                file=file,
                result=result,
            )
        )
    return source


def restore_sqlite(engine: Engine, file: Path) -> None:
    """Copy the SQLite backup over the live SQLite database, in one step of SQLite's backup
    API (a reader sees the database before or after, never between)."""
    source = _sound_sqlite(file)
    db.session.remove()
    try:
        raw = engine.raw_connection()
        try:
            source.backup(raw.driver_connection, pages=-1)
        finally:
            raw.close()
    finally:
        source.close()


def export_of_sqlite(file: Path) -> object:
    """The export document of an SQLite backup: read from a copy (brought up to this version
    first) through an app of its own, the backup itself left as it is."""
    _sound_sqlite(file).close()
    factory = current_app.extensions[FACTORY]
    with tempfile.TemporaryDirectory(prefix="scorekeeper-restore-") as folder:
        copy = Path(folder, "restored.sqlite")
        shutil.copyfile(file, copy)
        config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{copy}", "UPGRADE_ON_START": True}
        reader = factory(config, instance_path=current_app.instance_path)
        with reader.app_context():
            try:
                return export_games()
            finally:
                db.session.remove()
                db.engine.dispose()


def replace_games(data: object, file: Path) -> int:
    """Empty the database and import the export document, in one transaction: a document
    refused leaves the database as it was."""
    try:
        for table in reversed(db.metadata.sorted_tables):
            if table.name not in KEPT_ON_RESTORE:
                db.session.execute(table.delete())
        # Pages kept by a server under the old games' stamps are not those of the restored ones.
        db.session.add(
            cache.Stamp(name=cache.DATABASE, generation=cache.new_generation(), changes=0)
        )
        return import_games(data)
    except ImportRefused as error:
        db.session.rollback()
        raise click.ClickException(_("%(file)s: %(problem)s", file=file, problem=error)) from None


@click.command("export")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=str))
@click.option("--force", is_flag=True, help="Replace FILE when it already exists.")
@with_appcontext
@needs_current_database
def export_command(file: str, force: bool) -> None:
    """Write every game to FILE as JSON (`-` for the standard output)."""
    data = export_games()
    text = dumps(data)
    count = len(data["games"])
    target = write_out(file, text, force)
    if target:
        said = ngettext(
            "Exported %(num)s game to %(target)s",
            "Exported %(num)s games to %(target)s",
            count,
            target=target,
        )
    else:
        said = ngettext("Exported %(num)s game.", "Exported %(num)s games.", count)
    click.echo(said, err=True)


def write_out(file: str, text: str, force: bool) -> Path | None:
    """Write `text` whole to FILE (refused when it exists, unless forced), or to the standard
    output for `-`; the file written, or None for the standard output."""
    if file == "-":
        click.echo(text, nl=False)
        return None
    target = Path(file).expanduser().resolve()
    check_target(target, force)
    write_whole(target, text)
    return target


def read_in(file: str) -> str:
    """The text of FILE (`-`: the standard input), or a ClickException saying why not."""
    try:
        with click.open_file(file, encoding="utf-8") as stream:
            return stream.read()
    except (OSError, UnicodeDecodeError) as error:
        raise click.ClickException(
            _("cannot read %(file)s: %(problem)s", file=file, problem=error)
        ) from None


def read_document(file: str) -> object:
    """The JSON data of FILE, or a ClickException saying why it cannot be read."""
    text = read_in(file)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise click.ClickException(
            _("%(file)s is not JSON (%(problem)s): nothing was imported", file=file, problem=error)
        ) from None
    except RecursionError:
        raise click.ClickException(
            _("%(file)s is nested too deeply: nothing was imported", file=file)
        ) from None
    except ValueError as error:  # a number of thousands of digits, beyond what Python reads
        raise click.ClickException(
            _(
                "%(file)s holds a number too big (%(problem)s): nothing was imported",
                file=file,
                problem=error,
            )
        ) from None


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=str))
@with_appcontext
def import_command(file: str) -> None:
    """Add the games of an export FILE (`-` for the standard input), all of them or none."""
    data = read_document(file)
    # An export is moved into a new database as often as into one in use: make it ready first.
    database.upgrade()
    try:
        count = import_games(data)
    except ImportRefused as error:
        raise click.ClickException(str(error)) from None
    ids = ", ".join(str(game["id"]) for game in data["games"])
    if ids:
        said = ngettext(
            "Imported %(num)s game: %(ids)s", "Imported %(num)s games: %(ids)s", count, ids=ids
        )
    else:
        said = ngettext("Imported %(num)s game", "Imported %(num)s games", count)
    click.echo(said)


@click.command("import-sheet")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=str))
@click.option(
    "--rules",
    "rules_name",
    default="liverpool",
    show_default=True,
    help="A preset's name or a saved rule set's name: the rules the sheet's games were played by.",
)
@with_appcontext
def import_sheet_command(file: str, rules_name: str) -> None:
    """Add the games of a paper score sheet FILE (CSV, as the template; `-` for the standard
    input) as finished games, all of them or none, every problem named by row and column."""
    try:
        with click.open_file(file, "rb") as stream:
            raw = stream.read(papersheets.MAX_SHEET_BYTES + 1)
    except OSError as error:
        raise click.ClickException(
            _("cannot read %(file)s: %(problem)s", file=file, problem=error)
        ) from None
    database.upgrade()  # old sheets are brought into a new score book as often as into one in use
    try:
        rules = papersheets.rules_named(rules_name)
    except ScorebookError as error:
        raise click.ClickException(error.message) from None
    sheet = papersheets.read_sheet(raw, rules)
    for problem in sheet.problems:
        click.echo(str(problem), err=True)
    try:
        games = papersheets.store(sheet)
        db.session.commit()
    except ScorebookError as error:
        db.session.rollback()
        raise click.ClickException(
            _("%(file)s: %(problem)s", file=file, problem=error.message)
        ) from None
    click.echo(
        ngettext(
            "Imported %(num)s game from a paper sheet (%(rules)s):",
            "Imported %(num)s games from a paper sheet (%(rules)s):",
            len(games),
            rules=rules.summary(language.speech()),
        )
    )
    for found in sheet.games:
        click.echo(
            "  " + _("game %(id)s: %(game)s", id=found.game.id, game=papersheets.in_words(found))
        )


def write_whole(target: Path, text: str) -> None:
    """Write into a temporary file beside TARGET, flush it to disk, then move it into place."""
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


@click.command("game-key")
@click.argument("game_id", type=int)
@with_appcontext
@needs_current_database
def game_key_command(game_id: int) -> None:
    """Give a game a new edit key (the old one stops working) and print its edit link."""
    try:
        key = keys.rekey(game_id)
    except NoSuchGame as error:
        raise click.ClickException(error.message) from None
    path = f"/games/{game_id}/join?key={key}"
    click.echo(_("New edit key for game %(id)s; every other key for it stops working.", id=game_id))
    click.echo(
        _(
            "Open http://<this machine's address>:<port>%(path)s on the tablet that keeps score.",
            path=path,
        )
    )


# The shortest organiser password taken: a club's, typed on a tablet, but not a guessable word.
PASSWORD_MIN = 8


@click.command("organiser-password")
@with_appcontext
def organiser_password_command() -> None:
    """Read an organiser password (typed twice, unseen; or one line from a pipe) and print its
    argon2 hash, for the setting ORGANISER_PASSWORD. The password itself is kept nowhere."""
    stdin = sys.stdin
    if stdin.isatty():
        password = click.prompt(
            _("Organiser password"), hide_input=True, confirmation_prompt=True, err=True
        )
    else:
        password = stdin.readline().rstrip("\r\n")
    if len(password) < PASSWORD_MIN:
        raise click.ClickException(
            _("choose a password of at least %(count)s characters", count=PASSWORD_MIN)
        )
    click.echo(organisers.hash_password(password))
    click.echo(
        _(
            "Put this line in ORGANISER_PASSWORD (instance/config.py or the environment), then "
            "restart the server: organisers signed in before sign in again.",
        ),
        err=True,
    )


# --- The table's saved rule sets ------------------------------------------------------------

rules_group = AppGroup("rules", help="The table's saved rule sets: list, export, import.")


@rules_group.command("list")
@needs_current_database
def rules_list() -> None:
    """Every saved rule set, the one a game last started from (or last changed) first."""
    saved = rulesets.saved()
    if not saved:
        click.echo(_("No rule set is saved yet."))
    for row in saved:
        used = row.used_at.isoformat(sep=" ", timespec="minutes") if row.used_at else _("never")
        summary = row.rule_set.summary(language.speech())
        click.echo(f"{row.id}\t{summary}\t" + _("(last game: %(when)s)", when=used))


@rules_group.command("export")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=str))
@click.option("--force", is_flag=True, help="Replace FILE when it already exists.")
@needs_current_database
def rules_export(name: str, file: str, force: bool) -> None:
    """Write the saved rule set NAME (any case or look-alike spelling) to FILE as its JSON
    document (`-` for the standard output): the same bytes as the pages' download."""
    try:
        row = rulesets.named(name)
    except NoSuchRuleSet as error:
        listed = ", ".join(repr(saved.name) for saved in rulesets.saved()) or _("none yet")
        raise click.ClickException(
            _("%(problem)s (saved: %(names)s)", problem=error.message, names=listed)
        ) from None
    target = write_out(file, sharing.file_text(row.rule_set), force)
    if target is not None:
        click.echo(_('Exported "%(name)s" to %(target)s', name=row.name, target=target), err=True)


@rules_group.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, path_type=str))
@click.option("--name", help="Save it under this name instead of the one in the file.")
def rules_import(file: str, name: str | None) -> None:
    """Save the rule set of FILE (a JSON document, as `rules export` writes; `-` for the
    standard input), all of it or nothing, every problem named."""
    text = read_in(file)
    if not text.lstrip().startswith("{"):
        raise click.ClickException(
            _("%(file)s is not a rule set's JSON document: nothing was saved", file=file)
        )
    try:
        rules = RuleSet.parse(text)
    except RuleSetError as error:
        lines = [f"  {place or 'rules'}: {problem}" for place, problem in error.problems.items()]
        raise click.ClickException(
            _(
                "%(file)s cannot be used (%(problem)s); nothing was saved:",
                file=file,
                problem=language.say(error.said, sentence=False) if error.said else error,
            )
            + "\n"
            + "\n".join(lines)
        ) from None
    database.upgrade()  # a rule set is carried to a new tablet as often as to one in use
    try:
        row = rulesets.save(rules, name)
        db.session.commit()
    except ScorebookError as error:
        db.session.rollback()
        raise click.ClickException(
            _("%(problem)s; nothing was saved", problem=error.message)
        ) from None
    click.echo(
        _(
            'Saved "%(name)s" (rule set %(id)s): %(rules)s',
            name=row.name,
            id=row.id,
            rules=row.rule_set.summary(language.speech()),
        )
    )
