"""The record of the games brought in from paper sheets in the score book's export (`sheets`,
from format version 4): for each such game, the fingerprint of what its sheet said
(`papersheets.fingerprint`), which stops the same sheet being imported twice.

The paper sheets register this section with the export at app start (`register`), as the
features above the score book do theirs. Nothing names a record but its game, so the document
holds no id of its own: the database gives each record one as it is imported, and the records
are written in their games' order (a game's id is kept), the same after every round trip. An
import refuses a record naming a game the document does not hold or one that did not come from
a paper sheet, a game or a fingerprint twice, and the whole document when this database holds a
record of one of the fingerprints already (`clashes`), writing nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext

from ..platform.database import db
from .importer import Checker, read_part
from .models import SheetImport
from .transfer import Field, Imported, Kind, Part, Section, held, register_section

NAME = "sheets"

SHEET = Part(
    "paper sheet's game",
    SheetImport,
    (
        # The game's id in the same document.
        Field("game_id", Kind.ID),
        # sha256 of what the sheet said of the game, in lowercase hex.
        Field("fingerprint", Kind.HASH),
    ),
)


def export() -> list[dict[str, Any]]:
    """Every game's record of its paper sheet, in the games' order."""
    statement = db.select(SheetImport).order_by(SheetImport.game_id)
    return [SHEET.write(row) for row in db.session.scalars(statement)]


def of_game(game_id: int) -> list[dict[str, Any]]:
    """The game's record of its paper sheet (none for a game played here), for its download."""
    statement = db.select(SheetImport).where(SheetImport.game_id == game_id)
    return [SHEET.write(row) for row in db.session.scalars(statement)]


def check(check: Checker, items: Any, imported: Imported) -> list[SheetImport]:
    """The document's records built, not stored, or `ImportRefused` naming the first problem."""
    rows: list[SheetImport] = []
    games: set[int] = set()
    fingerprints: dict[str, int] = {}
    for index, item in enumerate(check.list(items)):
        where = check.at(index)
        row = SheetImport(**read_part(where, SHEET, item, index))
        game = imported.games.get(row.game_id)
        if game is None:
            said = _("names game %(game)s, which the document does not hold", game=row.game_id)
            raise where.at("game_id").fail(said)
        if not game.from_sheet:
            said = _(
                "names game %(game)s, which was not brought in from a paper sheet", game=game.id
            )
            raise where.at("game_id").fail(said)
        if row.game_id in games:
            said = _("repeats game %(game)s: a game has one sheet's record", game=row.game_id)
            raise where.at("game_id").fail(said)
        if row.fingerprint in fingerprints:
            said = _(
                "repeats the fingerprint of game %(game)s: a sheet's game is stored once",
                game=fingerprints[row.fingerprint],
            )
            raise where.at("fingerprint").fail(said)
        games.add(row.game_id)
        fingerprints[row.fingerprint] = row.game_id
        rows.append(row)
    return rows


def clashes(rows: list[SheetImport]) -> list[str]:
    """The document's games whose sheet this database holds already, in words."""
    by_fingerprint = {row.fingerprint: row.game_id for row in rows}
    imported = held(SheetImport.fingerprint, by_fingerprint)
    games = sorted(by_fingerprint[fingerprint] for fingerprint in imported)
    if not games:
        return []
    return [
        ngettext(
            "game %(games)s came from a paper sheet already imported into this database",
            "games %(games)s came from paper sheets already imported into this database",
            len(games),
            games=", ".join(map(str, games)),
        )
    ]


SECTION = Section(NAME, export, check, clashes, since=4, of_game=of_game)


def register(app: Flask) -> None:
    """Carry the paper sheets' records in the app's export and import."""
    register_section(app, SECTION)
