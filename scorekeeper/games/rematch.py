"""Play again with the same table: the same seats and rules, the deal passed on one seat."""

from __future__ import annotations

from typing import NamedTuple

from ..rules.ruleset import RuleSet
from . import errors, ledger, service
from .models import Game, utcnow


class Coming(NamedTuple):
    """The game that playing again starts: who deals its first round, under which rules."""

    first_dealer: int
    rules: RuleSet


def coming(game: Game) -> Coming:
    return Coming(next_first_dealer(game), ledger.rules_of(game))


def next_first_dealer(game: Game) -> int:
    """The seat after the last game's first dealer, in playing order (R2), wrapping round."""
    return (game.first_dealer + 1) % len(game.players)


def rematch(game: Game) -> tuple[Game, str]:
    """A new game of the same players in the same seats under the same rules (its own copy of
    this game's, so even a table's own rules carry over); `Conflict` while this one is unfinished.
    The names carry over as they were played, kept from before the name rules or not."""
    rules = ledger.rules_of(game)
    if not game.finished:
        raise errors.Conflict(
            f"game {game.id} is not finished: play again once round {rules.last_deal} is recorded"
        )
    made = service.create_game(game.names, rules, next_first_dealer(game), as_played=True)
    # From now on this game's result is where the new one started: its early end stays.
    game.played_again_at = game.played_again_at or utcnow()
    return made
