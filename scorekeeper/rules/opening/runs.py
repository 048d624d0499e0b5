"""The opening search's runs: positions on one suit as a `Run` value, and the tables it reads.

A run is positions lo..hi of one suit, 1 = the low ace and 14 the high ace (R4: nothing wraps).
The search counts cards in (suit, rank) slots, so each run also knows its places by slot. Whether
two runs touch is R5's rule, `opening.runs_touch`, the one the referee applies to laid melds.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from ..cards import SUIT_SYMBOLS, SUITS, rank_name
from ..melds import HIGH_ACE, rank_at
from .laid import runs_touch

SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def slot(suit: int, rank: int) -> int:
    """A (suit, rank) count slot: suit * 16 + rank."""
    return (suit << 4) | rank


def face(suit: int, position: int) -> str:
    """The canonical text of the card at a run position of a suit: `A♠` at 1 and at 14."""
    return rank_name(rank_at(position)) + SUIT_SYMBOLS[SUITS[suit]]


# Canonical text of each (suit, rank) count slot.
SLOT_TEXT = {slot(suit, rank): face(suit, rank) for suit in range(4) for rank in range(1, 14)}

_POSITIONS = [(lo, hi) for lo in range(1, HIGH_ACE + 1) for hi in range(lo, HIGH_ACE + 1)]
# Run cells of every interval: (lo, hi) -> tuple of (suit-less) ranks, ace counted per position.
INTERVAL_RANKS = {(lo, hi): tuple(rank_at(p) for p in range(lo, hi + 1)) for lo, hi in _POSITIONS}
# Bit p of an interval's mask: the interval holds position p.
INTERVAL_MASK = {(lo, hi): sum(1 << p for p in range(lo, hi + 1)) for lo, hi in _POSITIONS}
# Each non-empty subset of up to 3 runs, by their number: the min-cut test checks every one.
SUBSETS = {
    size: [subset for width in range(1, size + 1) for subset in combinations(range(size), width)]
    for size in range(1, 4)
}


def _cells(suit: int, lo: int, hi: int) -> tuple[tuple[int, int], ...]:
    """The run's places as ((count slot, places), ...): an A..A run has two places for its ace."""
    places: dict[int, int] = {}
    for rank in INTERVAL_RANKS[(lo, hi)]:
        key = slot(suit, rank)
        places[key] = places.get(key, 0) + 1
    return tuple(places.items())


CELLS = {(suit, lo, hi): _cells(suit, lo, hi) for suit in range(4) for lo, hi in _POSITIONS}


class Run(NamedTuple):
    """A run the search may lay: positions `lo`..`hi` of one suit (1 = low ace, 14 = high ace).

    `cells` counts its places by (suit, rank) count slot, as ((slot, places), ...); `need` is the
    fewest jokers it takes on its own (its places no natural of the hand can fill); `needs_overlap`
    marks a run of 5+ cards worth laying only where the other run of its suit overlaps it on
    exactly one end position (see `search.Search.candidates`).
    """

    suit: int
    lo: int
    hi: int
    cells: tuple[tuple[int, int], ...]
    need: int = 0
    needs_overlap: bool = False

    @classmethod
    def of(cls, suit: int, lo: int, hi: int, need: int = 0, needs_overlap: bool = False) -> Run:
        """The run of positions lo..hi of a suit (0-3, in SUITS order)."""
        return cls(suit, lo, hi, CELLS[(suit, lo, hi)], need, needs_overlap)

    def __repr__(self) -> str:
        extra = ", needs_overlap=True" if self.needs_overlap else ""
        return (
            f"Run({face(self.suit, self.lo)}-{face(self.suit, self.hi)}, need={self.need}{extra})"
        )

    def touches(self, other: Run) -> bool:
        """Same suit and contiguous, so the two read as one run: never in one opening (R5)."""
        return self.suit == other.suit and runs_touch(self.lo, self.hi, other.lo, other.hi)

    def overlaps_at_end(self, other: Run) -> bool:
        """Same suit, and one run ends exactly where the other starts (a one-card overlap)."""
        return self.suit == other.suit and (self.hi == other.lo or other.hi == self.lo)
