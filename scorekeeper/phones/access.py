"""Who a phone is: its seat token (the API's `X-Seat-Token` header, a page's cookie), and the
decorator every phone route wears to find the round its code names, locked for a write.

A phone's page gets a random token of its own in a cookie the first time it opens a code: that
token is what holds its seat, round after round, so a double tap or a reload never loses it
(the table keeps only its hash). An API client gets a token when it takes a seat.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Response, g, request

from .. import security
from ..database import READ_METHODS
from ..jsonapi import is_api_request
from ..scorebook import ledger
from ..scorebook.writeonce import SEAT_TOKEN_HEADER
from . import service

HEADER = SEAT_TOKEN_HEADER
COOKIE = "phone"
# Where a phone opens a round's code: `/join/ACDE` (the pages; the API's is under /api).
JOIN_PATH = "/join"
# 400 days: the longest a browser keeps a cookie, so a phone is the same phone all season.
COOKIE_MAX_AGE = 400 * 24 * 60 * 60


def held_token() -> str | None:
    """The seat token this request holds: the API's header, a page's cookie."""
    if is_api_request():
        return request.headers.get(HEADER) or None
    for name in dict.fromkeys((security.host_only_name(COOKIE), COOKIE)):
        if value := request.cookies.get(name):
            return value
    return None


def give_phone_token(response: Response) -> Response:
    """Give a phone's browser its own token, once (HttpOnly: no script reads it)."""
    if held_token() is None:
        response.set_cookie(
            security.host_only_name(COOKIE),
            service.new_token(),
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


def phone_required(view: Callable[..., Any] | None = None, *, seat: bool = False):
    """Find the round open under the route's `code` (`NoSuchCode` otherwise, the same for any
    wrong, closed or expired code) as `g.opening`, with its game `g.game`, whose row a write
    locks first (so `write_once` looks for its token after any twin has finished). With `seat`,
    the seat this phone's token holds is `g.seat` (`BadSeatToken` without one)."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            token = held_token()
            opening = service.opening_for(kwargs["code"], token)
            writes = request.method not in READ_METHODS
            g.game = ledger.get_game(opening.game_id, for_update=writes)
            g.opening = opening
            if seat:
                g.seat = service.seat_for_token(opening, token)
            return view(*args, **kwargs)

        return checked

    return decorate(view) if view is not None else decorate
