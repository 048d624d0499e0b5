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

from ..games.models import Game
from ..platform import limits, paths, security, writeonce
from ..platform.database import READ_METHODS
from ..platform.http import is_api_request
from . import service

# The header of a phone's seat token: like the edit key, part of what a write asks for.
HEADER = "X-Seat-Token"
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
        name = security.host_only_name(COOKIE)
        response.set_cookie(
            name,
            token or service.new_token(),
            max_age=COOKIE_MAX_AGE,
            path=paths.cookie_path(name),
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
    this phone's token holds is `g.seat`; a phone holding no seat of the round is answered
    `NoSuchCode` too, so a live code and a wrong one look the same to a phone without a seat.

    Every request that holds no seat of the code's round is counted against `RATELIMIT_JOINS`
    (`limits.JOINS`), found or not, on every route under a code: a guesser's tries are
    counted wherever they are made, and answered alike. A phone once seated is not counted
    again in its round (its sends, its page, its retries), so a table never meets the limit
    in play, and a seat's token (128 random bits) cannot be guessed instead.

    A write locks its game's row first: for update to take a seat (it looks at every seat), in
    share mode to send a hand, so sends never wait for each other but the tablet's writes
    (saving the round, closing it, releasing a seat), which lock the row for update, wait for
    the sends and they for them; a send then locks its own seat's row, so a twin still running
    in another process has finished (and `write_once` finds it) first. Once locked, the opening
    is read again, seats and facts, as another process left it: what was read before the lock
    may be a seat since taken or a round since saved. (SQLite's writers queue for the whole
    database before their first read already.)"""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            code = kwargs["code"]
            token = held_token()
            writes = request.method not in READ_METHODS
            lock: service.Lock = ("share" if seat else "update") if writes else None
            loaded: dict[int, Game] = {}

            def load(game_id: int) -> Game:
                if game_id not in loaded:
                    loaded[game_id] = service.phone_game(game_id, lock)
                return loaded[game_id]

            try:
                opening = service.opening_for(code, token, load)
            except service.NoSuchCode:
                limits.count(limits.JOINS)
                raise
            g.game = load(opening.game_id)
            g.opening = opening = service.read_again(opening) if writes else opening
            held = service.held_seat(opening, token)
            if held is None:
                limits.count(limits.JOINS)
                if seat:
                    raise service.NoSuchCode(code)
            elif seat:
                g.seat = service.lock_seat(held) if writes else held
            return view(*args, **kwargs)

        return checked

    return decorate(view) if view is not None else decorate


def _code_label(code: Any) -> str:
    return str(code).upper()[:12]


# A phone's writes are to the round open under its code ("round code K7QX"), asked with its
# seat token; the token a seat is given with is never kept for a repeat.
CODE_WRITES = writeonce.Scope(
    "round code", "code", label=_code_label, held=(HEADER,), secrets=("token",)
)
