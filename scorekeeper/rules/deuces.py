"""R11 Wild deuces: a 2 is natural where it stands as itself and wild anywhere else.

Where a rule set makes deuces wild, a meld's readings are those of every way of playing its 2s:
each undeclared 2 as itself or as a wild card, a declared 2 (`2♠=7♥`) always as a wild card at
its declared place. A wild 2 is read exactly as a joker would be, and a reading in which a wild 2
stands for itself (a 2 in a set of 2s, the 2 of a run's own suit at the 2's place) is the reading
with that 2 natural, so it is never listed twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from .cards import Card
from .reading import RUN, Reading, rank_at
from .ruleset import RuleSet


def as_wild(card: Card) -> Card:
    """A 2 played as a wild card, as the joker it plays: at its declared place, if any."""
    return Card(card.as_rank or None, card.as_suit or None, True)


def is_deuce(card: Card) -> bool:
    return card.natural and card.rank == 2


def views(cards: Sequence[Card]):
    """(the cards with some 2s played as jokers, the indices of those 2s), natural 2s first."""
    deuces = [index for index, card in enumerate(cards) if is_deuce(card)]
    free = [index for index in deuces if not cards[index].as_rank]
    for natural in product((True, False), repeat=len(free)):
        kept = {index for index, keep in zip(free, natural, strict=True) if keep}
        wild = frozenset(index for index in deuces if index not in kept)
        yield tuple(as_wild(c) if i in wild else c for i, c in enumerate(cards)), wild


def deuce_readings(cards: tuple[Card, ...], rules: RuleSet, set_readings, run_readings):
    """Every legal reading with the 2s played each way (R4, R11): sets first, runs low to high.
    `set_readings` and `run_readings` read one way of playing them (melds.py's)."""
    sets: dict[tuple, Reading] = {}
    runs: dict[tuple, Reading] = {}
    for view, wild in views(cards):
        if not any(card.natural for card in view):
            continue
        for reading in set_readings(view, rules):
            if not (wild and reading.jokers[0].rank == 2):
                physical = Reading(reading.kind, cards, reading.jokers, 0, wild)
                sets.setdefault(physical.key(), physical)
        for reading in run_readings(view, rules):
            physical = _run_back(cards, view, wild, reading)
            if physical is not None:
                runs.setdefault(physical.key(), physical)
    return list(sets.values()) + sorted(runs.values(), key=lambda reading: reading.low)


def _run_back(cards, view, wild, reading: Reading) -> Reading | None:
    """The run reading of the view made of the physical cards, or None when a wild 2 would stand
    for itself (that reading is the one with the 2 natural)."""
    undeclared = [i for i, card in enumerate(view) if card.joker and not card.declared]
    undeclared.reverse()
    used: set[int] = set()
    slots, wilds = [], set()
    for position, slot in enumerate(reading.slots):
        if slot.natural:
            slots.append(slot)
            continue
        if slot.declared:
            index = next(i for i, card in enumerate(view) if i not in used and card == slot)
        else:
            index = undeclared.pop()
        used.add(index)
        card = cards[index]
        slots.append(card)
        if index in wild:
            if rank_at(reading.low + position) == 2 and reading.suit in (None, card.suit):
                return None
            wilds.add(position)
    # Another wild card at the 2's own place while that 2 plays wild elsewhere: the same run as
    # the one with the 2 natural, already read.
    own = Card(2, reading.suit)
    if own in reading.jokers and any(
        reading.suit in (None, cards[i].suit) and not cards[i].as_rank for i in wild
    ):
        return None
    return Reading(reading.kind, tuple(slots), reading.jokers, reading.low, frozenset(wilds))


def problem_view(cards: tuple[Card, ...], kinds: Sequence[str]) -> tuple[Card, ...]:
    """The cards as a refusal reads them: the 2s natural where they could stand as themselves
    (a meld of 2s, or one 2 of a one-suit run's suit), wild elsewhere."""
    others = [card for card in cards if card.natural and card.rank != 2]
    if not others:
        return cards
    suits = {card.suit for card in others}
    ranks = {card.rank for card in others}
    keep = None
    if RUN in kinds and len(suits) == 1 and not (len(ranks) == 1 and len(others) > 1):
        suit = next(iter(suits))
        keep = next(
            (i for i, c in enumerate(cards) if is_deuce(c) and not c.as_rank and c.suit == suit),
            None,
        )
    return tuple(
        as_wild(card) if is_deuce(card) and index != keep else card
        for index, card in enumerate(cards)
    )
