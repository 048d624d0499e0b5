"""R6 laying off, R7 replacing a run's joker, R8 who buys a passed discard.

A lay-off keeps the meld on the table as it was read: its cards and jokers stay in their places
and the new cards go at the ends (a run) or join the rank (a set).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import SUIT_NAMES, Card, format_cards
from .errors import RulesError
from .melds import (
    HIGH_ACE,
    LOW_ACE,
    MAX_RUN,
    RUN,
    SET,
    Reading,
    meld_problem,
    meld_readings,
    rank_at,
    rank_plural,
    require_suits,
)
from .opening import check_left
from .profiles import Profile, check_round, get_profile
from .seating import check_seat, turn_order_after
from .verdict import Verdict

LAID_OFF = "lay it off this turn"
TO_HAND = "your hand"


def _table_problem(meld: tuple[Card, ...], profile: Profile) -> str:
    """The reason a meld on the table cannot be played on: it is no legal meld itself."""
    return (
        f"The meld on the table, {format_cards(meld)}, is not legal: {meld_problem(meld, profile)}"
    )


# R6 Laying off


def extends(new: Reading, old: Reading) -> bool:
    """Whether `new` is `old` with cards added: same kind, and for a run every old place kept."""
    if new.kind != old.kind:
        return False
    if new.kind == SET:
        return True
    if new.low > old.low or new.high < old.high or new.suit != old.suit:
        return False
    offset = old.low - new.low
    return all(
        new.slots[offset + index].joker == slot.joker for index, slot in enumerate(old.slots)
    )


def check_layoff(
    round_number: int,
    meld: Sequence[Card],
    cards: Sequence[Card],
    opened_this_turn: bool,
    profile: Profile | str | None = None,
    players: int | None = None,
    left: int | None = None,
) -> Verdict:
    """Judge laying cards off on a meld on the table (R6)."""
    round_number = check_round(round_number)
    profile = get_profile(profile)
    players = profile.check_players(players)
    meld, cards = tuple(meld), tuple(cards)
    if not cards:
        raise RulesError("name at least one card to lay off")
    require_suits(meld + cards)
    profile.check_copies(meld + cards, players)
    left = check_left(left)
    empty = {"meld": [], "jokers": []}
    if round_number == 7:
        return Verdict(
            False, "Round 7 has no laying off: the whole hand goes down at once", "R6", empty
        )
    if opened_this_turn and not profile.layoff_on_opening_turn:
        return Verdict(
            False,
            "You opened on this turn, so you may lay off only from your next turn on",
            "R6",
            empty,
        )
    before = meld_readings(meld, profile)
    if not before:
        return Verdict(False, _table_problem(meld, profile), "R4", empty)
    after = [
        reading
        for reading in meld_readings(meld + cards, profile)
        if any(extends(reading, old) for old in before)
    ]
    if not after:
        return Verdict(False, _layoff_problem(meld, cards, before), "R6", empty)
    if left == 0 and not profile.go_out_by_layoff:
        return Verdict(
            False,
            "You go out by discarding your last card, so you may not lay it off",
            "R6",
            empty,
        )
    result = after[0]
    reason = f"{format_cards(cards)} can go on {format_cards(meld)}, making {result.describe()}"
    return Verdict(True, reason, "R6", {"meld": result.faces(), "jokers": result.joker_faces()})


def _layoff_problem(meld: tuple[Card, ...], cards: tuple[Card, ...], before: list[Reading]) -> str:
    """Why the cards do not extend the meld, most specific first."""
    text, laid = format_cards(meld), format_cards(cards)
    kinds = {reading.kind for reading in before}
    if kinds == {SET}:
        rank = before[0].cards()[0].rank
        plural = rank_plural(rank)
        return f"{laid} does not belong on {text}: a set of {plural} takes only more {plural} or jokers"
    runs = [reading for reading in before if reading.kind == RUN]
    if kinds == {RUN}:
        problem = _run_layoff_problem(runs, text, cards)
        if problem:
            return problem
    ends = _ends(runs)
    where = f"; it takes the next card at either end ({_or_list(ends)})" if ends else ""
    return f"{laid} does not extend {text}{where}"


def _run_layoff_problem(runs: list[Reading], text: str, cards: tuple[Card, ...]) -> str | None:
    """A card of the wrong suit, one already in the run, a run grown past 14 or past an ace."""
    run = runs[0]
    size = len(run.slots) + len(cards)
    if size > MAX_RUN:
        return f"A run holds at most {MAX_RUN} cards (A 2 … K A); {text} would have {size}"
    placed = dict(zip(run.cards(), run.slots, strict=True))
    for card in cards:
        if card.natural and card.suit != run.suit:
            return f"{card} cannot go on {text}: a run is all {SUIT_NAMES[run.suit]}"
        if card.natural and card in placed:
            if placed[card].joker:
                return f"{card} is already in {text} as a joker: replace the joker instead (R7)"
            return f"{card} is already in {text}: a run holds each card once"
        if card.natural and all(_past_ace(card, reading) for reading in runs):
            return f"Nothing extends past an ace: {card} cannot go on {text}"
    return None


def _past_ace(card: Card, run: Reading) -> bool:
    """Whether the card would go beyond an ace at the run's end: 2 after A, K before A."""
    return (run.high == HIGH_ACE and card.rank == 2) or (run.low == LOW_ACE and card.rank == 13)


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


# R7 Replacing a run's joker


def check_swap(
    round_number: int,
    meld: Sequence[Card],
    card: Card,
    opened_this_turn: bool,
    profile: Profile | str | None = None,
    players: int | None = None,
) -> Verdict:
    """Judge replacing a joker in a run with the exact natural card it stands for (R7)."""
    round_number = check_round(round_number)
    profile = get_profile(profile)
    players = profile.check_players(players)
    meld = tuple(meld)
    require_suits(meld + (card,))
    profile.check_copies(meld + (card,), players)
    empty = {"meld": [], "freed": None, "joker_to": None}

    def fail(reason: str, rule: str = "R7") -> Verdict:
        return Verdict(False, reason, rule, empty)

    if card.joker:
        return fail("Only a natural card can replace a joker")
    if round_number == 7:
        return fail("Round 7 has no laying off, so no joker can be replaced", "R6")
    if opened_this_turn:
        return fail("Only a player who opened on an earlier turn may replace a joker")
    readings = meld_readings(meld, profile)
    if not readings:
        return fail(_table_problem(meld, profile), "R4")
    text = format_cards(meld)
    if not any(c.joker for c in meld):
        return fail(f"{text} has no joker to replace")
    runs = [reading for reading in readings if reading.kind == RUN]
    if not runs:
        return fail(f"A joker in a set stays there for the rest of the round; {text} is a set")
    for run in runs:
        if card in run.jokers:
            return _swapped(run, card, text, profile)
    stood_for = " or ".join(dict.fromkeys(face for run in runs for face in run.joker_faces()))
    return fail(f"{card} is not what a joker stands for in {text}: the joker is {stood_for}")


def _swapped(run: Reading, card: Card, text: str, profile: Profile) -> Verdict:
    """The legal swap: the run unchanged in what it shows, and where the freed joker goes."""
    if profile.freed_joker_to_hand:
        joker_to, after = TO_HAND, "the freed joker goes into your hand"
    else:
        joker_to = LAID_OFF
        after = (
            "the freed joker must be laid off on a meld on the table this turn, never kept in hand"
        )
    reason = f"{card} replaces the joker in {text}; {after}"
    return Verdict(True, reason, "R7", {"meld": run.faces(), "freed": "JK", "joker_to": joker_to})


# R8 Buying


def check_buy(
    players: int,
    active: int,
    requests: Iterable[int],
    last_buyer: int | None = None,
    profile: Profile | str | None = None,
) -> Verdict:
    """Who buys a passed discard: the requester who plays soonest after the active player (R8)."""
    profile = get_profile(profile)
    players = profile.check_players(players)
    active = check_seat(active, players, "the active player")
    asked = [check_seat(seat, players, "a buyer") for seat in requests]
    if last_buyer is not None:
        last_buyer = check_seat(last_buyer, players, "the last buyer")
    if not profile.buying:
        return Verdict(
            False,
            f"The {profile.name} profile has no buying: a player may instead take several discards "
            "from the top, plus one stock card for each extra",
            "R11",
            {"buyer": None},
        )
    order = [seat for seat in turn_order_after(active, players) if seat in asked]
    eligible = [seat for seat in order if seat != last_buyer]
    if not eligible:
        return Verdict(False, _nobody_reason(asked, active, last_buyer), "R8", {"buyer": None})
    buyer = eligible[0]
    return Verdict(True, _buyer_reason(buyer, eligible, last_buyer, order), "R8", {"buyer": buyer})


def _nobody_reason(asked: list[int], active: int, last_buyer: int | None) -> str:
    """Why nobody buys: no request, or only the active player or the last buyer asked."""
    if not asked:
        return "Nobody asked to buy the discard"
    if last_buyer in asked:
        return (
            f"Seat {last_buyer} took the previous discard and may not take two in a row, "
            "so nobody buys this one"
        )
    return f"Seat {active} is the active player and passed the discard, so nobody buys it"


def _buyer_reason(buyer: int, eligible: list[int], last_buyer: int | None, order: list[int]) -> str:
    """Why this seat gets the discard: first after the active player, the last buyer skipped."""
    penalty = f"seat {buyer} gets the discard and takes the top stock card as a penalty"
    if last_buyer in order and order.index(last_buyer) < order.index(buyer):
        return f"Seat {last_buyer} took the previous discard and may not take two in a row, so {penalty}"
    if len(eligible) > 1:
        others = " and ".join(f"seat {seat}" for seat in eligible[1:])
        return f"Seat {buyer} plays before {others} after the active player, so {penalty}"
    return penalty[0].upper() + penalty[1:]
