"""The players of this score book across games, as JSON."""

from __future__ import annotations

from flask import jsonify

from . import players
from .api import bp


@bp.get("/players")
def list_players():
    """Every player who sat in any game, with their season's figures, sorted by folded name."""
    return jsonify(players=[record.as_json() for record in players.season()])
