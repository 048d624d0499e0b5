"""A paper sheet as read (`Sheet`: its games, built but not stored, and its problems) and its
games stored: all of them or none, and each game once.

A game of a sheet is known by its fingerprint (`fingerprint`: its date, its seats, every round's
scores). Read, a sheet names each of its games already in the score book (`already_stored`);
stored, each game keeps its fingerprint in `SheetImport`, whose unique key makes the check and
the insert one step: of two imports of one sheet at the same moment, the second waits for the
first and is then told the sheet is already there (`SheetAlreadyStored`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import selectinload

from ..platform.database import db
from ..rules.ruleset import RuleSet
from . import keys, ledger
from .errors import ScorebookError
from .models import Game, Round, SheetImport
from .sheetrows import Problem


@dataclass
class SheetGame:
    """One game of the sheet, built (its players, rounds and scores) but not stored."""

    row: int
    game: Game
    notes: list[str] = field(default_factory=list)

    @property
    def book(self) -> ledger.Book:
        return ledger.book(self.game)


@dataclass
class Sheet:
    """What a sheet makes under a rule set: its games, and every problem found in it."""

    rules: RuleSet
    games: list[SheetGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows: int = 0

    @property
    def ready(self) -> bool:
        return bool(self.games) and not self.problems

    @property
    def stored_before(self) -> list[int]:
        """The games the sheet made when it was imported before, when that is its only problem
        (every game of it is in the score book); else []."""
        twins = [problem.game_id for problem in self.problems]
        if not self.games or len(twins) != len(self.games) or None in twins:
            return []
        return twins  # type: ignore[return-value]


class SheetRefused(ScorebookError):
    """A sheet with problems: nothing of it was stored (`sheet.problems` names each)."""

    def __init__(self, sheet: Sheet):
        count = len(sheet.problems)
        super().__init__(
            f"the sheet has {count} problem{'s' if count != 1 else ''}: nothing was imported"
        )
        self.sheet = sheet


class SheetAlreadyStored(ScorebookError):
    """A sheet whose every game is in the score book already (imported before, or by another
    import at the same moment): nothing was stored again; `game_ids` are the games it made."""

    def __init__(self, game_ids: list[int]):
        which = game_list(game_ids)
        super().__init__(
            f"this sheet is already in the score book ({which}): nothing was imported again"
        )
        self.game_ids = game_ids


def already_stored(sheet: Sheet) -> None:
    """A game of the sheet stored before (same date, seats and every score), or twice in the
    sheet, is a problem: a sheet imported twice would count every game twice."""
    if not sheet.games:
        return
    days = {found.game.finished_at for found in sheet.games}
    statement = (
        db.select(Game)
        .where(Game.from_sheet.is_(True), Game.finished_at.in_(days))
        .options(selectinload(Game.players), selectinload(Game.rounds).selectinload(Round.scores))
    )
    stored: dict[str, int] = {}
    for game in db.session.scalars(statement.order_by(Game.id)):
        stored.setdefault(fingerprint(game), game.id)  # a game stored twice: its first copy
    seen: dict[str, int] = {}
    for found in sheet.games:
        key = fingerprint(found.game)
        if (twin := stored.get(key)) is not None:
            sheet.problems.append(
                Problem(
                    found.row,
                    None,
                    f"this game is already in the score book (game {twin})",
                    game_id=twin,
                )
            )
        elif key in seen:
            sheet.problems.append(
                Problem(found.row, None, f"this game is the one of row {seen[key]} again")
            )
        seen.setdefault(key, found.row)


def fingerprint(game: Game) -> str:
    """What a paper sheet says of a game, as sha256 hex: its date (to the minute), its seats'
    names, every round's scores, each in seat order. Two sheets giving a game the same
    fingerprint hold the same game (`SheetImport` keeps it, to store each game once)."""
    rounds = sorted(game.rounds, key=lambda played: played.number)
    said = [
        game.finished_at.strftime("%Y-%m-%d %H:%M") if game.finished_at else "",
        game.names,
        [[line.score for line in sorted(r.scores, key=lambda line: line.seat)] for r in rounds],
    ]
    text = json.dumps(said, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def store(sheet: Sheet) -> list[Game]:
    """Add every game of a sheet with no problem, in one flush (the caller commits): all of
    them, or `SheetRefused` / `ScorebookError` and none; `SheetAlreadyStored` when every game
    of it is in the score book already. Each gets an edit key nobody holds:
    `flask --app scorekeeper game-key <id>` gives one, to correct a round.

    Each game is stored with its fingerprint (`SheetImport`), a unique key: an import of the
    same sheet at the same moment, which found none of its games stored either, waits for this
    one and is refused by the key, then finds the games this one stored."""
    if sheet.stored_before:
        raise SheetAlreadyStored(sheet.stored_before)
    if not sheet.ready:
        raise SheetRefused(sheet)
    games = [found.game for found in sheet.games]
    for game in games:
        game.key_hash = keys.new_key()[1]
    try:
        db.session.add_all(games)
        db.session.flush()
        db.session.add_all(SheetImport(fingerprint=fingerprint(g), game_id=g.id) for g in games)
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        already_stored(sheet)  # stored meanwhile by another import of the same sheet
        if sheet.stored_before:
            raise SheetAlreadyStored(sheet.stored_before) from None
        if sheet.problems:
            raise SheetRefused(sheet) from None
        raise ScorebookError("the database refused the games, nothing was imported") from None
    except SQLAlchemyError as error:
        db.session.rollback()
        reason = getattr(error, "orig", None) or error
        raise ScorebookError(
            f"the database refused the games, nothing was imported: {reason}"
        ) from None
    return games


def game_list(game_ids: list[int]) -> str:
    """ "game 12", "games 12 and 13", "games 12, 13 and 15"."""
    if len(game_ids) == 1:
        return f"game {game_ids[0]}"
    listed = ", ".join(map(str, game_ids[:-1]))
    return f"games {listed} and {game_ids[-1]}"
