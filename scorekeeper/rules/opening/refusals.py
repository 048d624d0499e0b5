"""Why a hand cannot go down: each refusal of the opening search, with its rule and its message.

Every reason the search can give is one `Refusal` member, and its message is written once, here,
worked out from the hand's counts (its size, its jokers, the natural-card minimums searched) and
the round's contract only when a refusal is given.
"""

from __future__ import annotations

import enum

from ..contracts import Contract
from ..melds import MIN_RUN, MIN_SET, RUN, SET
from ..verdict import Problem


def contract_text(deal: Contract) -> str:
    """`1 set + 1 run`: the round's contract without the whole-hand wording (R3)."""
    return deal.short()


def plural(count: int, word: str) -> str:
    """`1 card`, `2 cards`."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _naturals_needed(search, deal: Contract) -> str:
    """`at least 5 natural cards (2 a set, 3 a run)`: the contract's natural-card minimums (R4)."""
    kinds = [(deal.sets, SET, search.set_naturals), (deal.runs, RUN, search.run_naturals)]
    each = ", ".join(f"{need} a {kind}" for count, kind, need in kinds if count)
    least = sum(count * need for count, _, need in kinds)
    return f"at least {least} natural cards ({each})"


class Refusal(enum.Enum):
    """A reason no opening exists: the rule that decides it, and its message for one hand (the
    search's counts) and contract."""

    SIZE = (
        "R5.3",
        lambda hand, deal: (
            f"{contract_text(deal)} needs at least {deal.least_cards + 1} "
            f"cards, one of them kept to discard: this hand has {plural(hand.size, 'card')}."
        ),
    )
    NATURALS = (
        "R4.3",
        lambda hand, deal: (
            f"{contract_text(deal)} needs {_naturals_needed(hand, deal)}: "
            f"this hand has {plural(hand.size - hand.jokers, 'natural card')}."
        ),
    )
    SETS = (
        "R5.1",
        lambda hand, deal: (
            f"{'No set' if deal.sets == 1 else f'No {deal.sets} sets'} can be made from these "
            f"{hand.size} cards: a set is {MIN_SET} cards of one rank with at least "
            f"{plural(hand.set_naturals, 'natural card')}, and the hand has "
            f"{plural(hand.jokers, 'joker')}."
        ),
    )
    RUNS = (
        "R5.1",
        lambda hand, deal: (
            f"No run can be made from these {hand.size} cards: a run is {MIN_RUN} cards in a row "
            f"of one suit with at least {plural(hand.run_naturals, 'natural card')}, jokers "
            "filling gaps."
        ),
    )
    SUITS = (
        "R5.4",
        lambda hand, deal: (
            f"The naturals are in {hand.suit_count} suits, but round {deal.round}'s "
            f"{plural(deal.runs, 'run')} can hold at most {plural(deal.runs, 'suit')} and every "
            "card must be used."
        ),
    )
    WHOLE = (
        "R5.4",
        lambda hand, deal: (
            f"There is no way to split these {hand.size} cards into {deal.runs} runs of at least "
            f"{MIN_RUN} cards that use the whole hand."
        ),
    )
    JOINT = (
        "R5.1",
        lambda hand, deal: (
            f"There is no way to make {contract_text(deal)} from these {hand.size} cards at once, "
            "each card in one meld, and still keep a card to discard."
        ),
    )

    def __init__(self, rule: str, message):
        self.rule = rule
        self.message = message
        # Too few cards, or four suits in round 7, refuse alike in every rule set; any other
        # refusal may turn on the natural-card minimums (R11's settings).
        self.turns_on_naturals = self._name_ not in ("SIZE", "SUITS")

    def problem(self, search, deal: Contract) -> Problem:
        """This refusal for one hand (the search's counts) and contract, in a player's words."""
        return Problem(self.message(search, deal), self.rule)
