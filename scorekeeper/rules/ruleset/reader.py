"""A rule set's refusal: the one `RuleSetError` naming every problem the typed-document reader
(`rules.document`) kept under its place (R11)."""

from __future__ import annotations

from collections.abc import Mapping

from ..document import MISSING, MOST_PROBLEMS, SKIP, Read, Reader, shown
from ..errors import RuleSetError
from ..words import Code, Join, Message, joined, message, words

__all__ = ["MISSING", "MOST_PROBLEMS", "SKIP", "Read", "Reader", "Refusal", "refusal", "shown"]

# The problems the refusal's one-line message repeats (`problems` holds them all).
SAID = 3


class Refusal(Code):
    """The refusal's words: each problem at its place, and the one-line message."""

    AT = "reader.at"
    REFUSAL = "reader.refusal"


def refusal(problems: Mapping[str, Message]) -> RuleSetError:
    """The one error naming every problem, each under its place: the problems are said in
    words here, and the message repeats the first SAID of them."""
    first = [message(Refusal.AT, path=path, problem=said) for path, said in problems.items()]
    more = "; …" if len(first) > SAID else ""
    said = message(
        Refusal.REFUSAL, count=len(first), listed=joined(Join.SEMICOLON, first[:SAID]), more=more
    )
    return RuleSetError(words(said), {path: words(problem) for path, problem in problems.items()})
