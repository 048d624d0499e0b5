"""Every player's rating from every finished game, with OpenSkill's Plackett-Luce model.

Wins alone say little at a table of four where the same people meet again and again: a rating
weighs whom a player finished above and below. Each player is their own team (Liverpool has no
partners); a game's places come from its final totals, the lowest first, tied totals sharing a
place. Games are rated in the order they finished (`finished_at`, then id), every finished game
alike: ended early, archived, brought in from elsewhere.

A rating is shown as the conservative figure μ − 3σ (rounded): a new player (μ 25, σ 25/3)
starts at 0 and climbs as the games make the model surer, so a lucky first win does not put
anyone at the top. Under `PROVISIONAL_GAMES` finished games a rating is "provisional".

The whole season is rated from its first game every time it is computed: a correction to an old
game then changes every later rating exactly as if it had been right from the start. Only where
the games rated before are the first games of the new list (a game finished, a round recorded in
a game still under way) is the rating carried on from where it stopped, which gives the same
figures, since the same games are rated in the same order. `rate` of a game of four takes about
75 µs, so 20,000 games take about 1.5 s (bench/season.py).

This module knows nothing of the database: it rates `Result`s, which the season makes from the
score book's games.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from openskill.models import PlackettLuce, PlackettLuceRating

from ..rules.scoring import places

# One model for the whole process, made once (the defaults: μ 25, σ 25/3, β σ/2, τ σ/100).
MODEL = PlackettLuce()
PROVISIONAL_GAMES = 5
# The trend: the conservative rating after each of a player's last so many finished games.
TREND_GAMES = 10


@dataclass(frozen=True)
class Result:
    """One finished game as the ratings see it: when it finished, and each seat's player (by
    the season's player key) with their final total, in seat order."""

    finished_at: datetime
    game_id: int
    keys: tuple[str, ...]
    totals: tuple[int, ...]
    # The seats (indexes) level on the lowest total that the rules' tie-break passed over
    # (R12.3 `tie_break: deals_won`): they finish behind the winners.
    passed_over: tuple[int, ...] = ()

    @property
    def order(self) -> tuple[datetime, int]:
        return (self.finished_at, self.game_id)

    @property
    def ranks(self) -> list[int]:
        """Each seat's place: 1 + how many seats finished ahead, by total and then the
        tie-break (tied otherwise, they share a place)."""
        return places(self.totals, self.passed_over)


def conservative(mu: float, sigma: float) -> int:
    """μ − 3σ, rounded half up the way a person rounds (−0.5 → 0, 2.5 → 3)."""
    return math.floor(mu - 3 * sigma + 0.5)


@dataclass(frozen=True)
class Rating:
    """A player's rating after their finished games."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    # The conservative rating after each of the last `TREND_GAMES` games, oldest first, and
    # the one before the first of them (a new player's 0).
    trend: tuple[int, ...] = ()
    trend_from: int = field(default_factory=lambda: conservative(MODEL.mu, MODEL.sigma))

    @property
    def rating(self) -> int:
        return conservative(self.mu, self.sigma)

    @property
    def rating_sigma(self) -> float:
        return float(Decimal(repr(self.sigma)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games)

    @property
    def change(self) -> int | None:
        """How far the rating moved over the trend's games; None before the first game."""
        return self.trend[-1] - self.trend_from if self.trend else None


def is_provisional(games: int) -> bool:
    """A rating from this many finished games is provisional (under `PROVISIONAL_GAMES`)."""
    return games < PROVISIONAL_GAMES


NEW_PLAYER = Rating()


# One player's running rating while the games are rated in turn: (OpenSkill's rating, games,
# trend, trend_from), a plain tuple since 20,000 games make 80,000 of them.
_State = tuple[PlackettLuceRating, int, tuple[int, ...], int]


@dataclass(frozen=True)
class Ratings:
    """Every rated player's rating, by player key, and the games they were rated from (kept to
    carry the ratings on when the next list of games starts with these)."""

    players: Mapping[str, Rating]
    results: tuple[Result, ...]
    _states: Mapping[str, _State] = field(repr=False, compare=False)

    def of(self, key: str) -> Rating:
        """The player's rating; a new player's where they have finished no game."""
        return self.players.get(key, NEW_PLAYER)

    def win_chances(self, keys: Sequence[str]) -> list[int]:
        """Each seat's chance of winning in whole percent, summing to 100 (OpenSkill's
        `predict_win` on the players' ratings, a new player's where unrated)."""
        if len(keys) < 2:
            return [100] * len(keys)
        teams = [[MODEL.rating(mu=self.of(key).mu, sigma=self.of(key).sigma)] for key in keys]
        return percentages(MODEL.predict_win(teams))


def percentages(shares: Sequence[float]) -> list[int]:
    """Shares of a whole as whole percentages that sum to exactly 100: each rounded down, then
    the points left over to the largest remainders, earliest seat first among equals (three
    equal chances are 34 %, 33 %, 33 %)."""
    total = sum(shares)
    exact = [share * 100 / total for share in shares]
    whole = [math.floor(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda index: (whole[index] - exact[index], index))
    for index in by_remainder[: 100 - sum(whole)]:
        whole[index] += 1
    return whole


def rate(results: Iterable[Result], previous: Ratings | None = None) -> Ratings:
    """The ratings from these finished games, rated in the order they finished.

    With `previous`, the ratings computed before: where its games are the first games of these
    (the same games, with the same players and totals, in the same order), the rating goes on
    from where it stopped, which gives exactly the figures of rating all of them again.
    """
    ordered = tuple(sorted(results, key=lambda result: result.order))
    start = 0
    states: dict[str, _State] = {}
    if previous is not None and ordered[: len(previous.results)] == previous.results:
        start = len(previous.results)
        states = dict(previous._states)
    fresh = (None, 0, (), NEW_PLAYER.trend_from)
    for result in ordered[start:]:
        if len(result.keys) < 2:
            continue  # nobody to finish above or below
        before = [states.get(key, fresh) for key in result.keys]
        teams = [[state[0] or MODEL.rating()] for state in before]
        after = MODEL.rate(teams, ranks=result.ranks)
        for key, (_, games, trend, trend_from), (model,) in zip(
            result.keys, before, after, strict=True
        ):
            if len(trend) == TREND_GAMES:
                trend_from, trend = trend[0], trend[1:]
            # A new state, never a changed one: an earlier `Ratings` may still be read.
            states[key] = (
                model,
                games + 1,
                (*trend, conservative(model.mu, model.sigma)),
                trend_from,
            )
    players = {
        key: Rating(model.mu, model.sigma, games, trend, trend_from)
        for key, (model, games, trend, trend_from) in states.items()
    }
    return Ratings(players, ordered, states)
