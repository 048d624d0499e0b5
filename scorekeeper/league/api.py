"""The league's JSON API: list the leagues, read one's table, a player's nights and a night's
summary; set a league up, change its scoring, and add or remove the nights that count. Every write is write-once
(`Idempotency-Key`).

Reads are on `bp`; the organiser's writes on `setup_bp`, so one guard
(`setup_bp.before_request(...)`) keeps them to organisers.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, url_for
from flask_babel import gettext as _

from ..games import ledger
from ..nights.service import get_night
from ..platform import organisers, writeonce
from ..platform.http import blueprint, json_body
from . import service, sheets, standings
from .service import LeagueRefused

bp = blueprint("league_api", __name__)
setup_bp = blueprint("league_setup_api", __name__)
# Changing a league is an organiser's, where the club has organisers (ORGANISER_PASSWORD).
setup_bp.before_request(organisers.require)
# A write to a league: "league 3", or "new league".
LEAGUES = writeonce.Scope("league", "league_id")
FIELDS = {"name", "scoring", "points", "nights"}
SCORING_FIELDS = {"scoring", "points"}

for _blueprint in (bp, setup_bp):
    ledger.answer_errors(_blueprint)


def _league_refused(error: LeagueRefused):
    body: dict[str, Any] = {"error": error.message, "code": error.code}
    if error.fields:
        body["problems"] = error.fields
    return jsonify(body), error.status


for _blueprint in (bp, setup_bp):
    _blueprint.register_error_handler(LeagueRefused, _league_refused)


def _table(league_id: int) -> standings.Table:
    league = service.get_league(league_id)
    return standings.table(league, service.league_nights(league))


@bp.get("/league")
def list_leagues():
    """The leagues, the newest first, in brief."""
    return jsonify(leagues=[sheets.brief_json(league) for league in service.leagues()])


@bp.get("/league/<int:league_id>")
def get_league(league_id: int):
    """The league with its table, its nights and how ties were decided."""
    return jsonify(sheets.table_json(_table(league_id)))


@bp.get("/league/<int:league_id>/players/<path:name>")
def player_nights(league_id: int, name: str):
    """A player's tables over the league's nights, oldest first (in play ones too)."""
    league = service.get_league(league_id)
    found = standings.player_nights(league, service.league_nights(league), name)
    key = standings.player_key(name)
    line = next((line for line in _table(league_id).lines if line.key == key), None)
    return jsonify(
        league=league.id,
        name=found[-1].name if found else name,
        place=line.place if line else None,
        score=standings.as_number(line.score) if line else None,
        nights=[sheets.seat_json(league, seat) for seat in found],
    )


@bp.get("/league/nights/<int:night_id>/summary")
def night_summary(night_id: int):
    """A night's winners per table and its best round."""
    return jsonify(sheets.summary_json(standings.night_summary(get_night(night_id))))


def _created(league_id: int, status: int = 201):
    location = url_for("league_api.get_league", league_id=league_id)
    return jsonify(sheets.table_json(_table(league_id))), status, {"Location": location}


@setup_bp.post("/league")
@writeonce.write_once(scope=LEAGUES)
def create_league():
    """`{"name": text, "scoring": "places"|"normalised", "points"?: [1st, 2nd, …], "nights"?:
    [ids]}` → 201 with the league; every problem named at once, nothing stored."""
    data = json_body()
    problems: dict[str, str] = {}
    for unknown in sorted(set(data) - FIELDS):
        problems[unknown] = _("'%(field)s' is not a league's field", field=unknown)
    nights = _night_ids(data.get("nights"), problems)
    try:
        name, scoring, points = service.check_league(
            data.get("name"), data.get("scoring"), data.get("points")
        )
    except LeagueRefused as refused:
        problems.update(refused.fields)
    if problems:
        raise service.refused(problems)
    league = service.create_league(name, scoring, points if points else None)
    service.add_nights(league, nights)
    return _created(league.id)


def _night_ids(given: Any, problems: dict[str, str]) -> list[int]:
    if given is None:
        return []
    if not isinstance(given, list) or any(
        isinstance(item, bool) or not isinstance(item, int) for item in given
    ):
        problems["nights"] = _("'nights' must be a list of nights' ids")
        return []
    ids = list(dict.fromkeys(given))
    for index, night_id in enumerate(ids):
        if (problem := service.night_problem(night_id)) is not None:
            problems[f"nights[{index}]"] = problem
    return ids


@setup_bp.post("/league/<int:league_id>/scoring")
@writeonce.write_once(scope=LEAGUES)
def change_scoring(league_id: int):
    """`{"scoring": "places"|"normalised", "points"?: [1st, 2nd, …]}` → 200 with the league, its
    table scored the new way and the change in its `changes`; every problem named at once (400),
    nothing stored; 409 `unchanged` when the league is scored so already."""
    data = json_body()
    league = service.get_league(league_id, for_update=True)
    problems = {
        unknown: _("'%(field)s' is not a field of a league's scoring", field=unknown)
        for unknown in sorted(set(data) - SCORING_FIELDS)
    }
    service.checked_scoring(data.get("scoring"), data.get("points"), problems)
    if problems:
        raise service.refused(problems)
    service.change_scoring(league, data.get("scoring"), data.get("points"))
    return _created(league.id, 200)


@setup_bp.post("/league/<int:league_id>/nights")
@writeonce.write_once(scope=LEAGUES)
def add_night(league_id: int):
    """`{"night": id}` → 201 with the league; 409 when the night counts already (for this
    league or another)."""
    data = json_body()
    league = service.get_league(league_id, for_update=True)
    service.add_night(league, data.get("night"))
    return _created(league.id)


@setup_bp.delete("/league/<int:league_id>/nights/<int:night_id>")
@writeonce.write_once(scope=LEAGUES)
def remove_night(league_id: int, night_id: int):
    """The night no longer counts → 200 with the league; 404 when it did not."""
    league = service.get_league(league_id, for_update=True)
    service.remove_night(league, night_id)
    return _created(league.id, 200)
