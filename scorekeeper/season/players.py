"""Players across games: who sat where, their figures over the season, head to head, and each
player's rivals read from it (`rivals`).

A player is the same person in every game of this score book when their names share the key
that keeps look-alikes apart at one table (`names.name_key`, stored with each seat): "Ann",
"ann", "Ánn" and "Аnn" (Cyrillic А) cannot sit at one table, so they are one player here too.
The key is the one every seat already stores, so nothing stored changes for it.

A player the table merged into another ("Annie" is "Ann", `models.PlayerMerge`) is that other
player here: `identities` says which key each merged key now is, and `_sittings` gives every
seat that key, so every figure, head to head and whatever is computed from `Sitting.key` counts
them as one without knowing merges exist. The games keep their seats and names as played.

Every figure (ratings and records too) is of finished games alone; a game in play is counted
apart (`in_play`). Rule sets (R11) are compared honestly: totals are averaged per game, and a
player's figures say under which rules their games were played (`by_rules`). Every figure is
read in four statements (the merges, the seats, their rounds, the finished games' round lines),
whatever the number of games, and kept per process until the season's stamp changes (`current`,
`platform.cache`): a page of the season then costs one statement to read the stamp.

A table looks at part of the season (`Filters`): a date range on when games finished, and the
fewest finished games a player needs to be listed or to hold a record. The same query parameters
serve the pages and the API (`?min_games=5&period=year`), read once (`parse_filters`), so both
refuse a bad value with the same words.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property
from itertools import groupby
from operator import itemgetter
from typing import Any

from flask import Flask, current_app, g, has_request_context
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from sqlalchemy import case, func
from werkzeug.exceptions import ServiceUnavailable

from ..games.models import Game, Player, Rename, Round, RoundScore
from ..games.names import name_key
from ..platform import cache, language
from ..platform.database import db
from ..rules.ruleset import TieBreak
from ..rules.scoring import winners
from . import ratings
from .models import PlayerMerge, identities
from .ratings import NEW_PLAYER, Rating

# One player's line of one recorded round of a finished game: (game id, round number, seat,
# score, penalty). Plain rows, not objects: a season of 20,000 games has over half a million.
Line = tuple[int, int, int, int, int]
# One seat's hands in one finished game: how far behind the leader it fell at most after a
# round and the first round it was that far behind (0, 0: never), and the highest card penalty
# of one of its hands with the rounds it cost that much (0, (): none). What the records ask of
# the round lines, a plain tuple per seat.
SeatHands = tuple[int, int, int, tuple[int, ...]]
NO_HANDS: SeatHands = (0, 0, 0, ())
# The filtered views of one season kept with it (other periods, other minimums), newest last.
VIEWS_KEPT = 32


# The date ranges, by their parameter value, with how a page names them.
PERIODS = {"all": _l("All time"), "year": _l("This year"), "12m": _l("Last 12 months")}
# More finished games than any table plays: a bigger figure is a typing slip, said as such.
MOST_GAMES = 100_000


class FilterError(ValueError):
    """Every problem with the filter's parameters, each named in one sentence."""

    def __init__(self, problems: list[str]):
        super().__init__(" ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Filters:
    """A date range (`period`, a key of PERIODS) and the fewest finished games (`min_games`)."""

    period: str = "all"
    min_games: int = 0

    @property
    def is_default(self) -> bool:
        return self == Filters()

    def since(self, now: datetime | None = None) -> datetime | None:
        """The earliest `finished_at` (naive UTC, as stored) the period takes; None for all time.
        "This year" starts on 1 January at midnight on the clock of the machine serving the
        table (the clock the pages show times in); "last 12 months" is the same moment a year
        ago (29 February a year on is 28 February)."""
        moment = (now or datetime.now(UTC)).astimezone(UTC)
        if self.period == "year":
            local = moment.astimezone()
            start = local.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
            return start.astimezone(UTC).replace(tzinfo=None)
        if self.period == "12m":
            day = moment.day
            if moment.month == 2 and day == 29:
                day = 28
            return moment.replace(year=moment.year - 1, day=day, tzinfo=None)
        return None

    def params(self) -> dict[str, str]:
        """The query parameters that say these filters (none for the defaults)."""
        chosen = {}
        if self.period != "all":
            chosen["period"] = self.period
        if self.min_games:
            chosen["min_games"] = str(self.min_games)
        return chosen


def parse_filters(args: Mapping[str, str]) -> Filters:
    """The filters a request's query asks for; FilterError naming every bad value. An empty
    value is the default (a form sends `min_games=` when the box is left empty)."""
    problems = []
    period = (args.get("period") or "all").strip()
    if period not in PERIODS:
        problems.append(
            gettext(
                "period must be one of %(periods)s (all time, this year, the last 12 months), "
                "not %(given)s.",
                periods=", ".join(PERIODS),
                given=repr(period),
            )
        )
    text = (args.get("min_games") or "0").strip()
    min_games = 0
    if not text.isascii() or not text.isdigit():
        problems.append(
            gettext(
                "min_games must be a whole number of games, 0 or more, not %(given)s.",
                given=repr(text),
            )
        )
    elif int(text) > MOST_GAMES:
        problems.append(
            gettext(
                "min_games must be at most %(most)s, not %(given)s.",
                most=language.number(MOST_GAMES),
                given=text,
            )
        )
    else:
        min_games = int(text)
    if problems:
        raise FilterError(problems)
    return Filters(period, min_games)


def in_period(finished: Iterable, since: datetime | None) -> list:
    """The sittings (or anything with `finished_at`) of games finished at or after `since`."""
    return [
        item
        for item in finished
        if item.finished_at is not None and (since is None or item.finished_at >= since)
    ]


def player_key(name: str) -> str:
    """The one key a player is known by across games: `names.name_key` of the name as stored."""
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
    # When the game finished (UTC): the order of a season's results, and what a date range reads.
    finished_at: datetime | None = None
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
    """A player's season: every game they sat in, oldest first, and their figures (each worked
    out once: the records are kept with the season)."""

    key: str
    name: str
    sittings: tuple[Sitting, ...] = field(repr=False)
    opponents: tuple[Opponent, ...] = field(default=(), repr=False)
    # None until the season is rated with the player as they are (`after_merge`).
    rating: Rating | None = NEW_PLAYER
    # Every other player's shown name (`find_player`), for the page's merge control.
    others: tuple[str, ...] = field(default=(), repr=False)

    @cached_property
    def merged_sittings(self) -> tuple[Sitting, ...]:
        """The sittings of the players merged into this one (seats under another key), oldest
        first: looked for once a season, not at every showing of the player's page."""
        return tuple(sitting for sitting in self.sittings if sitting.seat_key != self.key)

    @property
    def also_played_as(self) -> list[str]:
        """The names of the players merged into this one, each as last written, oldest first."""
        names = {s.seat_key: s.name for s in self.merged_sittings}
        return list(names.values())

    @cached_property
    def finished(self) -> list[Sitting]:
        return [sitting for sitting in self.sittings if sitting.finished]

    @cached_property
    def games(self) -> int:
        return len(self.finished)

    @cached_property
    def wins(self) -> int:
        return sum(1 for sitting in self.finished if sitting.won)

    @cached_property
    def win_rate(self) -> float:
        return _ratio(self.wins, self.games, 3) if self.games else 0.0

    @cached_property
    def average_total(self) -> float | None:
        totals = [sitting.total for sitting in self.finished]
        return _ratio(sum(totals), len(totals), 1) if totals else None

    @cached_property
    def totals_by_rules(self) -> dict[str, tuple[int, ...]]:
        """The final totals of the finished games under each rule set, oldest first."""
        totals: dict[str, list[int]] = defaultdict(list)
        for sitting in self.finished:
            totals[sitting.rules].append(sitting.total)
        return {rules: tuple(values) for rules, values in totals.items()}

    @cached_property
    def by_rules(self) -> list[RulesRecord]:
        """The finished games by the rule set they were played under, most played first: a
        ten-deal game's total is not a seven-deal one's, so each rule set is averaged apart."""
        wins = Counter(sitting.rules for sitting in self.finished if sitting.won)
        played = sorted(self.totals_by_rules.items(), key=lambda item: (-len(item[1]), item[0]))
        return [
            RulesRecord(rules, len(totals), wins[rules], _ratio(sum(totals), len(totals), 1))
            for rules, totals in played
        ]

    @cached_property
    def ended_early(self) -> int:
        """How many of the finished games the table ended before their last deal: their totals
        are of fewer rounds, which the averages say."""
        return sum(1 for sitting in self.finished if sitting.ended_after is not None)

    @cached_property
    def best_total(self) -> int | None:
        return min((sitting.total for sitting in self.finished), default=None)

    in_play = property(lambda self: len(self.sittings) - self.games)  # games not finished

    @cached_property
    def rounds_out(self) -> int:
        return sum(sitting.rounds_out for sitting in self.finished)

    @cached_property
    def cut_bonuses(self) -> int:
        return sum(sitting.cut_bonuses for sitting in self.finished)

    @cached_property
    def average_penalty(self) -> float | None:
        count = sum(sitting.penalty_rounds for sitting in self.finished)
        penalties = sum(sitting.penalty_sum for sitting in self.finished)
        return _ratio(penalties, count, 1) if count else None

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
            "in_play": self.in_play,
            "rating": self.rating.rating if self.rating else None,
            "rating_sigma": self.rating.rating_sigma if self.rating else None,
            "provisional": (
                self.rating.provisional if self.rating else ratings.is_provisional(self.games)
            ),
        }


def _ratio(numerator: int, denominator: int, places: int) -> float:
    """numerator ÷ denominator rounded half up (2.25 → 2.3), the way a person rounds."""
    exact = Decimal(numerator) / Decimal(denominator)
    return float(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


# What a sitting is read from: a seat and its game.
SEATS = (
    Player.game_id,
    Player.seat,
    Player.name,
    Player.name_key,
    Game.rules["name"].as_string(),
    Game.created_at,
    Game.finished_at,
    Game.ended_after,
)


def players_of(seat_keys: list[str], identity: Mapping[str, str]) -> list[str]:
    """The player each seat of one game is, from the seats' stored keys: the player its key was
    merged into (`identity`), else its own key. Two seats of one game are two people: seats that
    would be one player (a game started after a merge seated both) keep their own keys."""
    ends = [identity.get(key, key) for key in seat_keys]
    counted = Counter(ends)
    return [end if counted[end] == 1 else key for key, end in zip(seat_keys, ends, strict=True)]


def _seated(
    rows: Iterable, identity: Mapping[str, str], tie_breaks: dict[int, TieBreak] | None = None
) -> dict[int, list[Sitting]]:
    """The sittings of `rows` (`SEATS`, and a tie-break into `tie_breaks` when given), by game,
    each under the key of the player it is (`players_of`), without their rounds' figures."""
    games: dict[int, list[Sitting]] = defaultdict(list)
    for game_id, seat, name, key, rules, created_at, finished_at, ended_after, *tie in rows:
        if tie_breaks is not None:
            tie_breaks[game_id] = TieBreak(tie[0] or TieBreak.SHARE)
        sitting = Sitting(
            game_id, seat, name, key, rules, created_at, finished_at is not None, ended_after
        )
        sitting.finished_at = finished_at
        games[game_id].append(sitting)
    for seated in games.values():
        keys = players_of([sitting.seat_key for sitting in seated], identity)
        for sitting, key in zip(seated, keys, strict=True):
            sitting.key = key
    return games


def named(names: Iterable[str], identity: Mapping[str, str]) -> dict[str, list[Sitting]]:
    """Every player `_key_named` may find for one of `names`, each with every sitting (by key,
    oldest game first, as `_records(_sittings())` has them) but without their rounds' figures:
    read from these players' own seats (two statements, by the seats' name indexes), not from
    the whole season. What a merge is judged on (`merges.propose`).

    The players it may find: those with a seat written exactly so, or keyed as the name looks,
    and the players these were merged into. With each, whoever their seats share a game with
    and would be one player with (`players_of`), so the seats kept apart are kept apart here."""
    names = list(names)
    alike = {player_key(name) for name in names} - {""}
    keyed = db.session.scalars(
        db.select(Player.name_key)
        .where(Player.name.in_(names) | Player.name_key.in_(alike))
        .distinct()
    )
    ends = {identity.get(key, key) for key in (*keyed, *alike)}
    keys = ends | {key for key, end in identity.items() if end in ends}
    seats = db.session.execute(
        db.select(*SEATS)
        .join(Game, Game.id == Player.game_id)
        .where(Player.name_key.in_(keys))
        .order_by(Player.game_id, Player.seat)
    )
    return _records(_seated(seats, identity))


def _sittings(identity: Mapping[str, str] | None = None) -> dict[int, list[Sitting]]:
    """Every seat of every game with its round figures, by game, each under the key of the
    player it is (`players_of`; `identity`, as `identities` reads it unless given): three
    statements in all."""
    identity = identities() if identity is None else identity
    seats = db.session.execute(
        db.select(*SEATS, Game.rules["tie_break"].as_string()).join(Game, Game.id == Player.game_id)
    )
    tie_breaks: dict[int, TieBreak] = {}
    games = _seated(seats, identity, tie_breaks)
    by_seat = {(s.game_id, s.seat): s for seated in games.values() for s in seated}
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
    for game_id, seated in games.items():
        if seated[0].finished:
            _mark_winners(seated, tie_breaks[game_id])
    return games


def _mark_winners(seated: list[Sitting], tie_break: TieBreak) -> None:
    """Mark a finished game's winners as its book names them (R10, R12.3's tie-break)."""
    decided = winners(
        [sitting.total for sitting in seated], [sitting.rounds_out for sitting in seated], tie_break
    )
    for index in decided.seats:
        seated[index].won = True


def _records(games: dict[int, list[Sitting]]) -> dict[str, list[Sitting]]:
    """Each player's sittings, oldest game first, keyed by the player's key."""
    players: dict[str, list[Sitting]] = defaultdict(list)
    for seated in games.values():
        for sitting in seated:
            players[sitting.key].append(sitting)
    for sittings in players.values():
        sittings.sort(key=lambda sitting: (sitting.created_at, sitting.game_id))
    return players


def _results(games: Mapping[int, list[Sitting]]) -> list[ratings.Result]:
    """Every finished game as the ratings see it: its players by the season's key (the one
    `_records` groups by) and their final totals."""
    results = []
    for game_id, seated in games.items():
        if seated[0].finished:
            # In seat order, whatever order the database gave the seats in: the same game
            # is always rated the same way, to the last bit.
            seated = sorted(seated, key=lambda sitting: sitting.seat)
            keys = tuple(sitting.key for sitting in seated)
            totals = tuple(sitting.total for sitting in seated)
            lowest = min(totals)
            passed_over = tuple(
                seat
                for seat, sitting in enumerate(seated)
                if sitting.total == lowest and not sitting.won
            )
            results.append(
                ratings.Result(seated[0].finished_at, game_id, keys, totals, passed_over)
            )
    return results


# The parts of the computed season beyond the seats and the players' figures, each computed once
# per stamp, in this order, from the season (and the season computed before it, to carry on
# from where that is still right). A new part of the season (records, say) is added here.
PARTS: dict[str, Callable[[Season, Season | None], Any]] = {
    "ratings": lambda season, previous: ratings.rate(
        _results(season.games), previous.parts["ratings"] if previous else None
    ),
}


@dataclass(frozen=True)
class Season:
    """The season as computed at one stamp: every game's sittings, every player's (by key,
    oldest game first), who is who (`identity`), their records sorted by key, and the `PARTS`;
    `views` keeps what is worked out from it under filters (`view`), and the finished games'
    hands once something asks for them (`hands`)."""

    games: Mapping[int, list[Sitting]]
    players: Mapping[str, list[Sitting]]
    # Each merged player's key -> the key of the player they are now (`identities`).
    identity: Mapping[str, str] = field(default_factory=dict)
    parts: dict[str, Any] = field(default_factory=dict)
    records: tuple[PlayerRecord, ...] = ()
    views: dict[Any, Any] = field(default_factory=dict, repr=False)

    @property
    def ratings(self) -> ratings.Ratings:
        return self.parts["ratings"]

    @cached_property
    def hands(self) -> dict[int, dict[int, SeatHands]]:
        """Each finished game's seats' hands, by game id and seat (`SeatHands`), from one pass
        over every round line (one statement; over half a million lines at 20,000 games, not
        kept): worked out when the records first ask, which for a season computed in the
        background is before any page asks (`PREPARED`)."""
        return _seat_hands(_lines(), self.games)

    @cached_property
    def names(self) -> dict[str, str]:
        """The name each player is shown by (`shown_name`), by the player's key."""
        return {key: shown_name(key, sittings) for key, sittings in self.players.items()}

    @cached_property
    def finished_times(self) -> tuple[datetime, ...]:
        """When each finished game finished, in order."""
        return tuple(
            sorted(
                seated[0].finished_at
                for seated in self.games.values()
                if seated and seated[0].finished_at is not None
            )
        )

    def period(self, since: datetime | None) -> int | None:
        """What a view of the games finished at or after `since` is kept under (`view`): how
        many finished games came before, which moves only as a game leaves the period, where
        `since` itself moves at every request ("last 12 months"); None for every game."""
        return None if since is None else bisect_left(self.finished_times, since)

    def view(self, key: Any, work: Callable[[], Any]) -> Any:
        """What `work` makes of this season under `key` (a filter's), made once while the
        season is current; at most `VIEWS_KEPT` of them, the oldest dropped first."""
        if key not in self.views:
            self.views[key] = work()
            while len(self.views) > VIEWS_KEPT:
                self.views.pop(next(iter(self.views)))
        return self.views[key]


def _seat_hands(lines: Iterable[Line], games: Mapping[int, list[Sitting]]):
    """Each finished game's seats' hands (`Season.hands`) from its round lines, which come in
    game, round and seat order; the leader after a round is the lowest running total."""
    found: dict[int, dict[int, SeatHands]] = {}
    for game_id, rows in groupby(lines, key=itemgetter(0)):
        seated = games.get(game_id)
        if seated is None:
            continue
        running = {sitting.seat: 0 for sitting in seated}
        deepest = dict.fromkeys(running, (0, 0))
        dearest: dict[int, tuple[int, tuple[int, ...]]] = dict.fromkeys(running, (0, ()))
        for number, round_lines in groupby(rows, key=itemgetter(1)):
            for _, _, seat, score, penalty in round_lines:
                running[seat] += score
                top, rounds = dearest[seat]
                if penalty > 0 and penalty >= top:
                    dearest[seat] = (penalty, (rounds if penalty == top else ()) + (number,))
            leader = min(running.values(), default=0)
            for seat, total in running.items():
                if total - leader > deepest[seat][0]:
                    deepest[seat] = (total - leader, number)
        found[game_id] = {seat: (*deepest[seat], *dearest[seat]) for seat in running}
    return found


def _lines() -> tuple[Line, ...]:
    """Every round line of the finished games: the records' source (one statement)."""
    rows = db.session.execute(
        db.select(
            Round.game_id, Round.number, RoundScore.seat, RoundScore.score, RoundScore.penalty
        )
        .join(Round, Round.id == RoundScore.round_id)
        .join(Game, Game.id == Round.game_id)
        .where(Game.finished_at.is_not(None))
        .order_by(Round.game_id, Round.number, RoundScore.seat)
    )
    return tuple(tuple(row) for row in rows)


# What pages ask of every season beyond its players, each worked out with a season computed in
# the background (`_worked_out`), so that no page waits for it: the records of all time, which
# read every round line (`Season.hands`, seconds at 20,000 games) and which a player's page shows.
# Registered by the modules that make them.
PREPARED: list[Callable[[Season], object]] = []


def _worked_out(previous: Season | None) -> Season:
    """The season, and what every page asks of it (`PREPARED`): for a computation no request
    waits for (in the background, or as a server starts)."""
    computed = _compute(previous)
    for prepare in PREPARED:
        prepare(computed)
    return computed


def _compute(previous: Season | None) -> Season:
    identity = identities()
    games = _sittings(identity)
    computed = Season(games, _records(games), identity)
    for name, part in PARTS.items():
        computed.parts[name] = part(computed, previous)
    rated = computed.ratings
    records = tuple(
        PlayerRecord(key, shown_name(key, sittings), tuple(sittings), rating=rated.of(key))
        for key, sittings in sorted(computed.players.items())
    )
    return replace(computed, records=records)


# Seconds a page not ready yet (`SeasonPending`) asks to be opened again after.
RETRY_SECONDS = 1


class SeasonPending(ServiceUnavailable):
    """No season was worked out in this process yet (a server just started on thousands of
    games) and it takes longer than `SEASON_WAIT_SECONDS`: 503 with `Retry-After`, whose page
    opens itself again (`errors/503.html`) and whose API answer says to ask again."""

    def __init__(self) -> None:
        super().__init__(
            gettext(
                "the season's figures are being worked out (the score book has just started):"
                " they show in a few seconds"
            ),
            retry_after=RETRY_SECONDS,
        )


def current() -> Season:
    """The season now: the one kept in this process while the season's stamp is unchanged
    (one statement), else computed afresh (three more). A page showing several parts of the
    season asks once and hands the season on, so they all show the same one.

    Computing it afresh takes seconds at 20,000 games, so it is done in a thread of its own:
    past `SEASON_WAIT_SECONDS` a request gets the season as it was kept before
    (`g.season_behind`, which the page says), or `SeasonPending` where no season was kept yet,
    and the new one is finished in the background."""
    wait = current_app.config["SEASON_WAIT_SECONDS"]
    return _season(wait)


def kept_now() -> Season | None:
    """The season as kept, at once: for a write, which must not wait while it holds its lock.
    None while the first season is still being worked out (a server just started)."""
    wait = current_app.config["SEASON_WAIT_SECONDS"]
    try:
        return _season(None if wait is None else 0)
    except SeasonPending:
        if has_request_context():
            g.season_behind = True  # the answer is not up to date (`up_to_date`)
        return None


def _season(wait: float | None) -> Season:
    kept, stamp = cache.kept(STAMP), cache.read(STAMP)
    if wait is None or stamp is None:
        return kept.get(STAMP, stamp, _compute)
    try:
        computed, fresh = kept.get_or_older(STAMP, stamp, _worked_out, wait)
    except cache.Pending:
        cache.provisional()  # what this request makes without the season is never kept
        raise SeasonPending() from None
    if not fresh and has_request_context():
        g.season_behind = True
    return computed


def warm(app: Flask) -> None:
    """Work out the season for a server just started (`serve`), in the calling thread, and keep
    it out of the garbage collector's way (`cache.collector_paused`, then `cache.settle`): at
    20,000 games it takes seconds, which the first page to show a figure would otherwise wait
    for. A page asked for meanwhile waits `SEASON_WAIT_SECONDS` for this computation, never one
    of its own, then says the season is not ready yet (`SeasonPending`). A failure is logged;
    the first page then tries again."""
    with app.app_context(), cache.collector_paused():
        try:
            cache.kept(STAMP).get(STAMP, cache.read(STAMP), _worked_out)
        except Exception:
            app.logger.exception("the season could not be worked out at start")
            return
    cache.settle()


def up_to_date() -> bool:
    """False when this request was given the season as it was before the latest change
    (`current`, past `SEASON_WAIT_SECONDS`): what a page says, and the API's `up_to_date`."""
    return not g.get("season_behind", False)


# The season's stamp, and the rows it reads: a commit that writes any of them moves the stamp.
STAMP = "season"
SEASON_ROWS = (Game, Player, Round, RoundScore, Rename, PlayerMerge)


def stamped(row: object) -> tuple[str, ...]:
    """The season's stamp for a row the season reads (a game created, finished, ended early,
    renamed, archived, deleted or imported; a round recorded, corrected or undone; a merge)."""
    return (STAMP,) if isinstance(row, SEASON_ROWS) else ()


def season(chosen: Filters | None = None) -> list[PlayerRecord]:
    """Every player who sat in any game, sorted by their key; with filters, only the games
    finished in their date range count, and only players with enough of them are listed (each
    with the rating of every game: a rating is the whole season's)."""
    computed = current()
    chosen = chosen or Filters()
    if chosen.is_default:
        return list(computed.records)
    since = chosen.since()

    def filtered() -> list[PlayerRecord]:
        if since is None:  # every game: the season's own records, each figure worked out once
            return [record for record in computed.records if record.games >= chosen.min_games]
        rated = computed.ratings
        listed = []
        for key, sittings in sorted(computed.players.items()):
            mine = in_period(sittings, since)  # still oldest first, as the season keeps them
            if mine:
                name = shown_name(key, mine)
                listed.append(PlayerRecord(key, name, tuple(mine), rating=rated.of(key)))
        return [record for record in listed if record.games >= chosen.min_games]

    return computed.view(("players", chosen, computed.period(since)), filtered)


def within(games: dict[int, list[Sitting]], since: datetime | None) -> dict[int, list[Sitting]]:
    """The games finished at or after `since` (every game, finished or not, when None)."""
    if since is None:
        return games
    return {game_id: seated for game_id, seated in games.items() if in_period(seated[:1], since)}


def shown_name(key: str, sittings: list[Sitting]) -> str:
    """The name a player is shown by: their own name as last written, the player they were
    merged into keeping theirs ("Annie" merged into "Ann" is "Ann"); their last seat's name
    when none of their own games is left."""
    own = (sitting.name for sitting in reversed(sittings) if sitting.seat_key == key)
    return next(own, sittings[-1].name)


def find_player(name: str, computed: Season | None = None) -> PlayerRecord | None:
    """One player (any spelling of the name that looks alike) with head to head against each
    opponent, in the season `computed` (the current one unless given)."""
    alike = player_key(name)
    if not alike:
        return None
    computed = computed or current()
    key = _key_named(computed.players, name, alike)
    if not computed.players.get(key):
        return None
    # Worked out once a season: a page asked for again reads it as it is.
    return computed.view(("player", key), lambda: _player_record(computed, key))


def after_merge(computed: Season, identity: Mapping[str, str], key: str) -> PlayerRecord | None:
    """The player `key` in the season `computed` with the players as `identity` says now (a
    merge made since the season was computed): the sittings `players_of` gives them, each with
    its figures as computed, from the games of the players who may now be them (no statement).
    Not rated (`rating` None): a merge changes every rating from the merged player's first game
    on, which the season computed next works out."""
    # A seat is this player now only if its own key is one of theirs; the season as computed
    # has it under that key or under the player that key was then.
    theirs = {key} | {merged for merged, end in identity.items() if end == key}
    then = theirs | {computed.identity.get(merged, merged) for merged in theirs}
    games = sorted({s.game_id for then_key in then for s in computed.players.get(then_key, ())})
    sittings = []
    for game_id in games:
        seated = computed.games[game_id]
        players = players_of([sitting.seat_key for sitting in seated], identity)
        sittings += [
            replace(s, key=key) for s, now in zip(seated, players, strict=True) if now == key
        ]
    if not sittings:
        return None
    sittings.sort(key=lambda sitting: (sitting.created_at, sitting.game_id))
    return PlayerRecord(key, shown_name(key, sittings), tuple(sittings), rating=None)


def _player_record(computed: Season, key: str) -> PlayerRecord:
    """`find_player`'s record of the player `key` (who has played) in the season `computed`."""
    games, players = computed.games, computed.players
    sittings = players[key]
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
    rating = computed.ratings.of(key)
    return PlayerRecord(key, shown_name(key, sittings), tuple(sittings), opponents, rating, others)


def win_chances(seats) -> list[tuple[str, int]]:
    """Each seat's name and chance of winning in whole percent (summing to 100), from the
    ratings now (none while the first season is being worked out); `seats` are the game's
    players in seat order (their stored keys), each the player they are now (`players_of` with
    `Season.identity`, as the season counts them).

    The game page is kept per game stamp (`games.ledger.game_stamp`), which another game finishing
    does not change: the chances shown are those of the page's first opening, until the game
    itself changes (and at round 1 they go)."""
    seated = list(seats)
    try:
        computed = current()
    except SeasonPending:
        return []  # a page without them is not kept (`cache.provisional`)
    keys = players_of([seat.name_key for seat in seated], computed.identity)
    chances = computed.ratings.win_chances(keys)
    return [(seat.name, chance) for seat, chance in zip(seated, chances, strict=True)]


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
    if level:
        return ngettext(
            "%(lower)s–%(their)s in %(num)s games, %(level)s level",
            "%(lower)s–%(their)s in %(num)s games, %(level)s level",
            opponent.games,
            lower=opponent.lower,
            their=opponent.their_lower,
            level=level,
        )
    return ngettext(
        "%(lower)s–%(their)s in %(num)s games",
        "%(lower)s–%(their)s in %(num)s games",
        opponent.games,
        lower=opponent.lower,
        their=opponent.their_lower,
    )
