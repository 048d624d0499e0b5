"""Edit keys: a random key per game, kept only as a hash, that every change to the game needs.

The tablet that starts a game gets the key (in its one signed cookie of keys, or in the API's
201 answer); another tablet gets it through the game's edit link. Without it a device only
watches.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from typing import Any

from flask import Request, Response, current_app, g, request
from flask_babel import gettext as _
from itsdangerous import BadSignature, Signer

from ..platform import database, paths, security, writeonce
from ..platform.database import db
from ..platform.http import is_api_request
from . import ledger
from .errors import Conflict, NoSuchGame, NotEditor, ScorebookError
from .models import Game

HEADER = "X-Game-Key"
# The field of the API's answer that hands a new game's key over, once.
ANSWER_FIELD = "key"
# A write to a game, on the pages and the API: "game 12", or "new game".
GAMES = writeonce.Scope("game", "game_id")
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


# --- The keys a tablet holds: one signed cookie for all its games --------------------------

# The cookie that holds every game's key this browser edits, `12:<key>~7:<key>…`, newest first,
# signed with the app's secret. On the score book's own HTTPS it is `__Host-game_keys` (as the
# session is `__Host-session`): a secure cookie of the plain name would keep the plain address
# from ever storing a key again.
COOKIE = "game_keys"
# The cookie's value stays under this many bytes, far under the 4 KiB a browser keeps for one
# cookie and any server's header limit, whatever the number of games: about 125 games' keys. The
# oldest fall out first; that tablet then watches those games, and their edit link (or
# `flask --app scorekeeper game-key`) makes it their scorekeeper again.
COOKIE_BUDGET = 3500
_SALT = "scorekeeper game keys"
_ENTRY = re.compile(r"([0-9]{1,11}):([A-Za-z0-9_-]{1,128})")
# Before one cookie held them all, each game's key had a cookie of its own, `gk_<id>`: still
# read, and dropped once the one cookie holds them.
LEGACY_PREFIX = "gk_"


def _signer() -> Signer:
    return Signer(current_app.secret_key, salt=_SALT, digest_method=hashlib.sha256)


def cookie_name() -> str:
    """The one cookie's name for this request: `__Host-game_keys` on the score book's own HTTPS."""
    return security.host_only_name(COOKIE)


def held(request: Request) -> dict[int, str]:
    """Every game id and key this browser holds, newest first: the one cookie's (the secure one
    first, when both come), then any older `gk_<id>` cookies', highest id first. Every reader of
    a tablet's keys asks here; a cookie whose signature is not this app's holds nothing."""
    found: dict[int, str] = {}
    for name in dict.fromkeys((cookie_name(), COOKIE)):
        for game_id, key in _unsigned(request.cookies.get(name, "")).items():
            found.setdefault(game_id, key)
    for game_id, key in sorted(_legacy(request).items(), reverse=True):
        found.setdefault(game_id, key)
    return found


def from_cookie(request: Request, game_id: int) -> str | None:
    """The key this browser holds for the game, if any."""
    return held(request).get(game_id)


def _unsigned(value: str) -> dict[int, str]:
    """The games and keys of a cookie value signed here; nothing for any other value."""
    try:
        payload = _signer().unsign(value).decode("ascii")
    except (BadSignature, UnicodeDecodeError):
        return {}
    return entries(payload)


def entries(payload: str) -> dict[int, str]:
    """`12:<key>~7:<key>` read back, in order; a part that is not one is skipped."""
    found: dict[int, str] = {}
    for part in payload.split("~"):
        if (entry := _ENTRY.fullmatch(part)) is not None:
            found.setdefault(int(entry.group(1)), entry.group(2))
    return found


def _legacy(request: Request) -> dict[int, str]:
    """The keys of the older per-game cookies, `gk_<id>`."""
    found = {}
    for name, value in request.cookies.items():
        number = name.removeprefix(LEGACY_PREFIX)
        if number != name and number.isdigit() and len(number) < 12 and value:
            found[int(number)] = value
    return found


def set_cookie(response: Response, request: Request, game_id: int, key: str) -> Response:
    """Give this browser the game's key: the one cookie again, this game's key first, the oldest
    dropped past the budget; HttpOnly, SameSite=Lax, kept for a long evening and more. The
    older per-game cookies it carried are folded in and deleted."""
    return set_cookies(response, request, {game_id: key})


def set_cookies(response: Response, request: Request, given: dict[int, str]) -> Response:
    """Give this browser several games' keys at once (a club night's tables), in one cookie,
    the first of `given` newest (see `set_cookie`)."""
    newest = {**given, **{other: k for other, k in held(request).items() if other not in given}}
    _put(response, request, cookie_name(), _signed(newest))
    for old in _legacy(request):
        _put(response, request, f"{LEGACY_PREFIX}{old}", "", max_age=0)
    return response


def _signed(newest: dict[int, str]) -> str:
    """The games' keys signed, as many of the newest as the budget holds."""
    signer = _signer()
    parts: list[str] = []
    size = len(signer.sign(b"").decode("ascii"))
    for game_id, key in newest.items():
        part = f"{game_id}:{key}"
        if _ENTRY.fullmatch(part) is None:
            continue  # not a key this app makes (a legacy cookie's odd value)
        size += len(part) + 1
        if size > COOKIE_BUDGET:
            break
        parts.append(part)
    return signer.sign("~".join(parts).encode("ascii")).decode("ascii")


def _put(response: Response, request: Request, name: str, value: str, max_age=COOKIE_MAX_AGE):
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=paths.cookie_path(name),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


def handed(response: Response) -> tuple[int, str] | None:
    """The game id and key this answer hands the browser (see `set_cookie`): the newest of the
    cookie it sets; None when it sets none (or an empty one)."""
    for line in response.headers.getlist("Set-Cookie"):
        name, _sep, rest = line.partition("=")
        if name in (COOKIE, security.HOST_ONLY + COOKIE):
            newest = _unsigned(rest.split(";", 1)[0])
            return next(iter(newest.items()), None)
    return None


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


def request_key(game_id: int) -> str | None:
    """The edit key this request holds for the game: the API's `X-Game-Key` header, a page's
    cookie."""
    return request.headers.get(HEADER) if is_api_request() else from_cookie(request, game_id)


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
            key = request_key(game_id)
            if api and game.key_hash is None:
                raise NotEditor(
                    _(
                        "game %(game)s has no edit key yet: make one with `flask --app "
                        "scorekeeper game-key %(game)s` on the machine serving the app",
                        game=game_id,
                    ),
                    403,
                    game,
                )
            if api and not key:
                raise NotEditor(
                    _(
                        "this game needs its edit key: send it in the %(header)s header",
                        header=HEADER,
                    ),
                    401,
                    game,
                )
            if not matches(game.key_hash, key):
                raise NotEditor(
                    _(
                        "the key in %(header)s is not the edit key of game %(game)s",
                        header=HEADER,
                        game=game_id,
                    ),
                    403,
                    game,
                )
            g.game, g.key = game, key
            return view(*args, **kwargs)

        return checked

    return decorate(view) if view is not None else decorate


def write_hooks() -> writeonce.Hooks:
    """What every write-once route shares: an API request's edit key is part of what it asks,
    a new game's key is never kept in clear (left out of the API's kept answer, sealed for the
    repeat of a page's form, whose cookie gets it again), and the score book's refusals."""
    return writeonce.Hooks(
        held=HEADER,
        secrets=(ANSWER_FIELD,),
        handed=handed,
        hand=set_cookie,
        refused=ScorebookError,
        unsaved=Conflict,
        gone=NoSuchGame,
    )
