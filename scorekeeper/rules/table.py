"""R6 laying off, R7 replacing a run's joker, R8 who buys a passed discard.

A lay-off keeps the meld on the table as it was read: its cards and jokers stay in their places
and the new cards go at the ends (a run) or join the rank (a set).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import product

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
    positions_of,
    rank_at,
    rank_plural,
    require_suits,
)
from .opening import check_left
from .presets import get_rules
from .ruleset import FreedJoker, JokerSwap, RuleSet
from .seating import contract_of
from .verdict import Problem, Verdict, sentence

LAID_OFF = "lay it off this turn"
TO_HAND = "your hand"


def turn_setting(
    round_number: int, rules: RuleSet | str | None, players: int | None
) -> tuple[int, RuleSet, int]:
    """What a question about one turn assumes, each part checked in turn: the rules (R11), the
    deal (R3, from the rules) and the number of players (the rule set's usual table if not given)."""
    rules = get_rules(rules)
    return rules.check_deal(round_number), rules, rules.check_players(players)


def _table_problem(meld: tuple[Card, ...], rules: RuleSet, kinds: tuple[str, ...]) -> Problem:
    """The reason a meld on the table cannot be played on: it is no legal meld itself."""
    problem = meld_problem(meld, rules, kinds)
    return Problem(
        f"The meld on the table, {format_cards(meld)}, is not legal: {problem.reason}",
        problem.rule,
    )


def deal_kinds(rules: RuleSet, round_number: int) -> tuple[str, ...]:
    """The kinds of meld a deal's contract puts on the table (R6): sets, runs, or both."""
    deal = rules.deal(round_number)
    return tuple(kind for kind in (SET, RUN) if any(need.kind == kind for need in deal.contract))


def _on_the_table(
    meld: tuple[Card, ...], readings: list[Reading], round_number: int, rules: RuleSet
) -> tuple[list[Reading], Problem | None]:
    """The readings the deal's contract can have put on the table (R6), or why there are none."""
    kinds = deal_kinds(rules, round_number)
    if not readings:
        return [], _table_problem(meld, rules, kinds)
    allowed = [reading for reading in readings if reading.kind in kinds]
    if allowed:
        return allowed, None
    kind = readings[0].kind
    only = "sets" if kinds == (SET,) else "runs"
    return [], Problem(
        f"Round {round_number}'s contract is {contract_of(round_number, rules)}, so only {only} "
        f"are on the table: {format_cards(meld)} is a {kind}, which no player can have put down "
        "this round",
        "R6",
    )


def wild_places(reading: Reading, rules: RuleSet) -> list[tuple[int, Card, Card]]:
    """Each wild card of a reading: its slot, the card, and the natural it stands for (R4, R11).

    A joker is always wild; with `wild_deuces` a 2 is wild except where it stands as itself (in
    a set of 2s, or at the 2's place of its own suit in a run).
    """
    if reading.kind == SET:
        ranks = {slot.rank for slot in reading.slots if slot.natural and slot.rank != 2}
        rank = ranks.pop() if ranks else 2
        stood_for = [Card(rank, None)] * len(reading.slots)
    else:
        stood_for = [
            Card(rank_at(reading.low + index), reading.suit) for index in range(len(reading.slots))
        ]
    return [
        (index, slot, stood)
        for index, (slot, stood) in enumerate(zip(reading.slots, stood_for, strict=True))
        if slot.joker or (rules.wild_deuces and slot.rank == 2 and not _itself(slot, stood))
    ]


def _itself(card: Card, place: Card) -> bool:
    """Whether a natural card stands as itself at a place: its rank, and its suit in a run."""
    return card.rank == place.rank and place.suit in (None, card.suit)


def _wild_name(card: Card) -> str:
    """`the joker`, `the wild 2♣`."""
    return "the joker" if card.joker else f"the wild {card}"


# R6 Laying off


def extends(new: Reading, old: Reading) -> bool:
    """Whether `new` is `old` with cards added: same kind, and for a run every old card kept in
    its place (a wild card stays what it stood for)."""
    if new.kind != old.kind:
        return False
    if new.kind == SET:
        return True
    if new.low > old.low or new.high < old.high or new.suit != old.suit:
        return False
    offset = old.low - new.low
    return all(new.slots[offset + index] == slot for index, slot in enumerate(old.slots))


def check_layoff(
    round_number: int,
    meld: Sequence[Card],
    cards: Sequence[Card],
    opened_this_turn: bool,
    rules: RuleSet | str | None = None,
    players: int | None = None,
    left: int | None = None,
) -> Verdict:
    """Judge laying cards off on a meld on the table (R6), under the table's rules (R11)."""
    round_number, rules, players = turn_setting(round_number, rules, players)
    meld, cards = tuple(meld), tuple(cards)
    if not cards:
        raise RulesError("name at least one card to lay off")
    require_suits(meld + cards)
    rules.check_copies(meld + cards, players)
    left = check_left(left)
    empty = {"meld": [], "jokers": []}
    if rules.deal(round_number).whole_hand:
        return Verdict(
            False,
            f"Round {round_number} has no laying off: the whole hand goes down at once",
            "R6",
            empty,
        )
    if opened_this_turn and not rules.layoff_on_opening_turn:
        return Verdict(
            False,
            "You opened on this turn, so you may lay off only from your next turn on",
            rules.cite("layoff_on_opening_turn", "R6"),
            empty,
        )
    before, problem = _on_the_table(meld, meld_readings(meld, rules), round_number, rules)
    if problem:
        return problem.verdict(empty)
    after = _extended(meld + cards, before, rules)
    if not after:
        wild = _too_wild(meld + cards, before, rules)
        if wild:
            return wild.verdict(empty)
        return Verdict(False, _layoff_problem(meld, cards, before), "R6", empty)
    if left == 0 and not rules.go_out_by_layoff:
        return Verdict(
            False,
            "You go out by discarding your last card, so you may not lay it off",
            rules.cite("go_out_by_layoff", "R6"),
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
        reason = f"{rules.rules_name}: {' and '.join(house)}. {reason}"
        rule = "R11"
    return Verdict(True, reason, rule, {"meld": result.faces(), "jokers": result.joker_faces()})


def _extended(cards: tuple[Card, ...], before: list[Reading], rules: RuleSet) -> list[Reading]:
    """The readings of the meld with the cards added that keep some reading on the table."""
    return [
        reading
        for reading in meld_readings(cards, rules)
        if any(extends(reading, old) for old in before)
    ]


def _too_wild(cards: tuple[Card, ...], before: list[Reading], rules: RuleSet) -> Problem | None:
    """The R11 problem when only `wild_at_most_natural` keeps the cards off the meld."""
    if not rules.naturals.wild_at_most_natural:
        return None
    relaxed = replace(rules, naturals=replace(rules.naturals, wild_at_most_natural=False))
    found = _extended(cards, before, relaxed)
    if not found:
        return None
    wild = len(wild_places(found[0], rules))
    return Problem(
        f"{rules.rules_name}: a meld may not hold more wild cards than natural cards; "
        f"{format_cards(cards)} would hold {wild} wild and {len(cards) - wild} natural",
        "R11",
    )


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


# R7 Replacing a wild card on the table


def check_swap(
    round_number: int,
    meld: Sequence[Card],
    card: Card,
    opened_this_turn: bool,
    rules: RuleSet | str | None = None,
    players: int | None = None,
) -> Verdict:
    """Judge replacing a wild card on the table with the exact natural card it stands for (R7):
    a run's joker by default; `joker_swap` allows none, or a set's too, and a wild 2 is swapped
    like a joker where deuces are wild (R11)."""
    round_number, rules, players = turn_setting(round_number, rules, players)
    meld = tuple(meld)
    require_suits(meld + (card,))
    rules.check_copies(meld + (card,), players)
    empty = {"meld": [], "freed": None, "joker_to": None}

    def fail(reason: str, rule: str = "R7") -> Verdict:
        return Verdict(False, reason, rule, empty)

    if card.joker:
        return fail("Only a natural card can replace a joker")
    if rules.deal(round_number).whole_hand:
        return fail(
            f"Round {round_number} has no turn after an opening: the whole hand goes down at "
            "once and ends the round, so no joker on the table can be replaced",
            "R5",
        )
    if rules.joker_swap is JokerSwap.NEVER:
        return fail(f"{rules.rules_name}: no joker on the table may be swapped", "R11")
    if opened_this_turn and not rules.swap_on_opening_turn:
        return fail(
            "You opened on this turn: only a player who opened on an earlier turn may replace "
            "a joker",
            rules.cite("swap_on_opening_turn", "R7"),
        )
    readings, problem = _on_the_table(meld, meld_readings(meld, rules), round_number, rules)
    if problem:
        return problem.verdict(empty)
    text = format_cards(meld)
    wilds = [(reading, place) for reading in readings for place in wild_places(reading, rules)]
    if not wilds:
        what = "joker or wild 2" if rules.wild_deuces else "joker"
        return fail(f"{text} has no {what} to replace")
    swappable = [(r, place) for r, place in wilds if _swappable(r, rules)]
    if not swappable:
        return fail(f"A joker in a set stays there for the rest of the round; {text} is a set")
    # A joker is freed before a wild 2 when the card could replace either.
    for reading, place in sorted(swappable, key=lambda found: not found[1][1].joker):
        if _itself(card, place[2]):
            return _swapped(reading, place, card, text, rules, opened_this_turn)
    if all(wild.joker for _, (_, wild, _) in swappable):
        faces = " or ".join(dict.fromkeys(stood.face() for _, (_, _, stood) in swappable))
        return fail(f"{card} is not what a joker stands for in {text}: the joker is {faces}")
    stood_for = " or ".join(
        dict.fromkeys(f"{_wild_name(wild)} is {stood.face()}" for _, (_, wild, stood) in swappable)
    )
    return fail(f"{card} is not what a wild card stands for in {text}: {stood_for}")


def _swappable(reading: Reading, rules: RuleSet) -> bool:
    """A run's wild card may be swapped; a set's only where `joker_swap` is `any` (R7, R11)."""
    return reading.kind == RUN or rules.joker_swap is JokerSwap.ANY


def _swapped(
    reading: Reading,
    place: tuple[int, Card, Card],
    card: Card,
    text: str,
    rules: RuleSet,
    opened_this_turn: bool,
) -> Verdict:
    """The legal swap: the meld unchanged in what it shows, and where the freed card goes."""
    index, wild, _ = place
    stood = {slot: face for slot, _, face in wild_places(reading, rules)}
    after = [
        str(card) if slot == index else (stood[slot].face() if slot in stood else str(physical))
        for slot, physical in enumerate(reading.slots)
    ]
    freed = "joker" if wild.joker else str(wild)
    if rules.freed_joker is FreedJoker.HAND:
        joker_to, where = TO_HAND, f"the freed {freed} goes into your hand"
    else:
        joker_to = LAID_OFF
        where = (
            f"the freed {freed} must be laid off on a meld on the table this turn, never kept "
            "in hand"
        )
    reason = f"{card} replaces {_wild_name(wild)} in {text}; {where}"
    house = []
    if reading.kind == SET:
        house.append("a set's joker may be swapped too, for a natural card of the set's rank")
    if not wild.joker:
        house.append("a 2 is wild, and a wild 2 is swapped like a joker")
    if opened_this_turn:
        house.append("you may replace a joker on the turn you open")
    if rules.house("freed_joker"):
        house.append("a freed joker goes into your hand")
    rule = "R7"
    if house:
        reason = f"{rules.rules_name}: {' and '.join(house)}. {reason}"
        rule = "R11"
    details = {"meld": after, "freed": "JK" if wild.joker else str(wild), "joker_to": joker_to}
    return Verdict(True, reason, rule, details)
