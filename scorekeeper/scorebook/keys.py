"""Edit keys: a random key per game, kept only as a hash, that every change to the game needs.

The tablet that starts a game gets the key (in a cookie, or in the API's 201 answer); another
tablet gets it through the game's edit link. Without it a device only watches.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Any

from flask import Request, Response, g, request

from .. import database
from ..extensions import db
from ..jsonapi import is_api_request
from . import ledger
from .errors import NoSuchGame, NotEditor
from .models import Game

HEADER = "X-Game-Key"
# The field of the API's answer that hands a new game's key over, once.
ANSWER_FIELD = "key"
NEEDS_KEY = f"this game needs its edit key: send it in the {HEADER} header"
# Keys are 22 characters; anything much longer is refused before it is hashed.
KEY_MAX = 128
# 400 days: the longest a browser keeps a cookie, so a table's tablet never forgets its games.
COOKIE_MAX_AGE = 400 * 24 * 60 * 60


def new_key() -> tuple[str, str]:
    """A fresh 128-bit key and the hash to store: the key itself is never stored."""
    key = secrets.token_urlsafe(16)
    return key, hash_key(key)


def hash_key(key: str) -> str:
    """The stored form of a key: sha256, in hex."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def matches(key_hash: str | None, key: str | None) -> bool:
    """True when `key` is the key whose hash is stored; compared in constant time."""
    if not key_hash or not key or len(key) > KEY_MAX:
        return False
    return hmac.compare_digest(hash_key(key), key_hash)


# A game's key cookie is this and the game's id.
COOKIE_PREFIX = "gk_"


def cookie_name(game_id: int) -> str:
    """One cookie per game, so a key for game A says nothing about game B."""
    return f"{COOKIE_PREFIX}{game_id}"


def cookie_game(name: str) -> int | None:
    """The game whose key this cookie holds (`gk_<id>`), or None for any other cookie."""
    number = name.removeprefix(COOKIE_PREFIX)
    if number != name and number.isdigit() and len(number) < 12:
        return int(number)
    return None


def from_cookie(request: Request, game_id: int) -> str | None:
    """The key this browser holds for the game, if any."""
    return request.cookies.get(cookie_name(game_id))


def set_cookie(response: Response, request: Request, game_id: int, key: str) -> Response:
    """Give this browser the game's key: HttpOnly, SameSite=Lax, kept for a long evening and more."""
    response.set_cookie(
        cookie_name(game_id),
        key,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


def given(response: Response) -> dict[int, str]:
    """The game ids and keys this answer hands the browser in a cookie (see `set_cookie`)."""
    found = {}
    for line in response.headers.getlist("Set-Cookie"):
        name, _, rest = line.partition("=")
        if (game_id := cookie_game(name)) is not None:
            found[game_id] = rest.split(";", 1)[0]
    return found


def rekey(game_id: int) -> str:
    """Give a game a new edit key (every other key for it stops working); the key, or `NoSuchGame`.

    For a game started before edit keys existed, or one whose tablet lost its key.
    """
    game = db.session.get(Game, game_id) if game_id in database.id_range() else None
    if game is None:
        raise NoSuchGame(game_id)
    key, game.key_hash = new_key()
    db.session.commit()
    return key


def editor_required(view: Callable[..., Any] | None = None, *, scores: bool = True):
    """Only a device holding the game's edit key gets past: the API's `X-Game-Key` header, a
    page's cookie. The game, loaded (`scores` or not) and locked for a write, is `g.game`;
    anyone else gets `NotEditor`, which the API answers in JSON and the pages as the spectator's
    page."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            game_id = kwargs["game_id"]
            api = is_api_request()
            writes = api or request.method not in ("GET", "HEAD")
            game = ledger.get_game(game_id, scores, for_update=writes)
            key = request.headers.get(HEADER) if api else from_cookie(request, game_id)
            if api and game.key_hash is None:
                raise NotEditor(
                    f"game {game_id} has no edit key yet: make one with "
                    f"`flask --app scorekeeper game-key {game_id}` on the machine serving the app",
                    403,
                    game,
                )
            if api and not key:
                raise NotEditor(NEEDS_KEY, 401, game)
            if not matches(game.key_hash, key):
                raise NotEditor(
                    f"the key in {HEADER} is not the edit key of game {game_id}", 403, game
                )
            g.game, g.key = game, key
            return view(*args, **kwargs)

        return checked

    return decorate(view) if view is not None else decorate
