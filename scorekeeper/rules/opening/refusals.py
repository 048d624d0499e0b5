"""Why a hand cannot go down: each refusal of the opening search, with its rule and its values.

Every reason the search can give is one `Refusal` member: a code whose words live in words.py
(`opening.size`, ...), filled from the hand's counts (its size, its jokers, the natural-card
minimums searched) and the round's contract only when a refusal is given.
"""

from __future__ import annotations

from ..contracts import Contract
from ..melds import MIN_RUN, MIN_SET
from ..verdict import Problem
from ..words import Code, Join, Message, joined, message


def contract_text(deal: Contract) -> str:
    """`1 set + 1 run`: the round's contract without the whole-hand wording (R3)."""
    return deal.short()


class Need(Code):
    """The natural cards a contract needs: in all, and for each kind of meld (R4)."""

    IN_ALL = "opening.naturals_needed"
    SET = "opening.set_naturals"
    RUN = "opening.run_naturals"


def _naturals_needed(search, deal: Contract) -> Message:
    """`at least 5 natural cards (2 a set, 3 a run)`: the contract's natural-card minimums (R4)."""
    kinds = [(deal.sets, Need.SET, search.set_naturals), (deal.runs, Need.RUN, search.run_naturals)]
    each = [message(kind, need=need) for count, kind, need in kinds if count]
    least = sum(count * need for count, _, need in kinds)
    return message(Need.IN_ALL, least=least, each=joined(Join.COMMA, each))


class Refusal(Code):
    """A reason no opening exists: its code, the rule that decides it, and the values its words
    show for one hand (the search's counts) and contract."""

    SIZE = ("opening.size", "R5.3")
    NATURALS = ("opening.naturals", "R4.3")
    SETS = ("opening.sets", "R5.1")
    RUNS = ("opening.runs", "R5.1")
    SUITS = ("opening.suits", "R5.4")
    WHOLE = ("opening.whole", "R5.4")
    JOINT = ("opening.joint", "R5.1")

    def __init__(self, id: str, rule: str):
        super().__init__(id)
        self.rule = rule
        # Too few cards, or four suits in round 7, refuse alike in every rule set; any other
        # refusal may turn on the natural-card minimums (R11's settings).
        self.turns_on_naturals = self._name_ not in ("SIZE", "SUITS")

    def message(self, search, deal: Contract) -> Message:
        """This refusal's code with its values for one hand (the search's counts) and contract."""
        values = {
            "contract": contract_text(deal),
            "size": search.size,
            "jokers": search.jokers,
            "naturals": search.size - search.jokers,
            "set_naturals": search.set_naturals,
            "run_naturals": search.run_naturals,
            "sets": deal.sets,
            "runs": deal.runs,
            "round": deal.round,
            "min_set": MIN_SET,
            "min_run": MIN_RUN,
        }
        if self is Refusal.SIZE:
            values["least"] = deal.least_cards + 1
        elif self is Refusal.NATURALS:
            values["needed"] = _naturals_needed(search, deal)
        elif self is Refusal.SUITS:
            values["suits"] = search.suit_count
        return Message(self, values)

    def problem(self, search, deal: Contract) -> Problem:
        """This refusal for one hand (the search's counts) and contract, in a player's words."""
        return Problem.of(self.message(search, deal), self.rule)
