"""R11's citing: a verdict that rests on a setting the table's rule set changes from `liverpool`
cites R11 and names the rules, and says the setting (`shanghai rules: deal 5's contract is 1 set
of 3 + 1 run of 7`); an answer names the rule set it applied.
"""

from __future__ import annotations

from .ruleset import LIVERPOOL, Deal, RuleSet
from .verdict import Verdict
from .verdict import sentence as capital


def applied(rules: RuleSet) -> dict[str, str | None]:
    """The rule set an answer applied, as the referee's answers carry it: its preset's key (None
    for a table's own rules), its name, and its one-line summary."""
    return {"key": rules.preset, "name": rules.name, "summary": rules.summary()}


def house_reason(rules: RuleSet, said: str, reason: str) -> str:
    """A reason that rests on a setting of the rule set (R11's citing): `shanghai rules: deal 5's
    contract is 1 set of 3 + 1 run of 7. …`; a reason already naming the rules takes the
    setting beside what it names."""
    named = f"{rules.rules_name}: "
    if reason.startswith(named):
        return f"{named}{said}; {reason[len(named) :]}"
    return f"{named}{said}. {capital(reason)}"


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
    deal = rules.deal(number)
    if number not in LIVERPOOL.deal_numbers:
        kept = "laid all at once, with no discard" if deal.whole_hand else "a card kept to discard"
        return f"deal {number} is {deal.contract_text()}, {kept}"
    default = LIVERPOOL.deal(number)
    said = []
    if CONTRACT in aspects and _melds(deal) != _melds(default):
        said.append(f"deal {number}'s contract is {deal.contract_text()}")
    if WHOLE_HAND in aspects and deal.whole_hand != default.whole_hand:
        laid = (
            "laid all at once, with no discard"
            if deal.whole_hand
            else "not laid all at once, so a card is kept to discard"
        )
        said.append(f"deal {number} is {laid}")
    return " and ".join(said) or None


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
    said = deal_change(rules, number, aspects) if aspects else None
    if said is None:
        return verdict
    return verdict.on_setting("deals", house_reason(rules, said, verdict.reason))
