"""Export every game to one JSON document and import it back, exactly, all or nothing.

For moving a table's score book to another machine or keeping it outside SQLite: the document
holds everything (players, rounds, scores, versions, history, key hashes, times), so an export
imported into an empty database exports again byte for byte the same. `exportformat` defines
the document's parts and fields; `importcheck` checks a document by them before anything of it
is stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from ..platform import database
from ..platform.database import db
from .errors import ImportRefused
from .exportformat import GAME, document
from .importcheck import check_document
from .models import Game, Round

# --- Export --------------------------------------------------------------------------------


def export_games() -> dict[str, Any]:
    """Every game, oldest id first, as plain JSON data with a format name and version."""
    if db.engine.dialect.name == "postgresql" and not db.session().in_transaction():
        # One snapshot for all the statements below, while other processes go on writing.
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    statement = (
        db.select(Game)
        .order_by(Game.id)
        .options(
            selectinload(Game.players),
            selectinload(Game.rounds).selectinload(Round.scores),
            selectinload(Game.history),
            selectinload(Game.renames),
        )
    )
    return export_document(db.session.scalars(statement))


def export_document(games: Iterable[Game]) -> dict[str, Any]:
    """These games (loaded whole) as an export document that `import` takes."""
    return document([GAME.write(game) for game in games])


def dumps(data: dict[str, Any]) -> str:
    """The document as text: sorted keys and fixed indentation, so equal data is equal text."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


# --- Import --------------------------------------------------------------------------------


def import_games(data: Any) -> int:
    """Check the whole document, then store every game in one transaction; returns how many."""
    # Game ids are kept (edit links and cookies name them): one taken id refuses the whole import.
    games = check_document(data)
    ids = [game.id for game in games]
    taken = sorted(db.session.scalars(db.select(Game.id).where(Game.id.in_(ids))))
    if taken:
        listed = ", ".join(map(str, taken))
        which = (
            f"games {listed} already exist" if len(taken) > 1 else f"game {listed} already exists"
        )
        raise ImportRefused(
            f"{which} in this database: nothing was imported (import into an empty database)"
        )
    try:
        db.session.add_all(games)
        db.session.flush()
        # New games after these must not be given an imported game's id.
        database.move_sequences_past_ids(db.session.connection())
        db.session.commit()
    except SQLAlchemyError as error:
        db.session.rollback()
        reason = getattr(error, "orig", None) or error
        raise ImportRefused(
            f"the database refused the games, nothing was imported: {reason}"
        ) from None
    return len(games)
