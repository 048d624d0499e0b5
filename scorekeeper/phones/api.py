"""The phones' JSON API: the tablet opens a round to phones and reads each seat's hand; a phone
takes a seat and sends its hand (see docs/games-api.md)."""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request
from flask_babel import gettext as _

from ..games import keys, ledger, names
from ..games.roundvalues import Hand
from ..platform import writeonce
from ..platform.http import ApiError, blueprint, field, json_body
from . import service
from .access import CODE_WRITES, HEADER, join_url, phone_required
from .models import RoundOpening

bp = blueprint("phones_api", __name__)
ledger.answer_errors(bp)

HAND_FIELDS = ("cards", "points", "out", "out_in_one_turn", "round")


def opening_json(game, opening: RoundOpening | None, number: int) -> dict[str, Any]:
    """The round's phones as the tablet sees them: the code, its address, every seat's state."""
    states = service.seats(opening) if opening is not None else service.waiting(game)
    return {
        "round": number,
        "open": opening is not None and service.is_live(opening, game),
        "code": opening.code if opening is not None else None,
        "url": join_url(opening.code) if opening is not None else None,
        "seats": [state.as_json() for state in states],
    }


# --- The tablet ------------------------------------------------------------------------------


@bp.route("/games/<int:game_id>/rounds/<int:number>/open", methods=["POST", "DELETE"])
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def open_round(game_id: int, number: int):
    """POST: open round `number` (the round to play) to phones → 201 with the code, or 200 with
    the one already open; DELETE: close it (every seat token of it stops working) → 200."""
    if request.method == "DELETE":
        was_open = service.close_round(g.game, number)
        return jsonify({**opening_json(g.game, None, number), "closed": was_open})
    opening, new = service.open_round(g.game, number)
    return jsonify(opening_json(g.game, opening, number)), 201 if new else 200


@bp.get("/games/<int:game_id>/rounds/<int:number>/hands")
@keys.editor_required
def round_hands(game_id: int, number: int):
    """Each seat's state for round `number`: waiting, joined, or received with its hand."""
    return jsonify(opening_json(g.game, service.live_opening(g.game, number), number))


@bp.delete("/games/<int:game_id>/rounds/<int:number>/hands/<path:name>")
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def release_seat(game_id: int, number: int, name: str):
    """Free the seat a phone holds (its token stops working; a hand it sent stays) → 200."""
    service.release_seat(g.game, number, names.seat_of(g.game, name))
    return jsonify(opening_json(g.game, service.live_opening(g.game, number), number))


# --- The phone -------------------------------------------------------------------------------


@bp.post("/join/<code>")
@phone_required
@writeonce.write_once(scope=CODE_WRITES)
def join(code: str):
    """`{"seat": "Ann"}` → 201 with the seat token (only in this answer) for `X-Seat-Token`; a
    seat another phone holds 409, a wrong code 404."""
    seat = field(json_body(), "seat", str)
    row, token = service.claim_seat(g.opening, seat, request.headers.get(HEADER))
    return jsonify({**service.phone_state(g.opening, row), "token": token}), 201


@bp.route("/join/<code>/hand", methods=["GET", "PUT"])
@phone_required(seat=True)
@writeonce.write_once(scope=CODE_WRITES)
def hand(code: str):
    """GET: this phone's seat, its hand and the round's state; PUT `{"cards": "K Q 5"}`,
    `{"points": 25}` or `{"out": true}`, `"out_in_one_turn": true` beside it for a player who
    went down and out in one turn (with `"round"`, the round the phone is on) → 200."""
    if request.method == "PUT":
        data = json_body()
        number = field(data, "round", int, required=False)
        service.send_hand(g.seat, hand_sent(data), number)
        state = service.phone_state(g.opening, g.seat)
        return jsonify({**state, "message": service.sent_message(g.seat)})
    return jsonify(service.phone_state(g.opening, g.seat))


def hand_sent(data: dict[str, Any]) -> Hand:
    """The hand in a PUT: exactly one of `cards` (text or a list of cards), `points`, `out`."""
    unknown = sorted(set(data) - set(HAND_FIELDS))
    given = [name for name in ("cards", "points", "out") if data.get(name) is not None]
    problems = []
    if unknown:
        problems.append(_("unknown field %(fields)s", fields=", ".join(map(repr, unknown))))
    if len(given) != 1:
        problems.append(
            _(
                "give one of 'cards' (the cards left, like \"K Q 5\"), 'points' (what the hand "
                "counts) or 'out' (true: you went out), not %(given)s",
                given=" and ".join(map(repr, given)),
            )
            if given
            else _(
                "give one of 'cards' (the cards left, like \"K Q 5\"), 'points' (what the hand "
                "counts) or 'out' (true: you went out)"
            )
        )
    if problems:
        raise ApiError("; ".join(problems))
    kind = given[0]
    if kind == "cards":
        cards = data["cards"]
        if isinstance(cards, list) and all(isinstance(card, str) for card in cards):
            cards = " ".join(cards)
        if not isinstance(cards, str):
            raise ApiError(_("'cards' must be text like \"K Q 5\" or a list of cards"))
        return Hand("cards", cards=cards)
    if kind == "points":
        points = data["points"]
        if isinstance(points, bool) or not isinstance(points, int):
            raise ApiError(
                _("'points' must be a whole number, not %(points)s", points=repr(points))
            )
        return Hand("points", points=points)
    if data["out"] is not True:
        raise ApiError(_("'out' must be true (leave it out when you did not go out)"))
    one_turn = data.get("out_in_one_turn", False)
    if not isinstance(one_turn, bool):
        raise ApiError(
            _(
                "'out_in_one_turn' must be true or false, not %(value)s",
                value=repr(one_turn)[:40],
            )
        )
    return Hand("out", one_turn=one_turn)
