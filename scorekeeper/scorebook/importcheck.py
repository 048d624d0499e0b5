"""The checks an export document passes before `transfer.import_games` stores any of it.

Every game is rebuilt from its parts and scored again by the engine: the document must agree
with the rules (seats, dealers, cut bonus, penalties, copy limits, winners) and with itself
(rounds, history, times), and the first problem is named with its place in the document. The
parts and their fields are the ones `exportformat` defines and `transfer` writes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from .. import database
from ..rules import LAST_ROUND, RulesError, get_profile
from ..rules.scoring import parse_leftovers
from . import ledger, service
from .errors import ImportRefused, ScorebookError
from .exportformat import (
    CHANGE,
    DOCUMENT_FIELDS,
    FORMAT,
    FORMAT_VERSION,
    GAME,
    PLAYER,
    ROUND,
    SCORE_LINE,
    SNAPSHOT,
    Field,
    Kind,
    Part,
    exported_time,
)
from .models import Game, Player, Round, RoundChange, RoundScore
from .names import clean_names, name_key
from .snapshot import RoundSnapshot

KEY_HASH = re.compile(r"[0-9a-f]{64}")
# Every stored time lies in these years: any other was typed by hand, or is a broken clock.
EARLIEST = datetime(1970, 1, 1)
LATEST = datetime(2200, 12, 31, 23, 59, 59, 999999)
# A game's last round is written a moment after the game is marked finished.
FINISH_SLACK = timedelta(seconds=5)


class _Checker:
    """Walks the document, naming the place of the first problem found (games[2].rounds[0]...)."""

    def __init__(self, path: str):
        self.path = path

    def at(self, part: str | int) -> _Checker:
        return _Checker(f"{self.path}[{part}]" if isinstance(part, int) else f"{self.path}.{part}")

    def fail(self, problem: str) -> ImportRefused:
        return ImportRefused(f"{self.path} {problem}: nothing was imported")

    def object(
        self, value: Any, fields: frozenset[str], optional: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """A JSON object with exactly these fields (`optional` ones may be left out: documents
        made before they existed), so nothing is silently dropped or guessed."""
        if not isinstance(value, dict):
            raise self.fail("must be an object")
        missing = sorted(fields - optional - value.keys())
        if missing:
            raise self.fail(f"lacks {', '.join(missing)}")
        extra = sorted(set(value) - fields)
        if extra:
            raise self.fail(f"has unknown field{'s' if len(extra) > 1 else ''} {', '.join(extra)}")
        return value

    def list(self, value: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail("must be a list")
        return value

    def whole(self, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail("must be a whole number")
        if not low <= value <= high:
            shown = value if abs(value) < 10**20 else f"a number of {len(str(abs(value)))} digits"
            raise self.fail(f"must be from {low} to {high}, not {shown}")
        return value

    def flag(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail("must be true or false")
        return value

    def text(self, value: Any, limit: int) -> str:
        if not isinstance(value, str):
            raise self.fail("must be text")
        if len(value) > limit:
            raise self.fail(f"is longer than {limit} characters")
        return value

    def time(self, value: Any) -> datetime:
        if not isinstance(value, str) or not value.endswith("Z"):
            raise self.fail("must be a UTC time like 2025-01-31T20:15:00.000000Z")
        try:
            moment = datetime.fromisoformat(value[:-1])
        except ValueError:
            raise self.fail(f"is not a time: {value[:40]!r}") from None
        if moment.tzinfo is not None:
            raise self.fail("must be a UTC time marked only with Z")
        if not EARLIEST <= moment <= LATEST:
            raise self.fail(f"must be a time from {EARLIEST.year} to {LATEST.year}, not {value}")
        return moment

    def cards(self, value: Any) -> str:
        text = self.text(value, 400)
        try:
            parse_leftovers(text)
        except RulesError as error:
            raise self.fail(f"holds cards the app cannot read ({error})") from None
        return text


def check_document(data: Any) -> list[Game]:
    """The games of a document, built but not stored, or `ImportRefused` naming the problem."""
    top = _Checker("the document")
    document = top.object(data, DOCUMENT_FIELDS)
    if document["format"] != FORMAT:
        raise top.at("format").fail(f"must be {FORMAT!r}: this is not a score book export")
    version = document["format_version"]
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise top.at("format_version").fail(
            f"is {version!r}, and this app reads version {FORMAT_VERSION}: use a matching app"
        )
    check = _Checker("games")
    games = []
    seen: set[int] = set()
    for index, item in enumerate(check.list(document["games"])):
        game = _check_game(check.at(index), item)
        if game.id in seen:
            raise check.at(index).at("id").fail(f"repeats game {game.id}")
        seen.add(game.id)
        games.append(game)
    return games


# --- Reading a part by its fields ----------------------------------------------------------


def _read(
    check: _Checker, part: Part, data: dict[str, Any], seats: int, names: Iterable[str] = ()
) -> dict[str, Any]:
    """The part's fields (only `names`, if given) checked by their kind, as its model's columns.

    A field added later in the format's version is its default when the document lacks it.
    """
    wanted = set(names) or part.names
    return {
        item.name: _value(check.at(item.name), item, data[item.name], seats)
        if item.name in data or not item.later
        else item.default
        for item in part.fields
        if item.name in wanted
    }


def _value(check: _Checker, item: Field, value: Any, seats: int) -> Any:
    """One field's value, checked as its kind says, or `ImportRefused` naming its place."""
    if value is None and item.empty:
        return None
    kind = item.kind
    if kind is Kind.WHOLE:
        return check.whole(value, item.low, item.high)
    if kind is Kind.SEAT:
        return check.whole(value, 0, seats - 1)
    if kind is Kind.FLAG:
        return check.flag(value)
    if kind is Kind.TEXT:
        return check.text(value, item.high)
    if kind is Kind.CARDS:
        return check.cards(value)
    if kind is Kind.TIME:
        return check.time(value)
    return _STRUCTURED[kind](check, item, value, seats)


def _game_id(check: _Checker, item: Field, value: Any, seats: int) -> int:
    return check.whole(value, 1, database.id_range()[-1])


def _profile(check: _Checker, item: Field, value: Any, seats: int) -> str:
    try:
        profile = get_profile(check.text(value, item.high))
    except RulesError as error:
        raise check.fail(str(error)) from None
    if profile.preset != value:
        raise check.fail(f"must be written {profile.preset!r}")
    return value


def _choice(check: _Checker, item: Field, value: Any, seats: int) -> str:
    if value not in item.choices or not isinstance(value, str):
        raise check.fail("must be " + " or ".join(map(repr, item.choices)))
    return value


def _hash(check: _Checker, item: Field, value: Any, seats: int) -> str:
    if not (isinstance(value, str) and KEY_HASH.fullmatch(value)):
        raise check.fail(
            ("must be null or " if item.empty else "must be ") + "a sha256 hash in lowercase hex"
        )
    return value


def _per_seat(check: _Checker, item: Field, value: Any, seats: int) -> list[Any]:
    values = check.list(value)
    if len(values) != seats:
        raise check.fail(f"must hold {item.why or 'one entry'} for each of the {seats} players")
    assert item.of is not None
    entry = Field(item.name, item.of)
    return [_value(check.at(seat), entry, each, seats) for seat, each in enumerate(values)]


def _parts(check: _Checker, item: Field, value: Any, seats: int) -> list[Any]:
    assert item.part is not None
    read = _ROWS[item.part.name]
    return [
        read(check.at(index), each, seats, index) for index, each in enumerate(check.list(value))
    ]


def _snapshot(check: _Checker, item: Field, value: Any, seats: int) -> dict[str, Any]:
    """A round as the history keeps it: the page describes it, so every part must be there."""
    data = check.object(value, SNAPSHOT.names, SNAPSHOT.later)
    values = _read(check, SNAPSHOT, data, seats)
    # A field kept only when one hand was counted is never there all false.
    for key in SNAPSHOT.later & data.keys():
        if not any(values[key]):
            raise check.at(key).fail(
                f"must hold one true or false for each of the {seats} players, one true at least"
            )
    return RoundSnapshot(**values).to_dict()


_STRUCTURED: dict[Kind, Callable[[_Checker, Field, Any, int], Any]] = {
    Kind.GAME_ID: _game_id,
    Kind.PROFILE: _profile,
    Kind.CHOICE: _choice,
    Kind.HASH: _hash,
    Kind.PER_SEAT: _per_seat,
    Kind.PARTS: _parts,
    Kind.SNAPSHOT: _snapshot,
    # The place is checked by the part's reader, which knows it (see `_row`).
    Kind.INDEX: lambda check, item, value, seats: value,
}


def _row(
    check: _Checker, part: Part, item: Any, seats: int, index: int, names: Iterable[str] = ()
) -> dict[str, Any]:
    """A part's object: exactly its fields, each checked, its place where it has one."""
    data = check.object(item, part.names, part.later)
    for each in part.fields:
        if each.kind is Kind.INDEX:
            place = data[each.name]
            if place != index or isinstance(place, bool):
                raise check.at(each.name).fail(f"must be {index}: {each.why}")
    return _read(check, part, data, seats, names)


# --- The parts -----------------------------------------------------------------------------


def _check_game(check: _Checker, item: Any) -> Game:
    # The players first: the other fields are checked against the table they make.
    first = ("id", "profile", "players")
    values = _row(check, GAME, item, 0, 0, first)
    players: list[Player] = values["players"]
    _check_names(check.at("players"), [player.name for player in players])
    try:
        get_profile(values["profile"]).check_players(len(players))
    except RulesError as error:
        raise check.at("players").fail(str(error)) from None
    values |= _read(check, GAME, item, len(players), GAME.names - set(first))
    numbers = [played.number for played in values["rounds"]]
    if numbers != list(range(1, len(numbers) + 1)):
        raise check.at("rounds").fail(f"must be rounds 1, 2, 3… in order, not {numbers}")
    if (values["finished_at"] is not None) != (len(numbers) == LAST_ROUND):
        raise check.at("finished_at").fail(
            f"must be set exactly when all {LAST_ROUND} rounds are in (there are {len(numbers)})"
        )
    game = Game(**values)
    _rescore(check, game)
    return game


def _check_player(check: _Checker, item: Any, seats: int, index: int) -> Player:
    values = _row(check, PLAYER, item, seats, index)
    return Player(**values, name_key=name_key(values["name"]))


def _check_names(check: _Checker, names: list[str]) -> None:
    try:
        cleaned = clean_names(names)
    except ScorebookError as error:
        raise check.fail(error.message) from None
    for index, (name, clean) in enumerate(zip(names, cleaned, strict=True)):
        if name != clean:
            raise check.at(index).at("name").fail(f"must be written {clean!r}, as the app keeps it")


def _check_line(check: _Checker, item: Any, seats: int, index: int) -> RoundScore:
    values = _row(check, SCORE_LINE, item, seats, index)
    total = values["penalty"] + values["bonus"]
    if values["score"] != total:
        raise check.at("score").fail(f"must be penalty + bonus = {total}")
    return RoundScore(**values)


def _check_round(check: _Checker, item: Any, seats: int, index: int) -> Round:
    values = _row(check, ROUND, item, seats, index)
    if len(values["scores"]) != seats:
        raise check.at("scores").fail(f"must hold one line for each of the {seats} players")
    return Round(**values)


def _check_change(check: _Checker, item: Any, seats: int, index: int) -> RoundChange:
    values = _row(check, CHANGE, item, seats, index, CHANGE.names - {"after"})
    after = item["after"]
    if values["action"] == "undone":
        if after is not None:
            raise check.at("after").fail("must be null for an undone round")
        return RoundChange(**values, after=None)
    return RoundChange(
        **values, after=_snapshot(check.at("after"), CHANGE.field("after"), after, seats)
    )


_ROWS: dict[str, Callable[[_Checker, Any, int, int], Any]] = {
    PLAYER.name: _check_player,
    ROUND.name: _check_round,
    SCORE_LINE.name: _check_line,
    CHANGE.name: _check_change,
}


# --- What the engine says --------------------------------------------------------------------


def _rescore(check: _Checker, game: Game) -> None:
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
    _check_history(check, game)


def _agrees(
    check: _Checker, said: str, game: Game, number: int, stored: RoundSnapshot, *, lines: bool
) -> None:
    """The stored round (or history snapshot) is what the engine makes of its own entry.

    `lines`: the place is a round's, one line per seat (scores[1].penalty), not a history
    snapshot's, one list per field (penalties[1]).
    """
    counted = stored.counted_seats
    entry = service.RoundEntry(
        out=stored.out,
        leftovers={seat: text for seat, text in enumerate(stored.leftovers) if seat not in counted},
        cut_exact=stored.cut_exact,
        points={seat: stored.penalties[seat] for seat in counted},
    )
    try:
        scored = service.score_entry(game, number, entry)
    except ScorebookError as error:
        seat = next(iter(error.problems))
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


def _check_history(check: _Checker, game: Game) -> None:
    """Each round's corrections and undos follow one another and end where the ledger is."""
    if game.finished_at is not None and game.finished_at < game.created_at:
        raise check.at("finished_at").fail(f"(game {game.id}) is before the game was created")
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
