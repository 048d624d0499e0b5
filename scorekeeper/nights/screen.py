"""The room's screen (`/nights/<id>/screen`): every table's deal in play, standings and last
round, and the night's standings, on the room's TV or projector, following the games by itself.

The screen asks `/nights/<id>/screen/state` every two seconds, as a game page asks its own
state: a tag made from the stamps (`platform.cache`) of the night and of every table's game, read
together in two statements at most once every `STAMP_SECONDS` per process, however many screens
ask, and answered 304 with no body while the tag the screen holds is current. Only when the tag
moves does the screen fetch its page again, drawn once per tag and language (`cache.Kept`) for
every screen that asks. A night's own rows (check-in, pins, the draw) move the night's stamp,
registered here; a round saved at a table moves its game's stamp (the score book's).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from flask import Blueprint, Flask, make_response, render_template, request
from flask_babel import get_locale

from ..games import ledger
from ..games.ledger import Book
from ..platform import cache, database
from ..platform.database import db
from ..rules.seating import RoundSetup
from .models import Night, NightPlayer, NightTable
from .service import NoSuchNight

bp = Blueprint("nights_screen", __name__, url_prefix="/nights")
# The screens drawn, each under its night's tag, per language.
SCREENS = "night screens"
SCREENS_KEPT = 64
# The stamps read less than this long ago are the stamps: every screen asks every two seconds,
# and a save shows on the screen within this and the screen's own two seconds.
STAMP_SECONDS = 0.5


def init_app(app: Flask) -> None:
    """The screen's pages, the night's stamp and the screens kept."""
    app.register_blueprint(bp)
    cache.stamp_rows(app, stamped)
    cache.keep(app, SCREENS, SCREENS_KEPT)


def stamp_name(night_id: int) -> str:
    return f"night {night_id}"


def stamped(row: object) -> tuple[str, ...]:
    """The night's stamp, for a row of the night: itself, a player checked in, a table drawn."""
    if isinstance(row, Night):
        return (stamp_name(row.id),)
    if isinstance(row, NightPlayer | NightTable) and row.night_id is not None:
        return (stamp_name(row.night_id),)
    return ()


def night_stamps(night_id: int) -> tuple | None:
    """The night's stamp and each table's (number, game, game's stamp), in two statements by
    keys; None: no such night."""
    found = db.session.execute(
        db.select(Night.id, NightTable.number, NightTable.game_id)
        .outerjoin(NightTable, NightTable.night_id == Night.id)
        .where(Night.id == night_id)
        .order_by(NightTable.number)
    ).all()
    if not found:
        return None
    tables = [(row[1], row[2]) for row in found if row[1] is not None]
    names = [stamp_name(night_id)] + [ledger.stamp_name(game) for _, game in tables if game]
    rows = db.session.execute(
        db.select(cache.Stamp.name, cache.Stamp.generation, cache.Stamp.changes).where(
            cache.Stamp.name.in_([*names, cache.DATABASE])
        )
    ).all()

    def stamp(name: str):
        return cache.chosen(rows, name)

    return (
        stamp(names[0]),
        tuple((n, g, stamp(ledger.stamp_name(g)) if g else None) for n, g in tables),
    )


# --- What the screen shows ------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A player at a table: place, name, total, their score in the last round (None before
    the first), whether they went out in it and whether they lead."""

    place: int
    name: str
    total: int
    last: int | None
    out: bool
    leads: bool


@dataclass(frozen=True)
class TableScreen:
    """A table as the screen shows it: its deal in play (None once finished), its last round's
    number and its lines in the order of the standings."""

    number: int
    setup: RoundSetup | None
    names: tuple[str, ...]
    last_deal: int
    last_round: int | None
    lines: tuple[Line, ...]
    finished: bool
    gone: bool = False


@dataclass(frozen=True)
class NightLine:
    """A player in the night's standings: their table, their place there and their total."""

    name: str
    table: int
    place: int
    total: int
    leads: bool


def table_screen(number: int, book: Book | None) -> TableScreen:
    if book is None:
        return TableScreen(number, None, (), 0, None, (), False, gone=True)
    game = book.game
    last = game.rounds[-1] if game.rounds else None
    scores = {line.seat: line.score for line in last.scores} if last else {}
    # A finished game's winners (a tie broken as its rules say, R12.3), else who leads now.
    ahead = set(book.winners if game.finished else book.leaders)
    lines = tuple(
        Line(
            place=line.place,
            name=line.name,
            total=line.total,
            last=scores.get(line.seat),
            out=last is not None and last.out == line.seat,
            leads=line.seat in ahead,
        )
        for line in book.standings
    )
    return TableScreen(
        number=number,
        setup=book.setup,
        names=tuple(book.names),
        last_deal=book.last_round,
        last_round=last.number if last else None,
        lines=lines,
        finished=game.finished,
    )


def night_standings(tables: list[TableScreen]) -> list[NightLine]:
    """Every player seated, by their place at their table, then their total (the fewest
    points first), then their table: totals of tables at different deals are not compared
    beyond that."""
    lines = [
        NightLine(line.name, table.number, line.place, line.total, line.leads)
        for table in tables
        for line in table.lines
    ]
    return sorted(lines, key=lambda line: (line.place, line.total, line.table, line.name))


def _tables(night: Night) -> list[TableScreen]:
    """Every table as the screen shows it, its games loaded together (a fixed number of
    statements, however many tables)."""
    ids = [table.game_id for table in night.tables if table.game_id is not None]
    games = {game.id: game for game in ledger.games_of(ids)}
    return [
        table_screen(
            table.number, ledger.book(games[table.game_id]) if table.game_id in games else None
        )
        for table in night.tables
    ]


# --- The pages ------------------------------------------------------------------------------


# The most tables the screen lays out in a grid of their own number (screen.css's
# `.tables-1` … `.tables-8`); past them, six across.
GRID_TABLES = 8


@bp.get("/<int:night_id>/screen")
def show_screen(night_id: int):
    """The room's screen: drawn once per tag and language for every screen that asks."""
    tag = _tag_or_404(night_id)

    def render(_previous) -> str:
        night = db.session.get(Night, night_id)
        tables = _tables(night) if night.drawn else []
        return render_template(
            "nights/screen.html",
            night=night,
            tables=tables,
            grid=len(tables) if len(tables) <= GRID_TABLES else "many",
            standings=night_standings(tables),
            tag=tag,
        )

    page = cache.kept(SCREENS).get((night_id, str(get_locale())), tag, render)
    response = make_response(page)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<int:night_id>/screen/state")
def screen_state(night_id: int):
    """What the screen asks every two seconds: its tag, and 304 with no body while the tag the
    screen holds is current."""
    tag = _tag_or_404(night_id)
    response = make_response({"tag": tag})
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def _tag_or_404(night_id: int) -> str:
    """The screen's tag: it moves with every change the screen shows; 404 for no such night."""
    if night_id not in database.id_range():
        raise NoSuchNight(night_id)
    stamps = cache.recently(
        f"{stamp_name(night_id)} screen", lambda: night_stamps(night_id), STAMP_SECONDS
    )
    if stamps is None:
        raise NoSuchNight(night_id)
    return hashlib.sha256(repr(stamps).encode()).hexdigest()[:16]
