"""The typed-document reader: a JSON document read setting by setting, every problem kept under
its place (`players.min`, `deals[4].cards`), a value quoted back short. Nothing here knows what
a document holds: a rule set's shape is in `ruleset.schema`, its refusal in `ruleset.reader`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from difflib import get_close_matches
from typing import Any

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


# The most problems one refusal lists; a document of junk gets a count for the rest.
MOST_PROBLEMS = 40
# A key or a value quoted back is cut to this many characters.
MOST_QUOTED = 30
# A key the document leaves out (inside a deal or a packs step, where there is no default).
MISSING = object()
# Every key of an object that was not an object: its problem is said once, at the object.
SKIP = object()


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


class Reader:
    """Reads one document, keeping every problem under its place."""

    def __init__(self) -> None:
        self.problems: dict[str, Message] = {}
        self.unlisted = 0

    def problem(self, path: str, said: Message) -> None:
        """Keep a problem under its place: the first one there, up to MOST_PROBLEMS."""
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
        if isinstance(value, bool) or not isinstance(value, int):
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

    def limit(self, path: str, value: object, allowed: range) -> int | None:
        """A limit: none (null), or a whole number within `allowed`."""
        return None if value is None else self.whole(path, value, allowed)
