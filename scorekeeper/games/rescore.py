"""An imported game scored again by the engine, under the game's own rules, before it is stored.

`importcheck` has read the document's shape; here every round and history entry must be what
the engine makes of its own entry (seats, dealers, cut bonus, penalties, copy limits) and the
history must follow itself to where the ledger is. The first problem is named with its place in
the document (`games[0].rounds[3].scores[1].penalty`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol

from . import ledger, service
from .errors import ImportRefused, ScorebookError
from .exportformat import exported_time
from .models import Game, Round
from .roundvalues import RoundEntry, RoundSnapshot


class _Checker(Protocol):
    """A place in the document (`importcheck`'s checker): go deeper, or refuse naming it."""

    def at(self, part: str | int) -> _Checker: ...

    def fail(self, problem: str) -> ImportRefused: ...


# A game's last round is written a moment after the game is marked finished.
FINISH_SLACK = timedelta(seconds=5)


def rescore(check: _Checker, game: Game) -> None:
    """Score every round and history entry again with the engine, as the API would, and refuse
    the first thing stored that is not what the engine computes (`ImportRefused` naming the
    game, the round and the field)."""
    for index, played in enumerate(game.rounds):
        where = check.at("rounds").at(index)
        said = f"(game {game.id}, round {played.number})"
        setup = ledger.setup_for(game, played.number)
        for name, seat in (("dealer", setup.dealer), ("cutter", setup.cutter)):
            if getattr(played, name) != seat:
                raise where.at(name).fail(
                    f"{said} must be {seat} ({game.names[seat]}), the {name} of round "
                    f"{played.number} when seat {game.first_dealer} deals first (R2)"
                )
        stored = RoundSnapshot.of_round(played)
        _agrees(where, said, game, played.number, stored, lines=True)
        _check_times(where, said, game, played)
    _check_game_times(check, game)
    _check_history(check, game)


def _agrees(
    check: _Checker, said: str, game: Game, number: int, stored: RoundSnapshot, *, lines: bool
) -> None:
    """The stored round (or history snapshot) is what the engine makes of its own entry.

    `lines`: the place is a round's, one line per seat (scores[1].penalty), not a history
    snapshot's, one list per field (penalties[1]).
    """
    counted = stored.counted_seats
    entry = RoundEntry.typed(
        stored.out,
        {seat: text for seat, text in enumerate(stored.leftovers) if seat not in counted},
        {seat: stored.penalties[seat] for seat in counted},
        cut_exact=stored.cut_exact,
    )
    try:
        # The buys are the table's own count, kept as stored: nothing the engine scores.
        scored = service.score_entry(game, number, entry, stored.buys)
    except ScorebookError as error:
        seat = next(iter(error.problems))
        if isinstance(seat, tuple):
            seat = seat[0]  # cards that several hands hold too many of together: the first
        place = check if seat is None else _place(check, "leftovers", seat, lines)
        raise place.fail(f"{said} is refused by the rules: {error.message}") from None
    for seat, hand in enumerate(scored.counted):
        if hand != (seat in counted):
            raise _place(check, "counted", seat, lines).fail(
                f"{said} must be {str(hand).lower()} for {game.names[seat]}: "
                + ("a hand counted in points" if hand else "the player went out")
            )
    computed = RoundSnapshot.of_scored(entry, scored, stored.version)
    for key in RoundSnapshot.LINES:
        for seat, (value, was) in enumerate(
            zip(getattr(computed, key), getattr(stored, key), strict=True)
        ):
            if was != value:
                raise _place(check, key, seat, lines).fail(
                    f"{said} must be {value!r} for {game.names[seat]}, as the rules score "
                    f"this round (R10), not {was!r}"
                )


def _place(check: _Checker, key: str, seat: int, lines: bool) -> _Checker:
    """Where a seat's value of the snapshot's list `key` is: in the history, or a round's line."""
    if not lines:
        return check.at(key).at(seat)
    return check.at("scores").at(seat).at(RoundSnapshot.LINES[key])


def _check_times(check: _Checker, said: str, game: Game, played: Round) -> None:
    """Created, then recorded, then corrected; finished after the rounds."""
    if played.recorded_at < game.created_at:
        raise check.at("recorded_at").fail(f"{said} is before the game was created")
    if played.corrected_at is not None and played.corrected_at < played.recorded_at:
        raise check.at("corrected_at").fail(f"{said} is before the round was recorded")
    finished = game.finished_at
    if finished is not None and played.recorded_at > finished + FINISH_SLACK:
        raise check.fail(
            f"{said}: recorded_at is after the game finished ({exported_time(finished)})"
        )


def _check_game_times(check: _Checker, game: Game) -> None:
    """Finished, archived and played again after the game was created."""
    for field in ("finished_at", "archived_at", "played_again_at"):
        moment = getattr(game, field)
        if moment is not None and moment < game.created_at:
            raise check.at(field).fail(f"(game {game.id}) is before the game was created")


def _check_history(check: _Checker, game: Game) -> None:
    """Each round's corrections and undos follow one another and end where the ledger is."""
    last: dict[int, RoundSnapshot | None] = {}  # the round as its latest entry left it
    highest: dict[int, int] = {}  # the highest version each round number has had
    for index, change in enumerate(game.history):
        where = check.at("history").at(index)
        number = change.round_number
        said = f"(game {game.id}, round {number})"
        if change.changed_at < game.created_at:
            raise where.at("changed_at").fail(f"{said} is before the game was created")
        before = RoundSnapshot.from_dict(change.before)
        _agrees(where.at("before"), said, game, number, before, lines=False)
        previous = last.get(number)
        expected = previous.version if previous else highest.get(number, 0) + 1
        if before.version != expected:
            raise (
                where.at("before")
                .at("version")
                .fail(f"{said} must be {expected}: the version the round had then")
            )
        if previous is not None and before != previous:
            raise where.at("before").fail(f"{said} is not the round as the entry before left it")
        versions = [before.version]
        if change.action == "corrected":
            after = RoundSnapshot.from_dict(change.after)
            _agrees(where.at("after"), said, game, number, after, lines=False)
            if after.version != before.version + 1:
                raise (
                    where.at("after")
                    .at("version")
                    .fail(f"{said} must be {before.version + 1}: a correction adds one")
                )
            versions.append(after.version)
            last[number] = after
        else:
            last[number] = None
        highest[number] = max(highest.get(number, 0), *versions)
    for index, played in enumerate(game.rounds):
        where = check.at("rounds").at(index)
        said = f"(game {game.id}, round {played.number})"
        corrected = last.get(played.number)
        if corrected is not None:
            if RoundSnapshot.of_round(played) != corrected:
                raise where.fail(f"{said} is not the round as its last correction in the history")
        elif played.version != highest.get(played.number, 0) + 1:
            raise where.at("version").fail(
                f"{said} must be {highest.get(played.number, 0) + 1}, after the history's versions"
            )
        if (corrected is not None) != (played.corrected_at is not None):
            raise where.at("corrected_at").fail(
                f"{said} must be set exactly when the history's last entry for the round "
                "is a correction"
            )
    recorded = {played.number for played in game.rounds}
    for number, state in last.items():
        if state is not None and number not in recorded:
            raise check.at("history").fail(
                f"(game {game.id}) corrects round {number} last, but the ledger has no round {number}"
            )
