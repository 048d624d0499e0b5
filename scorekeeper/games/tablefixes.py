"""The table's corrections to a game itself, beside the rounds: a misspelt name put right,
and a game ended after any round (and that end taken back).

Like `service`, which the pages and the JSON API both call for these too, every write is
flushed here and committed by the route that asked for it (`writeonce.write_once`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from ..platform.database import db
from .errors import Conflict, ScorebookError
from .models import Game, Rename, utcnow
from .names import clean_name, name_key, rename_problems, seat_of
from .service import finished

# --- Renames ---------------------------------------------------------------------------


def rename_players(
    game: Game, renamed: Mapping[int, str], seen: Mapping[int, str] | None = None
) -> list[Rename]:
    """Give seats new names under the name rules of a new game (each shows as written and
    differs from every other seat's by more than case, accents or look-alike letters); the
    history keeps each former name (`Rename`). `seen` is each seat's name as the caller read
    it: a seat renamed meanwhile on another device is `Conflict`, nothing stored. Every
    problem is named at once (`ScorebookError.problems`, by seat). A name written as it
    already is changes nothing; the renames made are returned."""
    current = game.names
    beyond = sorted(seat for seat in {*renamed, *(seen or {})} if not 0 <= seat < len(current))
    if beyond:
        raise ScorebookError(f"there is no seat {beyond[0] + 1}: the game has {len(current)}")
    for seat, name in (seen or {}).items():
        if current[seat] != name:
            raise Conflict(
                f"{name} was renamed {current[seat]} meanwhile on another device; nothing was "
                "saved: reload and try again"
            )
    problems = _rename_problems(game, renamed)
    if problems:
        message = "; ".join(f"{current[seat]}: {text}" for seat, text in problems.items())
        raise ScorebookError(message, problems=problems)
    changes = {
        seat: clean_name(name)
        for seat, name in renamed.items()
        if clean_name(name) != current[seat]
    }
    players = [player for player in game.players if player.seat in changes]
    made = []
    with db.session.no_autoflush:
        for player in players:  # keys freed first: two seats may swap names
            player.name_key = f"#renaming {player.seat}"
    _flush_game(game)
    with db.session.no_autoflush:
        for player in players:
            made.append(Rename(seat=player.seat, before=player.name, after=changes[player.seat]))
            player.name, player.name_key = changes[player.seat], name_key(changes[player.seat])
        game.renames.extend(made)
    _flush_game(game)
    return made


def _rename_problems(game: Game, renamed: Mapping[int, str]) -> dict[int, str]:
    """What the name rules say against each new name, by seat."""
    return rename_problems(game.names, [player.name_key for player in game.players], renamed)


def rename_by_name(game: Game, renamed: Mapping[str, Any]) -> list[Rename]:
    """`{"Bbo": "Bob"}`: each player named as they are now (any spelling that looks alike)
    gets the new name (`rename_players`). Every problem is named at once: an unknown player, a
    seat given twice, a new name that is not text or breaks the name rules. A player named as
    they were before a rename made meanwhile on another device is `Conflict`."""
    seats: dict[int, str] = {}
    problems: list[str] = []
    moved: list[str] = []
    for old, new in renamed.items():
        try:
            seat = seat_of(game, old)
        except ScorebookError as error:
            if (now := _renamed_from(game, old)) is None:
                problems.append(error.message)
            else:
                moved.append(f"{old} was renamed {now} meanwhile on another device")
            continue
        if not isinstance(new, str):
            problems.append(f"the new name of {game.names[seat]} must be text")
        elif seat in seats:
            problems.append(f"{game.names[seat]} is given twice")
        else:
            seats[seat] = new
    problems += [
        f"{game.names[seat]}: {text}" for seat, text in _rename_problems(game, seats).items()
    ]
    if problems:
        raise ScorebookError("; ".join(problems))
    if moved:
        raise Conflict("; ".join(moved) + "; nothing was saved: reload and try again")
    return rename_players(game, seats)


def _renamed_from(game: Game, name: str) -> str | None:
    """The name now of the seat that was called `name` before a rename, if one was."""
    for rename in reversed(game.renames):
        if rename.before == clean_name(name) or name_key(rename.before) == name_key(name):
            return game.names[rename.seat]
    return None


def end_early(game: Game, after: int | None = None) -> Game:
    """End the game after the rounds played (at least one): its leaders win, ties sharing
    (R10). `after` is the last round as the caller saw it: `Conflict` when another round was
    recorded or undone meanwhile, or the game is over already."""
    played = len(game.rounds)
    if after is not None and after < 1:
        raise ScorebookError(f"a game ends after round 1 at the earliest, not after round {after}")
    if game.finished:
        raise finished(game)
    if not played:
        raise ScorebookError(f"game {game.id} has no round yet: record round 1 before ending it")
    if after is not None and after != played:
        raise Conflict(
            f"round {played} is the last one recorded now, not round {after} (it changed "
            "meanwhile on another device); nothing was saved: reload and try again"
        )
    game.ended_after, game.finished_at = played, utcnow()
    _flush_game(game)
    return game


def resume_game(game: Game) -> Game:
    """Take back an early end: the game goes on from the next round. `Conflict` for a game
    not ended early, or one a new game was played from (that game started from this result)."""
    if not game.ended_early:
        raise Conflict(f"game {game.id} was not ended early: there is no early end to take back")
    if game.played_again_at is not None:
        raise Conflict(
            f"game {game.id} stays ended after round {game.ended_after}: the table played again "
            "from it, and that game started from this result"
        )
    game.ended_after, game.finished_at = None, None
    _flush_game(game)
    return game


def _flush_game(game: Game) -> None:
    """Write a change to the game itself; a lost race with another device becomes `Conflict`."""
    try:
        db.session.flush()
    except (IntegrityError, StaleDataError):
        db.session.rollback()
        raise Conflict(
            f"game {game.id} was changed meanwhile on another device; nothing was saved: "
            "reload and try again"
        ) from None
