"""The season's JSON API: every player across games, with their figures, and the records."""

from __future__ import annotations

from flask import jsonify, request

from ..jsonapi import ApiError, blueprint
from . import filters, players, records

bp = blueprint("season_api", __name__)


def _filters() -> filters.Filters:
    """The filters the query asks for, or a 400 naming every bad value."""
    try:
        return filters.parse(request.args)
    except filters.FilterError as error:
        raise ApiError(str(error)) from error


@bp.get("/players")
def list_players():
    """Every player who sat in any game, with their season's figures, sorted by folded name;
    filtered by `period` and `min_games`."""
    return jsonify(players=[record.as_json() for record in players.season(_filters())])


@bp.get("/players/records")
def list_records():
    """The season's records with their holders, filtered as the players are."""
    chosen = _filters()
    return jsonify(
        records=[record.as_json() for record in records.season_records(chosen)],
        period=chosen.period,
        min_games=chosen.min_games,
    )
