"""A league's writes: set one up with its scoring, change its scoring, and add or remove the
nights that count.

The pages and the JSON API both call these functions. A write is flushed here, never committed:
the route that asked for it commits it with its answer (`writeonce.write_once`). A night counts
once for a league (a unique key on `league_nights (league_id, night_id)`, and the league's row
locked by every write to it), and may count for several leagues.

A change of scoring is one update of the league's row (locked) and one change kept beside it; the
league table is worked out from the nights whenever it is read, so it follows at once. A change
to the scoring the league already has is refused (409 `unchanged`): a double tap lands once even
without its write-once token.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ..games.errors import Missing, Refused
from ..games.models import Game, Round
from ..games.names import clean_name, name_key, written_problem
from ..nights.models import Night, NightTable
from ..nights.service import NoSuchNight, get_night
from ..platform import database
from ..platform.database import db
from .models import (
    DEFAULT_POINTS,
    NAME_MAX,
    PLACES,
    SCORINGS,
    League,
    LeagueNight,
    LeagueScoringChange,
)

# At most this many places a league gives points to (R11 seats 8 at most).
MOST_PLACES = 8
# The most points a place may be worth.
MOST_POINTS = 1000


class LeagueRefused(Refused):
    """A request a league cannot take: `code` says which check refused it, `fields` names every
    problem by where the request gives it (`name`, `points[2]`)."""


class NoSuchLeague(Missing):
    def __init__(self, league_id: int):
        super().__init__(_("league %(league)s does not exist", league=league_id))
        self.league_id = league_id


def refused(problems: Mapping[str, str]) -> LeagueRefused:
    """Every problem of a request in one refusal (400 `invalid`)."""
    return LeagueRefused.every(problems, "invalid")


# --- Reading ---------------------------------------------------------------------------------


def get_league(league_id: int, *, for_update: bool = False) -> League:
    """The league, or `NoSuchLeague`; its row locked for a write (`for_update`)."""
    return database.row_by_id(League, league_id, NoSuchLeague, for_update)


def leagues() -> list[League]:
    """Every league, the newest first."""
    return list(db.session.scalars(db.select(League).order_by(League.id.desc())))


def league_nights(league: League) -> list[Night]:
    """The league's nights, oldest first, each with its tables, games, rounds and scores loaded
    in a fixed number of queries."""
    game = selectinload(Night.tables).selectinload(NightTable.game)
    query = (
        db.select(Night)
        .join(LeagueNight, LeagueNight.night_id == Night.id)
        .where(LeagueNight.league_id == league.id)
        .order_by(Night.held_on, Night.id)
        .options(
            game.selectinload(Game.players),
            game.selectinload(Game.rounds).selectinload(Round.scores),
            game.selectinload(Game.renames),
            game.selectinload(Game.history),
        )
    )
    return list(db.session.scalars(query))


def leagues_of(night: Night) -> list[League]:
    """The leagues a night counts for, the oldest first."""
    return list(
        db.session.scalars(
            db.select(League)
            .join(LeagueNight)
            .where(LeagueNight.night_id == night.id)
            .order_by(League.id)
        )
    )


def free_nights(league: League, limit: int = 100) -> list[Night]:
    """The nights that do not count for the league yet, the newest first: what an organiser
    may add."""
    taken = db.select(LeagueNight.night_id).where(LeagueNight.league_id == league.id)
    return list(
        db.session.scalars(
            db.select(Night)
            .where(Night.id.not_in(taken))
            .order_by(Night.held_on.desc(), Night.id.desc())
            .limit(limit)
        )
    )


# --- Setting a league up -------------------------------------------------------------------


def check_league(name: Any, scoring: Any, points: Any) -> tuple[str, str, list[int]]:
    """The name cleaned, the scoring and its points, or `LeagueRefused` naming every problem
    (`name`, `scoring`, `points` or `points[<index>]`)."""
    problems: dict[str, str] = {}
    cleaned = _checked_name(name, problems)
    table = checked_scoring(scoring, points, problems)
    if problems:
        raise refused(problems)
    return cleaned, scoring, table


def checked_scoring(scoring: Any, points: Any, problems: dict[str, str]) -> list[int]:
    """The points of a scoring (`places`: 4, 3, 2, 1 when none are given; `normalised`: none),
    every problem added to `problems` (`scoring`, `points`, `points[<index>]`)."""
    if scoring not in SCORINGS:
        problems["scoring"] = _("'scoring' must be 'places' or 'normalised'")
    return _checked_points(scoring, points, problems)


def _checked_name(name: Any, problems: dict[str, str]) -> str:
    if not isinstance(name, str) or not clean_name(name):
        problems["name"] = _("a league needs a name")
        return ""
    cleaned = clean_name(name)
    if (problem := written_problem(cleaned, NAME_MAX)) is not None:
        problems["name"] = problem
    elif (taken := _named(cleaned)) is not None:
        problems["name"] = _("there is already a league called %(name)s", name=taken.name)
    return cleaned


def _named(name: str) -> League | None:
    return db.session.scalar(db.select(League).where(League.name_key == name_key(name)))


def _checked_points(scoring: Any, points: Any, problems: dict[str, str]) -> list[int]:
    """The points of each place for `places` (4, 3, 2, 1 when none are given); none for
    `normalised`."""
    if scoring != PLACES:
        if points is not None and scoring in SCORINGS:
            problems["points"] = _("only a league scored by places gives points")
        return []
    if points is None:
        return list(DEFAULT_POINTS)
    if not isinstance(points, list) or not 1 <= len(points) <= MOST_PLACES:
        problems["points"] = _(
            "'points' must list the points of 1st, 2nd, … (at most %(most)s places)",
            most=MOST_PLACES,
        )
        return []
    for index, value in enumerate(points):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MOST_POINTS:
            problems[f"points[{index}]"] = _(
                "a place's points are a whole number from 0 to %(most)s", most=MOST_POINTS
            )
        elif index and isinstance(points[index - 1], int) and value > points[index - 1]:
            problems[f"points[{index}]"] = _("a place is never worth more than the one above it")
    return list(points)


def create_league(name: Any, scoring: Any, points: Any = None) -> League:
    """A new league, or `LeagueRefused` naming every problem of the request."""
    cleaned, scoring, table = check_league(name, scoring, points)
    league = League(name=cleaned, name_key=name_key(cleaned), scoring=scoring, points=table)
    db.session.add(league)
    try:
        with db.session.begin_nested():
            db.session.flush()
    except IntegrityError:
        # Another organiser set up a league of this name at the same moment.
        problem = _("there is already a league called %(name)s", name=cleaned)
        raise refused({"name": problem}) from None
    return league


def change_scoring(league: League, scoring: Any, points: Any = None) -> LeagueScoringChange:
    """Score the league (its row locked: `get_league(..., for_update=True)`) by `scoring` and
    `points` from now on, the change kept; `LeagueRefused` naming every problem (400), or the
    scoring it has already (409 `unchanged`)."""
    problems: dict[str, str] = {}
    table = checked_scoring(scoring, points, problems)
    if problems:
        raise refused(problems)
    if scoring == league.scoring and table == list(league.points):
        message = _("the league is scored so already: nothing changed")
        raise LeagueRefused(message, "unchanged", {"scoring": message}, status=409)
    change = LeagueScoringChange(
        before_scoring=league.scoring,
        before_points=list(league.points),
        after_scoring=scoring,
        after_points=table,
    )
    league.changes.append(change)
    league.scoring = scoring
    league.points = table
    db.session.flush()
    return change


def add_night(league: League, night_id: Any) -> Night:
    """Count a night for the league: refused when it is not a night (400), or counts for the
    league already (409)."""
    if isinstance(night_id, bool) or not isinstance(night_id, int):
        raise refused({"night": _("'night' must be a night's id")})
    if (problem := night_problem(night_id)) is not None:
        raise refused({"night": problem})
    night = get_night(night_id)
    if any(link.night_id == night_id for link in league.nights):
        message = _(
            "the night of %(date)s counts for this league already",
            date=night.held_on.isoformat(),
        )
        raise LeagueRefused(message, "counted", {"night": message}, status=409)
    league.nights.append(LeagueNight(night=night))
    db.session.flush()
    return night


def night_problem(night_id: int) -> str | None:
    """Why a night cannot be counted for a new league: it does not exist; or None."""
    try:
        get_night(night_id)
    except NoSuchNight as missing:
        return missing.message
    return None


def remove_night(league: League, night_id: int) -> None:
    """The night no longer counts for the league; 404 when it did not."""
    link = db.session.scalar(
        db.select(LeagueNight).where(
            LeagueNight.league_id == league.id, LeagueNight.night_id == night_id
        )
    )
    if link is None:
        raise LeagueRefused(
            _("night %(night)s does not count for this league", night=night_id),
            "not_counted",
            status=404,
        )
    league.nights.remove(link)
    db.session.flush()


def add_nights(league: League, night_ids: Sequence[int]) -> list[Night]:
    """Several nights at once (a new league's, each once), every one or none."""
    return [add_night(league, night_id) for night_id in dict.fromkeys(night_ids)]
