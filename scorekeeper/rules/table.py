"""R6 laying off, R7 replacing a run's joker, R8 who buys a passed discard.

A lay-off keeps the meld on the table as it was read: its cards and jokers stay in their places
and the new cards go at the ends (a run) or join the rank (a set).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .cards import Card, format_cards
from .citing import cite_deal
from .errors import RulesError
from .layoff_reasons import layoff_problem
from .melds import (
    RUN,
    SET,
    Reading,
    meld_problem,
    meld_readings,
    rank_at,
    require_suits,
    wild_deuce_parts,
)
from .opening.laid import check_left
from .ruleset import FreedJoker, JokerSwap, RuleSet
from .seating import contract_of
from .verdict import Problem, Verdict, house_citation

LAID_OFF = "lay it off this turn"
TO_HAND = "your hand"


# What a legal lay-off or swap says of each setting of the rules that allows it (R11).
LAYOFF_WORDS = {
    "layoff_on_opening_turn": "you may lay off on the turn you open",
    "go_out_by_layoff": "you may go out by laying off your last card",
}
SWAP_WORDS = {
    "joker_swap": "a set's joker may be swapped too, for a natural card of the set's rank",
    "wild_deuces": "a 2 is wild, and a wild 2 is swapped like a joker",
    "swap_on_opening_turn": "you may replace a joker on the turn you open",
    "freed_joker": "a freed joker goes into your hand",
}


def turn_setting(
    round_number: int, rules: RuleSet, players: int | None
) -> tuple[int, RuleSet, int]:
    """What a question about one turn assumes, each part checked in turn: the rules (R11), the
    deal (R3, from the rules) and the number of players (the rule set's usual table if not given)."""
    return rules.check_deal(round_number), rules, rules.check_players(players)


def _table_problem(meld: tuple[Card, ...], rules: RuleSet, kinds: tuple[str, ...]) -> Problem:
    """The reason a meld on the table cannot be played on: it is no legal meld itself."""
    problem = meld_problem(meld, rules, kinds)
    return Problem(
        f"The meld on the table, {format_cards(meld)}, is not legal: {problem.reason}",
        problem.rule,
        problem.line,
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
        "R6.4",
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
    """Whether `new` is `old` with cards added: same kind, a set's rank kept (a set of 2s never
    becomes a set of 5s held by wild 2s), and for a run every old card kept in its place (a wild
    card stays what it stood for)."""
    if new.kind != old.kind:
        return False
    if new.kind == SET:
        return new.cards()[0].rank == old.cards()[0].rank
    if new.low > old.low or new.high < old.high or new.suit != old.suit:
        return False
    offset = old.low - new.low
    return all(new.slots[offset + index] == slot for index, slot in enumerate(old.slots))


def check_layoff(
    round_number: int,
    meld: Sequence[Card],
    cards: Sequence[Card],
    opened_this_turn: bool,
    rules: RuleSet,
    players: int | None = None,
    left: int | None = None,
) -> Verdict:
    """Judge laying cards off on a meld on the table (R6), under the table's rules (R11): on
    R11 with the rules named where a setting they change decides (R11's citing)."""
    round_number, rules, players = turn_setting(round_number, rules, players)
    verdict = _judge_layoff(
        round_number, tuple(meld), tuple(cards), opened_this_turn, rules, players, left
    )
    return cite_deal(verdict, rules, round_number, after_opening=True)


def _judge_layoff(
    round_number: int,
    meld: tuple[Card, ...],
    cards: tuple[Card, ...],
    opened_this_turn: bool,
    rules: RuleSet,
    players: int,
    left: int | None,
) -> Verdict:
    """`check_layoff`'s verdict on the rules of R1-R10 and the settings that decide it."""
    if not cards:
        raise RulesError("name at least one card to lay off")
    require_suits(meld + cards)
    rules.check_copies(meld + cards, players)
    left = check_left(left)
    empty = {"meld": [], "jokers": [], "declared": []}
    if rules.deal(round_number).whole_hand:
        return Verdict(
            False,
            f"Round {round_number} has no laying off: the whole hand goes down at once",
            "R6.3",
            empty,
        )
    if opened_this_turn and not rules.layoff_on_opening_turn:
        return Verdict(
            False,
            "You opened on this turn, so you may lay off only from your next turn on",
            rules.citation("layoff_on_opening_turn", "R6.1"),
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
        return Problem.of(layoff_problem(meld, cards, before, rules.wild_deuces), "R6.2").verdict(
            empty
        )
    if left == 0 and not rules.go_out_by_layoff:
        return Verdict(
            False,
            "You go out by discarding your last card, so you may not lay it off",
            rules.citation("go_out_by_layoff", "R6.3"),
            empty,
        )
    # The fewest 2s played wild (R11): a lay-off turns on wild deuces only when it must.
    result = min(after, key=lambda reading: len(reading.wilds))
    reason = f"{format_cards(cards)} can go on {format_cards(meld)}, making {result.describe()}"
    rule = "R6.2"
    settings = {
        "layoff_on_opening_turn": opened_this_turn,
        "go_out_by_layoff": left == 0,
        "wild_deuces": bool(result.wilds),
    }
    house = [
        wild_deuce_parts(result) if setting == "wild_deuces" else LAYOFF_WORDS[setting]
        for setting, applies in settings.items()
        if applies
    ]
    if house:
        reason = f"{rules.rules_name}: {' and '.join(house)}. {reason}"
        rule = house_citation(setting for setting, applies in settings.items() if applies)
    details = {
        "meld": result.faces(),
        "jokers": result.joker_faces(),
        "declared": result.declared(),
    }
    return Verdict(True, reason, rule, details)


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
        "R11:naturals",
    )


# R7 Replacing a wild card on the table


def check_swap(
    round_number: int,
    meld: Sequence[Card],
    card: Card,
    opened_this_turn: bool,
    rules: RuleSet,
    players: int | None = None,
) -> Verdict:
    """Judge replacing a wild card on the table with the exact natural card it stands for (R7):
    a run's joker by default; `joker_swap` allows none, or a set's too, and a wild 2 is swapped
    like a joker where deuces are wild (R11); on R11 with the rules named where a setting they
    change decides (R11's citing)."""
    round_number, rules, players = turn_setting(round_number, rules, players)
    verdict = _judge_swap(round_number, tuple(meld), card, opened_this_turn, rules, players)
    return cite_deal(verdict, rules, round_number, after_opening=True)


def _judge_swap(
    round_number: int,
    meld: tuple[Card, ...],
    card: Card,
    opened_this_turn: bool,
    rules: RuleSet,
    players: int,
) -> Verdict:
    """`check_swap`'s verdict on the rules of R1-R10 and the settings that decide it."""
    require_suits(meld + (card,))
    rules.check_copies(meld + (card,), players)
    empty = {"meld": [], "freed": None, "joker_to": None, "declared": []}

    def fail(reason: str, rule: str = "R7.2") -> Verdict:
        return Verdict(False, reason, rule, empty)

    if card.joker:
        return fail("Only a natural card can replace a joker")
    if rules.deal(round_number).whole_hand:
        return fail(
            f"Round {round_number} has no turn after an opening: the whole hand goes down at "
            "once and ends the round, so no joker on the table can be replaced",
            "R5.4",
        )
    if rules.joker_swap is JokerSwap.NEVER:
        return fail(f"{rules.rules_name}: no joker on the table may be swapped", "R11:joker_swap")
    if opened_this_turn and not rules.swap_on_opening_turn:
        return fail(
            "You opened on this turn: only a player who opened on an earlier turn may replace "
            "a joker",
            rules.citation("swap_on_opening_turn", "R7.2"),
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
        return fail(
            f"A joker in a set stays there for the rest of the round; {text} is a set", "R7.1"
        )
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
    settings = {
        "joker_swap": reading.kind == SET,
        "wild_deuces": not wild.joker,
        "swap_on_opening_turn": opened_this_turn,
        "freed_joker": rules.house("freed_joker"),
    }
    house = [SWAP_WORDS[setting] for setting, applies in settings.items() if applies]
    rule = "R7.2"
    if house:
        reason = f"{rules.rules_name}: {' and '.join(house)}. {reason}"
        rule = house_citation(setting for setting, applies in settings.items() if applies)
    declared = reading.declared()
    declared[index] = str(card)
    details = {
        "meld": after,
        "freed": "JK" if wild.joker else str(wild),
        "joker_to": joker_to,
        "declared": declared,
    }
    return Verdict(True, reason, rule, details)
