"""R3 Contracts: what each deal asks a player to lay down, read from the game's rule set (R11)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .ruleset import MeldKind, Need, RuleSet

WHOLE_HAND_WORDS = " using the whole hand, no discard"


def _count(count: int, word: str) -> str:
    return f"{count} {word}" + ("s" if count > 1 else "")


def needs_text(needs: Iterable[Need]) -> str:
    """`2 sets`, `1 set + 1 run` at R4's least sizes; `1 set of 3 + 1 run of 10` otherwise."""
    needs = tuple(needs)
    if all(need.size == need.kind.least for need in needs):
        sets = sum(need.kind is MeldKind.SET for need in needs)
        runs = len(needs) - sets
        parts = [_count(n, kind) for n, kind in ((sets, "set"), (runs, "run")) if n]
        return " + ".join(parts)
    counted: dict[Need, int] = {}
    for need in sorted(needs, key=lambda need: (need.kind is MeldKind.RUN, need.size)):
        counted[need] = counted.get(need, 0) + 1
    return " + ".join(f"{_count(n, need.kind.value)} of {need.size}" for need, n in counted.items())


@dataclass(frozen=True)
class Contract:
    """A deal's contract: its melds, each with its kind and fewest cards, and whether the whole
    hand must go at once with no discard (R5's last deal, or any deal a rule set marks so)."""

    round: int
    needs: tuple[Need, ...]
    whole_hand: bool = False

    @property
    def sets(self) -> int:
        return sum(need.kind is MeldKind.SET for need in self.needs)

    @property
    def runs(self) -> int:
        return sum(need.kind is MeldKind.RUN for need in self.needs)

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
        text = self.short()
        return text + WHOLE_HAND_WORDS if self.whole_hand else text

    def short(self) -> str:
        """`1 set + 1 run`, without the whole-hand wording."""
        return needs_text(self.needs)


def contract(round_number: int, rules: RuleSet) -> Contract:
    """The contract of one deal of the rule set (R3, R11), or `RoundError` naming its deals."""
    deal = rules.deal(rules.check_deal(round_number))
    return Contract(round_number, tuple(deal.contract), deal.whole_hand)


def contracts(rules: RuleSet) -> tuple[Contract, ...]:
    """Every deal's contract, in order."""
    return tuple(contract(number, rules) for number in rules.deal_numbers)
