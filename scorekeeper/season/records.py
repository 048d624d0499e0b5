"""The season's records: the figures a table argues about, each with who holds it and where.

Records are read from finished games only (ended early and archived ones too, as the players'
figures are), from the season as it is kept per process (`players.current`: the seats and the
finished games' round lines, read in a fixed number of statements whatever the number of
games), by `compute`, a pure function of that season and the filters. A record tied is held by
everyone on the figure, each with the game (and, where it happened in one, the round) it was set
in.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_babel.speaklater import LazyString

from ..games.ledger import signed
from . import players
from .players import NO_HANDS, Filters, Season, Sitting, within

# The holdings of one record a page or an answer lists; the rest are counted.
SHOWN = 10


@dataclass(frozen=True)
class Holding:
    """One holder of a record: the player, the game (and round) it was set in, and a note."""

    key: str
    name: str
    game_id: int
    round: int | None = None
    note: str | LazyString = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game_id,
            "round": self.round,
            "note": str(self.note) or None,
        }


# One holding as the records find it: the sitting it was set in, the round (None for a whole
# game's) and a note. A figure can be held tens of thousands of times over a long season (the
# costliest hand: every hand of the highest penalty), so a record keeps these in no order and
# makes `Holding`s only of what a page shows.
Held = tuple[Sitting, int | None, "str | LazyString"]


def _when(held: Held) -> tuple:
    """A holding's place among a record's: the order the games finished, then round and seat."""
    sitting, number, _note = held
    return (sitting.finished_at, sitting.game_id, number or 0, sitting.seat)


@dataclass(frozen=True)
class Record:
    """A record: what it is (`kind`, `title`), its figure and everyone holding it (`held`, in
    no order; `names` gives each holder's name). The holdings are listed in the order they were
    set; a figure thousands share (one exact cut in a game, over a long season) is shown by its
    first `SHOWN` holdings and how many more there are."""

    kind: str
    title: str | LazyString
    figure: int
    figure_text: str | LazyString
    held: tuple[Held, ...]
    names: Mapping[str, str] = field(repr=False, compare=False)

    def _holding(self, held: Held) -> Holding:
        sitting, number, note = held
        return Holding(sitting.key, self.names[sitting.key], sitting.game_id, number, note)

    @cached_property
    def shown(self) -> tuple[Holding, ...]:
        """The first `SHOWN` holdings, in the order they were set."""
        return tuple(map(self._holding, heapq.nsmallest(SHOWN, self.held, key=_when)))

    @property
    def more(self) -> int:
        """How many holdings are not shown."""
        return len(self.held) - len(self.shown)

    @cached_property
    def _firsts(self) -> dict[str, tuple[Held, int]]:
        """Each holder's first holding and how many they have, by the player's key: found once
        for the record, not at every showing of a player's page."""
        mine: dict[str, list[Held]] = defaultdict(list)
        for held in self.held:
            mine[held[0].key].append(held)
        return {key: (min(theirs, key=_when), len(theirs)) for key, theirs in mine.items()}

    def first_of(self, key: str) -> tuple[Holding, int] | None:
        """A player's (by key) first holding of this record and how many more they have."""
        found = self._firsts.get(key)
        if found is None:
            return None
        first, count = found
        return self._holding(first), count - 1

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "title": str(self.title),
            "figure": self.figure,
            "holders": [holding.as_json() for holding in self.shown],
            "holdings": len(self.held),
        }


def compute(
    data: Season, chosen: Filters | None = None, now: datetime | None = None
) -> list[Record]:
    """Every record there is a holder for, in a fixed order; with filters, only games finished
    in the date range count, and only players with enough of them hold a record."""
    chosen = chosen or Filters()
    games = {
        game_id: seated
        for game_id, seated in within(data.games, chosen.since(now)).items()
        if seated[0].finished
    }
    played = defaultdict(int)
    for seated in games.values():
        for sitting in seated:
            played[sitting.key] += 1
    eligible = {key for key, count in played.items() if count >= max(chosen.min_games, 1)}
    order = sorted(games, key=lambda game_id: (games[game_id][0].finished_at, game_id))
    finished = [sitting for game_id in order for sitting in games[game_id]]
    mine = [sitting for sitting in finished if sitting.key in eligible]

    def record(kind, title, figure, text, held) -> Record | None:
        return Record(kind, title, figure, text, tuple(held), data.names) if held else None

    records = [
        _best("lowest_total", _l("Lowest game total"), mine, lambda s: -s.total, record, _points),
        _margin(games, order, eligible, record),
        _streak(finished, eligible, record),
        _best("most_out", _l("Most rounds went out in one game"), mine, _out, record, _rounds),
        _best("most_cuts", _l("Most exact-cut bonuses in one game"), mine, _cuts, record, _bonuses),
        *_hands(data, games, eligible, record),
    ]
    return [found for found in records if found is not None]


def season_records(chosen: Filters | None = None, season: Season | None = None) -> list[Record]:
    """The records now (of `season`, the current one unless given), under the filters: what
    every page and the API show, worked out once per season and filter (`Season.view`)."""
    chosen = chosen or Filters()
    now = datetime.now(UTC)
    season = season or players.current()
    key = ("records", chosen, season.period(chosen.since(now)))
    return season.view(key, lambda: compute(season, chosen, now))


# Worked out with every season computed in the background: a player's page shows them.
players.PREPARED.append(lambda season: season_records(season=season))


def held_by(records: Iterable[Record], key: str) -> list[tuple[Record, Holding, int]]:
    """The records a player (by key) holds: each with the first time they set it and how many
    more times they did."""
    held = []
    for record in records:
        mine = record.first_of(key)
        if mine:
            held.append((record, *mine))
    return held


def _out(sitting: Sitting) -> int:
    return sitting.rounds_out


def _cuts(sitting: Sitting) -> int:
    return sitting.cut_bonuses


# A record's figure in words, said in the language of the page that shows it (records are
# worked out once per season and filter, for every language).
def _rounds(figure: int) -> LazyString:
    return LazyString(lambda: ngettext("%(num)s round", "%(num)s rounds", figure))


def _bonuses(figure: int) -> LazyString:
    return LazyString(lambda: ngettext("%(num)s bonus", "%(num)s bonuses", figure))


def _points(figure: int) -> LazyString:
    return LazyString(
        lambda: ngettext(
            "%(points)s point", "%(points)s points", abs(figure), points=signed(figure)
        )
    )


def _best(kind, title, sittings, score: Callable[[Sitting], int], record, said):
    """The sittings with the highest `score` (above 0 for a count; a total, `_points`, is
    lowest): one holding each, the figure in words by `said`; `record` makes the record."""
    if not sittings:
        return None
    top = max(score(sitting) for sitting in sittings)
    points = said is _points
    if not points and top <= 0:
        return None
    figure = -top if points else top
    return record(
        kind, title, figure, said(figure), [(s, None, "") for s in sittings if score(s) == top]
    )


def _margin(games, order, eligible, record) -> Record | None:
    """The sole winner furthest ahead of the next place at the end (a shared win is won by
    nothing)."""
    margins = []
    for game_id in order:
        seated = sorted(games[game_id], key=lambda sitting: sitting.total)
        if len(seated) > 1 and seated[0].total < seated[1].total and seated[0].key in eligible:
            margins.append((seated[1].total - seated[0].total, seated[0]))
    if not margins:
        return None
    top = max(margin for margin, _ in margins)
    return record(
        "biggest_margin",
        _l("Biggest win margin"),
        top,
        _points(top),
        [(sitting, None, "") for margin, sitting in margins if margin == top],
    )


def _streak(finished: list[Sitting], eligible, record) -> Record | None:
    """The longest run of a player's finished games won in a row, in the order the games
    finished (a shared win is a win); held where the run ended."""
    runs: list[tuple[int, Sitting, Sitting]] = []
    current: dict[str, list[Sitting]] = defaultdict(list)
    for sitting in [*finished, None]:
        if sitting is None:
            ended = [run for run in current.values() if run]
        elif sitting.key not in eligible:
            continue
        elif sitting.won:
            current[sitting.key].append(sitting)
            continue
        else:
            ended = [current.pop(sitting.key, [])]
        runs.extend((len(run), run[0], run[-1]) for run in ended if run)
    if not runs:
        return None
    top = max(length for length, _, _ in runs)
    return record(
        "longest_streak",
        _l("Longest winning streak"),
        top,
        LazyString(lambda: ngettext("%(num)s win in a row", "%(num)s wins in a row", top)),
        [
            (
                last,
                None,
                _l("games %(first)s to %(last)s", first=first.game_id, last=last.game_id)
                if top > 1
                else "",
            )
            for length, first, last in runs
            if length == top
        ],
    )


def _hands(season: Season, games, eligible, record) -> tuple[Record | None, Record | None]:
    """The best comeback (the winner furthest behind the leader after any round, at the first
    round they were that far behind) and the costliest hand (the highest card penalty of one
    hand), from each counted seat's hands in the games counted (`Season.hands`)."""
    comebacks: list[tuple[int, Sitting, int]] = []
    # The costliest hand so far, and each counted seat that paid it, with the rounds it did.
    costliest, dearest = 0, []
    hands = season.hands
    for game_id, seated in games.items():
        seats = hands.get(game_id, {})
        for sitting in seated:
            if sitting.key not in eligible:
                continue
            behind, number, penalty, rounds = seats.get(sitting.seat, NO_HANDS)
            if sitting.won:
                comebacks.append((behind, sitting, number))
            if penalty > costliest:
                costliest, dearest = penalty, []
            if penalty == costliest and penalty > 0:
                dearest.append((sitting, rounds))
    top = max((behind for behind, _, _ in comebacks), default=0)
    comeback = record(
        "best_comeback",
        _l("Best comeback"),
        top,
        LazyString(
            lambda: ngettext(
                "%(points)s point behind, then won",
                "%(points)s points behind, then won",
                abs(top),
                points=signed(top),
            )
        ),
        [(sitting, number, "") for behind, sitting, number in comebacks if behind == top > 0],
    )
    hand = record(
        "costliest_hand",
        _l("Costliest single hand"),
        costliest,
        _points(costliest),
        [(sitting, number, "") for sitting, rounds in dearest for number in rounds],
    )
    return comeback, hand
