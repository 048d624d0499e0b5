"""R6: why cards do not fit a meld on the table, in a player's words.

Each reason names the first condition that keeps the cards off a reading of the meld: another
rank or suit, a card already there, a run past 14 cards or past an ace, a gap left open.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from .cards import SUIT_NAMES, Card, format_cards
from .deuces import as_wild, is_deuce
from .melds import HIGH_ACE, LOW_ACE, MAX_RUN, SET, Reading, positions_of, rank_at, rank_plural
from .verdict import sentence


def layoff_problem(
    meld: tuple[Card, ...],
    cards: tuple[Card, ...],
    before: list[Reading],
    wild_deuces: bool = False,
) -> str:
    """Why the cards extend no reading of the meld: each different reason said once. Where
    deuces are wild (R11), a 2 that cannot stand as itself on a reading is read as the wild card
    it plays, and named as the 2 it is."""
    text, laid = format_cards(meld), format_cards(cards)
    whys: dict[str, list[Reading]] = {}
    for reading in before:
        view = _as_played(reading, cards) if wild_deuces else cards
        why = (
            _why_not_set(reading, text, view, cards, wild_deuces)
            if reading.kind == SET
            else (_why_not_run(reading, text, view, cards))
        )
        whys.setdefault(why, []).append(reading)
    if len(whys) == 1:
        return sentence(next(iter(whys)))
    kinds = {reading.kind for reading in before}
    parts = []
    for why, readings in whys.items():
        if len(kinds) > 1 and all(r.kind == readings[0].kind for r in readings):
            parts.append(f"as a {readings[0].kind}, {why}")
        else:
            read = " or ".join(_short(reading) for reading in readings)
            parts.append(f"read as {read}, {why}")
    return f"{laid} does not fit {text} whichever way it is read: {'; '.join(parts)}"


def _short(reading: Reading) -> str:
    """`4♠–7♠ (joker 4♠)`: a run reading in few words."""
    jokers = " ".join(reading.joker_faces())
    word = "joker" if len(reading.jokers) == 1 else "jokers"
    return f"{reading.span()} ({word} {jokers})" if reading.jokers else reading.span()


def _as_played(reading: Reading, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards as they would play on this reading with deuces wild: a declared 2, or one that
    cannot stand as itself (a set of another rank, a run of another suit), as a wild card."""
    own = SET if reading.kind == SET else reading.suit
    rank = reading.cards()[0].rank if reading.kind == SET else None

    def itself(card: Card) -> bool:
        return rank == 2 if own == SET else card.suit == own

    return tuple(
        as_wild(card) if is_deuce(card) and (card.as_rank or not itself(card)) else card
        for card in cards
    )


def _wild_word(cards: Iterable[Card], count: int) -> str:
    """`joker`, `jokers`, or `wild card(s)` when a 2 plays among them."""
    word = "joker" if all(card.joker for card in cards) else "wild card"
    return word if count == 1 else f"{word}s"


def _why_not_set(
    reading: Reading,
    text: str,
    view: tuple[Card, ...],
    cards: tuple[Card, ...],
    wild_deuces: bool,
) -> str:
    """A card of another rank, or a wild card declared as another rank (R4, R6): `view` is the
    cards as played, `cards` as laid (a wild 2 is named as the 2 it is)."""
    rank = reading.cards()[0].rank
    plural = rank_plural(rank)
    wild = "wild cards" if wild_deuces else "jokers"
    takes = f"a set of {plural} takes only more {plural} or {wild}"
    for shown, card in zip(view, cards, strict=True):
        if shown.natural and shown.rank != rank:
            return f"{card} does not belong on {text}: {takes}"
        if shown.declared and shown.rank != rank:
            return f"{card} is declared as {shown.face()}, but {text} is a set of {plural}"
    return f"{format_cards(cards)} does not belong on {text}: {takes}"  # pragma: no cover


def _why_not_run(
    reading: Reading, text: str, view: tuple[Card, ...], cards: tuple[Card, ...]
) -> str:
    """A wrong suit, a card already there, one laid twice, a run past 14, or a gap left (R4,
    R6): `view` is the cards as played, `cards` as laid (a wild 2 is named as the 2 it is)."""
    suit = reading.suit
    suit_name = SUIT_NAMES[suit]
    for shown, card in zip(view, cards, strict=True):
        if shown.natural and shown.suit != suit:
            return f"{card} cannot go on {text}: a run is all {suit_name}"
        if shown.declared and shown.suit not in (None, suit):
            return f"{card} is declared as {shown.face()}, but {text} is a run of {suit_name}"
    size = len(reading.slots) + len(cards)
    if size > MAX_RUN:
        return f"a run holds at most {MAX_RUN} cards (A 2 … K A); {text} would have {size}"
    pairs = [(shown, card) for shown, card in zip(view, cards, strict=True) if shown.rank]
    fixed = [shown for shown, _ in pairs]
    free = len(cards) - len(fixed)
    choices = []
    for shown, card in pairs:
        outside = [p for p in positions_of(shown.rank) if not reading.low <= p <= reading.high]
        if not outside:
            return _already_there(reading, text, shown, card)
        choices.append(outside)
    placements = [p for p in product(*choices) if len(set(p)) == len(p)]
    if not placements:
        return _laid_twice(pairs, choices, suit)
    missing = min((_missing(reading, placement) for placement in placements), key=len)
    if len(missing) <= free:
        return f"{format_cards(cards)} does not extend {text}"  # pragma: no cover
    past_ace = _past_ace(reading, fixed)
    if past_ace:
        return past_ace
    gap = _stretches([Card(rank_at(p), suit) for p in missing])
    wild = [shown for shown in view if shown.rank is None]
    jokers = "" if not free else f" ({free} {_wild_word(wild, free)} can fill only {free})"
    verb = "leaves" if len(cards) == 1 else "leave"
    reason = f"{format_cards(cards)} {verb} a gap on {text}: {gap} would be missing{jokers}"
    ace = next((card for shown, card in pairs if shown.rank == 1), None)
    if ace is not None and reading.low == LOW_ACE:
        reason += f"; the run already starts with its ace, so {ace} could go only after the K"
    elif ace is not None and reading.high == HIGH_ACE:
        reason += f"; the run already ends with its ace, so {ace} could go only before the 2"
    ends = _ends([reading])
    if not set(ends) & {str(card) for card in cards}:
        reason += f"; the next card at either end is {_or_list(ends)}"
    return reason


def _already_there(reading: Reading, text: str, shown: Card, card: Card) -> str:
    """The card, or the card a wild card is declared as, already holds its place in the run:
    `shown` as it plays, `card` as laid."""
    positions = [p for p in positions_of(shown.rank) if reading.low <= p <= reading.high]
    index = positions[0] - reading.low
    slot = reading.slots[index]
    face = str(Card(shown.rank, reading.suit))
    if shown.joker:
        return f"{card} stands for {face}, which {text} already has: a run holds each card once"
    if slot.joker:
        return f"{card} is already in {text} as a joker: replace the joker instead (R7)"
    if reading.is_wild(index):
        return (
            f"{card} is already in {text} as the wild {slot}: replace the wild {slot} instead (R7)"
        )
    return f"{card} is already in {text}: a run holds each card once"


def _laid_twice(pairs: list[tuple[Card, Card]], choices: list[list[int]], suit: str) -> str:
    """Two of the cards need the same place: name the first card that finds its place taken
    (each pair the card as it plays and as laid)."""
    for count in range(2, len(pairs) + 1):
        if not any(len(set(p)) == len(p) for p in product(*choices[:count])):
            shown, card = pairs[count - 1]
            face = Card(shown.rank, suit)
            twin_shown, twin = next(
                pair for pair in pairs[: count - 1] if pair[0].rank == shown.rank
            )
            if shown.joker or twin_shown.joker:
                return (
                    f"{twin} and {card} both take the place of {face}: a run holds each card once"
                )
            if shown.rank == 1:
                return f"{card} is laid twice, but the run has room for only one more ace"
            return f"{card} is laid twice: a run holds each card once"
    laid = format_cards([card for _, card in pairs])
    return f"{laid} need more places than the run has"  # pragma: no cover


def _missing(reading: Reading, placement: tuple[int, ...]) -> list[int]:
    """The places between the run and the new cards that nothing fills."""
    taken = set(placement)
    below = [p for p in taken if p < reading.low]
    above = [p for p in taken if p > reading.high]
    gaps = []
    if below:
        gaps += [p for p in range(min(below), reading.low) if p not in taken]
    if above:
        gaps += [p for p in range(reading.high + 1, max(above) + 1) if p not in taken]
    return gaps


def _past_ace(reading: Reading, fixed: list[Card]) -> str | None:
    """A 2 after the run's high ace, or a K before its low ace: nothing wraps round the ace."""
    for card in fixed:
        wraps = (reading.high == HIGH_ACE and card.rank == 2 and reading.low > 3) or (
            reading.low == LOW_ACE and card.rank == 13 and reading.high < 12
        )
        if card.natural and wraps:
            ace = "after the A at its top" if card.rank == 2 else "before the A at its bottom"
            return f"nothing extends past an ace: {card} cannot go {ace} ({reading.span()})"
    return None


def _stretches(cards: list[Card]) -> str:
    """Missing cards in order, a stretch of three or more as `5♦–K♦`: `3♠, 9♠ 10♠`."""
    groups: list[list[Card]] = []
    for card in cards:
        if groups and card.rank == groups[-1][-1].rank % 13 + 1:
            groups[-1].append(card)
        else:
            groups.append([card])
    texts = [
        f"{group[0]}–{group[-1]}" if len(group) > 2 else " ".join(map(str, group))
        for group in groups
    ]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def _ends(runs: Iterable[Reading]) -> list[str]:
    """The cards that would extend some run reading at either end, low to high."""
    positions = {
        (position, run.suit)
        for run in runs
        for position in (run.low - 1, run.high + 1)
        if LOW_ACE <= position <= HIGH_ACE
    }
    return [str(Card(rank_at(position), suit)) for position, suit in sorted(positions)]


def _or_list(items: list[str]) -> str:
    """`4♠ or 9♠`, `3♠, 4♠, 8♠ or 9♠`."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"
