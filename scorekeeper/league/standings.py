"""Reading a league: its table, each player's nights, and a night's summary (winners per table,
the best round), all from the score book's own totals, places and winners (R10, R12.3).

How a finished table scores for the league:

- `places`: each player's place at the table (the engine's `places`: the lowest total first,
  level totals sharing a place unless the game's rules part them by deals won) is worth the
  league's points for that place; a player sharing a place gets that place's points; a place
  past the league's list scores 0. A player's league score is the sum over their nights, the
  most first.
- `normalised`: each player's total less the mean of the table's totals, divided by the deals
  the table played: how many points a deal they finished under (negative) or over the table's
  average. A player's league score is the mean of it over their nights, the lowest first.

Only finished tables count; a table still being played shows as in play. Players level on the
league's score share a place, unless every finished table of the league was played under rules
that part ties by deals won (`tie_break: deals_won`): then the deals they went out in over the
league's nights part them, and still level they share.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from flask_babel import gettext as _

from ..games import ledger
from ..games.models import Game, localtime
from ..games.names import name_key
from ..nights.models import Night
from ..rules.ruleset import TieBreak
from ..rules.scoring import deals_won, places
from ..season.models import identities
from .models import PLACES, League, LeagueScoringChange

# How a league parts players level on its score.
SHARE = "share"
DEALS_WON = "deals_won"
MIXED = "mixed"


@dataclass(frozen=True)
class Seat:
    """A player's table on one night: its number, their total and place there (None while the
    table plays), what it scored for the league, and the deals they went out in."""

    night: Night
    table: int
    game_id: int
    name: str
    key: str
    total: int
    place: int | None
    won: bool
    score: Fraction | None
    deals_won: int
    players: int
    # Sat under the name the season knows them by now (not a name since merged into another).
    own_name: bool = True

    @property
    def finished(self) -> bool:
        return self.score is not None


@dataclass(frozen=True)
class Line:
    """A player's line in the league table."""

    place: int
    name: str
    key: str
    nights: int
    score: Fraction
    wins: int
    deals_won: int


@dataclass(frozen=True)
class Table:
    """The league table, the nights it counts, and how ties were decided."""

    league: League
    nights: list[Night]
    lines: list[Line]
    # Tables being played in the league's nights: they count once finished.
    in_play: int
    ties: str
    rules: list[str] = field(default_factory=list)


def seats(league: League, nights: Iterable[Night]) -> list[Seat]:
    """Every player's table on each of the league's nights, as their game stands now."""
    merged = identities()
    found: list[Seat] = []
    for night in nights:
        for table in night.tables:
            if table.game is not None:
                found.extend(_table_seats(league, night, table.number, table.game, merged))
    return found


def _table_seats(
    league: League, night: Night, number: int, game: Game, merged: dict[str, str]
) -> list[Seat]:
    book = ledger.book(game)
    finished = game.finished and bool(game.rounds)
    place = {standing.seat: standing.place for standing in book.standings}
    won = deals_won((played.out for played in game.rounds), len(book.names))
    return [
        Seat(
            night=night,
            table=number,
            game_id=game.id,
            name=name,
            key=merged.get(player.name_key, player.name_key),
            total=book.totals[seat],
            place=place[seat] if finished else None,
            won=finished and seat in book.winners,
            score=_score(league, book, seat, place[seat]) if finished else None,
            deals_won=won[seat],
            players=len(book.names),
            own_name=player.name_key == merged.get(player.name_key, player.name_key),
        )
        for seat, (name, player) in enumerate(zip(book.names, game.players, strict=True))
    ]


def _score(league: League, book: ledger.Book, seat: int, place: int) -> Fraction:
    """What a finished table is worth to a player under the league's scoring."""
    if league.scoring == PLACES:
        points = league.points
        return Fraction(points[place - 1] if place <= len(points) else 0)
    mean = Fraction(sum(book.totals), len(book.totals))
    return (book.totals[seat] - mean) / len(book.game.rounds)


def tie_rule(nights: Iterable[Night]) -> str:
    """`deals_won` when every finished table of the nights parts ties by deals won, `mixed`
    when some do and some share, else `share`."""
    rules = {
        table.game.rule_set.tie_break
        for night in nights
        for table in night.tables
        if table.game is not None and table.game.finished and table.game.rounds
    }
    if rules == {TieBreak.DEALS_WON}:
        return DEALS_WON
    return MIXED if TieBreak.DEALS_WON in rules else SHARE


def table(league: League, nights: Sequence[Night]) -> Table:
    """The league table: every player with a finished table, placed by the league's scoring."""
    everyone = seats(league, nights)
    by_key: dict[str, list[Seat]] = defaultdict(list)
    for seat in everyone:
        if seat.finished:
            by_key[seat.key].append(seat)
    ties = tie_rule(nights)
    rows = [_line(league, played) for played in by_key.values()]
    keys = [_order(league, row, ties) for row in rows]
    ranked = places(keys)  # type: ignore[arg-type]  # any ordered key: lowest first, level share
    lines = sorted(
        (
            Line(place, row.name, row.key, row.nights, row.score, row.wins, row.deals_won)
            for place, row in zip(ranked, rows, strict=True)
        ),
        key=lambda line: (line.place, line.name.casefold()),
    )
    in_play = sum(
        1
        for night in nights
        for table in night.tables
        if table.game is not None and not (table.game.finished and table.game.rounds)
    )
    names = list(dict.fromkeys(night.rules_name for night in nights))
    return Table(league, list(nights), lines, in_play, ties, names)


def _line(league: League, played: list[Seat]) -> Line:
    total = sum((seat.score for seat in played if seat.score is not None), Fraction(0))
    score = total if league.scoring == PLACES else total / len(played)
    return Line(
        place=0,
        name=next((seat.name for seat in reversed(played) if seat.own_name), played[-1].name),
        key=played[0].key,
        nights=len(played),
        score=score,
        wins=sum(seat.won for seat in played),
        deals_won=sum(seat.deals_won for seat in played),
    )


def _order(league: League, line: Line, ties: str) -> tuple[Fraction, int]:
    """A line's key, lowest first: the most points or the lowest normalised score, then (when
    every table parts ties by deals won) the most deals won."""
    score = -line.score if league.scoring == PLACES else line.score
    return score, -line.deals_won if ties == DEALS_WON else 0


def player_key(name: str) -> str:
    """The key a name's player has in the season (a merged name as the one it joined)."""
    key = name_key(name)
    return identities().get(key, key)


def player_nights(league: League, nights: Sequence[Night], name: str) -> list[Seat]:
    """One player's tables over the league's nights, oldest first (in play ones too)."""
    key = player_key(name)
    return [seat for seat in seats(league, nights) if seat.key == key]


# --- A night's summary ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableSummary:
    number: int
    game_id: int
    names: list[str]
    finished: bool
    # The winners of a finished table, the leaders of one in play.
    ahead: list[str]
    standings: list[ledger.Standing]
    rounds: int


@dataclass(frozen=True)
class BestRound:
    """The night's best round: the player out who left the others at their table holding the
    most penalty points together."""

    name: str
    table: int
    number: int
    others: int


@dataclass(frozen=True)
class NightSummary:
    night: Night
    tables: list[TableSummary]
    best: list[BestRound]


def night_summary(night: Night) -> NightSummary:
    """Each table's winners (leaders while in play) and the best round of the night: the round
    where the player who went out left the others at their table the most penalty points in
    all (their cards' penalties, bonuses aside); rounds ending with the stock run out are no
    one's. Level best rounds are all named, table by table."""
    tables: list[TableSummary] = []
    candidates: list[BestRound] = []
    for table in night.tables:
        game = table.game
        if game is None:
            continue
        book = ledger.book(game)
        finished = game.finished and bool(game.rounds)
        tables.append(
            TableSummary(
                number=table.number,
                game_id=game.id,
                names=book.names,
                finished=finished,
                ahead=book.winner_names if finished else book.leader_names,
                standings=book.standings,
                rounds=len(game.rounds),
            )
        )
        candidates.extend(_outs(table.number, game))
    most = max((best.others for best in candidates), default=0)
    best = [round_ for round_ in candidates if most and round_.others == most]
    return NightSummary(night, tables, best)


def _outs(number: int, game: Game) -> list[BestRound]:
    names = game.names
    return [
        BestRound(
            name=names[played.out],
            table=number,
            number=played.number,
            others=sum(line.penalty for line in played.scores if line.seat != played.out),
        )
        for played in game.rounds
        if played.out is not None
    ]


def tie_words(ties: str) -> str:
    """How the table parts players level on the league's score, in words."""
    if ties == DEALS_WON:
        return _(
            "Players level are parted by the deals they went out in over the league's nights, "
            "as their rules say (tie-break: deals won); still level, they share a place."
        )
    if ties == MIXED:
        return _(
            "The nights were played under rules that end ties differently: players level share "
            "a place."
        )
    return _("Players level share a place, as the rules say.")


def scoring_words(league: League) -> str:
    """The league's scoring, in one sentence."""
    if league.scoring == PLACES:
        return _(
            "Points per place at each finished table: %(points)s for 1st, 2nd, …; a shared "
            "place gets that place's points, a place past the list 0. Most points first.",
            points=", ".join(str(value) for value in league.points),
        )
    return _(
        "Normalised: at each finished table, the player's total less the table's mean total, "
        "per deal played; the mean over the player's nights, lowest first."
    )


def scoring_short(scoring: str, points: Sequence[int]) -> str:
    """A scoring in a few words, as a change of it is told: `points per place (4, 3, 2, 1)`."""
    if scoring == PLACES:
        return _("points per place (%(points)s)", points=", ".join(str(value) for value in points))
    return _("totals against the table's mean per deal")


def change_words(change: LeagueScoringChange) -> str:
    """`On 2026-12-05 20:15 the scoring changed from … to …`, on the serving machine's clock."""
    return _(
        "On %(when)s the scoring changed from %(before)s to %(after)s.",
        when=localtime(change.changed_at, "%Y-%m-%d %H:%M"),
        before=scoring_short(change.before_scoring, change.before_points),
        after=scoring_short(change.after_scoring, change.after_points),
    )


def shown(league: League, score: Fraction | None) -> str:
    """A score as the pages and the sheet show it: points whole, normalised to 2 decimals with
    its sign."""
    if score is None:
        return "—"
    if league.scoring == PLACES:
        return str(int(score)) if score.denominator == 1 else f"{float(score):.2f}"
    return f"{float(score):+.2f}"


def as_number(score: Fraction | None) -> float | int | None:
    """A score for JSON: points whole, normalised rounded to 2 decimals."""
    if score is None:
        return None
    if score.denominator == 1:
        return int(score)
    return round(float(score), 2)
