"""Whether a round opened to phones is still open: not closed by the tablet, its round still
the one to play, and not recorded (and undone) since it was opened. Judged from a few facts
read with the opening in one statement (`openings`), since every phone's request asks."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func
from sqlalchemy.orm import joinedload

from ..games.models import Game, Round, RoundChange
from ..platform.database import db
from .models import RoundOpening


@dataclass(frozen=True)
class RoundFacts:
    """What an opening's state rests on, read in one statement: the game's last recorded round
    (0 for none) and how many history entries (corrections, undos) the opening's round has."""

    last: int
    history: int


def round_facts(game_id: int, number: int) -> RoundFacts:
    last = db.select(func.coalesce(func.max(Round.number), 0)).where(Round.game_id == game_id)
    history = db.select(func.count(RoundChange.id)).where(
        RoundChange.game_id == game_id, RoundChange.round_number == number
    )
    row = db.session.execute(db.select(last.scalar_subquery(), history.scalar_subquery())).one()
    return RoundFacts(int(row[0]), int(row[1]))


def openings(
    *where, hands: bool = False, limit: int | None = None, again: bool = False
) -> list[RoundOpening]:
    """The openings `where` says, newest first, each with its facts read in the same statement
    (and with `hands`, its seats too). With `again`, an opening this session holds already is
    read again as it is now (its seats and facts too), not kept as it was first read."""
    last = (
        db.select(func.coalesce(func.max(Round.number), 0))
        .where(Round.game_id == RoundOpening.game_id)
        .correlate(RoundOpening)
        .scalar_subquery()
    )
    history = (
        db.select(func.count(RoundChange.id))
        .where(
            RoundChange.game_id == RoundOpening.game_id,
            RoundChange.round_number == RoundOpening.number,
        )
        .correlate(RoundOpening)
        .scalar_subquery()
    )
    statement = (
        db.select(RoundOpening, last, history).where(*where).order_by(RoundOpening.id.desc())
    )
    if hands:
        statement = statement.options(joinedload(RoundOpening.hands))
    if limit is not None:
        statement = statement.limit(limit)
    if again:
        statement = statement.execution_options(populate_existing=True)
    found = []
    for opening, last_round, entries in db.session.execute(statement).unique():
        opening.__dict__["_facts"] = RoundFacts(int(last_round), int(entries))
        found.append(opening)
    return found


def _facts(opening: RoundOpening) -> RoundFacts:
    """The opening's facts, read once per opening loaded (a phone's request never changes them)."""
    held = opening.__dict__.get("_facts")
    if held is None:
        held = opening.__dict__["_facts"] = round_facts(opening.game_id, opening.number)
    return held


def is_live(opening: RoundOpening, game: Game | None = None) -> bool:
    """Open: not closed by the tablet, its round still the one to play (`ledger.next_round`:
    the game not finished, the round after its last), and not recorded (and undone) since it
    was opened."""
    game = game or opening.game
    facts = _facts(opening)
    return (
        opening.closed_at is None
        and not game.finished
        and facts.last + 1 == opening.number
        and facts.history == opening.history_mark
    )


def saved_round(opening: RoundOpening, game: Game | None = None):
    """The round as the ledger holds it, once saved from this opening; else None."""
    game = game or opening.game
    facts = _facts(opening)
    if facts.last < opening.number or facts.history != opening.history_mark:
        return None
    return next((r for r in game.rounds if r.number == opening.number), None)
