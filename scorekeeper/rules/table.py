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
    KIND_WORDS,
    RANKS,
    RUN,
    SET,
    Reading,
    Said,
    house_first,
    legal_verdict,
    meld_problem,
    meld_readings,
    rank_at,
    require_suits,
    said_problem,
    too_wild_message,
    wild_deuce_parts,
    wraps,
)
from .opening.laid import check_left
from .ruleset import Ace, FreedJoker, FreedJokerTo, JokerSwap, RuleSet
from .seating import contract_of
from .verdict import Problem, Verdict, house_citation
from .words import Code, Join, Message, joined, message, words


class Ruling(Code):
    """What a ruling on laying off (R6) or replacing a joker (R7) says, and where a freed joker
    goes."""

    LAID_OFF = "table.laid_off"
    LAID_IN_RUN = "table.laid_in_run"
    TO_HAND = "table.to_hand"
    LAYOFF_ON_OPENING_TURN = "table.layoff_on_opening_turn"
    GO_OUT_BY_LAYOFF = "table.go_out_by_layoff"
    JOKER_SWAP = "table.joker_swap"
    WILD_DEUCES = "table.wild_deuces"
    SWAP_ON_OPENING_TURN = "table.swap_on_opening_turn"
    FREED_JOKER = "table.freed_joker"
    FREED_JOKER_TO = "table.freed_joker_to"
    THE_JOKER = "table.the_joker"
    THE_WILD = "table.the_wild"
    JOKER = "table.joker"
    JOKER_OR_WILD = "table.joker_or_wild"
    SETS = "table.sets"
    RUNS = "table.runs"
    NOT_LEGAL = "table.not_legal"
    ONLY_KIND = "table.only_kind"
    NO_CARDS = "table.no_cards"
    NO_LAYOFF_ROUND = "table.no_layoff_round"
    OPENED_LAYOFF = "table.opened_layoff"
    OUT_BY_LAYOFF = "table.out_by_layoff"
    TOO_WILD = "table.too_wild"
    CAN_GO = "table.can_go"
    NATURAL_ONLY = "table.natural_only"
    NO_SWAP_ROUND = "table.no_swap_round"
    NO_SWAPS = "table.no_swaps"
    OPENED_SWAP = "table.opened_swap"
    NOTHING_TO_SWAP = "table.nothing_to_swap"
    SET_JOKER_STAYS = "table.set_joker_stays"
    NOT_JOKER_FACE = "table.not_joker_face"
    NOT_WILD_FACE = "table.not_wild_face"
    WILD_IS = "table.wild_is"
    FREED_TO_HAND = "table.freed_to_hand"
    FREED_LAID_OFF = "table.freed_laid_off"
    FREED_IN_RUN = "table.freed_in_run"
    REPLACES = "table.replaces"


# Where a freed joker goes, as a swap's data gives it (R7, R11).
LAID_OFF = words(message(Ruling.LAID_OFF))
LAID_IN_RUN = words(message(Ruling.LAID_IN_RUN))
TO_HAND = words(message(Ruling.TO_HAND))


# What a legal lay-off or swap says of each setting of the rules that allows it (R11).
LAYOFF_WORDS = {
    "layoff_on_opening_turn": Ruling.LAYOFF_ON_OPENING_TURN,
    "go_out_by_layoff": Ruling.GO_OUT_BY_LAYOFF,
    "ace": Said.ACE_WRAPS,
}
SWAP_WORDS = {
    "joker_swap": Ruling.JOKER_SWAP,
    "wild_deuces": Ruling.WILD_DEUCES,
    "swap_on_opening_turn": Ruling.SWAP_ON_OPENING_TURN,
    "freed_joker": Ruling.FREED_JOKER,
    "freed_joker_to": Ruling.FREED_JOKER_TO,
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
    said = message(Ruling.NOT_LEGAL, meld=format_cards(meld), problem=problem.message)
    return Problem(words(said), problem.rule, problem.line, said)


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
    said = message(
        Ruling.ONLY_KIND,
        round=round_number,
        contract=str(contract_of(round_number, rules)),
        kinds=message(Ruling.SETS if kinds == (SET,) else Ruling.RUNS),
        meld=format_cards(meld),
        kind=message(KIND_WORDS[readings[0].kind]),
    )
    return [], said_problem(said, "R6.4")


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


def _wild_name(card: Card) -> Message:
    """`the joker`, `the wild 2♣`."""
    return message(Ruling.THE_JOKER) if card.joker else message(Ruling.THE_WILD, card=str(card))


# R6 Laying off


def extends(new: Reading, old: Reading) -> bool:
    """Whether `new` is `old` with cards added: same kind, a set's rank kept (a set of 2s never
    becomes a set of 5s held by wild 2s), and for a run every old card kept in its place (a wild
    card stays what it stood for)."""
    if new.kind != old.kind:
        return False
    if new.kind == SET:
        return new.cards()[0].rank == old.cards()[0].rank
    if new.suit != old.suit:
        return False
    # Where the ace wraps (R12.3), the old run's places may be read a round of ranks later.
    for low in (old.low, old.low + RANKS):
        high = low + len(old.slots) - 1
        if new.low <= low and high <= new.high:
            offset = low - new.low
            return all(new.slots[offset + index] == slot for index, slot in enumerate(old.slots))
    return False


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
        raise RulesError(message(Ruling.NO_CARDS))
    require_suits(meld + cards)
    rules.check_copies(meld + cards, players)
    left = check_left(left)
    empty = {"meld": [], "jokers": [], "declared": []}
    if rules.deal(round_number).whole_hand:
        said = message(Ruling.NO_LAYOFF_ROUND, round=round_number)
        return said_problem(said, "R6.3").verdict(empty)
    if opened_this_turn and not rules.layoff_on_opening_turn:
        rule = rules.citation("layoff_on_opening_turn", "R6.1")
        return said_problem(message(Ruling.OPENED_LAYOFF), rule).verdict(empty)
    before, problem = _on_the_table(meld, meld_readings(meld, rules), round_number, rules)
    if problem:
        return problem.verdict(empty)
    after = _extended(meld + cards, before, rules)
    if not after:
        wild = _too_wild(meld + cards, before, rules) or _unspaced(meld + cards, before, rules)
        if wild:
            return wild.verdict(empty)
        wrap = rules.ace is Ace.WRAP
        why = layoff_problem(meld, cards, before, rules.wild_deuces, wrap)
        return Problem.of(why, "R6.2").verdict(empty)
    if left == 0 and not rules.go_out_by_layoff:
        rule = rules.citation("go_out_by_layoff", "R6.3")
        return said_problem(message(Ruling.OUT_BY_LAYOFF), rule).verdict(empty)
    # The fewest 2s played wild (R11): a lay-off turns on wild deuces only when it must.
    result = min(after, key=lambda reading: len(reading.wilds))
    reason = message(
        Ruling.CAN_GO,
        cards=format_cards(cards),
        meld=format_cards(meld),
        reading=result.described(),
    )
    rule = "R6.2"
    settings = {
        "layoff_on_opening_turn": opened_this_turn,
        "go_out_by_layoff": left == 0,
        "wild_deuces": bool(result.wilds),
        "ace": wraps(result),
    }
    house = [
        wild_deuce_parts(result) if setting == "wild_deuces" else message(LAYOFF_WORDS[setting])
        for setting, applies in settings.items()
        if applies
    ]
    if house:
        reason = house_first(rules, house, reason)
        rule = house_citation(setting for setting, applies in settings.items() if applies)
    details = {
        "meld": result.faces(),
        "jokers": result.joker_faces(),
        "declared": result.declared(),
    }
    return legal_verdict(reason, rule, details)


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
    return said_problem(too_wild_message(rules, cards, wild, Ruling.TOO_WILD), "R11:naturals")


def _unspaced(cards: tuple[Card, ...], before: list[Reading], rules: RuleSet) -> Problem | None:
    """The R12.3 problem when only `wild_spacing` keeps the cards off the run: two wild cards
    would stand too close."""
    if not rules.wild_spacing:
        return None
    unspaced = replace(rules, wild_spacing=0)
    if not _extended(cards, before, unspaced):
        return None
    return meld_problem(cards, rules, (RUN,))


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

    def fail(said: Message, rule: str = "R7.2") -> Verdict:
        return said_problem(said, rule).verdict(empty)

    if card.joker:
        return fail(message(Ruling.NATURAL_ONLY))
    if rules.deal(round_number).whole_hand:
        return fail(message(Ruling.NO_SWAP_ROUND, round=round_number), "R5.4")
    if rules.joker_swap is JokerSwap.NEVER:
        return fail(message(Ruling.NO_SWAPS, rules=rules.rules_name), "R11:joker_swap")
    if opened_this_turn and not rules.swap_on_opening_turn:
        rule = rules.citation("swap_on_opening_turn", "R7.2")
        return fail(message(Ruling.OPENED_SWAP), rule)
    readings, problem = _on_the_table(meld, meld_readings(meld, rules), round_number, rules)
    if problem:
        return problem.verdict(empty)
    text = format_cards(meld)
    wilds = [(reading, place) for reading in readings for place in wild_places(reading, rules)]
    if not wilds:
        what = message(Ruling.JOKER_OR_WILD if rules.wild_deuces else Ruling.JOKER)
        return fail(message(Ruling.NOTHING_TO_SWAP, meld=text, what=what))
    swappable = [(r, place) for r, place in wilds if _swappable(r, rules)]
    if not swappable:
        return fail(message(Ruling.SET_JOKER_STAYS, meld=text), "R7.1")
    # A joker is freed before a wild 2 when the card could replace either.
    for reading, place in sorted(swappable, key=lambda found: not found[1][1].joker):
        if _itself(card, place[2]):
            return _swapped(reading, place, card, text, rules, opened_this_turn)
    return fail(_not_stood_for(card, text, [place for _, place in swappable]))


def _not_stood_for(card: Card, text: str, places: list[tuple[int, Card, Card]]) -> Message:
    """Why the card replaces none of the wild cards it could: what each stands for, said once."""
    if all(wild.joker for _, wild, _ in places):
        faces = joined(Join.EITHER, dict.fromkeys(stood.face() for _, _, stood in places))
        return message(Ruling.NOT_JOKER_FACE, card=str(card), meld=text, faces=faces)
    each = [
        message(Ruling.WILD_IS, wild=_wild_name(wild), face=stood.face())
        for _, wild, stood in places
    ]
    # Each text once, in the order first said.
    stood_for = joined(Join.EITHER, {words(said): said for said in each}.values())
    return message(Ruling.NOT_WILD_FACE, card=str(card), meld=text, stood=stood_for)


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
    freed = message(Ruling.JOKER) if wild.joker else str(wild)
    in_run = rules.freed_joker is FreedJoker.LAY_OFF and rules.freed_joker_to is FreedJokerTo.RUN
    if rules.freed_joker is FreedJoker.HAND:
        joker_to, where = TO_HAND, message(Ruling.FREED_TO_HAND, freed=freed)
    elif in_run:
        joker_to, where = LAID_IN_RUN, message(Ruling.FREED_IN_RUN, freed=freed)
    else:
        joker_to, where = LAID_OFF, message(Ruling.FREED_LAID_OFF, freed=freed)
    reason = message(Ruling.REPLACES, card=str(card), wild=_wild_name(wild), meld=text, where=where)
    settings = {
        "joker_swap": reading.kind == SET,
        "wild_deuces": not wild.joker,
        "swap_on_opening_turn": opened_this_turn,
        "freed_joker": rules.house("freed_joker"),
        "freed_joker_to": in_run,
    }
    house = [message(SWAP_WORDS[setting]) for setting, applies in settings.items() if applies]
    rule = "R7.2"
    if house:
        reason = house_first(rules, house, reason)
        rule = house_citation(setting for setting, applies in settings.items() if applies)
    declared = reading.declared()
    declared[index] = str(card)
    details = {
        "meld": after,
        "freed": "JK" if wild.joker else str(wild),
        "joker_to": joker_to,
        "declared": declared,
    }
    return legal_verdict(reason, rule, details)
