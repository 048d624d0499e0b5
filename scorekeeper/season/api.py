"""The season's JSON API: every player across games, with their figures, the records, and the
players merged."""

from __future__ import annotations

from flask import jsonify, request, url_for
from flask_babel import gettext as _

from ..games import ledger
from ..platform import writeonce
from ..platform.http import ApiError, blueprint, json_body
from ..platform.organisers import organiser_required
from . import merges, players, records
from .models import identities

bp = blueprint("season_api", __name__)
ledger.answer_errors(bp)

MERGE_FIELDS = ("from", "into")


def _filters() -> players.Filters:
    """The filters the query asks for, or a 400 naming every bad value."""
    try:
        return players.parse_filters(request.args)
    except players.FilterError as error:
        raise ApiError(str(error)) from error


@bp.get("/players")
def list_players():
    """Every player who sat in any game, with their season's figures, sorted by folded name;
    filtered by `period` and `min_games`."""
    listed = players.season(_filters())
    return jsonify(players=[record.as_json() for record in listed], up_to_date=players.up_to_date())


@bp.get("/players/records")
def list_records():
    """The season's records with their holders, filtered as the players are."""
    chosen = _filters()
    return jsonify(
        records=[record.as_json() for record in records.season_records(chosen)],
        period=chosen.period,
        min_games=chosen.min_games,
        up_to_date=players.up_to_date(),
    )


@bp.get("/players/merges")
def list_merges():
    """Every merge the table made, newest first; an undone one with `undone_at`."""
    return jsonify(merges=[merges.as_json(row) for row in merges.every()])


@bp.post("/players/merges")
@organiser_required
@writeonce.write_once(scope=merges.WRITES)
def merge():
    """`{"from": "Annie", "into": "Ann"}` → 201 with the merge and the player after it. No edit
    key: a merge changes no game (see `merges`)."""
    data = json_body()
    problems = [
        _("unknown field %(name)s", name=repr(name))
        for name in sorted(set(data) - set(MERGE_FIELDS))
    ]
    for name in MERGE_FIELDS:
        if not isinstance(data.get(name), str):
            problems.append(_("%(name)s must be a player's name as text", name=repr(name)))
    if problems:
        raise ApiError("; ".join(problems))
    row, _proposal = merges.merge(data["from"], data["into"])
    # The player after the merge in the season as kept, rated when the season is next computed
    # (none while the first season is being worked out).
    identity, kept = identities(), players.kept_now()
    into = identity.get(row.into_key, row.into_key)
    after = players.after_merge(kept, identity, into) if kept is not None else None
    body = {
        "merge": merges.as_json(row),
        "player": after.as_json() if after else None,
        "up_to_date": players.up_to_date(),
    }
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = url_for("season_api.undo_merge", merge_id=row.id)
    return response


@bp.delete("/players/merges/<int:merge_id>")
@organiser_required
@writeonce.write_once(scope=merges.WRITES)
def undo_merge(merge_id: int):
    """Undo a merge → 200 with it (`undone_at` set); the two players are apart again."""
    return jsonify(merge=merges.as_json(merges.undo(merge_id)))
