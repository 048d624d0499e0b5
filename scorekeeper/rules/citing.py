"""R11's citing: a verdict that rests on a setting the table's rule set changes from `liverpool`
cites R11 and names the rules, and says the setting (`shanghai rules: deal 5's contract is 1 set
of 3 + 1 run of 7`); an answer names the rule set it applied.
"""

from __future__ import annotations

from .ruleset import LIVERPOOL, Deal, RuleSet
from .verdict import Verdict
from .words import Code, Join, Message, Part, joined, message, names_rules, words


class Cited(Code):
    """R11's citing in words: a reason resting on a setting, and how a deal differs from
    liverpool's."""

    HOUSE = "citing.house"
    HOUSE_NAMED = "citing.house_named"
    NEW_DEAL = "citing.new_deal"
    CONTRACT = "citing.contract"
    LAID = "citing.laid"
    ALL_AT_ONCE = "citing.all_at_once"
    KEPT = "citing.kept"
    NOT_ALL_AT_ONCE = "citing.not_all_at_once"


def applied(rules: RuleSet) -> dict[str, str | None]:
    """The rule set an answer applied, as the referee's answers carry it: its preset's key (None
    for a table's own rules), its name, and its one-line summary."""
    return {"key": rules.preset, "name": rules.name, "summary": rules.summary()}


def house_reason(rules: RuleSet, said: Message, reason: Message) -> Message:
    """A reason that rests on a setting of the rule set (R11's citing), in codes: `shanghai
    rules: deal 5's contract is 1 set of 3 + 1 run of 7. …`; a reason already naming the rules
    takes the setting beside what it names."""
    name = rules.rules_name
    if names_rules(reason, name):
        return message(
            Cited.HOUSE_NAMED, rules=name, said=said, reason=message(Part.AFTER_NAME, said=reason)
        )
    return message(Cited.HOUSE, rules=name, said=said, reason=message(Part.SENTENCE, said=reason))


# The points of R3, R5 and R6 that rest on a deal, with what of the deal each rests on: its
# contract (the melds and their sizes), its whole-hand flag. A verdict citing one of them, in a
# deal the rule set changes there from liverpool's deal of that number, rests on that deal (R11).
CONTRACT, WHOLE_HAND = "contract", "whole_hand"
DEAL_POINTS: dict[str, tuple[str, ...]] = {
    "R3.1": (CONTRACT,),
    "R5.1": (CONTRACT, WHOLE_HAND),
    "R5.3": (CONTRACT, WHOLE_HAND),
    "R5.4": (CONTRACT, WHOLE_HAND),
    "R6.3": (WHOLE_HAND,),
    "R6.4": (CONTRACT,),
}


def _melds(deal: Deal) -> list[tuple[str, int]]:
    return sorted((need.kind.value, need.size) for need in deal.contract)


def deal_change(rules: RuleSet, number: int, aspects=(CONTRACT, WHOLE_HAND)) -> str | None:
    """How deal `number` differs from liverpool's deal of that number in the `aspects` a verdict
    rests on (its contract with the sizes, its whole-hand flag), as a clause; None where it does
    not: `deal 7 is not laid all at once, so a card is kept to discard`."""
    said = deal_message(rules, number, aspects)
    return words(said) if said else None


def deal_message(rules: RuleSet, number: int, aspects=(CONTRACT, WHOLE_HAND)) -> Message | None:
    """`deal_change` as a coded message."""
    deal = rules.deal(number)
    if number not in LIVERPOOL.deal_numbers:
        laid = message(Cited.ALL_AT_ONCE if deal.whole_hand else Cited.KEPT)
        return message(Cited.NEW_DEAL, number=number, contract=deal.contract_text(), laid=laid)
    default = LIVERPOOL.deal(number)
    said = []
    if CONTRACT in aspects and _melds(deal) != _melds(default):
        said.append(message(Cited.CONTRACT, number=number, contract=deal.contract_text()))
    if WHOLE_HAND in aspects and deal.whole_hand != default.whole_hand:
        laid = message(Cited.ALL_AT_ONCE if deal.whole_hand else Cited.NOT_ALL_AT_ONCE)
        said.append(message(Cited.LAID, number=number, laid=laid))
    return joined(Join.AND, said) if said else None


def _whole_in_liverpool(number: int) -> bool:
    """Whether liverpool lays this deal all at once (R5's round 7), so that it has no lay-off."""
    return number in LIVERPOOL.deal_numbers and LIVERPOOL.deal(number).whole_hand


def cite_deal(
    verdict: Verdict, rules: RuleSet, number: int, after_opening: bool = False
) -> Verdict:
    """The verdict on R11 and the rule set's name where it rests on a deal the rule set changes
    from liverpool's: it cites a point of R3, R5 or R6 that the deal decides, or (`after_opening`,
    a legal lay-off or swap) it is legal in a deal liverpool lays all at once (R6.3)."""
    aspects = DEAL_POINTS.get(verdict.citation, ())
    if after_opening and verdict.legal and _whole_in_liverpool(number):
        aspects = (WHOLE_HAND,)
    said = deal_message(rules, number, aspects) if aspects else None
    if said is None:
        return verdict
    return verdict.on_setting("deals", house_reason(rules, said, verdict.message))
