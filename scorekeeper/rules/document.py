"""The typed-document reader: a JSON document read setting by setting, every problem kept under
its place (`players.min`, `deals[4].cards`), a value quoted back short. Nothing here knows what
a document holds: a rule set's shape is in `ruleset.schema`, with its refusal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from difflib import get_close_matches
from typing import Any, TypeGuard

from .words import Code, Join, Message, joined, message


class Read(Code):
    """Each problem the reader itself finds with a value, and the words it quotes values in."""

    UNKNOWN_CLOSE = "reader.unknown_close"
    UNKNOWN_LISTED = "reader.unknown_listed"
    UNKNOWN = "reader.unknown"
    BIG_NUMBER = "reader.big_number"
    A_LIST = "reader.a_list"
    AN_OBJECT = "reader.an_object"
    A_TYPE = "reader.a_type"
    MORE = "reader.more"
    NOT_OBJECT = "reader.not_object"
    RANGE = "reader.range"
    MISSING_WHOLE = "reader.missing_whole"
    NOT_WHOLE = "reader.not_whole"
    OUT_OF_RANGE = "reader.out_of_range"
    NOT_FLAG = "reader.not_flag"
    MISSING_CHOICE = "reader.missing_choice"
    NOT_CHOICE = "reader.not_choice"
    ABSENT = "reader.absent"
    NOT_KIND = "reader.not_kind"
    WHOLE_NUMBER = "reader.whole_number"
    TEXT = "reader.text"
    TRUE_OR_FALSE = "reader.true_or_false"
    THE_NUMBER = "reader.the_number"
    MUST_OBJECT = "reader.must_object"
    LACKS = "reader.lacks"
    UNKNOWN_FIELDS = "reader.unknown_fields"
    MUST_LIST = "reader.must_list"
    MUST_WHOLE = "reader.must_whole"
    DIGITS = "reader.digits"
    MUST_FLAG = "reader.must_flag"
    MUST_TEXT = "reader.must_text"
    LONGER = "reader.longer"


# The most problems one refusal lists; a document of junk gets a count for the rest.
MOST_PROBLEMS = 40
# A key or a value quoted back is cut to this many characters.
MOST_QUOTED = 30
# A key the document leaves out (inside a deal or a packs step, where there is no default).
MISSING = object()
# Every key of an object that was not an object: its problem is said once, at the object.
SKIP = object()


# Each JSON type a field may be, in words.
KINDS = {
    int: Read.WHOLE_NUMBER,
    str: Read.TEXT,
    bool: Read.TRUE_OR_FALSE,
    list: Read.A_LIST,
    dict: Read.AN_OBJECT,
}


class Broken(dict):
    """What `mapping` gives for a value that is not an object: every key reads as SKIP."""

    def get(self, key: object, default: object = None) -> object:
        return SKIP


def span(allowed: range) -> Message:
    """`1 to 12`: a range's first and last values."""
    return message(Read.RANGE, first=allowed.start, last=allowed.stop - 1)


def unknown(key: object, keys: tuple[str, ...]) -> Message:
    """An unknown key's problem, with the setting it was probably meant to be."""
    close = get_close_matches(key, keys, n=1) if isinstance(key, str) and len(key) < 40 else []
    if close:
        return message(Read.UNKNOWN_CLOSE, close=close[0])
    if len(keys) <= 6:
        return message(Read.UNKNOWN_LISTED, keys=joined(Join.COMMA, keys))
    return message(Read.UNKNOWN)


def cut(text: str) -> str:
    return text if len(text) <= MOST_QUOTED else text[: MOST_QUOTED - 1] + "…"


def shown(value: object) -> str | Message:
    """A value quoted back in JSON's words, short whatever it holds (never a nested repr)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) > 10**12:
        return message(Read.BIG_NUMBER)  # whose repr could be refused outright
    if isinstance(value, int | float):
        return cut(repr(value))
    if isinstance(value, str):
        return cut(json.dumps(value, ensure_ascii=False))
    if isinstance(value, list | tuple):
        return message(Read.A_LIST)
    if isinstance(value, Mapping):
        return message(Read.AN_OBJECT)
    return message(Read.A_TYPE, type=type(value).__name__)


def at(path: str, part: str | int) -> str:
    """The place of a part of what is at `path`: `games[2]` for an item, `games.id` for a key."""
    return f"{path}[{part}]" if isinstance(part, int) else f"{path}.{part}"


def whole(value: object) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def kind(value: object) -> str | Message:
    """What a JSON value is, as its writer would call it (`text`, `the number 5`)."""
    if isinstance(value, str):
        return message(Read.TEXT)
    if isinstance(value, int | float):
        return message(Read.THE_NUMBER, number=repr(value))
    if isinstance(value, list):
        return message(Read.A_LIST)
    if isinstance(value, dict):
        return message(Read.AN_OBJECT)
    return type(value).__name__


class Reader:
    """Reads one document, keeping every problem under its place; or, given `refuse`, stopping
    at the first problem with the error `refuse` makes of its place and its words."""

    def __init__(self, refuse: Callable[[str, Message], Exception] | None = None) -> None:
        self.problems: dict[str, Message] = {}
        self.unlisted = 0
        self.refuse = refuse

    def problem(self, path: str, said: Message) -> None:
        """Keep a problem under its place: the first one there, up to MOST_PROBLEMS."""
        if self.refuse is not None:
            raise self.refuse(path, said)
        if path in self.problems:
            return
        if len(self.problems) >= MOST_PROBLEMS:
            self.unlisted += 1
            return
        self.problems[path] = said

    def refused(self, place: str) -> set[str]:
        """The places at this place or inside it that had a problem."""
        return {
            path
            for path in self.problems
            if path == place or path.startswith((place + ".", place + "["))
        }

    def clean(self, *places: str) -> bool:
        """Whether nothing at these places (or inside them) had a problem: a condition on a
        setting that was refused would only repeat its problem in other words."""
        return not any(self.refused(place) for place in places)

    def listed(self, order: Callable[[str], int]) -> dict[str, Message]:
        """The problems in the document's order (`order` ranks a place), with a count of any
        past the limit."""
        listed = dict(sorted(self.problems.items(), key=lambda item: order(item[0])))
        if self.unlisted:
            listed["rules"] = message(Read.MORE, more=self.unlisted)
        return listed

    def mapping(self, path: str, value: object, keys: tuple[str, ...]) -> Mapping[str, Any]:
        """The value as a JSON object with only known keys; {} (after a problem) otherwise."""
        if not isinstance(value, Mapping):
            where = path or "rules"
            said = message(Read.NOT_OBJECT, keys=joined(Join.COMMA, keys), value=shown(value))
            self.problem(where, said)
            return Broken()
        for key in value:
            if key not in keys:
                name = cut(key) if isinstance(key, str) else shown(key)
                self.problem(f"{path}.{name}" if path else name, unknown(key, keys))
        return value

    def whole(self, path: str, value: object, allowed: range) -> int:
        """A whole number within `allowed`; the range's first value (after a problem) otherwise."""
        if value is SKIP:
            return allowed.start
        if value is MISSING:
            self.problem(path, message(Read.MISSING_WHOLE, range=span(allowed)))
            return allowed.start
        if not whole(value):
            self.problem(path, message(Read.NOT_WHOLE, range=span(allowed), value=shown(value)))
            return allowed.start
        if value not in allowed:
            self.problem(path, message(Read.OUT_OF_RANGE, range=span(allowed), value=shown(value)))
            return allowed.start
        return value

    def flag(self, path: str, value: object) -> bool:
        if value is SKIP:
            return False
        if not isinstance(value, bool):
            self.problem(path, message(Read.NOT_FLAG, value=shown(value)))
            return False
        return value

    def choice(self, path: str, value: object, kind: type) -> Any:
        """One of the enum's values; None (after a problem) otherwise."""
        choices = [member.value for member in kind]
        listed = joined(Join.COMMA, choices)
        if value is SKIP:
            return None
        if value is MISSING:
            self.problem(path, message(Read.MISSING_CHOICE, choices=listed))
            return None
        if not isinstance(value, str) or value not in choices:
            self.problem(path, message(Read.NOT_CHOICE, choices=listed, value=shown(value)))
            return None
        return kind(value)

    def field(
        self,
        data: Mapping[str, Any],
        name: str,
        kinds: tuple[type, ...],
        required: bool = True,
        default: Any = None,
    ) -> Any:
        """One field of an object, of one of these JSON types (a bool is never taken for a
        number); `default` when it is null or left out and not `required`."""
        value = data.get(name)
        if value is None:
            if required:
                self.problem(name, message(Read.ABSENT, name=name))
            return default
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            named = [message(KINDS[each]) if each in KINDS else each.__name__ for each in kinds]
            wanted = joined(Join.EITHER, named)
            said = repr(value) if isinstance(value, bool) else kind(value)
            self.problem(name, message(Read.NOT_KIND, name=name, kinds=wanted, value=said))
            return default
        return value

    # A document read whole, each part an object of exactly its fields: the export's games.

    def exact(
        self, path: str, value: object, fields: frozenset[str], optional: frozenset[str]
    ) -> dict[str, Any]:
        """A JSON object with exactly these fields (`optional` ones may be left out), the
        missing ones and the unknown ones each named together."""
        if not isinstance(value, dict):
            self.problem(path, message(Read.MUST_OBJECT))
            return {}
        missing = sorted(fields - optional - value.keys())
        if missing:
            self.problem(path, message(Read.LACKS, fields=", ".join(missing)))
        extra = sorted(set(value) - fields)
        if extra:
            said = message(Read.UNKNOWN_FIELDS, fields=", ".join(extra), count=len(extra))
            self.problem(path, said)
        return value

    def items(self, path: str, value: object) -> list[Any]:
        if not isinstance(value, list):
            self.problem(path, message(Read.MUST_LIST))
            return []
        return value

    def number(self, path: str, value: object, low: int, high: int) -> int:
        """A whole number from `low` to `high` (a huge one quoted by its count of digits); `low`
        (after a problem) otherwise."""
        if not whole(value):
            self.problem(path, message(Read.MUST_WHOLE))
            return low
        if not low <= value <= high:
            big = abs(value) >= 10**20
            said = message(Read.DIGITS, digits=len(str(abs(value)))) if big else str(value)
            allowed = span(range(low, high + 1))
            self.problem(path, message(Read.OUT_OF_RANGE, range=allowed, value=said))
            return low
        return value

    def truth(self, path: str, value: object) -> bool:
        if not isinstance(value, bool):
            self.problem(path, message(Read.MUST_FLAG))
            return False
        return value

    def text(self, path: str, value: object, limit: int) -> str:
        if not isinstance(value, str):
            self.problem(path, message(Read.MUST_TEXT))
            return ""
        if len(value) > limit:
            self.problem(path, message(Read.LONGER, limit=limit))
        return value

    def limit(self, path: str, value: object, allowed: range) -> int | None:
        """A limit: none (null), or a whole number within `allowed`."""
        return None if value is None else self.whole(path, value, allowed)
