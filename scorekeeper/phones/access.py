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

from flask import Response, g, request, url_for

from .. import security
from ..database import READ_METHODS
from ..jsonapi import is_api_request
from ..scorebook.models import Game
from ..scorebook.writeonce import SEAT_TOKEN_HEADER
from . import service

HEADER = SEAT_TOKEN_HEADER
COOKIE = "phone"
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


def give_phone_token(response: Response, token: str | None = None) -> Response:
    """Give a phone's browser its own token (`token`, or a new one) when it holds none yet
    (HttpOnly: no script reads it)."""
    if held_token() is None:
        response.set_cookie(
            security.host_only_name(COOKIE),
            token or service.new_token(),
            max_age=COOKIE_MAX_AGE,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


def join_url(code: str) -> str:
    """The address a phone opens for a code (its seat picker), with the scheme and host this
    tablet used."""
    return url_for("phones.pick_seat", code=code, _external=True)


def phone_required(view: Callable[..., Any] | None = None, *, seat: bool = False):
    """Find the round open under the route's `code` (`NoSuchCode` otherwise, the same for any
    wrong, closed or expired code) as `g.opening`, with its game `g.game`. With `seat`, the seat
    this phone's token holds is `g.seat` (`BadSeatToken` without one).

    A write locks before `write_once` looks for its token, so a twin still running in another
    process has finished (and is found) first: a phone's send locks its own seat's row alone,
    so eight phones sending at once never wait for each other on PostgreSQL; taking a seat
    locks the game's row, since it looks at every seat. (SQLite's writers queue for the whole
    database already.)"""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            token = held_token()
            writes = request.method not in READ_METHODS
            lock_game = writes and not seat
            loaded: dict[int, Game] = {}

            def load(game_id: int) -> Game:
                if game_id not in loaded:
                    loaded[game_id] = service.phone_game(game_id, lock_game)
                return loaded[game_id]

            opening = service.opening_for(kwargs["code"], token, load)
            g.game, g.opening = load(opening.game_id), opening
            if seat:
                g.seat = service.seat_for_token(opening, token)
                if writes:
                    service.lock_seat(g.seat)
            return view(*args, **kwargs)

        return checked

    return decorate(view) if view is not None else decorate
