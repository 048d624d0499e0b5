"""The checks an export document passes before `transfer.import_games` stores any of it.

Every game is rebuilt from its parts and scored again by the engine: the document must agree
with the rules (seats, dealers, cut bonus, penalties, copy limits, winners) and with itself
(rounds, history, times), and the first problem is named with its place in the document.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from .. import database
from ..rules import LAST_ROUND, RulesError, get_profile
from ..rules.scoring import parse_leftovers
from . import ledger, service
from .errors import ImportRefused, ScorebookError
from .models import Game, Player, Round, RoundChange, RoundScore
from .names import clean_names, name_key

FORMAT = "liverpool-scorekeeper/games"
FORMAT_VERSION = 1
# Far beyond any real score or version, and well inside SQLite's 64-bit integers.
NUMBER_LIMIT = 10**9
KEY_HASH = re.compile(r"[0-9a-f]{64}")
SNAPSHOT_KEYS = {"out", "cut_exact", "leftovers", "penalties", "bonus", "scores", "version"}
# Kept in a snapshot only when a hand was counted in points (see `service.snapshot`).
SNAPSHOT_COUNTED = frozenset({"counted"})
# Every stored time lies in these years: any other was typed by hand, or is a broken clock.
EARLIEST = datetime(1970, 1, 1)
LATEST = datetime(2200, 12, 31, 23, 59, 59, 999999)
# A game's last round is written a moment after the game is marked finished.
FINISH_SLACK = timedelta(seconds=5)


def exported_time(moment: datetime | None) -> str | None:
    """A stored UTC time to the microsecond, marked Z, so it comes back exactly."""
    return None if moment is None else moment.isoformat(timespec="microseconds") + "Z"


class _Checker:
    """Walks the document, naming the place of the first problem found (games[2].rounds[0]...)."""

    def __init__(self, path: str):
        self.path = path

    def at(self, part: str | int) -> _Checker:
        return _Checker(f"{self.path}[{part}]" if isinstance(part, int) else f"{self.path}.{part}")

    def fail(self, problem: str) -> ImportRefused:
        return ImportRefused(f"{self.path} {problem}: nothing was imported")

    def object(
        self, value: Any, fields: set[str], optional: frozenset[str] = frozenset()
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

    def whole(self, value: Any, low: int = -NUMBER_LIMIT, high: int = NUMBER_LIMIT) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail("must be a whole number")
        if not low <= value <= high:
            shown = value if abs(value) < 10**20 else f"a number of {len(str(abs(value)))} digits"
            raise self.fail(f"must be from {low} to {high}, not {shown}")
        return value

    def seat(self, value: Any, seats: int, *, empty: bool = False) -> int | None:
        if value is None and empty:
            return None
        return self.whole(value, 0, seats - 1)

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

    def time(self, value: Any, *, empty: bool = False) -> datetime | None:
        if value is None and empty:
            return None
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
    document = top.object(data, {"format", "format_version", "games"})
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


GAME_FIELDS = {
    "id",
    "profile",
    "first_dealer",
    "created_at",
    "finished_at",
    "key_hash",
    "archived_at",
    "players",
    "rounds",
    "history",
}
# Fields a document of the same format version may lack: it was exported before they existed.
GAME_FIELDS_LATER = frozenset({"archived_at"})
ROUND_FIELDS = {
    "number",
    "dealer",
    "cutter",
    "cut_exact",
    "out",
    "version",
    "recorded_at",
    "corrected_at",
    "scores",
}
SCORE_FIELDS = {"seat", "leftovers", "penalty", "bonus", "score", "counted"}
SCORE_FIELDS_LATER = frozenset({"counted"})
CHANGE_FIELDS = {"round_number", "action", "changed_at", "before", "after"}


def _check_game(check: _Checker, item: Any) -> Game:
    data = check.object(item, GAME_FIELDS, GAME_FIELDS_LATER)
    game_id = check.at("id").whole(data["id"], 1, database.id_range()[-1])
    try:
        profile = get_profile(check.at("profile").text(data["profile"], 20))
    except RulesError as error:
        raise check.at("profile").fail(str(error)) from None
    if profile.name != data["profile"]:
        raise check.at("profile").fail(f"must be written {profile.name!r}")
    names = _check_players(check.at("players"), data["players"])
    try:
        profile.check_players(len(names))
    except RulesError as error:
        raise check.at("players").fail(str(error)) from None
    seats = len(names)
    key_hash = data["key_hash"]
    if key_hash is not None and not (isinstance(key_hash, str) and KEY_HASH.fullmatch(key_hash)):
        raise check.at("key_hash").fail("must be null or a sha256 hash in lowercase hex")
    rounds = [
        _check_round(check.at("rounds").at(index), value, seats)
        for index, value in enumerate(check.at("rounds").list(data["rounds"]))
    ]
    numbers = [played.number for played in rounds]
    if numbers != list(range(1, len(rounds) + 1)):
        raise check.at("rounds").fail(f"must be rounds 1, 2, 3… in order, not {numbers}")
    finished_at = check.at("finished_at").time(data["finished_at"], empty=True)
    if (finished_at is not None) != (len(rounds) == LAST_ROUND):
        raise check.at("finished_at").fail(
            f"must be set exactly when all {LAST_ROUND} rounds are in (there are {len(rounds)})"
        )
    history = [
        _check_change(check.at("history").at(index), value, seats)
        for index, value in enumerate(check.at("history").list(data["history"]))
    ]
    game = Game(
        id=game_id,
        profile=profile.name,
        first_dealer=check.at("first_dealer").seat(data["first_dealer"], seats),
        created_at=check.at("created_at").time(data["created_at"]),
        finished_at=finished_at,
        key_hash=key_hash,
        archived_at=check.at("archived_at").time(data.get("archived_at"), empty=True),
        players=[
            Player(seat=seat, name=name, name_key=name_key(name)) for seat, name in enumerate(names)
        ],
        rounds=rounds,
        history=history,
    )
    _rescore(check, game)
    return game


def _check_players(check: _Checker, value: Any) -> list[str]:
    names = []
    for index, item in enumerate(check.list(value)):
        player = check.at(index).object(item, {"seat", "name"})
        if player["seat"] != index or isinstance(player["seat"], bool):
            raise check.at(index).at("seat").fail(f"must be {index}: seats are listed in order")
        names.append(check.at(index).at("name").text(player["name"], 200))
    try:
        cleaned = clean_names(names)
    except ScorebookError as error:
        raise check.fail(error.message) from None
    for index, (name, clean) in enumerate(zip(names, cleaned, strict=True)):
        if name != clean:
            raise check.at(index).at("name").fail(f"must be written {clean!r}, as the app keeps it")
    return names


def _check_round(check: _Checker, item: Any, seats: int) -> Round:
    data = check.object(item, ROUND_FIELDS)
    scores = []
    for index, value in enumerate(check.at("scores").list(data["scores"])):
        line = check.at("scores").at(index)
        score = line.object(value, SCORE_FIELDS, SCORE_FIELDS_LATER)
        if score["seat"] != index or isinstance(score["seat"], bool):
            raise line.at("seat").fail(f"must be {index}: one line per seat, in order")
        penalty = line.at("penalty").whole(score["penalty"])
        bonus = line.at("bonus").whole(score["bonus"])
        total = line.at("score").whole(score["score"])
        if total != penalty + bonus:
            raise line.at("score").fail(f"must be penalty + bonus = {penalty + bonus}")
        scores.append(
            RoundScore(
                seat=index,
                leftovers=line.at("leftovers").cards(score["leftovers"]),
                penalty=penalty,
                bonus=bonus,
                score=total,
                counted=line.at("counted").flag(score.get("counted", False)),
            )
        )
    if len(scores) != seats:
        raise check.at("scores").fail(f"must hold one line for each of the {seats} players")
    return Round(
        number=check.at("number").whole(data["number"], 1, LAST_ROUND),
        dealer=check.at("dealer").seat(data["dealer"], seats),
        cutter=check.at("cutter").seat(data["cutter"], seats),
        cut_exact=check.at("cut_exact").flag(data["cut_exact"]),
        out=check.at("out").seat(data["out"], seats, empty=True),
        version=check.at("version").whole(data["version"], 1, NUMBER_LIMIT),
        recorded_at=check.at("recorded_at").time(data["recorded_at"]),
        corrected_at=check.at("corrected_at").time(data["corrected_at"], empty=True),
        scores=scores,
    )


def _check_change(check: _Checker, item: Any, seats: int) -> RoundChange:
    data = check.object(item, CHANGE_FIELDS)
    action = data["action"]
    if action not in ("corrected", "undone"):
        raise check.at("action").fail("must be 'corrected' or 'undone'")
    if action == "undone" and data["after"] is not None:
        raise check.at("after").fail("must be null for an undone round")
    return RoundChange(
        round_number=check.at("round_number").whole(data["round_number"], 1, LAST_ROUND),
        action=action,
        changed_at=check.at("changed_at").time(data["changed_at"]),
        before=_check_snapshot(check.at("before"), data["before"], seats),
        after=None
        if action == "undone"
        else _check_snapshot(check.at("after"), data["after"], seats),
    )


def _check_snapshot(check: _Checker, value: Any, seats: int) -> dict[str, Any]:
    """A round as the history keeps it: the page describes it, so every part must be there."""
    data = check.object(value, SNAPSHOT_KEYS | SNAPSHOT_COUNTED, SNAPSHOT_COUNTED)
    check.at("out").seat(data["out"], seats, empty=True)
    check.at("cut_exact").flag(data["cut_exact"])
    check.at("version").whole(data["version"], 1, NUMBER_LIMIT)
    for name in ("leftovers", "penalties", "bonus", "scores"):
        values = check.at(name).list(data[name])
        if len(values) != seats:
            raise check.at(name).fail(f"must hold one entry for each of the {seats} players")
        for index, entry in enumerate(values):
            if name == "leftovers":
                check.at(name).at(index).cards(entry)
            else:
                check.at(name).at(index).whole(entry)
    if "counted" in data:
        hands = check.at("counted").list(data["counted"])
        if len(hands) != seats or not any(hands):
            raise check.at("counted").fail(
                f"must hold one true or false for each of the {seats} players, one true at least"
            )
        for index, hand in enumerate(hands):
            check.at("counted").at(index).flag(hand)
    return data


def _same(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Two snapshots of a round hold the same entry, points counted at the table included."""
    return all(one.get(key) == other.get(key) for key in SNAPSHOT_KEYS | SNAPSHOT_COUNTED)


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
        stored = service.snapshot(played)
        _agrees(where, said, game, played.number, stored, lines=True)
        _check_times(where, said, game, played)
    _check_history(check, game)


def _agrees(
    check: _Checker, said: str, game: Game, number: int, stored: dict[str, Any], *, lines: bool
) -> None:
    """The stored round (or history snapshot) is what the engine makes of its own entry.

    `lines`: the place is a round's, one line per seat (scores[1].penalty), not a history
    snapshot's, one list per field (penalties[1]).
    """
    counted = ledger.counted_seats(stored)
    entry = service.RoundEntry(
        out=stored["out"],
        leftovers={
            seat: text for seat, text in enumerate(stored["leftovers"]) if seat not in counted
        },
        cut_exact=stored["cut_exact"],
        points={seat: stored["penalties"][seat] for seat in counted},
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
    computed = {
        "leftovers": list(scored.leftovers),
        "penalties": list(scored.result.penalties),
        "bonus": list(scored.result.bonus),
        "scores": list(scored.result.scores),
    }
    for key, values in computed.items():
        for seat, value in enumerate(values):
            if stored[key][seat] != value:
                raise _place(check, key, seat, lines).fail(
                    f"{said} must be {value!r} for {game.names[seat]}, as the rules score "
                    f"this round (R10), not {stored[key][seat]!r}"
                )


def _place(check: _Checker, key: str, seat: int, lines: bool) -> _Checker:
    if not lines:
        return check.at(key).at(seat)
    return check.at("scores").at(seat).at({"penalties": "penalty", "scores": "score"}.get(key, key))


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
    last: dict[int, dict[str, Any] | None] = {}  # the round as its latest entry left it
    highest: dict[int, int] = {}  # the highest version each round number has had
    for index, change in enumerate(game.history):
        where = check.at("history").at(index)
        number = change.round_number
        said = f"(game {game.id}, round {number})"
        if change.changed_at < game.created_at:
            raise where.at("changed_at").fail(f"{said} is before the game was created")
        before = change.before
        _agrees(where.at("before"), said, game, number, before, lines=False)
        previous = last.get(number)
        expected = previous["version"] if previous else highest.get(number, 0) + 1
        if before["version"] != expected:
            raise (
                where.at("before")
                .at("version")
                .fail(f"{said} must be {expected}: the version the round had then")
            )
        if previous is not None and not _same(before, previous):
            raise where.at("before").fail(f"{said} is not the round as the entry before left it")
        versions = [before["version"]]
        if change.action == "corrected":
            after = change.after
            _agrees(where.at("after"), said, game, number, after, lines=False)
            if after["version"] != before["version"] + 1:
                raise (
                    where.at("after")
                    .at("version")
                    .fail(f"{said} must be {before['version'] + 1}: a correction adds one")
                )
            versions.append(after["version"])
            last[number] = after
        else:
            last[number] = None
        highest[number] = max(highest.get(number, 0), *versions)
    for index, played in enumerate(game.rounds):
        where = check.at("rounds").at(index)
        said = f"(game {game.id}, round {played.number})"
        corrected = last.get(played.number)
        if corrected is not None:
            stored = service.snapshot(played)
            if not _same(stored, corrected):
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
