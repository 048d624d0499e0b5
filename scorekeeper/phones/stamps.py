"""The phones' stamps (`platform.cache`), and the tag of the seats' state read from stamps alone.

The tablet collecting the hands asks for the seats' state every second (`views.state`), and
nearly always nothing moved. So its tag is made from stamps, read with the game's key hash in
one statement by primary keys (`seats_stamps`), and an unchanged poll is answered 304 before
anything of the game is loaded: its players, rounds, scores and history are read only when the
tag moves.

What the seats' state shows rests on two kinds of rows, and each moves a stamp:

- the game's own (its players' names, its rounds and their history, whether it is finished,
  archived or gone): the game's stamp, the score book's (`ledger.stamp_name`);
- the phones' (a round opened or closed, a seat taken or released, a hand sent): the game's
  phones' stamps, registered here. An opening moves the game's `phones` stamp; a seat moves one
  of `SEAT_STAMPS` more (its seat number modulo it), so phones sending their hands at once count
  stamps of their own at commit and never wait for each other's, as they never wait for each
  other's seat rows (`service`). The poll reads them all: a fixed number of rows by key,
  whatever the number of seats.

A change moves its stamps in the transaction that commits it (`platform.cache`), in this process
or another, so the first poll after the commit reads a new tag. The stamps are read before the
state they tag: a state read after a change, under the stamps of before it, is answered once
more at the next poll (a 200 too many), never the reverse (a stale state under a current tag).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import Flask

from ..games import ledger
from ..games.models import Game
from ..platform import cache, database
from ..platform.database import db
from .models import PhoneHand, RoundOpening

# The stamps a game's seats are spread over (seat 9 moves the stamp of seat 1).
SEAT_STAMPS = 8


def init_app(app: Flask) -> None:
    cache.stamp_rows(app, stamped)


def stamp_name(game_id: int) -> str:
    """The stamp of a game's openings."""
    return f"phones {game_id}"


def seat_stamp_name(game_id: int, seat: int) -> str:
    """The stamp a game's seat moves (shared with the seats `SEAT_STAMPS` away)."""
    return f"phones {game_id} seat {seat % SEAT_STAMPS}"


def stamped(row: object) -> tuple[str, ...]:
    """The phones' stamp a row moves: an opening its game's, a seat its own."""
    if isinstance(row, RoundOpening):
        return (stamp_name(row.game_id),) if row.game_id is not None else ()
    if isinstance(row, PhoneHand):
        # A seat is always reached through its opening, in the session already.
        opening = row.opening
        if opening is None or opening.game_id is None:
            return ()
        return (seat_stamp_name(opening.game_id, row.seat),)
    return ()


def stamp_names(game_id: int) -> tuple[str, ...]:
    """Every stamp the seats' state of a game rests on: the game's, its phones'."""
    seats = (seat_stamp_name(game_id, seat) for seat in range(SEAT_STAMPS))
    return (ledger.stamp_name(game_id), stamp_name(game_id), *seats)


def seats_stamps(game_id: int) -> tuple[str | None, tuple] | None:
    """(the game's key hash, the stamps its seats' state rests on) in one statement by primary
    keys; None: no such game, or a database without stamps (nothing may then be tagged by them)."""
    if game_id not in database.id_range():
        return None
    names = stamp_names(game_id)
    found = db.session.execute(
        db.select(Game.key_hash, cache.Stamp.name, cache.Stamp.generation, cache.Stamp.changes)
        .outerjoin(cache.Stamp, cache.Stamp.name.in_((*names, cache.DATABASE)))
        .where(Game.id == game_id)
    ).all()
    if not found:
        return None
    rows = [row[1:] for row in found]
    stamps = tuple(cache.chosen(rows, name) for name in names)
    if None in stamps:
        return None
    return found[0][0], stamps


def seats_tag(stamps: tuple, number: int, root_url: str) -> str:
    """The tag of round `number`'s seats' state under these stamps, as answered at `root_url`
    (the phones' address in it is this address's)."""
    return _digest((stamps, number, root_url))


def answer_tag(answer: dict[str, Any]) -> str:
    """A tag made from the answer itself: for a database without stamps."""
    return _digest(json.dumps(answer, sort_keys=True))


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]
