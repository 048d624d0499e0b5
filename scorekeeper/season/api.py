"""The season's JSON API: every player across games, with their figures; the players merged."""

from __future__ import annotations

from flask import jsonify, url_for

from ..jsonapi import ApiError, blueprint, json_body
from ..scorebook import api as scorebook_api
from ..scorebook import writeonce
from . import merges, players

bp = blueprint("season_api", __name__)
scorebook_api.answer_errors(bp)

MERGE_FIELDS = ("from", "into")


@bp.get("/players")
def list_players():
    """Every player who sat in any game, with their season's figures, sorted by folded name."""
    return jsonify(players=[record.as_json() for record in players.season()])


@bp.get("/players/merges")
def list_merges():
    """Every merge the table made, newest first; an undone one with `undone_at`."""
    return jsonify(merges=[merges.as_json(row) for row in merges.every()])


@bp.post("/players/merges")
@writeonce.write_once
def merge():
    """`{"from": "Annie", "into": "Ann"}` → 201 with the merge and the player after it. No edit
    key: a merge changes no game (see `merges`)."""
    data = json_body()
    problems = [f"unknown field {name!r}" for name in sorted(set(data) - set(MERGE_FIELDS))]
    for name in MERGE_FIELDS:
        if not isinstance(data.get(name), str):
            problems.append(f"{name!r} must be a player's name as text")
    if problems:
        raise ApiError("; ".join(problems))
    row = merges.merge(data["from"], data["into"])
    after = players.find_player(row.into_name)
    body = {"merge": merges.as_json(row), "player": after.as_json() if after else None}
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = url_for("season_api.undo_merge", merge_id=row.id)
    return response


@bp.delete("/players/merges/<int:merge_id>")
@writeonce.write_once
def undo_merge(merge_id: int):
    """Undo a merge → 200 with it (`undone_at` set); the two players are apart again."""
    return jsonify(merge=merges.as_json(merges.undo(merge_id)))
