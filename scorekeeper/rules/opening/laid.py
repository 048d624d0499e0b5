"""R5 Opening: the whole contract laid at once, each meld at its size, runs of a suit not touching.

Each meld may have several readings (R4); the opening is legal when some choice of one reading per
meld gives exactly the contract's sets and runs, each meld matched to one of the contract's melds
of its kind and size (exactly the size where the rules say `exact_sizes`, else at least; at least
in a whole-hand deal), with no two same-suit runs contiguous.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from math import prod

from ..cards import Card, format_cards
from ..citing import cite_deal
from ..contracts import Contract, contract
from ..errors import RulesError
from ..melds import (
    ALL_KINDS,
    RANKS,
    RUN,
    SET,
    Reading,
    meld_problem,
    meld_readings,
    wild_deuce_words,
    wraps,
)
from ..ruleset import Ace, RuleSet
from ..verdict import Problem, Verdict
from ..words import Code, Join, Message, joined, message, words

EMPTY = {"melds": [], "kinds": [], "jokers": [], "declared": []}


class Laid(Code):
    """Each reason an opening laid is legal or not, and the parts of those reasons."""

    LEFT_NOT_WHOLE = "laid.left_not_whole"
    LEFT_NEGATIVE = "laid.left_negative"
    SETS = "laid.sets"
    RUNS = "laid.runs"
    ANY_SUIT_RUNS = "laid.any_suit_runs"
    PLUS = "laid.plus"
    COUNT = "laid.count"
    PIECEMEAL = "laid.piecemeal"
    EXTRA = "laid.extra"
    MELD = "laid.meld"
    KINDS = "laid.kinds"
    TOUCH = "laid.touch"
    EVERY_READING = "laid.every_reading"
    UNMATCHED = "laid.unmatched"
    SET_EXACTLY = "laid.set_exactly"
    RUN_EXACTLY = "laid.run_exactly"
    SET_AT_LEAST = "laid.set_at_least"
    RUN_AT_LEAST = "laid.run_at_least"
    LEFT_IN_WHOLE_HAND = "laid.left_in_whole_hand"
    NONE_LEFT = "laid.none_left"
    LEGAL = "laid.legal"
    SET = "laid.set"
    RUN = "laid.run"
    NO_CARD_LEFT = "laid.no_card_left"
    KEPT = "laid.kept"
    HOUSE = "laid.house"
    ABOVE_LEAST = "laid.above_least"
    LONGER = "laid.longer"
    SAME_RANK = "laid.same_rank"
    WILD_MAX = "laid.wild_max"
    ACE_WRAPS = "laid.ace_wraps"
    NO_WILD = "laid.no_wild"


def runs_touch(lo1: int, hi1: int, lo2: int, hi2: int, wrap: bool = False) -> bool:
    """True when two same-suit runs on positions 1..14 (1 = low ace, 14 = high ace) are contiguous.

    Contiguous means one ends at r and the other starts at r + 1, so together they read as one
    run (3♠–6♠ with 7♠–10♠). Overlapping runs and runs with a gap do not touch, and nothing wraps
    round the ace: A♠–4♠ (1..4) and J♠–A♠ (11..14) do not touch, unless the ace wraps (`wrap`,
    R12.3): then J♠–K♠ and A♠–4♠ touch, the ranks going on round the ace.
    """
    if wrap:
        return (hi1 + 1 - lo2) % RANKS == 0 or (hi2 + 1 - lo1) % RANKS == 0
    return hi1 + 1 == lo2 or hi2 + 1 == lo1


def touching_pair(
    readings: Sequence[Reading], wrap: bool = False
) -> tuple[Reading, Reading] | None:
    """The first two same-suit runs among the readings that touch (R5), if any; round the ace
    where it wraps (`wrap`, R12.3)."""
    runs = [reading for reading in readings if reading.kind == RUN]
    for one, two in combinations(runs, 2):
        if one.suit == two.suit and runs_touch(one.low, one.high, two.low, two.high, wrap):
            return one, two
    return None


def check_left(left: object) -> int | None:
    """Cards still in hand: None (not given) or a whole number ≥ 0, else `RulesError`."""
    if left is None:
        return None
    if isinstance(left, bool) or not isinstance(left, int):
        raise RulesError(message(Laid.LEFT_NOT_WHOLE, left=repr(left)))
    if left < 0:
        raise RulesError(message(Laid.LEFT_NEGATIVE, left=left))
    return left


def exact_sizes(wanted: Contract, rules: RuleSet) -> bool:
    """Whether the opening lays each meld at exactly its size (R5), never in a whole-hand deal."""
    return rules.exact_sizes and not wanted.whole_hand


def fits_opening(reading: Reading, wanted: Contract, rules: RuleSet) -> bool:
    """Whether a reading has the size of some meld of its kind in the contract (R5, R11)."""
    sizes = wanted.sizes(reading.kind)
    if not sizes:
        return True
    if exact_sizes(wanted, rules):
        return len(reading.slots) in sizes
    return len(reading.slots) >= sizes[0]


def sizes_fit(choice: Sequence[Reading], wanted: Contract, exact: bool) -> bool:
    """Whether the melds can be matched one to one with the contract's melds of their kind, each
    exactly (or at least) its size: sorted lengths against sorted sizes decide it."""
    for kind in ALL_KINDS:
        lengths = sorted(len(reading.slots) for reading in choice if reading.kind == kind)
        sizes = wanted.sizes(kind)
        if len(lengths) != len(sizes):
            return False
        if exact and lengths != sizes:
            return False
        if any(length < size for length, size in zip(lengths, sizes, strict=True)):
            return False
    return True


def kind_counts(options: Sequence[Sequence[Reading]]) -> set[tuple[int, int, int]]:
    """Every (sets, runs, runs in any suits) count some choice of readings gives."""
    kinds = [{reading.kind for reading in readings} for readings in options]
    return {
        tuple(choice.count(kind) for kind in ALL_KINDS)
        for choice in product(*(sorted(k) for k in kinds))
    }


def fitting_choices(options: Sequence[Sequence[Reading]], wanted: Contract, exact: bool = False):
    """Each choice of one reading per meld that gives exactly the contract's melds."""
    for choice in product(*options):
        if sizes_fit(choice, wanted, exact):
            yield choice


def _counts(counts: set[tuple[int, int, int]]) -> Message:
    """`2 sets` or `2 sets or 1 set + 1 run`."""
    return joined(Join.EITHER, [_kinds(*kinds) for kinds in sorted(counts)])


def _kinds(sets: int, runs: int, any_suit_runs: int = 0) -> Message:
    """`2 sets`, `1 set + 1 run`."""
    parts = [(Laid.SETS, sets), (Laid.RUNS, runs), (Laid.ANY_SUIT_RUNS, any_suit_runs)]
    return joined(Laid.PLUS, [message(code, count=n) for code, n in parts if n])


def _fail(said: Message, rule: str) -> Verdict:
    """An illegal opening: no melds chosen."""
    return Verdict(False, words(said), rule, dict(EMPTY), message=said)


def check_opening(
    round_number: int,
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    players: int | None = None,
    left: int | None = None,
) -> Verdict:
    """Judge an opening (R5): the entire contract at once, under some reading of the jokers;
    on R11 with the rules named where a deal they change decides (R11's citing)."""
    round_number = rules.check_deal(round_number)
    verdict = _judge(round_number, melds, rules, players, left)
    return cite_deal(verdict, rules, round_number)


def _judge(
    round_number: int,
    melds: Sequence[Sequence[Card]],
    rules: RuleSet,
    players: int | None,
    left: int | None,
) -> Verdict:
    """`check_opening`'s verdict on the rules of R1-R10 and the settings that decide it: the
    melds counted (R5), each read (R4), one reading of each chosen (R3, R5), the cards left."""
    players = rules.check_players(players)
    melds = [tuple(meld) for meld in melds]
    rules.check_copies([c for meld in melds for c in meld], players)
    left = check_left(left)
    wanted = contract(round_number, rules)
    if len(melds) != wanted.melds:
        return _fail(_count_reason(wanted, len(melds)), "R5.1")
    readings = _read(melds, rules, wanted)
    if isinstance(readings, Verdict):
        return readings
    exact = exact_sizes(wanted, rules)
    options = [[r for r in found if fits_opening(r, wanted, rules)] for found in readings]
    tried = list(fitting_choices(options, wanted, exact))
    if rules.distinct_set_ranks and tried:
        apart = [choice for choice in tried if not same_rank_sets(choice)]
        if not apart:
            return _fail(_same_rank_reason(rules, tried[0]), "R11:distinct_set_ranks")
        tried = apart
    wrap = rules.ace is Ace.WRAP
    chosen = _fewest_wild(tried, wrap)
    if chosen is None:
        return _fail(*_diagnose(melds, readings, options, tried, wanted, exact, wrap))
    problem = _left_problem(wanted, left)
    if problem:
        return _fail(problem, "R5.4" if wanted.whole_hand else "R5.3")
    return _legal(wanted, chosen, rules, left)


def _read(melds, rules: RuleSet, wanted: Contract) -> list[list[Reading]] | Verdict:
    """Each meld's readings within the deal's cap on wild cards (R4, R12.3), or the verdict on
    the first meld with none."""
    readings = []
    for meld in melds:
        found = meld_readings(meld, rules, any_suit=bool(wanted.any_suit_runs))
        if not found:
            return _meld_problem(meld, rules, wanted).verdict(EMPTY)
        capped = [reading for reading in found if within_cap(reading, wanted)]
        if not capped:
            return _fail(_wild_max_reason(rules, wanted, meld, found), "R11:wild_max")
        readings.append(capped)
    return readings


def opening_readings(
    melds: Sequence[Sequence[Card]], wanted: Contract, rules: RuleSet, spend=None
) -> Sequence[Reading] | None:
    """The readings a legal opening of these melds is laid as (the fewest 2s played wild), or
    None where `check_opening` refuses it: the opening search's last word on what it found.
    `spend` is told the readings and the choices of them it is about to look at."""
    options = []
    for meld in melds:
        found = meld_readings(tuple(meld), rules, any_suit=bool(wanted.any_suit_runs))
        options.append(
            [r for r in found if within_cap(r, wanted) and fits_opening(r, wanted, rules)]
        )
    if spend is not None:
        spend(sum(map(len, options)) + prod(map(len, options)))
    tried = fitting_choices(options, wanted, exact_sizes(wanted, rules))
    if rules.distinct_set_ranks:
        tried = (choice for choice in tried if not same_rank_sets(choice))
    return _fewest_wild(list(tried), rules.ace is Ace.WRAP)


def same_rank_sets(choice: Sequence[Reading]) -> list[Reading]:
    """The sets of an opening that share a rank with another of its sets (R12.3's
    `distinct_set_ranks` refuses them), in the order laid."""
    ranks = [reading.cards()[0].rank if reading.kind == SET else None for reading in choice]
    return [
        reading
        for reading, rank in zip(choice, ranks, strict=True)
        if rank is not None and ranks.count(rank) > 1
    ]


def _same_rank_reason(rules: RuleSet, choice: Sequence[Reading]) -> Message:
    """`Santiago rules: the sets of one contract are of different ranks; 9♠ 9♥ 9♦ and 9♣ 9♠ 9♥
    are of one rank`."""
    sets = joined(Join.AND, [format_cards(reading.slots) for reading in same_rank_sets(choice)])
    return message(Laid.SAME_RANK, rules=rules.rules_name, sets=sets)


def within_cap(reading: Reading, wanted: Contract) -> bool:
    """Whether a meld of the opening holds no more wild cards than the deal allows (R12.3's
    `wild_max`)."""
    return wanted.wild_max is None or reading.wild_count() <= wanted.wild_max


def _wild_max_reason(
    rules: RuleSet, wanted: Contract, meld: tuple[Card, ...], found: Sequence[Reading]
) -> Message:
    """`carioca rules: a meld of the opening holds at most 1 wild card; 7♥ JK JK has 2`."""
    code = Laid.WILD_MAX if wanted.wild_max else Laid.NO_WILD
    wild = min(reading.wild_count() for reading in found)
    return message(
        code, rules=rules.rules_name, most=wanted.wild_max, meld=format_cards(meld), wild=wild
    )


def _fewest_wild(tried: list[Sequence[Reading]], wrap: bool) -> Sequence[Reading] | None:
    """The choice with no touching runs that plays the fewest 2s wild (R11): a verdict turns on
    wild deuces only when it must. None where every choice has touching runs."""
    return min(
        (choice for choice in tried if touching_pair(choice, wrap) is None),
        key=lambda choice: sum(len(reading.wilds) for reading in choice),
        default=None,
    )


def _legal(
    wanted: Contract, chosen: Sequence[Reading], rules: RuleSet, left: int | None
) -> Verdict:
    """A legal opening with the melds chosen, citing R11 where only the rules' settings (melds
    above their sizes, wild deuces) make it legal."""
    details = {
        "melds": [reading.faces() for reading in chosen],
        "kinds": [reading.kind for reading in chosen],
        "jokers": [reading.joker_faces() for reading in chosen],
        "declared": [reading.declared() for reading in chosen],
    }
    if rules.wild_deuces:
        details["wild_deuces"] = [reading.wild_deuces() for reading in chosen]
    reason = _legal_reason(wanted, chosen, left)
    house, rule = None, "R5.4" if wanted.whole_hand else "R5.1"
    deuces = next((reading for reading in chosen if reading.wilds), None)
    if not wanted.whole_hand and not sizes_fit(chosen, wanted, True):
        # Only the rules' "at least" sizes make this legal (R11).
        house, rule = longer_melds_message(rules, wanted), "R11:exact_sizes"
    elif deuces is not None:
        house, rule = wild_deuce_words(rules, deuces), "R11:wild_deuces"
    elif any(wraps(reading) for reading in chosen):
        house, rule = words(message(Laid.ACE_WRAPS, rules=rules.rules_name)), "R11:ace"
    if house is not None:
        reason = message(Laid.HOUSE, house=house, reason=reason)
    return Verdict(True, words(reason), rule, details, message=reason)


def longer_melds_message(rules: RuleSet, wanted: Contract) -> Message:
    """`family rules allow opening melds above 3 and 4 cards.` (R11's citation of the sizes)."""
    code = Laid.ABOVE_LEAST if wanted.at_least_sizes else Laid.LONGER
    return message(code, rules=rules.rules_name)


def _count_reason(wanted: Contract, laid: int) -> Message:
    """Too few melds (piecemeal) or too many (extra melds)."""
    why = message(Laid.PIECEMEAL if laid < wanted.melds else Laid.EXTRA)
    return message(Laid.COUNT, round=wanted.round, contract=wanted.short(), laid=laid, why=why)


def contract_kinds(wanted: Contract) -> tuple[str, ...]:
    """The kinds of meld a round's contract lays: sets, runs or both (R3), or runs in any suits
    (R12.3)."""
    return tuple(kind for kind, count in zip(ALL_KINDS, wanted.kinds, strict=True) if count)


def _meld_problem(meld: tuple[Card, ...], rules: RuleSet, wanted: Contract) -> Problem:
    """A bad meld's problem as the contract's kinds see it, naming the meld when it does not."""
    problem = meld_problem(meld, rules, contract_kinds(wanted))
    text = format_cards(meld)
    if problem.reason.startswith(text) or text in problem.reason:
        return problem
    said = message(Laid.MELD, meld=text, reason=problem.reason)
    return Problem(words(said), problem.rule, problem.line, said)


def _diagnose(melds, readings, options, tried, wanted: Contract, exact: bool, wrap: bool):
    """Why no choice works: the contract's kinds (R3), the opening sizes (R5) or touching runs
    (R5); the reason and its rule."""
    possible = kind_counts(readings)
    target = wanted.kinds
    if target not in possible:
        said = message(
            Laid.KINDS, round=wanted.round, contract=wanted.short(), laid=_counts(possible)
        )
        return said, "R3.1"
    if not tried:
        return _size_reason(melds, readings, options, wanted, exact), "R5.1"
    one, two = touching_pair(tried[0], wrap)
    every = message(Laid.EVERY_READING) if len(tried) > 1 else ""
    return message(Laid.TOUCH, one=one.span(), two=two.span(), every=every), "R5.2"


def _size_reason(melds, readings, options, wanted: Contract, exact: bool) -> Message:
    """A meld that is a set or a run only at a size the contract does not ask, emptiest first;
    or, when each meld fits some size, the sizes the melds cannot be matched to together."""
    lost = [
        (bool(fitting), meld, {r.kind for r in found} - {r.kind for r in fitting})
        for meld, found, fitting in zip(melds, readings, options, strict=True)
    ]
    sizes = {kind: wanted.sizes(kind) for kind in (SET, RUN)}
    lost = [item for item in lost if item[2]]
    if not lost:
        return message(Laid.UNMATCHED, contract=wanted.short())
    _, meld, kinds = min(lost, key=lambda item: item[0])
    kind = SET if SET in kinds else RUN
    laid = {"meld": format_cards(meld), "size": len(meld)}
    if exact:
        code = Laid.SET_EXACTLY if kind == SET else Laid.RUN_EXACTLY
        return message(code, sizes=joined(Join.EITHER, dict.fromkeys(sizes[kind])), **laid)
    code = Laid.SET_AT_LEAST if kind == SET else Laid.RUN_AT_LEAST
    return message(code, least=sizes[kind][0], **laid)


def _left_problem(wanted: Contract, left: int | None) -> Message | None:
    """Rounds 1-6 keep a card for the discard; round 7 keeps none (R5)."""
    if left is None:
        return None
    if wanted.whole_hand and left:
        return message(Laid.LEFT_IN_WHOLE_HAND, round=wanted.round, left=left)
    if not wanted.whole_hand and left == 0:
        return message(Laid.NONE_LEFT)
    return None


def _legal_reason(wanted: Contract, chosen: Sequence[Reading], left: int | None) -> Message:
    """`A legal opening for round 2 (1 set + 1 run): set 7♣ 7♦ 7♥, run 3♠ 4♠ 5♠ 6♠`."""
    melds = [
        message(Laid.SET if reading.kind == SET else Laid.RUN, cards=reading.describe())
        for reading in chosen
    ]
    kept = ""
    if left is not None:
        kept = message(Laid.NO_CARD_LEFT) if wanted.whole_hand else message(Laid.KEPT, left=left)
    return message(
        Laid.LEGAL,
        round=wanted.round,
        contract=wanted.short(),
        melds=joined(Join.COMMA, melds),
        left=kept,
    )
