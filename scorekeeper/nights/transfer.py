"""A club's nights in the score book's export (`nights`, from format version 3): each night with
its rules' whole document, its seed, its state, the players checked in (pins, the table each sits
at, late arrivals) and its tables, each naming its game by the game's id in the same document.

The nights register this section with the score book's export at app start (`register`): the
score book writes and reads its document without knowing the nights, which sit above it. An
import keeps each night's id (a league names its nights by them), refuses a night that disagrees
with itself or names a game the document does not hold, and refuses the whole document when this
database holds a night of the same id (`clashes`), writing nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.orm import selectinload

from ..games.importer import Checker, distinct_rows, read_part
from ..games.models import KEY_MAX, NAME_MAX
from ..games.names import clean_name, written_problem
from ..games.transfer import Field, Imported, Kind, Part, Section, held, register_section
from ..platform.database import db
from .models import CHOICE_MAX, DRAWN, OPEN, RULES_NAME_MAX, STATES, Night, NightPlayer, NightTable
from .service import MOST_TABLES

NAME = "nights"
# A seed as the draw makes one (`secrets.randbelow(2**31)`), within a BigInteger.
SEED_MOST = 2**63 - 1

PLAYER = Part(
    "night player",
    NightPlayer,
    (
        Field("name", Kind.TEXT, high=NAME_MAX),
        # The season's key for the player (a merged player's is the one merged into).
        Field("name_key", Kind.TEXT, high=KEY_MAX),
        Field("pinned_table", Kind.WHOLE, empty=True, low=1, high=MOST_TABLES),
        Field("table_number", Kind.WHOLE, empty=True, low=1),
        Field("checked_in_at", Kind.TIME),
        Field("late", Kind.FLAG),
    ),
)
TABLE = Part(
    "night table",
    NightTable,
    (
        Field("number", Kind.WHOLE, low=1),
        # The game's id in the same document; null once the game was deleted.
        Field("game_id", Kind.ID, empty=True),
        Field("drawn_at", Kind.TIME),
    ),
)
NIGHT = Part(
    "night",
    Night,
    (
        Field("id", Kind.ID),
        Field("held_on", Kind.DATE),
        Field("rules_choice", Kind.TEXT, high=CHOICE_MAX),
        Field("rules_name", Kind.TEXT, high=RULES_NAME_MAX),
        Field("rules", Kind.RULES),
        Field("seed", Kind.WHOLE, low=0, high=SEED_MOST),
        Field("state", Kind.CHOICE, choices=STATES),
        Field("created_at", Kind.TIME),
        Field("drawn_at", Kind.TIME, empty=True),
        Field("repeats", Kind.WHOLE, empty=True, low=0),
        Field("players", Kind.PARTS, part=PLAYER),
        Field("tables", Kind.PARTS, part=TABLE),
    ),
)


def export() -> list[dict[str, Any]]:
    """Every night, oldest id first, its players in the order they checked in, its tables by
    number."""
    statement = (
        db.select(Night)
        .order_by(Night.id)
        .options(selectinload(Night.players), selectinload(Night.tables))
    )
    return [NIGHT.write(night) for night in db.session.scalars(statement)]


def check(check: Checker, items: Any, imported: Imported) -> list[Night]:
    """The document's nights built, not stored, or `ImportRefused` naming the first problem."""
    used: dict[int, tuple[int, int]] = {}  # a game's id: the night and table that play it
    return distinct_rows(
        check,
        items,
        lambda where, item, index: _night(where, item),
        lambda row_id: _("repeats night %(night)s", night=row_id),
        then=lambda where, night: _check_tables(where, night, imported, used),
    )


def _night(check: Checker, item: Any) -> Night:
    values = read_part(check, NIGHT, item, names=NIGHT.names - {"players", "tables"})
    players = [
        NightPlayer(**read_part(check.at("players").at(index), PLAYER, each, index))
        for index, each in enumerate(check.at("players").list(item["players"]))
    ]
    tables = [
        NightTable(**read_part(check.at("tables").at(index), TABLE, each, index))
        for index, each in enumerate(check.at("tables").list(item["tables"]))
    ]
    night = Night(**values, players=players, tables=tables)
    _check_state(check, night)
    _check_players(check.at("players"), night)
    return night


def _check_state(check: Checker, night: Night) -> None:
    """Drawn exactly when it has a time of drawing; an open night has no tables, nobody seated."""
    if (night.state == DRAWN) != (night.drawn_at is not None):
        raise check.at("drawn_at").fail(_("must be set exactly when the night is drawn"))
    if night.drawn_at is not None and night.drawn_at < night.created_at:
        raise check.at("drawn_at").fail(_("is before the night was set up"))
    if night.state == OPEN and night.tables:
        raise check.at("tables").fail(_("must be empty: the night is not drawn"))
    numbers = [table.number for table in night.tables]
    if numbers != list(range(1, len(numbers) + 1)):
        said = _("must be tables 1, 2, 3… in order, not %(numbers)s", numbers=numbers)
        raise check.at("tables").fail(said)


def _check_players(check: Checker, night: Night) -> None:
    """Names as the app writes them, each player once, seated at one of the night's tables."""
    keys: set[str] = set()
    tables = len(night.tables)
    for index, player in enumerate(night.players):
        where = check.at(index)
        name = player.name
        if clean_name(name) != name or not name:
            said = _("must be written %(name)s, as the app keeps it", name=repr(clean_name(name)))
            raise where.at("name").fail(said)
        if (problem := written_problem(name)) is not None:
            raise where.at("name").fail(problem)
        if not player.name_key:
            raise where.at("name_key").fail(_("must not be empty"))
        if player.name_key in keys:
            raise where.at("name_key").fail(
                _("repeats a player checked in already: each player checks in once")
            )
        keys.add(player.name_key)
        if player.table_number is not None and player.table_number > tables:
            raise where.at("table_number").fail(
                ngettext(
                    "must be a table of the night: it has %(num)s table",
                    "must be a table of the night: it has %(num)s tables",
                    tables,
                )
            )
        if player.late and night.state != DRAWN:
            raise where.at("late").fail(_("must be false: the night is not drawn"))


def _check_tables(
    check: Checker, night: Night, imported: Imported, used: dict[int, tuple[int, int]]
) -> None:
    """Each table's game is a game of the document, and seats one table only."""
    for index, table in enumerate(night.tables):
        game = table.game_id
        if game is None:
            continue
        where = check.at("tables").at(index).at("game_id")
        if game not in imported.games:
            raise where.fail(_("names game %(game)s, which the document does not hold", game=game))
        if game in used:
            night_id, number = used[game]
            said = _(
                "names game %(game)s, the game of table %(table)s of night %(night)s already",
                game=game,
                table=number,
                night=night_id,
            )
            raise where.fail(said)
        used[game] = (night.id, table.number)


def clashes(nights: list[Night]) -> list[str]:
    """The nights whose ids this database holds already, in words."""
    taken = held(Night.id, [night.id for night in nights])
    if not taken:
        return []
    return [
        ngettext(
            "night %(nights)s already exists in this database",
            "nights %(nights)s already exist in this database",
            len(taken),
            nights=", ".join(map(str, taken)),
        )
    ]


SECTION = Section(NAME, export, check, clashes, since=3)


def register(app: Flask) -> None:
    """Carry the nights in the app's export and import."""
    register_section(app, SECTION)
