"""The season's JSON API: every player across games, with their figures."""

from __future__ import annotations

from flask import jsonify

from ..jsonapi import blueprint
from . import players

bp = blueprint("season_api", __name__)


@bp.get("/players")
def list_players():
    """Every player who sat in any game, with their season's figures, sorted by folded name."""
    return jsonify(players=[record.as_json() for record in players.season()])
