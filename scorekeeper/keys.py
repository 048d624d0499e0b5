"""Edit keys: a random key per game, kept only as a hash, that every change to the game needs.

The tablet that starts a game gets the key (in a cookie, or in the API's 201 answer); another
tablet gets it through the game's edit link. Without it a device only watches.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import click
from flask import Flask, Request, Response
from flask.cli import with_appcontext

from .cli import needs_current_database
from .extensions import db

HEADER = "X-Game-Key"
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


def cookie_name(game_id: int) -> str:
    """One cookie per game, so a key for game A says nothing about game B."""
    return f"gk_{game_id}"


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


@click.command("game-key")
@click.argument("game_id", type=int)
@with_appcontext
@needs_current_database
def game_key_command(game_id: int) -> None:
    """Give a game a new edit key (the old one stops working) and print its edit link."""
    # For a game started before edit keys existed, or one whose tablet lost its key.
    from .database import id_range
    from .models import Game

    game = db.session.get(Game, game_id) if game_id in id_range() else None
    if game is None:
        raise click.ClickException(f"game {game_id} does not exist")
    key, game.key_hash = new_key()
    db.session.commit()
    path = f"/games/{game_id}/join?key={key}"
    click.echo(f"New edit key for game {game_id}; every other key for it stops working.")
    click.echo(f"Open http://<this machine's address>:<port>{path} on the tablet that keeps score.")


def register_cli(app: Flask) -> None:
    """Add `flask --app scorekeeper game-key GAME_ID`."""
    app.cli.add_command(game_key_command)
