"""The import of an export document: checked whole, every game scored again by the engine, then
stored in one transaction, all or nothing.

Every game is rebuilt from its parts (the ones `transfer` defines and writes) and scored again
by the engine under the game's own rules: the document must agree with the rules (seats,
dealers, cut bonus, penalties, copy limits, winners) and with itself (rounds, history, times),
and every round and history entry must be what the engine makes of its own entry, the history
following itself to where the ledger is. The first problem is named with its place in the
document (`games[0].rounds[3].scores[1].penalty`), in the reader's language (a command's: the
default one); the document itself is read the same in every language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.exc import SQLAlchemyError

from ..platform import database
from ..platform.database import db
from ..platform.language import say, spoken
from ..rules import RulesError
from ..rules.document import Reader, at
from ..rules.errors import RuleSetError
from ..rules.ruleset import RuleSet
from ..rules.words import Message
from . import ledger, service
from .errors import HandRefused, ImportRefused, ScorebookError
from .models import Game, Player, Rename, Round, RoundChange, RoundScore
from .names import clean_names, kept_as_played, seat_keys
from .roundvalues import RoundEntry, RoundSnapshot, read_cards
from .transfer import (
    CHANGE,
    FORMAT,
    GAME,
    PLAYER,
    READS,
    RENAME,
    ROUND,
    SCORE_LINE,
    SNAPSHOT,
    Field,
    Imported,
    Kind,
    Part,
    document_fields,
    exported_time,
    game_of_format_1,
    held,
    registered,
)

KEY_HASH = re.compile(r"[0-9a-f]{64}")
# Every stored time lies in these years: any other was typed by hand, or is a broken clock.
EARLIEST = datetime(1970, 1, 1)
LATEST = datetime(2200, 12, 31, 23, 59, 59, 999999)


def engine_words(error: RulesError) -> str:
    """What the engine refused, in the reader's language where it gave its coded message."""
    return say(error.said, sentence=False) if error.said is not None else str(error)


class _Checker:
    """Walks the document, naming the place of the first problem found (games[2].rounds[0]...):
    the typed-document reader checks each value's type, stopping at the first problem."""

    def __init__(self, path: str):
        self.path = path
        self.read = Reader(refuse=self._refused)

    def _refused(self, path: str, said: Message) -> ImportRefused:
        return self.fail(say(said, sentence=False))

    def at(self, part: str | int) -> _Checker:
        return _Checker(at(self.path, part))

    def fail(self, problem: str) -> ImportRefused:
        """The refusal naming this place and what is wrong with it (`problem`, said of it: `must
        be a whole number`)."""
        return ImportRefused(
            _("%(place)s %(problem)s: nothing was imported", place=self.path, problem=problem)
        )

    def object(
        self, value: Any, fields: frozenset[str], optional: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """A JSON object with exactly these fields (`optional` ones may be left out: documents
        made before they existed), so nothing is silently dropped or guessed."""
        return self.read.exact(self.path, value, fields, optional)

    def list(self, value: Any) -> list[Any]:
        return self.read.items(self.path, value)

    def whole(self, value: Any, low: int, high: int) -> int:
        return self.read.number(self.path, value, low, high)

    def flag(self, value: Any) -> bool:
        return self.read.truth(self.path, value)

    def text(self, value: Any, limit: int) -> str:
        return self.read.text(self.path, value, limit)

    def time(self, value: Any) -> datetime:
        if not isinstance(value, str) or not value.endswith("Z"):
            raise self.fail(_("must be a UTC time like 2025-01-31T20:15:00.000000Z"))
        try:
            moment = datetime.fromisoformat(value[:-1])
        except ValueError:
            raise self.fail(_("is not a time: %(value)s", value=repr(value[:40]))) from None
        if moment.tzinfo is not None:
            raise self.fail(_("must be a UTC time marked only with Z"))
        if not EARLIEST <= moment <= LATEST:
            raise self.fail(
                _(
                    "must be a time from %(first)s to %(last)s, not %(value)s",
                    first=EARLIEST.year,
                    last=LATEST.year,
                    value=value,
                )
            )
        return moment

    def date(self, value: Any) -> date:
        if not isinstance(value, str) or len(value) != len("2025-01-31"):
            raise self.fail(_("must be a date like 2025-01-31"))
        try:
            day = date.fromisoformat(value)
        except ValueError:
            raise self.fail(_("is not a date: %(value)s", value=repr(value[:40]))) from None
        if not EARLIEST.date() <= day <= LATEST.date():
            raise self.fail(
                _(
                    "must be a date from %(first)s to %(last)s, not %(value)s",
                    first=EARLIEST.year,
                    last=LATEST.year,
                    value=value,
                )
            )
        return day

    def cards(self, value: Any) -> str:
        text = self.text(value, 400)
        try:
            read_cards(text)
        except HandRefused as error:
            said = _("holds cards the app cannot read (%(reason)s)", reason=spoken(error.message))
            raise self.fail(said) from None
        return text


# A section's reader: the place it reads at, and what it reads with (see `transfer.Section`).
Checker = _Checker


def distinct_rows(
    check: Checker,
    items: Any,
    build: Callable[[Checker, Any, int], Any],
    repeats_id: Callable[[int], str],
    repeats_name: Callable[[str], str] | None = None,
    then: Callable[[Checker, Any], None] | None = None,
) -> list[Any]:
    """A section's rows, each built from its object by `build(where, item, index)`, in the
    document's order, or `ImportRefused` naming the first problem: a row repeating an id of
    one before it (`repeats_id(id)` says so in the section's own words) or, with
    `repeats_name`, a name as it looks (`name_key`; said with the name as first written).
    `then(where, row)` checks what else the section keeps once, after those."""
    rows: list[Any] = []
    ids: set[int] = set()
    names: dict[str, str] = {}
    for index, item in enumerate(check.list(items)):
        where = check.at(index)
        row = build(where, item, index)
        if row.id in ids:
            raise where.at("id").fail(repeats_id(row.id))
        ids.add(row.id)
        if repeats_name is not None:
            if row.name_key in names:
                raise where.at("name").fail(repeats_name(names[row.name_key]))
            names[row.name_key] = row.name
        if then is not None:
            then(where, row)
        rows.append(row)
    return rows


def check_document(data: Any) -> list[Game]:
    """The games of a document, built but not stored, or `ImportRefused` naming the problem."""
    return check_book(data).games_in_order


class Book(Imported):
    """A document checked whole: its games and each section's rows, built but not stored."""

    @property
    def games_in_order(self) -> list[Game]:
        return list(self.games.values())


def check_book(data: Any) -> Book:
    """The games and sections of a document, built but not stored, or `ImportRefused` naming
    the first problem. A document made before a section was added lacks it: it means none of
    its rows (a format 3 export, no saved rule set, merge or paper sheet's record)."""
    top = _Checker(_("the document"))
    sections = registered()
    document = top.object(data, document_fields(), frozenset(sections))
    if document["format"] != FORMAT:
        raise top.at("format").fail(
            _("must be %(format)s: this is not a score book export", format=repr(FORMAT))
        )
    version = document["format_version"]
    if version not in READS or isinstance(version, bool):
        raise top.at("format_version").fail(
            _(
                "is %(version)s, and this app reads versions %(versions)s: use a matching app",
                version=repr(version),
                versions=", ".join(map(str, READS[:-1])) + _(" and ") + str(READS[-1]),
            )
        )
    _check_sections(top, document, version)
    check = _Checker("games")
    book = Book(games={})
    for index, item in enumerate(check.list(document["games"])):
        if version < 2:
            item = _from_format_1(check.at(index), item)
        game = _check_game(check.at(index), item)
        if game.id in book.games:
            raise check.at(index).at("id").fail(_("repeats game %(game)s", game=game.id))
        book.games[game.id] = game
    for name, section in sections.items():
        book.sections[name] = section.check(_Checker(name), document.get(name, []), book)
    return book


def _check_sections(top: _Checker, document: dict[str, Any], version: int) -> None:
    """A document holds exactly the sections of its version: each one added at its version or
    before it (`Section.since`), none added later."""
    for name, section in registered().items():
        if version < section.since and name in document:
            raise top.at(name).fail(
                _(
                    "is not in a document of version %(version)s: make it version %(since)s",
                    version=version,
                    since=section.since,
                )
            )
        if version >= section.since and name not in document:
            raise top.at(name).fail(
                _("is missing: a document of version %(version)s holds it", version=version)
            )


def read_part(
    check: _Checker, part: Part, item: Any, index: int = 0, names: Iterable[str] = ()
) -> dict[str, Any]:
    """A section's object of `part`: exactly its fields, each checked by its kind (only
    `names`, if given), as its model's columns."""
    return _row(check, part, item, 0, index, names)


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
    if kind is Kind.DATE:
        return check.date(value)
    return _STRUCTURED[kind](check, item, value, seats)


def _game_id(check: _Checker, item: Field, value: Any, seats: int) -> int:
    return check.whole(value, 1, database.id_range()[-1])


def _rules(check: _Checker, item: Field, value: Any, seats: int) -> dict[str, Any]:
    """The game's rule set as the app stores it (the whole document), or every problem named."""
    if not isinstance(value, dict):
        raise check.fail(_("must be a rule set document (an object)"))
    try:
        return RuleSet.parse(value).to_json()
    except RuleSetError as error:
        problems = "; ".join(
            _("%(place)s: %(problem)s", place=path or _("the document"), problem=text)
            for path, text in error.problems.items()
        )
        said = _("is not a rule set that can be used (%(problems)s)", problems=problems)
        raise check.fail(said) from None


def _from_format_1(check: _Checker, item: Any) -> Any:
    """A game of a format 1 export, its profile's name turned into the profile's document."""
    try:
        return game_of_format_1(item)
    except ValueError as error:
        raise check.at("profile").fail(str(error)) from None


def _choice(check: _Checker, item: Field, value: Any, seats: int) -> str:
    if value not in item.choices or not isinstance(value, str):
        raise check.fail(_("must be %(choices)s", choices=_(" or ").join(map(repr, item.choices))))
    return value


def _hash(check: _Checker, item: Field, value: Any, seats: int) -> str:
    if not (isinstance(value, str) and KEY_HASH.fullmatch(value)):
        raise check.fail(
            _("must be null or a sha256 hash in lowercase hex")
            if item.empty
            else _("must be a sha256 hash in lowercase hex")
        )
    return value


def _per_seat(check: _Checker, item: Field, value: Any, seats: int) -> list[Any]:
    values = check.list(value)
    if len(values) != seats:
        raise check.fail(_each_player(_(item.why) if item.why else _("one entry"), seats))
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
    # A field kept only when one hand was counted (or one discard bought) is never there all
    # false (all none).
    for key in SNAPSHOT.later & data.keys():
        if SNAPSHOT.field(key).kind is Kind.FLAG:
            if not values[key]:
                raise check.at(key).fail(_("must be true when given: false is left out"))
            continue
        if not any(values[key]):
            what = _(SNAPSHOT.field(key).why)
            raise check.at(key).fail(
                ngettext(
                    "must hold %(what)s for each of the %(num)s player, one true at least",
                    "must hold %(what)s for each of the %(num)s players, one true at least",
                    seats,
                    what=what,
                )
                if key == "counted"
                else ngettext(
                    "must hold %(what)s for each of the %(num)s player, one above 0 at least",
                    "must hold %(what)s for each of the %(num)s players, one above 0 at least",
                    seats,
                    what=what,
                )
            )
    return RoundSnapshot(**values).to_dict()


def _each_player(what: str, seats: int) -> str:
    """`must hold one true or false for each of the 4 players`."""
    return ngettext(
        "must hold %(what)s for each of the %(num)s player",
        "must hold %(what)s for each of the %(num)s players",
        seats,
        what=what,
    )


_STRUCTURED: dict[Kind, Callable[[_Checker, Field, Any, int], Any]] = {
    Kind.GAME_ID: _game_id,
    Kind.ID: _game_id,
    # Passed as read to the section that keeps it, which checks it (see `transfer.Section`).
    Kind.OWN: lambda check, item, value, seats: value,
    Kind.RULES: _rules,
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
            if type(place) is not int or place != index:  # 2.0 and true are not places
                said = _("must be %(index)s: %(why)s", index=index, why=_(each.why))
                raise check.at(each.name).fail(said)
    return _read(check, part, data, seats, names)


# --- The parts -----------------------------------------------------------------------------


def _check_game(check: _Checker, item: Any) -> Game:
    # The players first: the other fields are checked against the table they make.
    first = ("id", "rules", "players")
    values = _row(check, GAME, item, 0, 0, first)
    players: list[Player] = values["players"]
    names = [player.name for player in players]
    _check_names(check.at("players"), names)
    for player, key in zip(players, seat_keys(names), strict=True):
        player.name_key = key
    rules = RuleSet.parse(values["rules"])
    try:
        rules.check_players(len(players))
    except RulesError as error:
        raise check.at("players").fail(engine_words(error)) from None
    values |= _read(check, GAME, item, len(players), GAME.names - set(first))
    numbers = [played.number for played in values["rounds"]]
    if numbers != list(range(1, len(numbers) + 1)):
        said = _("must be rounds 1, 2, 3… in order, not %(numbers)s", numbers=numbers)
        raise check.at("rounds").fail(said)
    last = rules.last_deal
    if len(numbers) > last:
        raise check.at("rounds").fail(
            ngettext(
                "must be at most %(num)s: %(rules)s have %(num)s deal",
                "must be at most %(num)s: %(rules)s have %(num)s deals",
                last,
                rules=rules.rules_name,
            )
        )
    beyond = [change.round_number for change in values["history"] if change.round_number > last]
    if beyond:
        raise check.at("history").fail(
            _(
                "names round %(round)s, and %(rules)s have rounds 1 to %(last)s",
                round=beyond[0],
                rules=rules.rules_name,
                last=last,
            )
        )
    _check_end(check, values, len(numbers), last)
    values["renames"] = list(values["renames"])
    _check_renames(check.at("renames"), values["renames"], names)
    game = Game(**values)
    rescore(check, game)
    return game


def _check_end(check: _Checker, values: dict[str, Any], played: int, last: int) -> None:
    """Finished exactly when all rounds are in, or when the table ended it after the last one
    recorded (before the last deal)."""
    ended = values["ended_after"]
    if ended is not None and not (ended == played < last):
        raise check.at("ended_after").fail(
            _(
                "must be the last round recorded (%(played)s), before the last deal (%(last)s)",
                played=played,
                last=last,
            )
        )
    if (values["finished_at"] is not None) != (played == last or ended is not None):
        raise check.at("finished_at").fail(
            ngettext(
                "must be set exactly when all %(num)s round is in (there are %(played)s) or "
                "the game was ended early",
                "must be set exactly when all %(num)s rounds are in (there are %(played)s) or "
                "the game was ended early",
                last,
                played=played,
            )
        )


def _check_renames(check: _Checker, renames: list[Rename], names: list[str]) -> None:
    """Each seat's renames follow one another, the last giving the name the seat has."""
    now = list(names)
    for index, rename in reversed(list(enumerate(renames))):
        if rename.after != now[rename.seat]:
            raise (
                check.at(index)
                .at("after")
                .fail(_("must be %(name)s: the seat's next name", name=repr(now[rename.seat])))
            )
        now[rename.seat] = rename.before


def _check_player(check: _Checker, item: Any, seats: int, index: int) -> Player:
    return Player(**_row(check, PLAYER, item, seats, index))


def _check_names(check: _Checker, names: list[str]) -> None:
    """Names as the app writes them today, or exactly as an earlier release kept them (an
    upgraded database keeps those as they were played: `names.kept_as_played`)."""
    if kept_as_played(names):
        return
    try:
        cleaned = clean_names(names)
    except ScorebookError as error:
        raise check.fail(error.message) from None
    for index, (name, clean) in enumerate(zip(names, cleaned, strict=True)):
        if name != clean:
            said = _("must be written %(name)s, as the app keeps it", name=repr(clean))
            raise check.at(index).at("name").fail(said)


def _check_line(check: _Checker, item: Any, seats: int, index: int) -> RoundScore:
    return RoundScore(**_row(check, SCORE_LINE, item, seats, index))


def _check_round(check: _Checker, item: Any, seats: int, index: int) -> Round:
    values = _row(check, ROUND, item, seats, index)
    if len(values["scores"]) != seats:
        raise check.at("scores").fail(
            ngettext(
                "must hold one line for each of the %(num)s player",
                "must hold one line for each of the %(num)s players",
                seats,
            )
        )
    for line in values["scores"]:
        # The player out's score holds their bonus for going down and out in one turn, which
        # the rules say (the engine's scoring checks it with the game).
        if values["out_in_one_turn"] and line.seat == values["out"]:
            continue
        total = line.penalty + line.bonus
        if line.score != total:
            where = check.at("scores").at(line.seat).at("score")
            raise where.fail(_("must be penalty + bonus = %(total)s", total=total))
    return Round(**values)


def _check_change(check: _Checker, item: Any, seats: int, index: int) -> RoundChange:
    values = _row(check, CHANGE, item, seats, index, CHANGE.names - {"after"})
    after = item["after"]
    if values["action"] == "undone":
        if after is not None:
            raise check.at("after").fail(_("must be null for an undone round"))
        return RoundChange(**values, after=None)
    return RoundChange(
        **values, after=_snapshot(check.at("after"), CHANGE.field("after"), after, seats)
    )


_ROWS: dict[str, Callable[[_Checker, Any, int, int], Any]] = {
    PLAYER.name: _check_player,
    ROUND.name: _check_round,
    SCORE_LINE.name: _check_line,
    CHANGE.name: _check_change,
    RENAME.name: lambda check, item, seats, index: Rename(
        **_row(check, RENAME, item, seats, index)
    ),
}


# --- Every game scored again by the engine -------------------------------------------------

# A game's last round is written a moment after the game is marked finished.
FINISH_SLACK = timedelta(seconds=5)


def rescore(check: _Checker, game: Game) -> None:
    """Score every round and history entry again with the engine, as the API would, and refuse
    the first thing stored that is not what the engine computes (`ImportRefused` naming the
    game, the round and the field)."""
    for index, played in enumerate(game.rounds):
        where = check.at("rounds").at(index)
        said = _in_round(game, played.number)
        setup = ledger.setup_for(game, played.number)
        for name, seat in (("dealer", setup.dealer), ("cutter", setup.cutter)):
            if getattr(played, name) != seat:
                values = {
                    "said": said,
                    "seat": seat,
                    "player": game.names[seat],
                    "round": played.number,
                    "first": game.first_dealer,
                }
                raise where.at(name).fail(
                    _(
                        "%(said)s must be %(seat)s (%(player)s), the dealer of round %(round)s "
                        "when seat %(first)s deals first (R2)",
                        **values,
                    )
                    if name == "dealer"
                    else _(
                        "%(said)s must be %(seat)s (%(player)s), the cutter of round %(round)s "
                        "when seat %(first)s deals first (R2)",
                        **values,
                    )
                )
        stored = RoundSnapshot.of_round(played)
        _agrees(where, said, game, played.number, stored, lines=True)
        _check_times(where, said, game, played)
    _check_game_times(check, game)
    _check_history(check, game)


def _in_round(game: Game, number: int) -> str:
    """`(game 3, round 2)`: the round a problem is about, as a problem names it."""
    return _("(game %(game)s, round %(round)s)", game=game.id, round=number)


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
        out_in_one_turn=stored.out_in_one_turn,
    )
    try:
        # The buys are the table's own count, kept as stored: nothing the engine scores.
        scored = service.score_entry(game, number, entry, stored.buys)
    except ScorebookError as error:
        seat = next(iter(error.problems))
        if isinstance(seat, tuple):
            seat = seat[0]  # cards that several hands hold too many of together: the first
        place = check if seat is None else _place(check, "leftovers", seat, lines)
        said = _("%(said)s is refused by the rules: %(problem)s", said=said, problem=error.message)
        raise place.fail(said) from None
    for seat, hand in enumerate(scored.counted):
        if hand != (seat in counted):
            values = {"said": said, "value": str(hand).lower(), "player": game.names[seat]}
            raise _place(check, "counted", seat, lines).fail(
                _("%(said)s must be %(value)s for %(player)s: a hand counted in points", **values)
                if hand
                else _("%(said)s must be %(value)s for %(player)s: the player went out", **values)
            )
    computed = RoundSnapshot.of_scored(entry, scored, stored.version)
    for key in RoundSnapshot.LINES:
        for seat, (value, was) in enumerate(
            zip(getattr(computed, key), getattr(stored, key), strict=True)
        ):
            if was != value:
                raise _place(check, key, seat, lines).fail(
                    _(
                        "%(said)s must be %(value)s for %(player)s, as the rules score this "
                        "round (R10), not %(was)s",
                        said=said,
                        value=repr(value),
                        player=game.names[seat],
                        was=repr(was),
                    )
                )


def _place(check: _Checker, key: str, seat: int, lines: bool) -> _Checker:
    """Where a seat's value of the snapshot's list `key` is: in the history, or a round's line."""
    if not lines:
        return check.at(key).at(seat)
    return check.at("scores").at(seat).at(RoundSnapshot.LINES[key])


def _check_times(check: _Checker, said: str, game: Game, played: Round) -> None:
    """Created, then recorded, then corrected; finished after the rounds."""
    if played.recorded_at < game.created_at:
        raise check.at("recorded_at").fail(_before_created(said))
    if played.corrected_at is not None and played.corrected_at < played.recorded_at:
        said = _("%(said)s is before the round was recorded", said=said)
        raise check.at("corrected_at").fail(said)
    finished = game.finished_at
    if finished is not None and played.recorded_at > finished + FINISH_SLACK:
        raise check.fail(
            _(
                "%(said)s: recorded_at is after the game finished (%(finished)s)",
                said=said,
                finished=exported_time(finished),
            )
        )


def _before_created(said: str) -> str:
    """`(game 3, round 2) is before the game was created`."""
    return _("%(said)s is before the game was created", said=said)


def _check_game_times(check: _Checker, game: Game) -> None:
    """Finished, archived and played again after the game was created."""
    for field in ("finished_at", "archived_at", "played_again_at"):
        moment = getattr(game, field)
        if moment is not None and moment < game.created_at:
            said = _before_created(_("(game %(game)s)", game=game.id))
            raise check.at(field).fail(said)


def _check_history(check: _Checker, game: Game) -> None:
    """Each round's corrections and undos follow one another and end where the ledger is."""
    last: dict[int, RoundSnapshot | None] = {}  # the round as its latest entry left it
    highest: dict[int, int] = {}  # the highest version each round number has had
    for index, change in enumerate(game.history):
        where = check.at("history").at(index)
        number = change.round_number
        said = _in_round(game, number)
        if change.changed_at < game.created_at:
            raise where.at("changed_at").fail(_before_created(said))
        before = RoundSnapshot.from_dict(change.before)
        _agrees(where.at("before"), said, game, number, before, lines=False)
        previous = last.get(number)
        expected = previous.version if previous else highest.get(number, 0) + 1
        if before.version != expected:
            raise (
                where.at("before")
                .at("version")
                .fail(
                    _(
                        "%(said)s must be %(version)s: the version the round had then",
                        said=said,
                        version=expected,
                    )
                )
            )
        if previous is not None and before != previous:
            raise where.at("before").fail(
                _("%(said)s is not the round as the entry before left it", said=said)
            )
        versions = [before.version]
        if change.action == "corrected":
            after = RoundSnapshot.from_dict(change.after)
            _agrees(where.at("after"), said, game, number, after, lines=False)
            if after.version != before.version + 1:
                raise (
                    where.at("after")
                    .at("version")
                    .fail(
                        _(
                            "%(said)s must be %(version)s: a correction adds one",
                            said=said,
                            version=before.version + 1,
                        )
                    )
                )
            versions.append(after.version)
            last[number] = after
        else:
            last[number] = None
        highest[number] = max(highest.get(number, 0), *versions)
    for index, played in enumerate(game.rounds):
        where = check.at("rounds").at(index)
        said = _in_round(game, played.number)
        corrected = last.get(played.number)
        if corrected is not None:
            if RoundSnapshot.of_round(played) != corrected:
                raise where.fail(
                    _("%(said)s is not the round as its last correction in the history", said=said)
                )
        elif played.version != highest.get(played.number, 0) + 1:
            raise where.at("version").fail(
                _(
                    "%(said)s must be %(version)s, after the history's versions",
                    said=said,
                    version=highest.get(played.number, 0) + 1,
                )
            )
        if (corrected is not None) != (played.corrected_at is not None):
            raise where.at("corrected_at").fail(
                _(
                    "%(said)s must be set exactly when the history's last entry for the round "
                    "is a correction",
                    said=said,
                )
            )
    recorded = {played.number for played in game.rounds}
    for number, state in last.items():
        if state is not None and number not in recorded:
            raise check.at("history").fail(
                _(
                    "(game %(game)s) corrects round %(round)s last, but the ledger has no "
                    "round %(round)s",
                    game=game.id,
                    round=number,
                )
            )


# --- Stored --------------------------------------------------------------------------------


def import_games(data: Any) -> int:
    """Check the whole document, then store every game and every section's rows in one
    transaction; returns how many games."""
    book = check_book(data)
    games = book.games_in_order
    # Ids are kept (edit links and cookies name them, a night's tables its games): anything the
    # database holds already refuses the whole import, every clash named at once.
    clashes = _clashes(book)
    if clashes:
        raise ImportRefused(
            _(
                "%(clashes)s: nothing was imported (import into an empty database)",
                clashes="; ".join(clashes),
            )
        )
    try:
        db.session.add_all(games)
        db.session.flush()
        for rows in book.sections.values():
            db.session.add_all(rows)
            db.session.flush()
        # New games after these must not be given an imported game's id.
        database.move_sequences_past_ids(db.session.connection())
        db.session.commit()
    except SQLAlchemyError as error:
        db.session.rollback()
        reason = getattr(error, "orig", None) or error
        raise ImportRefused(
            _("the database refused the games, nothing was imported: %(reason)s", reason=reason)
        ) from None
    return len(games)


def _clashes(book: Book) -> list[str]:
    """Every game and section row this database already holds, in words."""
    taken = held(Game.id, book.games)
    found = []
    if taken:
        found.append(
            ngettext(
                "game %(games)s already exists in this database",
                "games %(games)s already exist in this database",
                len(taken),
                games=", ".join(map(str, taken)),
            )
        )
    for name, section in registered().items():
        found.extend(section.clashes(book.sections[name]))
    return found
