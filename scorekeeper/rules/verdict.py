"""The referee's answer to a question: legal or not, why, and on which rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def sentence(message: str) -> str:
    """A message or clause with a capital first letter, to stand alone as a sentence."""
    return message[:1].upper() + message[1:]


@dataclass(frozen=True)
class Verdict:
    """A ruling: `legal`, one plain `reason` a player would accept, the `rule` it rests on (R-number),
    and `details` such as the readings of the jokers."""

    legal: bool
    reason: str
    rule: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.legal

    def to_dict(self) -> dict[str, Any]:
        """The verdict as JSON-ready data: legal, reason, rule, then the details."""
        return {"legal": self.legal, "reason": self.reason, "rule": self.rule, **self.details}


@dataclass(frozen=True)
class Problem:
    """Why a play fails: the `reason` in a player's words and the `rule` that decides it."""

    reason: str
    rule: str

    def verdict(self, details: Mapping[str, Any]) -> Verdict:
        """The refusal this problem makes, with the question's empty details."""
        return Verdict(False, self.reason, self.rule, dict(details))
