"""Play again with the same table: the same seats and rules, the deal passed on one seat."""

from __future__ import annotations

from typing import NamedTuple

from .. import rules
from . import errors, ledger, service
from .models import Game


class Coming(NamedTuple):
    """The game that playing again starts: who deals its first round, under which rules."""

    first_dealer: int
    profile: rules.Profile


def coming(game: Game) -> Coming:
    return Coming(next_first_dealer(game), ledger.profile_of(game))


def next_first_dealer(game: Game) -> int:
    """The seat after the last game's first dealer, in playing order (R2), wrapping round."""
    return (game.first_dealer + 1) % len(game.players)


def rematch(game: Game) -> tuple[Game, str]:
    """A new game of the same players in the same seats; `Conflict` while this one is unfinished."""
    if not game.finished:
        raise errors.Conflict(
            f"game {game.id} is not finished: play again once round {rules.LAST_ROUND} is recorded"
        )
    return service.create_game(game.names, game.profile, next_first_dealer(game))
