"""The phones' stamp (`platform.cache`), and the tag of the seats' state read without the game.

The tablet collecting the hands asks for the seats' state every second (`views.state`), and
nearly always nothing moved. So its tag is read in two small statements, and an unchanged poll
is answered 304 before anything of the game is loaded: its players, rounds, scores and history
are read only when the tag moves.

What the seats' state shows rests on three kinds of rows:

- the game's own (its players' names, its rounds and their history, whether it is finished,
  archived or gone): the game's stamp, the score book's (`ledger.stamp_name`), read with the
  game's key hash by primary keys (`seats_stamps`);
- the round's openings (opened, closed): the game's `phones` stamp, registered here, read in the
  same statement;
- the seats (one taken or released, a hand sent): their rows themselves, a few by the round's
  index (`seat_rows`: each seat's number, whether a phone holds it, how many sends changed its
  hand). A phone's send writes its seat and nothing more, so eight phones sending at once write
  eight rows, never a shared one, and wait for nothing of each other's.

A change moves its stamp, or is its own row, in the transaction that commits it, in this process
or another, so the first poll after the commit reads a new tag. The tag is read before the state
it tags: a state read after a change, under the tag of before it, is answered once more at the
next poll (a 200 too many), never the reverse (a stale state under a current tag).
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


def init_app(app: Flask) -> None:
    cache.stamp_rows(app, stamped)


def stamp_name(game_id: int) -> str:
    """The stamp of a game's openings."""
    return f"phones {game_id}"


def stamped(row: object) -> tuple[str, ...]:
    """The phones' stamp a row moves: an opening its game's (a seat is read as it is)."""
    if isinstance(row, RoundOpening) and row.game_id is not None:
        return (stamp_name(row.game_id),)
    return ()


def stamp_names(game_id: int) -> tuple[str, ...]:
    """The stamps the seats' state of a game rests on: the game's, its openings'."""
    return (ledger.stamp_name(game_id), stamp_name(game_id))


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


def seat_rows(game_id: int, number: int) -> tuple[tuple, ...]:
    """Each seat of round `number`'s openings still open, in one statement by the round's index:
    (opening, seat, whether a phone holds it, how many sends changed its hand)."""
    return tuple(
        tuple(row)
        for row in db.session.execute(
            db.select(
                PhoneHand.opening_id,
                PhoneHand.seat,
                PhoneHand.token_hash.is_not(None),
                PhoneHand.sends,
            )
            .join(RoundOpening, RoundOpening.id == PhoneHand.opening_id)
            .where(
                RoundOpening.game_id == game_id,
                RoundOpening.number == number,
                RoundOpening.closed_at.is_(None),
            )
            .order_by(PhoneHand.opening_id, PhoneHand.seat)
        )
    )


def seats_tag(stamps: tuple, seats: tuple, number: int, root_url: str) -> str:
    """The tag of round `number`'s seats' state under these stamps and seats, as answered at
    `root_url` (the phones' address in it is this address's)."""
    return _digest((stamps, seats, number, root_url))


def answer_tag(answer: dict[str, Any]) -> str:
    """A tag made from the answer itself: for a database without stamps."""
    return _digest(json.dumps(answer, sort_keys=True))


def _digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]
