"""R6 laying off, R7 replacing a run's joker, R8 who buys a passed discard.

A lay-off keeps the meld on the table as it was read: its cards and jokers stay in their places
and the new cards go at the ends (a run) or join the rank (a set).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from .cards import SUIT_NAMES, Card, format_cards
from .contracts import contract
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
    positions_of,
    rank_at,
    rank_plural,
    require_suits,
)
from .opening import check_left, contract_kinds
from .profiles import Profile, get_profile, setting
from .seating import check_seat, turn_order_after
from .verdict import Problem, Verdict, sentence

LAID_OFF = "lay it off this turn"
TO_HAND = "your hand"


def _table_problem(meld: tuple[Card, ...], profile: Profile, kinds: tuple[str, ...]) -> Problem:
    """The reason a meld on the table cannot be played on: it is no legal meld itself."""
    problem = meld_problem(meld, profile, kinds)
    return Problem(
        f"The meld on the table, {format_cards(meld)}, is not legal: {problem.reason}",
        problem.rule,
    )


def _on_the_table(
    meld: tuple[Card, ...], readings: list[Reading], round_number: int, profile: Profile
) -> tuple[list[Reading], Problem | None]:
    """The readings the round's contract can have put on the table (R6), or why there are none."""
    wanted = contract(round_number)
    kinds = contract_kinds(wanted)
    if not readings:
        return [], _table_problem(meld, profile, kinds)
    allowed = [reading for reading in readings if reading.kind in kinds]
    if allowed:
        return allowed, None
    kind = readings[0].kind
    only = "sets" if kinds == (SET,) else "runs"
    return [], Problem(
        f"Round {round_number}'s contract is {wanted.short()}, so only {only} are on the table: "
        f"{format_cards(meld)} is a {kind}, which no player can have put down this round",
        "R6",
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
    round_number, profile, players = setting(round_number, profile, players)
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
    before, problem = _on_the_table(meld, meld_readings(meld, profile), round_number, profile)
    if problem:
        return problem.verdict(empty)
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
    rule = "R6"
    house = []
    if opened_this_turn:
        house.append("you may lay off on the turn you open")
    if left == 0:
        house.append("you may go out by laying off your last card")
    if house:
        reason = f"{profile.rules_name}: {' and '.join(house)}. {reason}"
        rule = "R11"
    return Verdict(True, reason, rule, {"meld": result.faces(), "jokers": result.joker_faces()})


def _layoff_problem(meld: tuple[Card, ...], cards: tuple[Card, ...], before: list[Reading]) -> str:
    """Why the cards extend no reading of the meld: each different reason said once."""
    text, laid = format_cards(meld), format_cards(cards)
    whys: dict[str, list[Reading]] = {}
    for reading in before:
        whys.setdefault(_why_not(reading, text, cards), []).append(reading)
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


def _why_not(reading: Reading, text: str, cards: tuple[Card, ...]) -> str:
    """The first condition that keeps the cards off this reading of the meld (R4, R6)."""
    if reading.kind == SET:
        return _why_not_set(reading, text, cards)
    return _why_not_run(reading, text, cards)


def _why_not_set(reading: Reading, text: str, cards: tuple[Card, ...]) -> str:
    """A card of another rank, or a joker declared as another rank."""
    rank = reading.cards()[0].rank
    plural = rank_plural(rank)
    takes = f"a set of {plural} takes only more {plural} or jokers"
    for card in cards:
        if card.natural and card.rank != rank:
            return f"{card} does not belong on {text}: {takes}"
        if card.declared and card.rank != rank:
            return f"{card} is declared as {card.face()}, but {text} is a set of {plural}"
    return f"{format_cards(cards)} does not belong on {text}: {takes}"  # pragma: no cover


def _why_not_run(reading: Reading, text: str, cards: tuple[Card, ...]) -> str:
    """A wrong suit, a card already there, one laid twice, a run past 14, or a gap left."""
    suit = reading.suit
    suit_name = SUIT_NAMES[suit]
    for card in cards:
        if card.natural and card.suit != suit:
            return f"{card} cannot go on {text}: a run is all {suit_name}"
        if card.declared and card.suit not in (None, suit):
            return f"{card} is declared as {card.face()}, but {text} is a run of {suit_name}"
    size = len(reading.slots) + len(cards)
    if size > MAX_RUN:
        return f"a run holds at most {MAX_RUN} cards (A 2 … K A); {text} would have {size}"
    fixed = [card for card in cards if card.rank is not None]
    free = len(cards) - len(fixed)
    choices = []
    for card in fixed:
        outside = [p for p in positions_of(card.rank) if not reading.low <= p <= reading.high]
        if not outside:
            return _already_there(reading, text, card)
        choices.append(outside)
    placements = [p for p in product(*choices) if len(set(p)) == len(p)]
    if not placements:
        return _laid_twice(fixed, choices, suit)
    missing = min((_missing(reading, placement) for placement in placements), key=len)
    if len(missing) <= free:
        return f"{format_cards(cards)} does not extend {text}"  # pragma: no cover
    past_ace = _past_ace(reading, fixed)
    if past_ace:
        return past_ace
    gap = _stretches([Card(rank_at(p), suit) for p in missing])
    jokers = "" if not free else f" ({free} joker{'s' if free > 1 else ''} can fill only {free})"
    verb = "leaves" if len(cards) == 1 else "leave"
    reason = f"{format_cards(cards)} {verb} a gap on {text}: {gap} would be missing{jokers}"
    ace = next((card for card in fixed if card.rank == 1), None)
    if ace is not None and reading.low == LOW_ACE:
        reason += f"; the run already starts with its ace, so {ace} could go only after the K"
    elif ace is not None and reading.high == HIGH_ACE:
        reason += f"; the run already ends with its ace, so {ace} could go only before the 2"
    ends = _ends([reading])
    if not set(ends) & {str(card) for card in cards}:
        reason += f"; the next card at either end is {_or_list(ends)}"
    return reason


def _already_there(reading: Reading, text: str, card: Card) -> str:
    """The card, or the card a joker is declared as, already holds its place in the run."""
    positions = [p for p in positions_of(card.rank) if reading.low <= p <= reading.high]
    slot = reading.slots[positions[0] - reading.low]
    face = str(Card(card.rank, reading.suit))
    if card.joker:
        return f"{card} stands for {face}, which {text} already has: a run holds each card once"
    if slot.joker:
        return f"{card} is already in {text} as a joker: replace the joker instead (R7)"
    return f"{card} is already in {text}: a run holds each card once"


def _laid_twice(fixed: list[Card], choices: list[list[int]], suit: str) -> str:
    """Two of the cards need the same place: name the first card that finds its place taken."""
    for count in range(2, len(fixed) + 1):
        if not any(len(set(p)) == len(p) for p in product(*choices[:count])):
            card = fixed[count - 1]
            face = Card(card.rank, suit)
            twin = next(c for c in fixed[: count - 1] if c.rank == card.rank)
            if card.joker or twin.joker:
                return (
                    f"{twin} and {card} both take the place of {face}: a run holds each card once"
                )
            if card.rank == 1:
                return f"{card} is laid twice, but the run has room for only one more ace"
            return f"{card} is laid twice: a run holds each card once"
    return f"{format_cards(fixed)} need more places than the run has"  # pragma: no cover


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
    round_number, profile, players = setting(round_number, profile, players)
    meld = tuple(meld)
    require_suits(meld + (card,))
    profile.check_copies(meld + (card,), players)
    empty = {"meld": [], "freed": None, "joker_to": None}

    def fail(reason: str, rule: str = "R7") -> Verdict:
        return Verdict(False, reason, rule, empty)

    if card.joker:
        return fail("Only a natural card can replace a joker")
    if round_number == 7:
        return fail(
            "Round 7 has no turn after an opening: the whole hand goes down at once and ends "
            "the round, so no joker on the table can be replaced",
            "R5",
        )
    if opened_this_turn and not profile.swap_on_opening_turn:
        return fail(
            "You opened on this turn: only a player who opened on an earlier turn may replace "
            "a joker"
        )
    readings, problem = _on_the_table(meld, meld_readings(meld, profile), round_number, profile)
    if problem:
        return problem.verdict(empty)
    text = format_cards(meld)
    if not any(c.joker for c in meld):
        return fail(f"{text} has no joker to replace")
    runs = [reading for reading in readings if reading.kind == RUN]
    if not runs:
        return fail(f"A joker in a set stays there for the rest of the round; {text} is a set")
    for run in runs:
        if card in run.jokers:
            return _swapped(run, card, text, profile, opened_this_turn)
    stood_for = " or ".join(dict.fromkeys(face for run in runs for face in run.joker_faces()))
    return fail(f"{card} is not what a joker stands for in {text}: the joker is {stood_for}")


def _swapped(
    run: Reading, card: Card, text: str, profile: Profile, opened_this_turn: bool
) -> Verdict:
    """The legal swap: the run unchanged in what it shows, and where the freed joker goes."""
    if profile.freed_joker_to_hand:
        joker_to, after = TO_HAND, "the freed joker goes into your hand"
    else:
        joker_to = LAID_OFF
        after = (
            "the freed joker must be laid off on a meld on the table this turn, never kept in hand"
        )
    reason = f"{card} replaces the joker in {text}; {after}"
    house = []
    if opened_this_turn:
        house.append("you may replace a joker on the turn you open")
    if profile.house("freed_joker"):
        house.append("a freed joker goes into your hand")
    rule = "R7"
    if house:
        reason = f"{profile.rules_name}: {' and '.join(house)}. {reason}"
        rule = "R11"
    return Verdict(True, reason, rule, {"meld": run.faces(), "freed": "JK", "joker_to": joker_to})


# R8 Buying


def seat_labels(players: int, names: Sequence[str] | None = None) -> list[str]:
    """How a reason names each seat: the players' names, else `Seat 1` … clockwise (1-based)."""
    names = list(names or [])
    return [names[seat] if seat < len(names) else f"Seat {seat + 1}" for seat in range(players)]


def check_buy(
    players: int,
    active: int,
    requests: Iterable[int],
    last_buyer: int | None = None,
    profile: Profile | str | None = None,
    names: Sequence[str] | None = None,
) -> Verdict:
    """Who buys a passed discard: the requester who plays soonest after the active player (R8).

    Seats are 0-based indices here; the reason names them by `names`, or as `Seat 1` … `Seat n`.
    """
    profile = get_profile(profile)
    players = profile.check_players(players)
    active = check_seat(active, players, "the active player")
    asked = [check_seat(seat, players, "a buyer") for seat in requests]
    if last_buyer is not None:
        last_buyer = check_seat(last_buyer, players, "the last buyer")
    if not profile.buying.allowed:
        return Verdict(
            False,
            f"{sentence(profile.rules_name)} have no buying: a player may instead take several "
            "discards from the top, plus one stock card for each extra",
            "R11",
            {"buyer": None},
        )
    label = seat_labels(players, names)
    order = [seat for seat in turn_order_after(active, players) if seat in asked]
    eligible = [seat for seat in order if seat != last_buyer]
    if not eligible:
        reason = _nobody_reason(asked, active, last_buyer, label)
        return Verdict(False, sentence(reason), "R8", {"buyer": None})
    buyer = eligible[0]
    reason = _buyer_reason(buyer, eligible, last_buyer, order, label)
    return Verdict(True, sentence(reason), "R8", {"buyer": buyer})


def _nobody_reason(asked: list[int], active: int, last_buyer: int | None, label) -> str:
    """Why nobody buys: no request, or only the active player or the last buyer asked."""
    if not asked:
        return "Nobody asked to buy the discard"
    if last_buyer in asked:
        return (
            f"{label[last_buyer]} took the previous discard and may not take two in a row, "
            "so nobody buys this one"
        )
    return f"{label[active]} is the active player and passed the discard, so nobody buys it"


def _buyer_reason(
    buyer: int, eligible: list[int], last_buyer: int | None, order: list[int], label
) -> str:
    """Why this seat gets the discard: first after the active player, the last buyer skipped."""
    penalty = f"{label[buyer]} gets the discard and takes the top stock card as a penalty"
    if last_buyer in order and order.index(last_buyer) < order.index(buyer):
        return (
            f"{label[last_buyer]} took the previous discard and may not take two in a row, "
            f"so {penalty}"
        )
    if len(eligible) > 1:
        others = " and ".join(label[seat] for seat in eligible[1:])
        return f"{label[buyer]} plays before {others} after the active player, so {penalty}"
    return penalty
