"""R3 Contracts: what each of the seven rounds asks a player to lay down."""

from __future__ import annotations

from dataclasses import dataclass

from .profiles import LAST_ROUND, ROUNDS, check_round


@dataclass(frozen=True)
class Contract:
    """A round's contract: how many sets and runs, and whether the whole hand must go."""

    round: int
    sets: int
    runs: int

    @property
    def whole_hand(self) -> bool:
        """Round 7: three runs that use every card, with no discard (R5)."""
        return self.round == LAST_ROUND

    @property
    def melds(self) -> int:
        return self.sets + self.runs

    def __str__(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{self.sets} set" + ("s" if self.sets > 1 else ""))
        if self.runs:
            parts.append(f"{self.runs} run" + ("s" if self.runs > 1 else ""))
        text = " + ".join(parts)
        return text + " using the whole hand, no discard" if self.whole_hand else text

    def short(self) -> str:
        """`1 set + 1 run`, without the round-7 wording."""
        return str(Contract(0, self.sets, self.runs))


_TABLE = {1: (2, 0), 2: (1, 1), 3: (0, 2), 4: (3, 0), 5: (2, 1), 6: (1, 2), 7: (0, 3)}


def contract(round_number: int) -> Contract:
    """The contract of a round 1-7 (R3), or `RoundError`."""
    sets, runs = _TABLE[check_round(round_number)]
    return Contract(round_number, sets, runs)


CONTRACTS = tuple(contract(n) for n in ROUNDS)
