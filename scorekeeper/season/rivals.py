"""A player's rivals: the opponent they finish above most often, and the one who finishes above
them most often, read from head to head (`players.Opponent`) over enough games together to
mean something."""

from __future__ import annotations

from dataclasses import dataclass

from .players import Opponent, PlayerRecord

# Fewer finished games together than this say nothing about a rivalry.
LEAST_GAMES = 3


@dataclass(frozen=True)
class Rivals:
    """Who the player beats most (`beaten`) and loses to most (`nemesis`): every opponent tied
    on the count, most games together first; empty when nobody qualifies."""

    beaten: tuple[Opponent, ...]
    nemesis: tuple[Opponent, ...]


def rivals(record: PlayerRecord, least: int = LEAST_GAMES) -> Rivals:
    """The rivals among the opponents met in at least `least` finished games. Beating someone
    is finishing a game on a lower total than theirs (a higher place); the same total is
    neither."""
    met = [opponent for opponent in record.opponents if opponent.games >= least]
    return Rivals(_most(met, lambda o: o.lower), _most(met, lambda o: o.their_lower))


def _most(opponents: list[Opponent], count) -> tuple[Opponent, ...]:
    top = max((count(opponent) for opponent in opponents), default=0)
    if top <= 0:
        return ()
    return tuple(opponent for opponent in opponents if count(opponent) == top)


def tally(opponent: Opponent) -> str:
    """ "5–2 in 7 games": games finished above, below, and together; the same total said apart."""
    level = opponent.games - opponent.lower - opponent.their_lower
    text = f"{opponent.lower}–{opponent.their_lower} in {opponent.games} games"
    return text + (f", {level} level" if level else "")
