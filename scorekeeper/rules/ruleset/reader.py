"""The reader's tools: a problem kept under its place, a value quoted back short, and the one
`RuleSetError` that names them all (R11). Nothing here knows what a rule set holds: the
document's shape is in `schema`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from difflib import get_close_matches
from typing import Any

from ..errors import RuleSetError

# The most problems one refusal lists; a document of junk gets a count for the rest.
MOST_PROBLEMS = 40
# The problems the refusal's one-line message repeats (`problems` holds them all).
SAID = 3
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


def words(allowed: range) -> str:
    return f"{allowed.start} to {allowed.stop - 1}"


def unknown(key: object, keys: tuple[str, ...]) -> str:
    """An unknown key's problem, with the setting it was probably meant to be."""
    close = get_close_matches(key, keys, n=1) if isinstance(key, str) and len(key) < 40 else []
    if close:
        return f"is not a setting: did you mean {close[0]}?"
    if len(keys) <= 6:
        return f"is not a setting: the settings here are {', '.join(keys)}"
    return "is not a setting of a rule set"


def cut(text: str) -> str:
    return text if len(text) <= MOST_QUOTED else text[: MOST_QUOTED - 1] + "…"


def shown(value: object) -> str:
    """A value quoted back in JSON's words, short whatever it holds (never a nested repr)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) > 10**12:
        return "a number of more than 12 digits"  # whose repr could be refused outright
    if isinstance(value, int | float):
        return cut(repr(value))
    if isinstance(value, str):
        return cut(json.dumps(value, ensure_ascii=False))
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return "a " + type(value).__name__


class Reader:
    """Reads one document, keeping every problem under its place."""

    def __init__(self) -> None:
        self.problems: dict[str, str] = {}
        self.unlisted = 0

    def problem(self, path: str, message: str) -> None:
        if path in self.problems:
            return
        if len(self.problems) >= MOST_PROBLEMS:
            self.unlisted += 1
            return
        self.problems[path] = message

    def clean(self, *places: str) -> bool:
        """Whether nothing at these places (or inside them) had a problem: a condition on a
        setting that was refused would only repeat its problem in other words."""
        return not any(
            path == place or path.startswith((place + ".", place + "["))
            for path in self.problems
            for place in places
        )

    def listed(self, order: Callable[[str], int]) -> dict[str, str]:
        """The problems in the document's order (`order` ranks a place), with a count of any
        past the limit."""
        listed = dict(sorted(self.problems.items(), key=lambda item: order(item[0])))
        if self.unlisted:
            more = "problem" if self.unlisted == 1 else "problems"
            listed["rules"] = f"and {self.unlisted} more {more} not listed here"
        return listed

    def mapping(self, path: str, value: object, keys: tuple[str, ...]) -> Mapping[str, Any]:
        """The value as a JSON object with only known keys; {} (after a problem) otherwise."""
        if not isinstance(value, Mapping):
            where = path or "rules"
            self.problem(where, f"must be an object with {', '.join(keys)}, not {shown(value)}")
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
            self.problem(path, f"is missing: a whole number from {words(allowed)}")
            return allowed.start
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, f"must be a whole number from {words(allowed)}, not {shown(value)}")
            return allowed.start
        if value not in allowed:
            self.problem(path, f"must be from {words(allowed)}, not {shown(value)}")
            return allowed.start
        return value

    def flag(self, path: str, value: object) -> bool:
        if value is SKIP:
            return False
        if not isinstance(value, bool):
            self.problem(path, f"must be true or false, not {shown(value)}")
            return False
        return value

    def choice(self, path: str, value: object, kind: type) -> Any:
        """One of the enum's values; None (after a problem) otherwise."""
        choices = [member.value for member in kind]
        if value is SKIP:
            return None
        if value is MISSING:
            self.problem(path, f"is missing: one of {', '.join(choices)}")
            return None
        if not isinstance(value, str) or value not in choices:
            self.problem(path, f"must be one of {', '.join(choices)}, not {shown(value)}")
            return None
        return kind(value)

    def limit(self, path: str, value: object, allowed: range) -> int | None:
        """A limit: none (null), or a whole number within `allowed`."""
        return None if value is None else self.whole(path, value, allowed)


def refusal(problems: dict[str, str]) -> RuleSetError:
    count = len(problems)
    first = list(problems.items())[:SAID]
    listed = "; ".join(f"{path}: {message}" for path, message in first)
    more = "; …" if count > SAID else ""
    noun = "problem" if count == 1 else "problems"
    return RuleSetError(f"the rule set cannot be used ({count} {noun}): {listed}{more}", problems)
