"""R3 Contracts: what each deal asks a player to lay down, read from the game's rule set (R11)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .ruleset import MeldKind, Need, RuleSet
from .words import Code, Join, Message, Said, joined, message, words


class Asked(Code):
    """How a contract is said (R3): its melds counted, and the whole-hand wording."""

    SETS = "contract.sets"
    RUNS = "contract.runs"
    SETS_OF = "contract.sets_of"
    RUNS_OF = "contract.runs_of"
    ANY_SUIT_RUNS = "contract.any_suit_runs"
    ANY_SUIT_RUNS_OF = "contract.any_suit_runs_of"
    WHOLE_HAND = "contract.whole_hand"


# Each kind's count at R4's least size, and at a size of its own.
_COUNTED = {
    MeldKind.SET: Asked.SETS,
    MeldKind.RUN: Asked.RUNS,
    MeldKind.ANY_SUIT_RUN: Asked.ANY_SUIT_RUNS,
}
_COUNTED_OF = {
    MeldKind.SET: Asked.SETS_OF,
    MeldKind.RUN: Asked.RUNS_OF,
    MeldKind.ANY_SUIT_RUN: Asked.ANY_SUIT_RUNS_OF,
}


def needs_message(needs: Iterable[Need]) -> Message:
    """`2 sets`, `1 set + 1 run` at R4's least sizes; `1 set of 3 + 1 run of 10` otherwise."""
    needs = tuple(needs)
    if all(need.size == need.kind.least for need in needs):
        counts = {kind: sum(need.kind is kind for need in needs) for kind in _COUNTED}
        parts = [message(_COUNTED[kind], count=n) for kind, n in counts.items() if n]
        return joined(Join.PLUS, parts)
    counted: dict[Need, int] = {}
    for need in sorted(needs, key=lambda need: (need.kind is not MeldKind.SET, need.size)):
        counted[need] = counted.get(need, 0) + 1
    return joined(
        Join.PLUS,
        [message(_COUNTED_OF[need.kind], count=n, size=need.size) for need, n in counted.items()],
    )


@dataclass(frozen=True)
class Contract:
    """A deal's contract: its melds, each with its kind and fewest cards, and whether the whole
    hand must go at once with no discard (R5's last deal, or any deal a rule set marks so)."""

    round: int
    needs: tuple[Need, ...]
    whole_hand: bool = False
    # The most wild cards in one meld of the opening, the deal's own or the rule set's (R12.3).
    wild_max: int | None = None

    @property
    def sets(self) -> int:
        return sum(need.kind is MeldKind.SET for need in self.needs)

    @property
    def runs(self) -> int:
        return sum(need.kind is MeldKind.RUN for need in self.needs)

    @property
    def any_suit_runs(self) -> int:
        return sum(need.kind is MeldKind.ANY_SUIT_RUN for need in self.needs)

    @property
    def kinds(self) -> tuple[int, int, int]:
        """How many sets, runs and runs of any suits the contract lays."""
        return (self.sets, self.runs, self.any_suit_runs)

    @property
    def melds(self) -> int:
        return len(self.needs)

    def sizes(self, kind: MeldKind | str) -> list[int]:
        """The sizes the contract asks of one kind, smallest first."""
        kind = MeldKind(kind)
        return sorted(need.size for need in self.needs if need.kind is kind)

    @property
    def least_cards(self) -> int:
        """The cards the contract lays at its own sizes."""
        return sum(need.size for need in self.needs)

    @property
    def at_least_sizes(self) -> bool:
        """Whether every meld is at R4's least size (3 a set, 4 a run)."""
        return all(need.size == need.kind.least for need in self.needs)

    def __str__(self) -> str:
        return words(self.said())

    def said(self) -> Message:
        """`1 set + 1 run`, with `using the whole hand, no discard` where the hand goes at once."""
        short = needs_message(self.needs)
        return message(Asked.WHOLE_HAND, contract=short) if self.whole_hand else short

    def short(self) -> str:
        """`1 set + 1 run`, without the whole-hand wording."""
        return Said(needs_message(self.needs))


def contract(round_number: int, rules: RuleSet) -> Contract:
    """The contract of one deal of the rule set (R3, R11), or `RoundError` naming its deals."""
    deal = rules.deal(rules.check_deal(round_number))
    cap = rules.wild_max if deal.wild_max is None else deal.wild_max
    return Contract(round_number, tuple(deal.contract), deal.whole_hand, cap)


def contracts(rules: RuleSet) -> tuple[Contract, ...]:
    """Every deal's contract, in order."""
    return tuple(contract(number, rules) for number in rules.deal_numbers)
