"""R6: why cards do not fit a meld on the table, as coded messages (their words in words.py).

Each reason names the first condition that keeps the cards off a reading of the meld: another
rank or suit, a card already there, a run past 14 cards or past an ace, a gap left open. Where
the ace wraps (R12.3, `wrap`) a run goes on round it: past 13 cards, and gaps counted round it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from .cards import Card, format_cards
from .deuces import as_wild, is_deuce
from .melds import HIGH_ACE, LOW_ACE, MAX_RUN, RANKS, SET, Reading, positions_of, rank_at
from .words import Code, Join, Message, joined, message, ranks, render, suit


class Why(Code):
    """Each reason cards do not fit a meld, and the parts of those reasons."""

    EVERY_READING = "layoff.every_reading"
    AS_SET = "layoff.as_set"
    AS_RUN = "layoff.as_run"
    READ_AS = "layoff.read_as"
    READING_JOKERS = "layoff.reading_jokers"
    SET_RANK = "layoff.set_rank"
    SET_TAKES_JOKERS = "layoff.set_takes_jokers"
    SET_TAKES_WILD = "layoff.set_takes_wild"
    SET_DECLARED = "layoff.set_declared"
    RUN_SUIT = "layoff.run_suit"
    RUN_DECLARED = "layoff.run_declared"
    RUN_TOO_LONG = "layoff.run_too_long"
    RUN_TOO_LONG_WRAP = "layoff.run_too_long_wrap"
    RUN_STANDS_FOR = "layoff.run_stands_for"
    RUN_HAS_JOKER = "layoff.run_has_joker"
    RUN_HAS_WILD = "layoff.run_has_wild"
    RUN_HAS_CARD = "layoff.run_has_card"
    RUN_SAME_PLACE = "layoff.run_same_place"
    RUN_ACE_TWICE = "layoff.run_ace_twice"
    RUN_TWICE = "layoff.run_twice"
    RUN_NO_ROOM = "layoff.run_no_room"
    RUN_EXTENDS = "layoff.run_extends"
    RUN_PAST_TOP_ACE = "layoff.run_past_top_ace"
    RUN_PAST_BOTTOM_ACE = "layoff.run_past_bottom_ace"
    RUN_GAP = "layoff.run_gap"
    GAP_JOKERS = "layoff.gap_jokers"
    GAP_WILD = "layoff.gap_wild"
    GAP_STARTS_WITH_ACE = "layoff.gap_starts_with_ace"
    GAP_ENDS_WITH_ACE = "layoff.gap_ends_with_ace"
    GAP_ENDS = "layoff.gap_ends"


def layoff_problem(
    meld: tuple[Card, ...],
    cards: tuple[Card, ...],
    before: list[Reading],
    wild_deuces: bool = False,
    wrap: bool = False,
) -> Message:
    """Why the cards extend no reading of the meld: each different reason said once. Where
    deuces are wild (R11), a 2 that cannot stand as itself on a reading is read as the wild card
    it plays, and named as the 2 it is."""
    text = format_cards(meld)
    whys: dict[str, tuple[Message, list[Reading]]] = {}
    for reading in before:
        view = _as_played(reading, cards) if wild_deuces else cards
        why = (
            _why_not_set(reading, text, view, cards, wild_deuces)
            if reading.kind == SET
            else _why_not_run(reading, text, view, cards, wrap)
        )
        whys.setdefault(render(why), (why, []))[1].append(reading)
    if len(whys) == 1:
        return next(iter(whys.values()))[0]
    kinds = {reading.kind for reading in before}
    parts = [_read_as(why, readings, len(kinds) > 1) for why, readings in whys.values()]
    return message(
        Why.EVERY_READING, laid=format_cards(cards), meld=text, whys=joined(Join.SEMICOLON, parts)
    )


def _read_as(why: Message, readings: list[Reading], kinds: bool) -> Message:
    """One reason among several: for a kind of meld (where the meld reads as either kind and
    every reading of this reason is one kind), or for the readings it holds on."""
    if kinds and all(r.kind == readings[0].kind for r in readings):
        return message(Why.AS_SET if readings[0].kind == SET else Why.AS_RUN, why=why)
    read = joined(Join.EITHER, [_short(reading) for reading in readings])
    return message(Why.READ_AS, readings=read, why=why)


def _short(reading: Reading) -> str | Message:
    """`4♠–7♠ (joker 4♠)`: a run reading in few words."""
    if not reading.jokers:
        return reading.span()
    faces = " ".join(reading.joker_faces())
    return message(Why.READING_JOKERS, span=reading.span(), faces=faces, jokers=len(reading.jokers))


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


def _why_not_set(
    reading: Reading,
    text: str,
    view: tuple[Card, ...],
    cards: tuple[Card, ...],
    wild_deuces: bool,
) -> Message:
    """A card of another rank, or a wild card declared as another rank (R4, R6): `view` is the
    cards as played, `cards` as laid (a wild 2 is named as the 2 it is)."""
    rank = reading.cards()[0].rank
    named = ranks(rank)
    takes = message(Why.SET_TAKES_WILD if wild_deuces else Why.SET_TAKES_JOKERS, ranks=named)
    for shown, card in zip(view, cards, strict=True):
        if shown.natural and shown.rank != rank:
            return message(Why.SET_RANK, card=str(card), meld=text, takes=takes)
        if shown.declared and shown.rank != rank:
            face = shown.face()
            return message(Why.SET_DECLARED, card=str(card), face=face, meld=text, ranks=named)
    return message(
        Why.SET_RANK, card=format_cards(cards), meld=text, takes=takes
    )  # pragma: no cover


def _why_not_run(
    reading: Reading, text: str, view: tuple[Card, ...], cards: tuple[Card, ...], wrap: bool
) -> Message:
    """A wrong suit, a card already there, one laid twice, a run past 14, or a gap left (R4,
    R6): `view` is the cards as played, `cards` as laid (a wild 2 is named as the 2 it is)."""
    return (
        _off_suit(reading, text, view, cards)
        or _too_long(reading, text, cards, wrap)
        or _no_place(reading, text, view, cards, wrap)
    )


def _off_suit(
    reading: Reading, text: str, view: tuple[Card, ...], cards: tuple[Card, ...]
) -> Message | None:
    """The first card of another suit, or declared as one."""
    named = suit(reading.suit)
    for shown, card in zip(view, cards, strict=True):
        if shown.natural and shown.suit != reading.suit:
            return message(Why.RUN_SUIT, card=str(card), meld=text, suit=named)
        if shown.declared and shown.suit not in (None, reading.suit):
            face = shown.face()
            return message(Why.RUN_DECLARED, card=str(card), face=face, meld=text, suit=named)
    return None


def _too_long(reading: Reading, text: str, cards: tuple[Card, ...], wrap: bool) -> Message | None:
    """A run past MAX_RUN cards (13, each rank once, where the ace wraps)."""
    size = len(reading.slots) + len(cards)
    most = RANKS if wrap else MAX_RUN
    if size > most:
        code = Why.RUN_TOO_LONG_WRAP if wrap else Why.RUN_TOO_LONG
        return message(code, most=most, meld=text, size=size)
    return None


def _no_place(
    reading: Reading, text: str, view: tuple[Card, ...], cards: tuple[Card, ...], wrap: bool
) -> Message:
    """Cards of the run's suit that find no place: one already there, two needing one place,
    one past an ace, or a gap the wild cards cannot fill."""
    pairs = [(shown, card) for shown, card in zip(view, cards, strict=True) if shown.rank]
    choices = []
    for shown, card in pairs:
        outside = _outside(reading, shown.rank, wrap)
        if not outside:
            return _already_there(reading, text, shown, card, wrap)
        choices.append(outside)
    placements = [p for p in product(*choices) if len(set(p)) == len(p)]
    if not placements:
        return _laid_twice(pairs, choices, reading.suit)
    missing = min((_missing(reading, placement, wrap) for placement in placements), key=len)
    free = len(cards) - len(pairs)
    if len(missing) <= free:
        return message(Why.RUN_EXTENDS, cards=format_cards(cards), meld=text)  # pragma: no cover
    fixed = [shown for shown, _ in pairs]
    past = None if wrap else _past_ace(reading, fixed)
    return past or _gap(reading, text, view, cards, pairs, missing, wrap)


def _outside(reading: Reading, rank: int, wrap: bool) -> list[int]:
    """The places a rank may take beside a run: its own (an ace low or high, R4), or where the
    ace wraps, its one place in the ranks after the run's top and before its bottom (R12.3)."""
    if not wrap:
        return [p for p in positions_of(rank) if not reading.low <= p <= reading.high]
    return [p for p in range(reading.high + 1, reading.low + RANKS) if rank_at(p) == rank]


def _gap(
    reading: Reading,
    text: str,
    view: tuple[Card, ...],
    cards: tuple[Card, ...],
    pairs: list[tuple[Card, Card]],
    missing: list[int],
    wrap: bool,
) -> Message:
    """The cards leave places open that the wild cards among them cannot fill: which, and what
    would extend the run instead."""
    gap = _stretches([Card(rank_at(p), reading.suit) for p in missing])
    ends = _ends([reading], wrap)
    beyond = None
    if not set(ends) & {str(card) for card in cards}:
        beyond = message(Why.GAP_ENDS, ends=joined(Join.OR, ends))
    return message(
        Why.RUN_GAP,
        cards=format_cards(cards),
        laid=len(cards),
        meld=text,
        missing=gap,
        fill=_fill(view, len(cards) - len(pairs)) or "",
        ace=("" if wrap else _lone_ace(reading, pairs)) or "",
        ends=beyond or "",
    )


def _fill(view: tuple[Card, ...], free: int) -> Message | None:
    """How many places the wild cards laid can fill, where any are laid."""
    if not free:
        return None
    wild = [shown for shown in view if shown.rank is None]
    jokers = all(card.joker for card in wild)
    return message(Why.GAP_JOKERS if jokers else Why.GAP_WILD, free=free)


def _lone_ace(reading: Reading, pairs: list[tuple[Card, Card]]) -> Message | None:
    """An ace laid on a run whose ace is already at the end it would take."""
    ace = next((card for shown, card in pairs if shown.rank == 1), None)
    if ace is not None and reading.low == LOW_ACE:
        return message(Why.GAP_STARTS_WITH_ACE, card=str(ace))
    if ace is not None and reading.high == HIGH_ACE:
        return message(Why.GAP_ENDS_WITH_ACE, card=str(ace))
    return None


def _already_there(reading: Reading, text: str, shown: Card, card: Card, wrap: bool) -> Message:
    """The card, or the card a wild card is declared as, already holds its place in the run:
    `shown` as it plays, `card` as laid."""
    places = positions_of(shown.rank, wrap)
    positions = [p for p in places if reading.low <= p <= reading.high]
    index = positions[0] - reading.low
    slot = reading.slots[index]
    if shown.joker:
        face = str(Card(shown.rank, reading.suit))
        return message(Why.RUN_STANDS_FOR, card=str(card), face=face, meld=text)
    if slot.joker:
        return message(Why.RUN_HAS_JOKER, card=str(card), meld=text)
    if reading.is_wild(index):
        return message(Why.RUN_HAS_WILD, card=str(card), meld=text, slot=str(slot))
    return message(Why.RUN_HAS_CARD, card=str(card), meld=text)


def _laid_twice(pairs: list[tuple[Card, Card]], choices: list[list[int]], suit: str) -> Message:
    """Two of the cards need the same place: name the first card that finds its place taken
    (each pair the card as it plays and as laid)."""
    for count in range(2, len(pairs) + 1):
        if not any(len(set(p)) == len(p) for p in product(*choices[:count])):
            shown, card = pairs[count - 1]
            face = str(Card(shown.rank, suit))
            twin_shown, twin = next(
                pair for pair in pairs[: count - 1] if pair[0].rank == shown.rank
            )
            if shown.joker or twin_shown.joker:
                return message(Why.RUN_SAME_PLACE, twin=str(twin), card=str(card), face=face)
            if shown.rank == 1:
                return message(Why.RUN_ACE_TWICE, card=str(card))
            return message(Why.RUN_TWICE, card=str(card))
    laid = format_cards([card for _, card in pairs])  # pragma: no cover
    return message(Why.RUN_NO_ROOM, cards=laid)  # pragma: no cover


def _missing(reading: Reading, placement: tuple[int, ...], wrap: bool) -> list[int]:
    """The places between the run and the new cards that nothing fills; where the ace wraps,
    each card goes on after the run's top or before its bottom, whichever leaves fewer open."""
    if wrap:
        return _missing_round(reading, set(placement))
    taken = set(placement)
    below = [p for p in taken if p < reading.low]
    above = [p for p in taken if p > reading.high]
    gaps = []
    if below:
        gaps += [p for p in range(min(below), reading.low) if p not in taken]
    if above:
        gaps += [p for p in range(reading.high + 1, max(above) + 1) if p not in taken]
    return gaps


def _missing_round(reading: Reading, taken: set[int]) -> list[int]:
    """`_missing` where the ace wraps: the places after the run's top (`high + 1` on) and the
    ones before its bottom (`low + 12` down) are one stretch round the ace; the cards split
    into those laid on above and those below, at the split leaving the fewest places open."""
    top, bottom = reading.high + 1, reading.low + RANKS - 1
    best: list[int] | None = None
    for split in range(top - 1, bottom + 1):
        above = [p for p in taken if p <= split]
        below = [p for p in taken if p > split]
        gaps = [p for p in range(top, max(above, default=top - 1) + 1) if p not in taken]
        gaps += [p for p in range(min(below, default=bottom + 1), bottom + 1) if p not in taken]
        if best is None or len(gaps) < len(best):
            best = gaps
    return best or []


def _past_ace(reading: Reading, fixed: list[Card]) -> Message | None:
    """A 2 after the run's high ace, or a K before its low ace: nothing wraps round the ace."""
    for card in fixed:
        wraps = (reading.high == HIGH_ACE and card.rank == 2 and reading.low > 3) or (
            reading.low == LOW_ACE and card.rank == 13 and reading.high < 12
        )
        if card.natural and wraps:
            code = Why.RUN_PAST_TOP_ACE if card.rank == 2 else Why.RUN_PAST_BOTTOM_ACE
            return message(code, card=str(card), span=reading.span())
    return None


def _stretches(cards: list[Card]) -> Message:
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
    return joined(Join.AND, texts)


def _ends(runs: Iterable[Reading], wrap: bool = False) -> list[str]:
    """The cards that would extend some run reading at either end, low to high (round the ace,
    where it wraps, while the run holds fewer than 13 cards)."""
    positions = {
        (rank_at(position) if wrap else position, run.suit)
        for run in runs
        for position in (run.low - 1, run.high + 1)
        if (LOW_ACE <= position <= HIGH_ACE and not wrap) or (wrap and len(run.slots) < RANKS)
    }
    return [str(Card(rank_at(position), suit)) for position, suit in sorted(positions)]
