"""A club's leagues in the score book's export (`leagues`, from format version 3): each league
with its name, its scoring and points, the nights that count for it (by the night's id in the
same document, and when each was added) and every change of its scoring.

The league registers this section with the score book's export at app start (`register`), after
the nights' (a league names its nights). An import keeps each league's id, refuses a league that
disagrees with itself (points its scoring cannot have, a change that does not follow the one
before, a night the document does not hold) and refuses the whole document when this database
holds a league of the same id or name (`clashes`), writing nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.orm import selectinload

from ..games.importer import Checker, distinct_rows, read_part
from ..games.names import clean_name, name_key, written_problem
from ..games.transfer import Field, Imported, Kind, Part, Section, held, register_section
from ..nights import transfer as nights
from ..platform.database import db
from .models import NAME_MAX, NORMALISED, SCORINGS, League, LeagueNight, LeagueScoringChange
from .service import checked_scoring

NAME = "leagues"

LEAGUE_NIGHT = Part(
    "league night",
    LeagueNight,
    (
        # The night's id in the same document.
        Field("night_id", Kind.ID),
        Field("added_at", Kind.TIME),
    ),
)
CHANGE = Part(
    "scoring change",
    LeagueScoringChange,
    (
        Field("before_scoring", Kind.CHOICE, choices=SCORINGS),
        Field("before_points", Kind.OWN),
        Field("after_scoring", Kind.CHOICE, choices=SCORINGS),
        Field("after_points", Kind.OWN),
        Field("changed_at", Kind.TIME),
    ),
)
LEAGUE = Part(
    "league",
    League,
    (
        Field("id", Kind.ID),
        Field("name", Kind.TEXT, high=NAME_MAX),
        Field("scoring", Kind.CHOICE, choices=SCORINGS),
        # The points of 1st, 2nd, … for `places`; empty for `normalised`.
        Field("points", Kind.OWN),
        Field("created_at", Kind.TIME),
        Field("nights", Kind.PARTS, part=LEAGUE_NIGHT),
        # Oldest first; the last one's `after_*` is the league's scoring now.
        Field("changes", Kind.PARTS, part=CHANGE),
    ),
)


def export() -> list[dict[str, Any]]:
    """Every league, oldest id first, its nights in the order they were added, its changes of
    scoring oldest first."""
    statement = (
        db.select(League)
        .order_by(League.id)
        .options(selectinload(League.nights), selectinload(League.changes))
    )
    return [LEAGUE.write(league) for league in db.session.scalars(statement)]


def check(check: Checker, items: Any, imported: Imported) -> list[League]:
    """The document's leagues built, not stored, or `ImportRefused` naming the first problem."""
    nights_held = {night.id for night in imported.sections.get(nights.NAME, [])}
    return distinct_rows(
        check,
        items,
        lambda where, item, index: _league(where, item, nights_held),
        lambda row_id: _("repeats league %(league)s", league=row_id),
        lambda name: _("repeats the league called %(name)s", name=name),
    )


def _league(check: Checker, item: Any, nights_held: set[int]) -> League:
    values = read_part(check, LEAGUE, item, names=LEAGUE.names - {"nights", "changes"})
    values["points"] = _points(check, values["scoring"], values["points"], "points")
    _check_name(check.at("name"), values["name"])
    links = [
        LeagueNight(**read_part(check.at("nights").at(index), LEAGUE_NIGHT, each, index))
        for index, each in enumerate(check.at("nights").list(item["nights"]))
    ]
    changes = [
        _change(check.at("changes").at(index), each, index)
        for index, each in enumerate(check.at("changes").list(item["changes"]))
    ]
    league = League(**values, name_key=name_key(values["name"]), nights=links, changes=changes)
    _check_nights(check.at("nights"), league, nights_held)
    _check_changes(check.at("changes"), league)
    return league


def _points(check: Checker, scoring: str, points: Any, field: str) -> list[int]:
    """The points as the league keeps them for its scoring, or the first problem refused."""
    problems: dict[str, str] = {}
    if scoring == NORMALISED:
        if points != []:
            raise check.at(field).fail(
                _("must be empty: only a league scored by places gives points")
            )
        return []
    table = checked_scoring(scoring, points, problems)
    for place, problem in problems.items():
        where = check.at(field)
        if place.startswith("points["):
            where = where.at(int(place.removeprefix("points[").removesuffix("]")))
        raise where.fail(problem)
    return table


def _check_name(check: Checker, name: str) -> None:
    if not name or clean_name(name) != name:
        raise check.fail(
            _("must be written %(name)s, as the app keeps it", name=repr(clean_name(name)))
        )
    if (problem := written_problem(name, NAME_MAX)) is not None:
        raise check.fail(problem)


def _change(check: Checker, item: Any, index: int) -> LeagueScoringChange:
    values = read_part(check, CHANGE, item, index)
    for side in ("before", "after"):
        values[f"{side}_points"] = _points(
            check, values[f"{side}_scoring"], values[f"{side}_points"], f"{side}_points"
        )
    return LeagueScoringChange(**values)


def _check_nights(check: Checker, league: League, nights_held: set[int]) -> None:
    """Each night is one of the document's, once, added after the league was set up."""
    seen: set[int] = set()
    for index, link in enumerate(league.nights):
        where = check.at(index)
        if link.night_id not in nights_held:
            said = _("names night %(night)s, which the document does not hold", night=link.night_id)
            raise where.at("night_id").fail(said)
        if link.night_id in seen:
            said = _("repeats night %(night)s: a night counts once", night=link.night_id)
            raise where.at("night_id").fail(said)
        seen.add(link.night_id)
        if link.added_at < league.created_at:
            raise where.at("added_at").fail(_("is before the league was set up"))


def _check_changes(check: Checker, league: League) -> None:
    """Each change starts from the scoring the one before left, in time order, and the last one
    leaves the league's scoring now."""
    previous = None
    for index, change in enumerate(league.changes):
        where = check.at(index)
        before = (change.before_scoring, change.before_points)
        if before == (change.after_scoring, change.after_points):
            raise where.fail(_("must change the scoring: it is the same before and after"))
        if previous is not None and before != (previous.after_scoring, previous.after_points):
            raise where.at("before_scoring").fail(_("must be the scoring the change before left"))
        earliest = league.created_at if previous is None else previous.changed_at
        if change.changed_at < earliest:
            raise where.at("changed_at").fail(
                _("is before the league was set up or the change before")
            )
        previous = change
    if previous is not None and (previous.after_scoring, previous.after_points) != (
        league.scoring,
        league.points,
    ):
        raise (
            check.at(len(league.changes) - 1)
            .at("after_scoring")
            .fail(_("must be the league's scoring: the last change leaves it"))
        )


def clashes(leagues: list[League]) -> list[str]:
    """The leagues whose ids or names this database holds already, in words."""
    found = []
    taken = held(League.id, [league.id for league in leagues])
    if taken:
        found.append(
            ngettext(
                "league %(leagues)s already exists in this database",
                "leagues %(leagues)s already exist in this database",
                len(taken),
                leagues=", ".join(map(str, taken)),
            )
        )
    named = held(League.name_key, [league.name_key for league in leagues], shown=League.name)
    if named:
        found.append(
            ngettext(
                "a league called %(names)s is already in this database",
                "leagues called %(names)s are already in this database",
                len(named),
                names=", ".join(named),
            )
        )
    return found


SECTION = Section(NAME, export, check, clashes, since=3)


def register(app: Flask) -> None:
    """Carry the leagues in the app's export and import, after the nights they name."""
    register_section(app, SECTION)
