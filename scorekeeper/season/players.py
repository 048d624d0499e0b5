"""Players across games: who sat where, their figures over the season, and head to head.

A player is the same person in every game of this score book when their names share the key
that keeps look-alikes apart at one table (`names.name_key`, stored with each seat): "Ann",
"ann", "Ánn" and "Аnn" (Cyrillic А) cannot sit at one table, so they are one player here too.
The key is the one every seat already stores, so nothing stored changes for it.

A player the table merged into another ("Annie" is "Ann", `models.PlayerMerge`) is that other
player here: `identities` says which key each merged key now is, and `_sittings` gives every
seat that key, so every figure, head to head and whatever is computed from `Sitting.key` counts
them as one without knowing merges exist. The games keep their seats and names as played.

Games played under different rule sets (R11) are compared honestly: totals are averaged per
game, and a player's figures say under which rules their games were played (`by_rules`, each
rule set's games, wins and average total). Every figure is read in three statements (the
seats, their rounds, the merges), whatever the number of games.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sqlalchemy import case, func

from ..extensions import db
from ..scorebook.models import Game, Player, Round, RoundScore
from ..scorebook.names import name_key
from .models import PlayerMerge


def player_key(name: str) -> str:
    """The one key a player is known by across games: the key of names that look alike at a
    table (`names.name_key` of the name as stored)."""
    return name_key(name)


@dataclass
class Sitting:
    """One player's seat in one game, with what the recorded rounds say about it."""

    game_id: int
    seat: int
    name: str
    key: str  # the player's key: the seat's stored `name_key`, or the one it was merged into
    rules: str  # the name of the game's rule set
    created_at: datetime
    finished: bool
    # The last round of a game the table ended early, else None.
    ended_after: int | None = None
    total: int = 0
    rounds: int = 0
    rounds_out: int = 0
    cut_bonuses: int = 0
    penalty_sum: int = 0
    penalty_rounds: int = 0
    won: bool = False
    # The seat's stored `name_key`, as played (`key` unless the player was merged).
    seat_key: str = ""

    def __post_init__(self) -> None:
        self.seat_key = self.seat_key or self.key


@dataclass(frozen=True)
class Opponent:
    """Head to head against one opponent over the finished games both sat in."""

    name: str
    games: int
    lower: int  # games the player finished lower than this opponent
    their_lower: int  # games this opponent finished lower


@dataclass(frozen=True)
class RulesRecord:
    """A player's finished games under one rule set: so many, won so often, this average total."""

    rules: str
    games: int
    wins: int
    average_total: float

    def as_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "games": self.games,
            "wins": self.wins,
            "average_total": self.average_total,
        }


@dataclass(frozen=True)
class PlayerRecord:
    """A player's season: every game they sat in, oldest first, and their figures."""

    key: str
    name: str
    sittings: tuple[Sitting, ...] = field(repr=False)
    opponents: tuple[Opponent, ...] = field(default=(), repr=False)
    # Every other player's shown name (`find_player`), for the page's merge control.
    others: tuple[str, ...] = field(default=(), repr=False)

    @property
    def also_played_as(self) -> list[str]:
        """The names of the players merged into this one, each as last written, oldest first."""
        names = {s.seat_key: s.name for s in self.sittings if s.seat_key != self.key}
        return list(names.values())

    @property
    def finished(self) -> list[Sitting]:
        return [sitting for sitting in self.sittings if sitting.finished]

    @property
    def games(self) -> int:
        return len(self.finished)

    @property
    def wins(self) -> int:
        return sum(1 for sitting in self.finished if sitting.won)

    @property
    def win_rate(self) -> float:
        return _ratio(self.wins, self.games, 3) if self.games else 0.0

    @property
    def average_total(self) -> float | None:
        totals = [sitting.total for sitting in self.finished]
        return _ratio(sum(totals), len(totals), 1) if totals else None

    @property
    def by_rules(self) -> list[RulesRecord]:
        """The finished games by the rule set they were played under, most played first: a
        ten-deal game's total is not a seven-deal one's, so each rule set is averaged apart."""
        counts = Counter(sitting.rules for sitting in self.finished)
        records = []
        for rules, games in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            totals = [sitting.total for sitting in self.finished if sitting.rules == rules]
            wins = sum(1 for sitting in self.finished if sitting.rules == rules and sitting.won)
            records.append(RulesRecord(rules, games, wins, _ratio(sum(totals), games, 1)))
        return records

    @property
    def ended_early(self) -> int:
        """How many of the finished games the table ended before their last deal: their totals
        are of fewer rounds, which the averages say."""
        return sum(1 for sitting in self.finished if sitting.ended_after is not None)

    @property
    def best_total(self) -> int | None:
        return min((sitting.total for sitting in self.finished), default=None)

    @property
    def rounds_out(self) -> int:
        return sum(sitting.rounds_out for sitting in self.sittings)

    @property
    def cut_bonuses(self) -> int:
        return sum(sitting.cut_bonuses for sitting in self.sittings)

    @property
    def average_penalty(self) -> float | None:
        count = sum(sitting.penalty_rounds for sitting in self.sittings)
        if not count:
            return None
        return _ratio(sum(sitting.penalty_sum for sitting in self.sittings), count, 1)

    def as_json(self) -> dict[str, Any]:
        """The API's player object: exactly the documented fields."""
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "average_total": self.average_total,
            "best_total": self.best_total,
            "rounds_out": self.rounds_out,
            "cut_bonuses": self.cut_bonuses,
            "average_penalty": self.average_penalty,
            "by_rules": [record.as_json() for record in self.by_rules],
            "ended_early": self.ended_early,
        }


def _ratio(numerator: int, denominator: int, places: int) -> float:
    """numerator ÷ denominator rounded half up (2.25 → 2.3), the way a person rounds."""
    exact = Decimal(numerator) / Decimal(denominator)
    return float(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def identities() -> dict[str, str]:
    """Each merged player's key -> the key of the player they are now, in one statement.

    Chains resolve to their end ("annie" into "ann", then "ann" into "anne": both are "anne").
    A merge is refused when it would make a cycle (`merges.merge`); should one be stored anyway
    (two tablets at once on a database without the merge lock), its players become the one
    with the least key, so the season is still read the same way every time."""
    links = db.session.execute(
        db.select(PlayerMerge.from_key, PlayerMerge.into_key).where(PlayerMerge.undone_at.is_(None))
    )
    return resolve(dict(links.all()))


def resolve(links: dict[str, str]) -> dict[str, str]:
    """Each key merged (`links`: merged key -> the key it joined) -> the key at its chain's end."""
    resolved = {}
    for start in links:
        path, key = [start], start
        while key in links:
            key = links[key]
            if key in path:
                key = min(path[path.index(key) :])
                break
            path.append(key)
        resolved[start] = key
    return resolved


def _sittings() -> dict[int, list[Sitting]]:
    """Every seat of every game with its round figures, by game, each under the key of the
    player it is (merges applied): three statements in all.

    Two seats of one game are two people: should a game seat two players the table merged
    (a game started after the merge), those seats keep their own keys in that game."""
    identity = identities()
    seats = db.session.execute(
        db.select(
            Player.game_id,
            Player.seat,
            Player.name,
            Player.name_key,
            Game.rules["name"].as_string(),
            Game.created_at,
            Game.finished_at,
            Game.ended_after,
        ).join(Game, Game.id == Player.game_id)
    )
    games: dict[int, list[Sitting]] = defaultdict(list)
    by_seat: dict[tuple[int, int], Sitting] = {}
    for game_id, seat, name, key, rules, created_at, finished_at, ended_after in seats:
        finished = finished_at is not None
        sitting = Sitting(
            game_id, seat, name, identity.get(key, key), rules, created_at, finished, ended_after
        )
        sitting.seat_key = key
        games[game_id].append(sitting)
        by_seat[game_id, seat] = sitting
    for seated in games.values():
        merged = Counter(sitting.key for sitting in seated)
        for sitting in seated:
            if merged[sitting.key] > 1:
                sitting.key = sitting.seat_key
    went_out = Round.out == RoundScore.seat
    not_out = Round.out.is_(None) | (Round.out != RoundScore.seat)
    figures = db.session.execute(
        db.select(
            Round.game_id,
            RoundScore.seat,
            func.sum(RoundScore.score),
            func.count(),
            func.sum(case((went_out, 1), else_=0)),
            func.sum(case((RoundScore.bonus != 0, 1), else_=0)),
            func.sum(case((not_out, RoundScore.penalty), else_=0)),
            func.sum(case((not_out, 1), else_=0)),
        )
        .join(Round, Round.id == RoundScore.round_id)
        .group_by(Round.game_id, RoundScore.seat)
    )
    for game_id, seat, total, rounds, out, bonuses, penalty_sum, penalty_rounds in figures:
        sitting = by_seat.get((game_id, seat))
        if sitting is None:
            continue  # a game created after the first statement read the seats
        sitting.total = int(total)
        sitting.rounds = int(rounds)
        sitting.rounds_out = int(out)
        sitting.cut_bonuses = int(bonuses)
        sitting.penalty_sum = int(penalty_sum)
        sitting.penalty_rounds = int(penalty_rounds)
    for seated in games.values():
        if seated[0].finished:
            lowest = min(sitting.total for sitting in seated)
            for sitting in seated:
                sitting.won = sitting.total == lowest
    return games


def _records(games: dict[int, list[Sitting]]) -> dict[str, list[Sitting]]:
    """Each player's sittings, oldest game first, keyed by the player's key."""
    players: dict[str, list[Sitting]] = defaultdict(list)
    for seated in games.values():
        for sitting in seated:
            players[sitting.key].append(sitting)
    for sittings in players.values():
        sittings.sort(key=lambda sitting: (sitting.created_at, sitting.game_id))
    return players


def season() -> list[PlayerRecord]:
    """Every player who sat in any game, sorted by their key."""
    players = _records(_sittings())
    return [
        PlayerRecord(key=key, name=shown_name(key, sittings), sittings=tuple(sittings))
        for key, sittings in sorted(players.items())
    ]


def shown_name(key: str, sittings: list[Sitting]) -> str:
    """The name a player is shown by: their own name as last written, the player they were
    merged into keeping theirs ("Annie" merged into "Ann" is "Ann"); their last seat's name
    when none of their own games is left."""
    own = [sitting.name for sitting in sittings if sitting.seat_key == key]
    return own[-1] if own else sittings[-1].name


def find_player(name: str) -> PlayerRecord | None:
    """One player (any spelling of the name that looks alike) with head to head against each
    opponent."""
    alike = player_key(name)
    if not alike:
        return None
    games = _sittings()
    players = _records(games)
    key = _key_named(players, name, alike)
    sittings = players.get(key)
    if not sittings:
        return None
    meetings: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for mine in sittings:
        if not mine.finished:
            continue
        for theirs in games[mine.game_id]:
            other = theirs.key
            if other == key:
                continue
            tally = meetings[other]
            tally[0] += 1
            tally[1] += mine.total < theirs.total
            tally[2] += theirs.total < mine.total
    opponents = tuple(
        Opponent(shown_name(other, players[other]), *tally)
        for other, tally in sorted(meetings.items(), key=lambda item: (-item[1][0], item[0]))
    )
    others = tuple(
        shown_name(other, seated) for other, seated in sorted(players.items()) if other != key
    )
    return PlayerRecord(key, shown_name(key, sittings), tuple(sittings), opponents, others)


def _key_named(players: dict[str, list[Sitting]], name: str, key: str) -> str:
    """The key of the player called `name`: `key`, the key of names that look like it, unless
    only a seat kept apart from a look-alike of its table (an upgraded "Аnn" beside "Ann", key
    "ann#1") is written exactly so; for a merged player ("Annie", any spelling), the key of
    the player they joined."""
    if any(sitting.name == name for sitting in players.get(key, ())):
        return key
    written = (
        other for other, sittings in players.items() if any(s.name == name for s in sittings)
    )
    merged = (
        other for other, sittings in players.items() if any(s.seat_key == key for s in sittings)
    )
    return next(written, None) or next(merged, key)
