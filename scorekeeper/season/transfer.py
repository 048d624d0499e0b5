"""The players the table merged in the score book's export (`merges`, from format version 4):
each merge with the two players' keys and names as they were shown, when it was made and, for
one undone, when it was undone. The season reads the merges in force, so a book without them
would count merged players apart again: other standings, other ratings.

The season registers this section with the score book's export at app start (`register`). An
import keeps each merge's id (the players' pages undo a merge by it, and the merges are listed in
its order), refuses a merge that disagrees with itself (a key left empty, a player merged into
themself, a name not as a game keeps it, a second merge in force of one player) and refuses the
whole document when this database holds a merge of the same id, or one in force of a player the
document merges (`clashes`), writing nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext

from ..games.importer import Checker, distinct_rows, read_part
from ..games.models import KEY_MAX, NAME_MAX
from ..games.names import clean_name, kept_as_played, written_problem
from ..games.transfer import Field, Imported, Kind, Part, Section, held, register_section
from ..platform.database import db
from .models import PlayerMerge

NAME = "merges"

MERGE = Part(
    "player merge",
    PlayerMerge,
    (
        Field("id", Kind.ID),
        # The players' keys (`players.player_key`), as their games' seats keep them.
        Field("from_key", Kind.TEXT, high=KEY_MAX),
        Field("into_key", Kind.TEXT, high=KEY_MAX),
        Field("from_name", Kind.TEXT, high=NAME_MAX),
        Field("into_name", Kind.TEXT, high=NAME_MAX),
        Field("merged_at", Kind.TIME),
        # null for a merge in force
        Field("undone_at", Kind.TIME, empty=True),
    ),
)


def export() -> list[dict[str, Any]]:
    """Every merge, undone ones too, oldest id first."""
    statement = db.select(PlayerMerge).order_by(PlayerMerge.id)
    return [MERGE.write(row) for row in db.session.scalars(statement)]


def check(check: Checker, items: Any, imported: Imported) -> list[PlayerMerge]:
    """The document's merges built, not stored, or `ImportRefused` naming the first problem."""
    in_force: set[str] = set()

    def once_in_force(where: Checker, row: PlayerMerge) -> None:
        if not row.in_force:
            return
        if row.from_key in in_force:
            raise where.at("from_key").fail(
                _("repeats a merge in force of this player: a player joins one other at a time")
            )
        in_force.add(row.from_key)

    return distinct_rows(
        check,
        items,
        _merge,
        lambda row_id: _("repeats merge %(merge)s", merge=row_id),
        then=once_in_force,
    )


def _merge(check: Checker, item: Any, index: int) -> PlayerMerge:
    """The merge, of two players each named as a game keeps the name."""
    row = PlayerMerge(**read_part(check, MERGE, item, index))
    _check_merge(check, row)
    return row


def _check_merge(check: Checker, row: PlayerMerge) -> None:
    """Two players, each named as a game keeps the name."""
    for field in ("from_key", "into_key"):
        if not getattr(row, field):
            raise check.at(field).fail(_("must not be empty"))
    if row.from_key == row.into_key:
        raise check.at("into_key").fail(
            _("must be another player's than from_key: a player is never merged into themself")
        )
    for field in ("from_name", "into_name"):
        _check_name(check.at(field), getattr(row, field))


def _check_name(check: Checker, name: str) -> None:
    """A name as the app writes it today, or as an earlier release kept it for a game's seat
    (`names.kept_as_played`): a merge names the players as their games show them."""
    if kept_as_played([name]):
        return
    cleaned = clean_name(name)
    if not cleaned:
        raise check.fail(_("must not be empty"))
    if cleaned != name:
        raise check.fail(
            _("must be written %(name)s, as the app keeps it", name=repr(cleaned)),
        )
    raise check.fail(written_problem(name) or _("must not be empty"))


def clashes(rows: list[PlayerMerge]) -> list[str]:
    """The merges whose ids this database holds already, and the players the document merges
    that a merge in force here merges already, in words."""
    found = []
    taken = held(PlayerMerge.id, [row.id for row in rows])
    if taken:
        found.append(
            ngettext(
                "merge %(merges)s already exists in this database",
                "merges %(merges)s already exist in this database",
                len(taken),
                merges=", ".join(map(str, taken)),
            )
        )
    merged = held(
        PlayerMerge.from_key,
        [row.from_key for row in rows if row.in_force],
        PlayerMerge.undone_at.is_(None),
        shown=PlayerMerge.from_name,
    )
    if merged:
        found.append(
            ngettext(
                "a merge in force of %(names)s is already in this database",
                "merges in force of %(names)s are already in this database",
                len(merged),
                names=", ".join(merged),
            )
        )
    return found


SECTION = Section(NAME, export, check, clashes, since=4)


def register(app: Flask) -> None:
    """Carry the merges in the app's export and import."""
    register_section(app, SECTION)
