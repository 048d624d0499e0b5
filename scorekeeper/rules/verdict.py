"""The referee's answer to a question: legal or not, why, and on which rule.

Where the reason is a coded message (words.py), the verdict carries it too: `code` (its stable
id, `opening.size`) and `values`, beside the English `reason` it renders to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .words import Message, render, words


def sentence(message: str) -> str:
    """A message or clause with a capital first letter, to stand alone as a sentence."""
    return message[:1].upper() + message[1:]


# Where a citation names what in its rule decides: `R4.3` (the third point of R4 in the
# rulebook), `R11:wild_deuces` (the setting of R11's table that decides).
POINT, SETTING = ".", ":"


def house_citation(settings) -> str:
    """R11 citing the settings of its table that decide: `R11:wild_deuces,freed_joker`."""
    return f"R11{SETTING}{','.join(settings)}"


def split_citation(cited: str) -> tuple[str, str]:
    """`R4.3` → (`R4`, `3`), `R11:wild_deuces` → (`R11`, `wild_deuces`), `R4` → (`R4`, ``)."""
    for mark in (SETTING, POINT):
        rule, found, line = cited.partition(mark)
        if found:
            return rule, line
    return cited, ""


def cited_as(rule: str, line: str) -> dict[str, str]:
    """What a verdict's data adds for the line that decides it: `rule_line` (`R4.3`) for a point
    of R1-R10, `settings` (`["wild_deuces"]`) for the settings of R11's table; nothing when not
    given."""
    if not line:
        return {}
    if line.isdigit():
        return {"rule_line": f"{rule}{POINT}{line}"}
    return {"settings": line.split(",")}


class Citation:
    """A ruling's citation given as `R4.3` or `R11:wild_deuces`, read into its `rule` (`R4`,
    `R11`) and the `line` that decides (`3`, `wild_deuces`)."""

    rule: str
    line: str

    def __post_init__(self) -> None:
        rule, line = split_citation(self.rule)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "line", line or self.line)


@dataclass(frozen=True)
class Verdict(Citation):
    """A ruling: `legal`, one plain `reason` a player would accept, the `rule` it rests on (R-number),
    and `details` such as the readings of the jokers. `rule` may be given as `R4.3` or
    `R11:wild_deuces`: it is then `R4` (or `R11`) and `line` the point or setting that decides.
    `message` is the coded message the reason renders, where it has one."""

    legal: bool
    reason: str
    rule: str
    details: Mapping[str, Any] = field(default_factory=dict)
    line: str = ""
    message: Message | None = None

    def __bool__(self) -> bool:
        return self.legal

    @property
    def citation(self) -> str:
        """The rule and the point or settings that decide, as given: `R5.3`, `R11:deals`."""
        if not self.line:
            return self.rule
        return f"{self.rule}{POINT if self.line.isdigit() else SETTING}{self.line}"

    @property
    def code(self) -> str | None:
        """The stable id of the reason's message (`opening.size`), or None where it has none."""
        return coded(self.message)

    @property
    def values(self) -> Mapping[str, Any]:
        """The named values the reason's message shows (empty where it has none)."""
        return self.message.values if self.message else {}

    def on_setting(self, setting: str, said: Message) -> Verdict:
        """The same ruling resting on a setting of R11's table, beside any it already rests on,
        with the coded reason that says so (led by the rule set's name, as written)."""
        settings = self.line.split(",") if self.rule == "R11" and self.line else []
        cited = house_citation(dict.fromkeys([setting, *settings]))
        return replace(self, reason=words(said), rule=cited, line="", message=said)

    def said(self, say: Callable[..., str] | None) -> str:
        """The reason as `say(message, sentence=...)` renders it in the asker's language, a
        sentence where the English reason is one (a house reason leads with the rule set's name
        as written); the English reason without `say` or a message."""
        if say is None or self.message is None:
            return self.reason
        # `render` capitalises the first letter; a reason that starts in lower case was not.
        return say(self.message, sentence=not self.reason[:1].islower())

    def to_dict(self, say: Callable[..., str] | None = None) -> dict[str, Any]:
        """The verdict as JSON-ready data: legal, reason, rule, then the details, the line that
        decides (`rule_line` or `setting`) where it is known, and a refusal's `code` where its
        reason has one (a legal verdict's data stays as the API has always given it). `say`
        renders a coded reason in the asker's language (English, as `reason` holds it, without)."""
        cited = cited_as(self.rule, self.line)
        code = {"code": self.code} if self.message and not self.legal else {}
        return {
            "legal": self.legal,
            "reason": self.said(say),
            "rule": self.rule,
            **self.details,
            **cited,
            **code,
        }


def coded(said: Message | None) -> str | None:
    """A message's stable id, or None for no message."""
    return said.code.id if said else None


@dataclass(frozen=True)
class Problem(Citation):
    """Why a play fails: the `reason` in a player's words and the `rule` that decides it (given
    as a Verdict's is: `R4`, `R4.3`, `R11:naturals`), and the coded `message` the reason renders,
    where it has one."""

    reason: str
    rule: str
    line: str = ""
    message: Message | None = None

    @classmethod
    def of(cls, said: Message, rule: str) -> Problem:
        """The problem a coded message states, its reason the message in English."""
        return cls(render(said), rule, message=said)

    @property
    def code(self) -> str | None:
        """The stable id of the reason's message, or None where it has none."""
        return coded(self.message)

    def verdict(self, details: Mapping[str, Any]) -> Verdict:
        """The refusal this problem makes, with the question's empty details."""
        return Verdict(False, self.reason, self.rule, dict(details), self.line, self.message)
