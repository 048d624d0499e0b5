"""The score book's JSON API: games and their rounds, players named by name everywhere."""

from __future__ import annotations

import re
from typing import Any

from flask import g, jsonify, request, url_for

from ..jsonapi import ApiError, blueprint, field, json_body
from . import errors, gamelist, keys, ledger, names, season, service, writeonce
from . import rematch as rematch_service
from .models import Game

bp = blueprint("api", __name__)


@bp.errorhandler(writeonce.BadKey)
def _bad_key(error: writeonce.BadKey):
    return jsonify(error=str(error)), 400


@bp.errorhandler(errors.ScorebookError)
def _scorebook_error(error: errors.ScorebookError):
    # A repeat of the DELETE that removed its game: the first answer, not this 404.
    if (first := writeonce.answer_of_gone(error)) is not None:
        return first
    body: dict[str, Any] = {"error": error.message}
    if isinstance(error, errors.RulesRefused):
        body["problems"] = error.rule_problems
    current = getattr(error, "current", None)
    if current is not None:
        body["round"] = ledger.round_json(current.game, current)
    return jsonify(body), error.status


@bp.get("/games")
def list_games():
    """A page of games in brief: ongoing first, then finished, each newest first."""
    page, per_page, archived = gamelist.paging_from(request.args)
    listing = gamelist.game_page(page, per_page, archived=archived)
    return jsonify(
        games=[gamelist.brief_json(book) for book in listing.books],
        page=listing.page,
        per_page=listing.per_page,
        total=listing.total,
    )


@bp.post("/games")
@writeonce.write_once
def create_game():
    """`{"players": [...], "rules"?: preset name or document, "first_dealer"?: name}` → 201
    with the game. `"profile"` is the older name of `"rules"` and takes a preset's name; a rule
    set that cannot be used is 400 with every problem named (`"problems"`, R11).

    A repeat of the same `Idempotency-Key` gets the same game without `"key"`: the server keeps
    only the key's hash, so the first answer is the only one that holds it.
    """
    data = json_body()
    players = field(data, "players", list)
    if not all(isinstance(name, str) for name in players):
        raise ApiError("'players' must be a list of names, each one text")
    first_dealer = field(data, "first_dealer", str, required=False)
    return _new_game(*service.create_game(players, _rules_asked(data), first_dealer))


def _rules_asked(data: dict[str, Any]) -> Any:
    """`"rules"` (a preset's name or a document), or the older `"profile"` (a preset's name)."""
    if "rules" in data and "profile" in data:
        raise ApiError("give the rules once: 'rules' (a preset's name or a document), not both")
    if "profile" in data:
        return field(data, "profile", str, required=False)
    return data.get("rules")  # anything else is refused by the rules' reader, every problem named


def _new_game(game: Game, key: str):
    """201 with the new game, and the only answer that ever holds its key (every change to the
    game needs it; a repeat of the request gets the same game without it)."""
    location = url_for("api.get_game", game_id=game.id)
    body = {**ledger.game_json(game), keys.ANSWER_FIELD: key}
    return jsonify(body), 201, {"Location": location}


@bp.get("/games/<int:game_id>")
def get_game(game_id: int):
    """The whole game: seats, the next round's setup, rounds, totals and winners."""
    return jsonify(ledger.game_json(ledger.get_game(game_id)))


@bp.post("/games/<int:game_id>/rounds")
@keys.editor_required(scores=False)
@writeonce.write_once
def record_round(game_id: int):
    """Record the next round → 201; `"number"` (optional) → 409 if another device recorded it."""
    game = g.game
    data = json_body()
    number = field(data, "number", int, required=False)
    if ledger.next_round(game) is None and number is None:
        raise service.finished(game)
    location = url_for("api.get_game", game_id=game.id)
    played = service.record_round(game, _round_entry(game, data), number)
    return jsonify(ledger.round_json(game, played)), 201, {"Location": location}


@bp.put("/games/<int:game_id>/rounds/<int:number>")
@keys.editor_required
@writeonce.write_once
def correct_round(game_id: int, number: int):
    """Correct a round at the `"version"` the caller saw → 200; stale → 409 with the round now."""
    game = g.game
    service.find_round(game, number)
    data = json_body()
    if data.get("version") is None:
        raise ApiError(
            f"'version' is missing: send the version of round {number} you are correcting "
            "(from GET), so a change made meanwhile on another device is never overwritten"
        )
    version = field(data, "version", int)
    played = service.correct_round(game, number, _round_entry(game, data), version)
    return jsonify(ledger.round_json(game, played))


@bp.delete("/games/<int:game_id>/rounds/<int:number>")
@keys.editor_required
@writeonce.write_once
def undo_round(game_id: int, number: int):
    """Remove the latest round → 200 with the game; earlier or stale (`version`) 409, missing 404."""
    game = g.game
    service.undo_round(game, number, _undo_version())
    return jsonify(ledger.game_json(game))


def _undo_version() -> int | None:
    """The optional `version` of a DELETE: in a JSON body, or as `?version=` in the address."""
    if request.is_json and request.get_data(cache=True):
        version = field(json_body(), "version", int, required=False)
        if version is not None:
            return version
    text = request.args.get("version")
    if text is None:
        return None
    if not re.fullmatch(r"-?[0-9]{1,12}", text):
        raise ApiError(f"'version' must be a whole number, not {text[:20]!r}")
    return int(text)


def _round_entry(game: Game, data: dict[str, Any]) -> service.RoundEntry:
    """Read `{"cut_exact"?, "out", "leftovers": {name: text or [cards]}, "points"?: {name: n}}`
    into seats."""
    cut_exact = field(data, "cut_exact", bool, required=False, default=False)
    if "out" not in data:
        raise ApiError(
            "'out' is missing: give the name of the player who went out, or null when nobody did"
        )
    out_name = field(data, "out", str, required=False)
    out = None if out_name is None else names.seat_of(game, out_name)
    leftovers = field(data, "leftovers", dict, required="points" not in data, default={})
    by_seat: dict[int, str | list[str]] = {}
    for name, cards in leftovers.items():
        seat = names.seat_of(game, name)
        if seat in by_seat:
            raise ApiError(f"the cards of {game.names[seat]} are given twice")
        is_list = isinstance(cards, list) and all(isinstance(card, str) for card in cards)
        if not (is_list or isinstance(cards, str)):
            raise ApiError(f'the cards of {name!r} must be text like "A♠ K♦ 4♥" or a list of cards')
        by_seat[seat] = cards
    points: dict[int, int] = {}
    for name, value in field(data, "points", dict, required=False, default={}).items():
        seat = names.seat_of(game, name)
        if seat in by_seat or seat in points:
            raise ApiError(
                f"{game.names[seat]} is given twice: a hand is either in 'leftovers' or in "
                "'points', not both"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise ApiError(f"the points of {name!r} must be a whole number, not {value!r}")
        points[seat] = value
    return service.RoundEntry(out=out, leftovers=by_seat, cut_exact=cut_exact, points=points)


# --- The season: play again, tidy the list -------------------------------------------------


@bp.post("/games/<int:game_id>/rematch")
@keys.editor_required
@writeonce.write_once
def rematch(game_id: int):
    """Play again with this table → 201 with the new game and its own key; unfinished → 409."""
    return _new_game(*rematch_service.rematch(g.game))


@bp.route("/games/<int:game_id>/archive", methods=["POST", "DELETE"])
@keys.editor_required
@writeonce.write_once
def archive_game(game_id: int):
    """POST: hide the game from both lists (its link still opens it); DELETE: bring it back
    into them. Either → 200 with the game in brief."""
    tidy = gamelist.archive if request.method == "POST" else gamelist.restore
    return jsonify(gamelist.brief_json(ledger.book(tidy(g.game))))


@bp.delete("/games/<int:game_id>")
@keys.editor_required
@writeonce.write_once
def delete_game(game_id: int):
    """Delete a game with no recorded round → 204; one with rounds → 409 (archive it instead).

    A repeat of the same `Idempotency-Key` is answered 204 again, the game being gone.
    """
    gamelist.delete(g.game)
    return "", 204


@bp.get("/players")
def list_players():
    """Every player who sat in any game, with their season's figures, sorted by folded name."""
    return jsonify(players=[record.as_json() for record in season.season()])
