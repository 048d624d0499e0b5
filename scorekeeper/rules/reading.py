"""R4 Melds: a meld's reading (its kind, its cards in place, what each wild card stands for).

A run's places are positions 1 … 14: 1 is the low ace, 2 … 13 the ranks 2 … K, 14 the high ace.
Where the ace wraps (R12.3's `ace: wrap`) a run goes on round the ace: 15 is the 2 after the high
ace, 16 the 3, and so on; a run then holds each rank once, at most 13 cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, declared_as
from .words import Code, Join, Message, joined, message, words

SET, RUN, ANY_SUIT_RUN = "set", "run", "any_suit_run"
KINDS = (SET, RUN)
MIN_SET, MIN_RUN, MAX_RUN = 3, 4, 14
LOW_ACE, HIGH_ACE = 1, 14
# A run where the ace wraps: each of the 13 ranks once at most (R12.3).
RANKS = 13


class Described(Code):
    """How a reading is said: its cards, and what its wild cards stand for."""

    JOKERS = "reading.jokers"
    WILDS = "reading.wilds"
    WILD_AS = "reading.wild_as"
    JOKER_AS = "reading.joker_as"


def rank_at(position: int) -> int:
    """The rank shown at a run position (14, the high ace, is an ace; past it, where the ace
    wraps, 15 is a 2)."""
    return (position - 1) % RANKS + 1


def positions_of(rank: int, wrap: bool = False) -> tuple[int, ...]:
    """The run positions a rank may take: an ace is low or high, any other rank is itself;
    where the ace wraps, every rank also has its place after the high ace."""
    return (rank, rank + RANKS) if wrap or rank == 1 else (rank,)


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a meld: its kind, the physical cards in order, and what each wild card is.

    `slots` are the cards as placed (a run from low to high, a set as listed);
    `jokers` says, in slot order, what each wild card stands for (a card in a run, a rank in a
    set); `low` is a run's first position (1 = ace low), 0 for a set; `wilds` are the slots of
    2s played as wild cards (R11's wild deuces): a joker's slot is always wild.
    """

    kind: str
    slots: tuple[Card, ...]
    jokers: tuple[Card, ...]
    low: int = 0
    wilds: frozenset[int] = frozenset()

    @property
    def high(self) -> int:
        """A run's last position (14 = ace high)."""
        return self.low + len(self.slots) - 1

    @property
    def suit(self) -> str | None:
        """A run's suit; None for a set, and for a run whose suits are free (R12.3)."""
        return self.cards()[0].suit if self.kind == RUN else None

    def wild_gaps(self) -> list[int]:
        """A run's natural cards between each two of its wild cards, in order (R12.3's
        `wild_spacing`): `JK=3♥ JK=4♥ 5♥ 6♥` has [0]."""
        if self.kind == SET:
            return []
        wild = self._wild_slots()
        return [later - earlier - 1 for earlier, later in zip(wild, wild[1:], strict=False)]

    def is_wild(self, index: int) -> bool:
        """Whether the card in this slot stands for another (a joker, or a wild 2)."""
        return self.slots[index].joker or index in self.wilds

    def wild_count(self) -> int:
        return len(self.jokers)

    def cards(self) -> tuple[Card, ...]:
        """The slots with every wild card replaced by the natural it stands for."""
        stood_for = iter(self.jokers)
        return tuple(
            next(stood_for) if self.is_wild(index) else slot
            for index, slot in enumerate(self.slots)
        )

    def faces(self) -> list[str]:
        """The slots as text, jokers shown as what they stand for: `['5♠', '6♠', '7♠', '8♠']`."""
        return [card.face() for card in self.cards()]

    def joker_faces(self) -> list[str]:
        """What each wild card stands for, as text: `['7♠']` in a run, `['7']` in a set."""
        return [card.face() for card in self.jokers]

    def declared(self) -> list[str]:
        """The slots in R1 notation, each wild card declared as what it stands for:
        `['J♠', 'J♥', 'JK=J']`, `['5♠', '6♠', '2♥=7♠', '8♠']`."""
        stood_for = iter(self.jokers)
        return [
            str(declared_as(slot, next(stood_for))) if self.is_wild(index) else slot.face()
            for index, slot in enumerate(self.slots)
        ]

    def wild_deuces(self) -> list[str]:
        """Each wild 2 and what it stands for, as `2♥=7♠` (R11's wild deuces)."""
        stood_for = dict(zip(self._wild_slots(), self.jokers, strict=True))
        return [
            f"{self.slots[index].face()}={stood_for[index].face()}" for index in sorted(self.wilds)
        ]

    def _wild_slots(self) -> list[int]:
        return [index for index in range(len(self.slots)) if self.is_wild(index)]

    def span(self) -> str:
        """A run as `3♠–6♠`, a set as its cards."""
        faces = self.faces()
        return f"{faces[0]}–{faces[-1]}" if self.kind == RUN else " ".join(faces)

    def describe(self) -> str:
        """`5♠ 6♠ 7♠ 8♠ (joker 7♠)`: the reading as a player would say it."""
        said = self.described()
        return said if isinstance(said, str) else words(said)

    def described(self) -> str | Message:
        """The reading as a player would say it: its cards alone, or a message naming what
        each wild card stands for."""
        text = " ".join(self.faces())
        if not self.jokers:
            return text
        if not self.wilds:
            faces = " ".join(self.joker_faces())
            return message(Described.JOKERS, cards=text, faces=faces, jokers=len(self.jokers))
        parts = [
            message(Described.WILD_AS, card=self.slots[index].face(), face=stood_for.face())
            if index in self.wilds
            else message(Described.JOKER_AS, face=stood_for.face())
            for index, stood_for in zip(self._wild_slots(), self.jokers, strict=True)
        ]
        return message(Described.WILDS, cards=text, parts=joined(Join.COMMA, parts))

    def key(self) -> tuple:
        """What a player sees: readings with the same key are the same reading."""
        deuces = tuple((index, self.slots[index].face()) for index in sorted(self.wilds))
        return (self.kind, tuple(self.faces()), tuple(self.joker_faces()), deuces)

    def __str__(self) -> str:
        return self.describe()
