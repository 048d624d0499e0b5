"""R4 Melds: every legal reading of a set or a run, and a plain reason when there is none.

A run's places are positions 1 … 14: 1 is the low ace, 2 … 13 the ranks 2 … K, 14 the high ace.
A reading places every card: naturals where their rank puts them, declared jokers where declared,
undeclared jokers in the places still missing. Undeclared jokers are interchangeable, so two
placements that show the same cards are one reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import product

from .cards import Card, format_cards, parse_cards
from .deuces import deuce_readings, problem_view
from .errors import RulesError
from .reading import (  # noqa: F401 - the meld's vocabulary, read from here too
    ANY_SUIT_RUN,
    HIGH_ACE,
    KINDS,
    LOW_ACE,
    MAX_RUN,
    MIN_RUN,
    MIN_SET,
    RANKS,
    RUN,
    SET,
    Reading,
    positions_of,
    rank_at,
)
from .ruleset import Ace, Naturals, RuleSet
from .verdict import Problem, Verdict
from .words import Code, Join, Message, joined, message, ranks, suit, words


class Said(Code):
    """What a ruling on one meld says: why the cards are no meld (R4, R11), and what a legal
    meld reads as."""

    NO_SUIT = "meld.no_suit"
    NATURAL_DEUCE = "meld.natural_deuce"
    NO_CARDS = "meld.no_cards"
    NO_NATURAL = "meld.no_natural"
    TOO_FEW = "meld.too_few"
    EITHER_KIND = "meld.either_kind"
    MIXES_RANKS = "meld.mixes_ranks"
    MIXES_SUITS = "meld.mixes_suits"
    MIXES_BOTH = "meld.mixes_both"
    WILD_AT_MOST_NATURAL = "meld.wild_at_most_natural"
    TOO_WILD = "meld.too_wild"
    TOO_FEW_NATURALS = "meld.too_few_naturals"
    SET_NEEDS = "meld.set_needs"
    RUN_NEEDS = "meld.run_needs"
    AND_SET_NEEDS = "meld.and_set_needs"
    AND_RUN_NEEDS = "meld.and_run_needs"
    SET_DECLARED = "meld.set_declared"
    SET_TOO_FEW = "meld.set_too_few"
    NOT_A_SET = "meld.not_a_set"
    RUN_DECLARED = "meld.run_declared"
    RUN_TOO_FEW = "meld.run_too_few"
    RUN_TOO_LONG = "meld.run_too_long"
    RUN_STANDS_FOR = "meld.run_stands_for"
    RUN_TWICE = "meld.run_twice"
    RUN_ACES = "meld.run_aces"
    RUN_WRAPS = "meld.run_wraps"
    RUN_GAP = "meld.run_gap"
    RUN_TOO_LONG_WRAP = "meld.run_too_long_wrap"
    RUN_ACES_WRAP = "meld.run_aces_wrap"
    ANY_SUIT_TWICE = "meld.any_suit_twice"
    WILD_SPACING = "meld.wild_spacing"
    A_JOKER = "meld.a_joker"
    A_WILD_CARD = "meld.a_wild_card"
    LEGAL = "meld.legal"
    KIND_SET = "meld.kind_set"
    KIND_RUN = "meld.kind_run"
    KIND_ANY_SUIT_RUN = "meld.kind_any_suit_run"
    ACE_WRAPS = "meld.ace_wraps"
    WILD_DEUCE = "meld.wild_deuce"
    WILD_DEUCES = "meld.wild_deuces"
    HOUSE_FIRST = "meld.house_first"


# A meld's kind in a sentence, and the natural cards each kind needs (R4, R11).
KIND_WORDS = {SET: Said.KIND_SET, RUN: Said.KIND_RUN, ANY_SUIT_RUN: Said.KIND_ANY_SUIT_RUN}
# Every kind a meld may be read as: a contract's any-suit run only where its deal asks one.
ALL_KINDS = (SET, RUN, ANY_SUIT_RUN)
_NEEDS = {SET: Said.SET_NEEDS, RUN: Said.RUN_NEEDS}
_AND_NEEDS = {SET: Said.AND_SET_NEEDS, RUN: Said.AND_RUN_NEEDS}

# Read by the opening's reasons too.
WILD_AT_MOST_NATURAL = words(message(Said.WILD_AT_MOST_NATURAL))


@dataclass(frozen=True, slots=True)
class Meld:
    """The cards of one meld as listed; `Meld.parse("5♠ 6♠ JK 8♠")`."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Meld:
        """Read a meld in R1 notation."""
        return cls(parse_cards(text))

    def readings(self, rules: RuleSet) -> list[Reading]:
        """Every legal reading under the rules (R4)."""
        return meld_readings(self.cards, rules)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


def require_suits(cards: Iterable[Card]) -> None:
    """A card on the table has a suit: a rank-only natural (`7`) cannot be placed."""
    for card in cards:
        if card.natural and card.suit is None:
            raise RulesError(message(Said.NO_SUIT, card=str(card)))


def meld_readings(cards: Sequence[Card], rules: RuleSet, any_suit: bool = False) -> list[Reading]:
    """Every legal reading of the cards (R4): sets first, then runs from low to high, then
    (`any_suit`, where a deal asks for one) runs whose suits are free (R12.3).

    Where the rules make deuces wild (R11), each 2 is tried as itself and as a wild card; where
    they space a run's wild cards (R12.3's `wild_spacing`), a run with two too close is none."""
    return [reading for reading in _readings(cards, rules, any_suit) if spaced(reading, rules)]


def spaced(reading: Reading, rules: RuleSet) -> bool:
    """Whether a run's wild cards stand at least `wild_spacing` natural cards apart (R12.3)."""
    return all(gap >= rules.wild_spacing for gap in reading.wild_gaps())


def _readings(cards: Sequence[Card], rules: RuleSet, any_suit: bool) -> list[Reading]:
    cards = tuple(cards)
    require_suits(cards)
    runs = _any_suit_readings if any_suit else run_readings
    if rules.wild_deuces and any(card.natural and card.rank == 2 for card in cards):
        found = deuce_readings(cards, rules, set_readings, run_readings)
        return found + (deuce_readings(cards, rules, _none, runs) if any_suit else [])
    if any(card.as_rank for card in cards) or not any(card.natural for card in cards):
        return []
    found = set_readings(cards, rules) + run_readings(cards, rules)
    return found + (_any_suit_readings(cards, rules) if any_suit else [])


def _none(cards: tuple[Card, ...], rules: RuleSet) -> list[Reading]:
    return []


def _any_suit_readings(cards: tuple[Card, ...], rules: RuleSet) -> list[Reading]:
    return run_readings(cards, rules, any_suit=True)


def too_wild(wilds: int, naturals: int, rules: RuleSet) -> bool:
    """More wild cards than natural ones, where the rules forbid it (R11)."""
    return rules.naturals.wild_at_most_natural and wilds > naturals


def set_readings(cards: tuple[Card, ...], rules: RuleSet) -> list[Reading]:
    """The one reading as a set, if the cards are one rank (R4), else none."""
    naturals = [card for card in cards if card.natural]
    jokers = [card for card in cards if card.joker]
    ranks = {card.rank for card in naturals}
    if len(ranks) != 1 or len(cards) < MIN_SET or len(naturals) < rules.naturals.set:
        return []
    if too_wild(len(jokers), len(naturals), rules):
        return []
    rank = ranks.pop()
    if any(joker.declared and joker.rank != rank for joker in jokers):
        return []
    return [Reading(SET, cards, (Card(rank, None),) * len(jokers))]


def most_run(rules: RuleSet) -> int:
    """The longest run: A 2 … K A (R4), or each rank once where the ace wraps (R12.3)."""
    return RANKS if rules.ace is Ace.WRAP else MAX_RUN


def run_lows(size: int, rules: RuleSet) -> range:
    """The first places a run of `size` cards may start at: up to the high ace (R4), or at any
    rank where the ace wraps (R12.3), A … K only for all 13."""
    if rules.ace is not Ace.WRAP:
        return range(1, MAX_RUN + 2 - size)
    return range(1, 2 if size == RANKS else RANKS + 1)


def run_readings(cards: tuple[Card, ...], rules: RuleSet, any_suit: bool = False) -> list[Reading]:
    """Every distinct placement as a run of one suit, ace low or high, never wrapping (R4), or
    wrapping where the rules say so (R12.3); `any_suit`: a run whose suits are free (R12.3)."""
    suit = _run_suit(cards, rules, any_suit)
    if suit is False:
        return []
    size = len(cards)
    fixed = [card for card in cards if card.rank is not None]
    wrap = rules.ace is Ace.WRAP
    found: dict[tuple, Reading] = {}
    for low in run_lows(size, rules):
        high = low + size - 1
        choices = [[p for p in positions_of(card.rank, wrap) if low <= p <= high] for card in fixed]
        for placement in product(*choices):
            if len(set(placement)) == len(placement):
                reading = _place_run(low, size, suit, fixed, placement)
                found.setdefault(reading.key(), reading)
    return list(found.values())


def _run_suit(cards: tuple[Card, ...], rules: RuleSet, any_suit: bool) -> str | None | bool:
    """The suit the cards may be a run of (None: any, `any_suit`), or False where they are
    none: too few or too many, natural cards too few or outnumbered, a card of another suit."""
    naturals = [card for card in cards if card.natural]
    suits = {card.suit for card in naturals} | {c.suit for c in cards if c.joker and c.suit}
    size = len(cards)
    if (len(suits) != 1 and not any_suit) or not MIN_RUN <= size <= most_run(rules):
        return False
    if len(naturals) < rules.naturals.run or too_wild(size - len(naturals), len(naturals), rules):
        return False
    return None if any_suit else suits.pop()


def _place_run(
    low: int, size: int, suit: str | None, fixed: list[Card], placement: tuple[int, ...]
) -> Reading:
    """Build the run reading with the fixed cards at their positions and jokers in the rest (a
    run of free suits, `suit` None: each joker stands for a rank)."""
    slots: list[Card | None] = [None] * size
    for card, position in zip(fixed, placement, strict=True):
        slots[position - low] = card
    placed = tuple(slot or Card(None, None, True) for slot in slots)
    jokers = tuple(
        Card(rank_at(low + index), suit) for index, slot in enumerate(placed) if slot.joker
    )
    return Reading(RUN if suit else ANY_SUIT_RUN, placed, jokers, low)


def meld_problem(cards: Sequence[Card], rules: RuleSet, kinds: Iterable[str] = KINDS) -> Problem:
    """Why the cards are no meld of the wanted `kinds` (call only when there is no such reading).

    The reason names the first condition that fails; a setting the rules change from the
    default (natural-card minimums above one, wild cards never outnumbering natural ones, wild
    deuces) is cited as R11 with the rules named.
    """
    cards = tuple(cards)
    kinds = tuple(kind for kind in ALL_KINDS if kind in set(kinds))
    spacing = _spacing_problem(cards, rules, kinds)
    if spacing is not None:
        return spacing
    if not rules.wild_deuces:
        declared = next((card for card in cards if card.as_rank), None)
        if declared is not None:
            said = message(Said.NATURAL_DEUCE, card=str(declared), rules=rules.rules_name)
            return said_problem(said, "R1.4")
        return _plain_problem(cards, cards, rules, kinds)
    view = problem_view(cards, kinds)
    problem = _plain_problem(view, cards, rules, kinds)
    said = _named_as_laid(problem.message, format_cards(view), format_cards(cards))
    return Problem(words(said), problem.rule, problem.line, said)


def _spacing_problem(cards: tuple[Card, ...], rules: RuleSet, kinds: tuple[str, ...]):
    """The R12.3 problem when only the rules' spacing of wild cards keeps the cards from a run:
    `continental rules: two wild cards of a run stand at least 1 natural card apart; JK=3♥
    JK=4♥ 5♥ 6♥ has 0 between two`."""
    if not rules.wild_spacing:
        return None
    unspaced = replace(rules, wild_spacing=0)
    readings = [r for r in _readings(cards, unspaced, ANY_SUIT_RUN in kinds) if r.kind in kinds]
    if not readings:
        return None
    said = message(
        Said.WILD_SPACING,
        rules=rules.rules_name,
        spacing=rules.wild_spacing,
        cards=format_cards(cards),
        apart=max(min(reading.wild_gaps()) for reading in readings),
    )
    return said_problem(said, "R11:wild_spacing")


def said_problem(said: Message, rule: str) -> Problem:
    """A meld's problem, its reason the message's words as a clause (a player reads it after
    the meld's cards or the rules' name)."""
    return Problem(words(said), rule, message=said)


def _named_as_laid(said: Message, shown: str, laid: str) -> Message:
    """The message with the cards as read (`shown`, wild 2s as jokers) named as laid."""

    def named(value):
        if isinstance(value, Message):
            return _named_as_laid(value, shown, laid)
        if isinstance(value, tuple):
            return tuple(named(item) for item in value)
        return value.replace(shown, laid) if isinstance(value, str) else value

    return Message(said.code, {name: named(value) for name, value in said.values.items()})


def _plain_problem(cards, physical, rules: RuleSet, kinds: tuple[str, ...]) -> Problem:
    """`meld_problem` on the cards as read (wild 2s as jokers); `physical` are the cards laid."""
    text = format_cards(cards)
    naturals = [card for card in cards if card.natural]
    if not cards:
        return said_problem(message(Said.NO_CARDS), "R4.3")
    if not naturals:
        return said_problem(message(Said.NO_NATURAL, cards=text), "R4.3")
    house = _house_naturals(physical, rules, kinds)
    if house:
        return house
    as_set = SET in kinds and len({card.rank for card in naturals}) == 1
    as_run = RUN in kinds and len({card.suit for card in naturals}) == 1
    if as_set and as_run:
        if len(cards) < MIN_SET:
            said = message(Said.TOO_FEW, min_set=MIN_SET, min_run=MIN_RUN, size=len(cards))
            return said_problem(said, "R4.1")
        set_problem = _set_problem(cards, naturals, rules, physical)
        run_problem = _run_problem(cards, naturals, rules, physical)
        said = message(Said.EITHER_KIND, set=set_problem.message, run=run_problem.message)
        return said_problem(said, "R4")
    if as_set:
        return _set_problem(cards, naturals, rules, physical)
    if as_run:
        return _run_problem(cards, naturals, rules, physical)
    if ANY_SUIT_RUN in kinds:
        return _run_problem(cards, naturals, rules, physical, any_suit=True)
    return _mixed(text, naturals, kinds)


def _mixed(text: str, naturals: list[Card], kinds: tuple[str, ...]) -> Problem:
    """Natural cards of more than one rank where a set is wanted, more than one suit where a
    run is: name what the cards mix."""
    if kinds == (SET,):
        return said_problem(message(Said.MIXES_RANKS, cards=text), "R4.1")
    if kinds == (RUN,) or len({card.rank for card in naturals}) == len(naturals):
        return said_problem(message(Said.MIXES_SUITS, cards=text), "R4.2")
    return said_problem(message(Said.MIXES_BOTH, cards=text), "R4.1")


def _house_naturals(cards: tuple[Card, ...], rules: RuleSet, kinds: tuple[str, ...]):
    """The R11 problem when only the rules' natural-card settings keep the cards from a meld:
    a minimum above one, or wild cards outnumbering natural ones."""
    minimums = rules.house("naturals.set") or rules.house("naturals.run")
    capped = rules.naturals.wild_at_most_natural
    if not minimums and not capped:
        return None
    relaxed = replace(rules, naturals=Naturals(set=1, run=1, wild_at_most_natural=False))
    readings = [r for r in meld_readings(cards, relaxed) if r.kind in kinds]
    if not readings:
        return None
    found = list(dict.fromkeys(reading.kind for reading in readings))
    uncapped = replace(rules, naturals=replace(rules.naturals, wild_at_most_natural=False))
    if capped and any(r.kind in kinds for r in meld_readings(cards, uncapped)):
        wild = min(reading.wild_count() for reading in readings)
        return said_problem(too_wild_message(rules, cards, wild, Said.TOO_WILD), "R11:naturals")
    if not minimums:
        return None
    naturals = len(cards) - min(reading.wild_count() for reading in readings)
    return said_problem(_too_few_naturals(rules, found, cards, naturals), "R11:naturals")


def too_wild_message(rules: RuleSet, cards: tuple[Card, ...], wild: int, code: Code) -> Message:
    """`family rules: a meld may not hold more wild cards than natural cards; 7♠ JK JK has 2
    wild and 1 natural` (R11), in the words of `code`."""
    return message(
        code,
        rules=rules.rules_name,
        limit=message(Said.WILD_AT_MOST_NATURAL),
        cards=format_cards(cards),
        wild=wild,
        natural=len(cards) - wild,
    )


def _too_few_naturals(
    rules: RuleSet, kinds: Sequence[str], cards: tuple[Card, ...], naturals: int
) -> Message:
    """`family rules: a run needs 3 natural cards; 5♠ 6♠ JK JK has 2` (R11)."""
    needed = naturals_needed(rules, kinds)
    return message(
        Said.TOO_FEW_NATURALS,
        rules=rules.rules_name,
        needed=needed,
        cards=format_cards(cards),
        naturals=naturals,
    )


def naturals_needed(rules: RuleSet, kinds: Sequence[str]) -> Message:
    """`a run needs 3 natural cards`, or for both kinds `a set needs 2 natural cards and a run 3`."""
    first, *rest = kinds
    said = message(_NEEDS[first], count=rules.naturals_needed(first))
    for kind in rest:
        said = message(_AND_NEEDS[kind], first=said, count=rules.naturals_needed(kind))
    return said


def naturals_needed_text(rules: RuleSet, kinds: Sequence[str]) -> str:
    """`naturals_needed` in words."""
    return words(naturals_needed(rules, kinds))


def _naturals_problem(cards: tuple[Card, ...], kind: str, rules: RuleSet) -> Problem:
    """Too few natural cards for the rules's minimum (only a house rule asks for more than one)."""
    naturals = sum(card.natural for card in cards)
    return said_problem(_too_few_naturals(rules, [kind], cards, naturals), "R11:naturals")


def _set_problem(
    cards: tuple[Card, ...], naturals: list[Card], rules: RuleSet, physical: tuple[Card, ...]
) -> Problem:
    """What keeps one-rank cards from being a set: a wild card declared elsewhere, too few
    cards. `cards` are as read (a wild 2 as a joker), `physical` as laid (it names the 2)."""
    rank = naturals[0].rank
    text = format_cards(cards)
    for card, laid in zip(cards, physical, strict=True):
        if card.declared and card.rank != rank:
            said = message(
                Said.SET_DECLARED, card=str(laid), face=card.face(), cards=text, ranks=ranks(rank)
            )
            return said_problem(said, "R4.4")
    if len(cards) < MIN_SET:
        return said_problem(message(Said.SET_TOO_FEW, least=MIN_SET, size=len(cards)), "R4.1")
    if len(naturals) < rules.naturals.set:
        return _naturals_problem(cards, SET, rules)
    return said_problem(message(Said.NOT_A_SET, cards=text), "R4")  # pragma: no cover


@dataclass(frozen=True)
class _Run:
    """Cards of one suit judged as a run: as read (`cards`, a wild 2 as a joker), as laid
    (`physical`, naming the 2), their natural cards and the rules."""

    cards: tuple[Card, ...]
    physical: tuple[Card, ...]
    naturals: list[Card]
    rules: RuleSet
    any_suit: bool = False

    @property
    def text(self) -> str:
        return format_cards(self.cards)

    @property
    def suit(self) -> str | None:
        """The run's suit; None where its suits are free (R12.3)."""
        return None if self.any_suit else self.naturals[0].suit

    @property
    def wraps(self) -> bool:
        """Whether the ace turns the corner under these rules (R12.3)."""
        return self.rules.ace is Ace.WRAP

    def laid(self, card: Card) -> Card:
        """The card as laid (a wild 2) for a card as read (a joker)."""
        return dict(zip(map(id, self.cards), self.physical, strict=True))[id(card)]

    def ranks(self) -> Counter:
        return Counter(card.rank for card in self.cards if card.rank is not None)


def _run_problem(
    cards: tuple[Card, ...],
    naturals: list[Card],
    rules: RuleSet,
    physical: tuple[Card, ...],
    any_suit: bool = False,
) -> Problem:
    """What keeps one-suit cards (`any_suit`: cards of any suits) from being a run, most
    specific first. `cards` are as read (a wild 2 as a joker), `physical` as laid (it names the
    2)."""
    run = _Run(cards, physical, naturals, rules, any_suit)
    for check in _RUN_CHECKS:
        problem = check(run)
        if problem is not None:
            return problem
    return _gap_problem(run)  # pragma: no cover - the last check always answers


def _declared_off_suit(run: _Run) -> Problem | None:
    """A joker declared as a card of another suit (R4.4)."""
    if run.any_suit:
        return None
    for card in run.cards:
        if card.joker and card.suit not in (None, run.suit):
            said = message(
                Said.RUN_DECLARED,
                card=str(run.laid(card)),
                face=card.face(),
                cards=run.text,
                suit=suit(run.suit),
            )
            return said_problem(said, "R4.4")
    return None


def _run_length(run: _Run) -> Problem | None:
    """Fewer than MIN_RUN cards, or more than MAX_RUN (R4.2)."""
    size = len(run.cards)
    if size < MIN_RUN:
        return said_problem(message(Said.RUN_TOO_FEW, least=MIN_RUN, size=size), "R4.2")
    if run.wraps and size > RANKS:
        return said_problem(message(Said.RUN_TOO_LONG_WRAP, most=RANKS, size=size), "R11:ace")
    if size > MAX_RUN:
        return said_problem(message(Said.RUN_TOO_LONG, most=MAX_RUN, size=size), "R4.2")
    return None


def _run_naturals(run: _Run) -> Problem | None:
    """Fewer natural cards than the rules ask of a run (R11)."""
    if len(run.naturals) < run.rules.naturals.run:
        return _naturals_problem(run.cards, RUN, run.rules)
    return None


def _repeated(run: _Run) -> Problem | None:
    """A card other than an ace twice, as itself or as a joker declared as it (R4.2)."""
    repeated = sorted(
        rank for rank, count in run.ranks().items() if (rank != 1 or run.wraps) and count > 1
    )
    if not repeated:
        return None
    card = Card(repeated[0], run.suit)
    if run.any_suit:
        said = message(Said.ANY_SUIT_TWICE, cards=run.text, rank=ranks(card.rank))
        return said_problem(said, "R12.3")
    if run.wraps and card.rank == 1:
        return said_problem(message(Said.RUN_ACES_WRAP, cards=run.text), "R11:ace")
    joker = next((c for c in run.cards if c.declared and c.rank == card.rank), None)
    if joker is not None:
        said = message(
            Said.RUN_STANDS_FOR, card=str(run.laid(joker)), face=str(card), cards=run.text
        )
    else:
        said = message(Said.RUN_TWICE, cards=run.text, card=str(card))
    return said_problem(said, "R4.2")


def _aces(run: _Run) -> Problem | None:
    """More aces than a run's ends hold: two only in the 14-card run (R4.2)."""
    aces = run.ranks()[1]
    if aces > 2 or (aces == 2 and len(run.cards) < MAX_RUN):
        return said_problem(message(Said.RUN_ACES, cards=run.text, aces=aces), "R4.2")
    return None


def _wrapping(run: _Run) -> Problem | None:
    """Ranks that fit only by going K A 2 around the ace (R4.2), where it does not (R12.3)."""
    if not run.wraps and _wraps(set(run.ranks()), len(run.cards)):
        return said_problem(message(Said.RUN_WRAPS, cards=run.text), "R4.2")
    return None


def _wraps(ranks: set[int], size: int) -> bool:
    """True when the ranks fit in `size` places only by going K A 2 around the ace."""
    ordered = sorted(ranks)
    gaps = [b - a for a, b in zip(ordered, ordered[1:], strict=False)]
    around = ordered[0] + 13 - ordered[-1]
    return bool(gaps) and max(gaps) > around and 13 - max(gaps) + 1 <= size


def _gap_problem(run: _Run) -> Problem:
    """The run's naturals spread over more places than it has cards (R4.2); round the ace,
    where it wraps (R12.3)."""
    held = set(run.ranks())
    others = [rank for rank in held if rank != 1]
    spans = []
    if run.wraps:
        for low in held:
            width = max((rank - low) % RANKS for rank in held) + 1
            spans.append((width, low, low + width - 1))
    for ace in () if run.wraps else (LOW_ACE, HIGH_ACE) if 1 in held else (None,):
        places = others + ([ace] if ace else [])
        spans.append((max(places) - min(places) + 1, min(places), max(places)))
    width, low, high = min(spans)
    wild = Said.A_JOKER if run.cards == run.physical else Said.A_WILD_CARD
    said = message(
        Said.RUN_GAP,
        cards=run.text,
        low=str(Card(rank_at(low), run.suit)),
        high=str(Card(rank_at(high), run.suit)),
        width=width,
        size=len(run.cards),
        wild=message(wild),
    )
    return said_problem(said, "R4.2")


# What keeps one-suit cards from being a run, most specific first; a gap when nothing else.
_RUN_CHECKS = (
    _declared_off_suit,
    _run_length,
    _run_naturals,
    _repeated,
    _aces,
    _wrapping,
    _gap_problem,
)


def describe_readings(readings: Sequence[Reading]) -> Message:
    """`A or B`: the readings joined for a reason."""
    return joined(Join.EITHER, [reading.described() for reading in readings])


def legal_verdict(said: Message, rule: str, details) -> Verdict:
    """A legal ruling, its reason the message's words."""
    return Verdict(True, words(said), rule, details, message=said)


def check_meld(cards: Sequence[Card], rules: RuleSet, players: int | None = None) -> Verdict:
    """Judge one meld (R4): every reading when legal, the plain problem when not."""
    players = rules.check_players(players)
    cards = tuple(cards)
    rules.check_copies(cards, players)
    readings = meld_readings(cards, rules)
    deuces = {"wild_deuces": []} if rules.wild_deuces else {}
    if not readings:
        empty = {"kind": None, "kinds": [], "readings": [], "jokers": [], "declared": [], **deuces}
        return meld_problem(cards, rules).verdict(empty)
    kinds = [reading.kind for reading in readings]
    kind_words = joined(Join.EITHER, [message(KIND_WORDS[kind]) for kind in dict.fromkeys(kinds)])
    said = message(
        Said.LEGAL,
        cards=format_cards(cards),
        kinds=kind_words,
        readings=describe_readings(readings),
    )
    details = {
        "kind": kinds[0],
        "kinds": kinds,
        "readings": [reading.faces() for reading in readings],
        "jokers": [reading.joker_faces() for reading in readings],
        "declared": [reading.declared() for reading in readings],
    }
    if rules.wild_deuces:
        details["wild_deuces"] = [reading.wild_deuces() for reading in readings]
        if all(reading.wilds for reading in readings):
            said = house_first(rules, [wild_deuce_parts(readings[0])], said)
            return legal_verdict(said, "R11:wild_deuces", details)
    if all(wraps(reading) for reading in readings):
        return legal_verdict(
            house_first(rules, [message(Said.ACE_WRAPS)], said), "R11:ace", details
        )
    rule = "R4.3" if any(r.jokers for r in readings) else cited(kinds)
    return legal_verdict(said, rule, details)


def wraps(reading: Reading) -> bool:
    """Whether a run goes on round the ace (K A 2), as only R12.3's `ace: wrap` allows."""
    return reading.kind != SET and reading.high > HIGH_ACE


def house_first(rules: RuleSet, settings: Sequence[Message], reason: Message) -> Message:
    """`shanghai rules: the 2♠ is wild here, standing for 7♥. 5♥ 6♥ 2♠ 8♥ is a legal run, …`:
    the settings of the rules that allow a play (R11), then the reason."""
    return message(
        Said.HOUSE_FIRST,
        rules=rules.rules_name,
        settings=joined(Join.EACH_AND, settings),
        reason=reason,
    )


def cited(kinds: Sequence[str]) -> str:
    """The point of R4 a meld of these kinds rests on: a set's (R4.1), a run's (R4.2)."""
    return "R4.1" if kinds[0] == SET else "R4.2"


def wild_deuce_words(rules: RuleSet, reading: Reading) -> str:
    """`shanghai rules: the 2♠ is wild here, standing for 7♥.` (R11's citation of wild deuces)."""
    return words(message(Said.WILD_DEUCES, rules=rules.rules_name, parts=wild_deuce_parts(reading)))


def wild_deuce_parts(reading: Reading) -> Message:
    """`the 2♠ is wild here, standing for 7♥`: each wild 2 of a reading and what it stands for."""
    parts = []
    for text in reading.wild_deuces():
        card, stood_for = text.split("=")
        parts.append(message(Said.WILD_DEUCE, card=card, face=stood_for))
    return joined(Join.COMMA, parts)
