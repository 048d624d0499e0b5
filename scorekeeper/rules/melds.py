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

from .cards import SUIT_NAMES, Card, format_cards, parse_cards
from .deuces import deuce_readings, problem_view
from .errors import RulesError
from .reading import (  # noqa: F401 - the meld's vocabulary, read from here too
    HIGH_ACE,
    KINDS,
    LOW_ACE,
    MAX_RUN,
    MIN_RUN,
    MIN_SET,
    RUN,
    SET,
    Reading,
    positions_of,
    rank_at,
)
from .ruleset import Naturals, RuleSet
from .verdict import Problem, Verdict


def rank_plural(rank: int) -> str:
    """`7s`, `aces`, `kings`: a set's rank in a sentence."""
    return {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}.get(rank, f"{rank}s")


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
            raise RulesError(f"{card} has no suit: a card on the table is written like 7♠")


def meld_readings(cards: Sequence[Card], rules: RuleSet) -> list[Reading]:
    """Every legal reading of the cards (R4): sets first, then runs from low to high.

    Where the rules make deuces wild (R11), each 2 is tried as itself and as a wild card."""
    cards = tuple(cards)
    require_suits(cards)
    if rules.wild_deuces and any(card.natural and card.rank == 2 for card in cards):
        return deuce_readings(cards, rules, set_readings, run_readings)
    if any(card.as_rank for card in cards) or not any(card.natural for card in cards):
        return []
    return set_readings(cards, rules) + run_readings(cards, rules)


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


def run_readings(cards: tuple[Card, ...], rules: RuleSet) -> list[Reading]:
    """Every distinct placement as a run of one suit, ace low or high, never wrapping (R4)."""
    naturals = [card for card in cards if card.natural]
    suits = {card.suit for card in naturals}
    size = len(cards)
    if len(suits) != 1 or not MIN_RUN <= size <= MAX_RUN or len(naturals) < rules.naturals.run:
        return []
    if too_wild(size - len(naturals), len(naturals), rules):
        return []
    suit = suits.pop()
    fixed = [card for card in cards if card.rank is not None]
    if any(card.suit not in (None, suit) for card in fixed):
        return []
    found: dict[tuple, Reading] = {}
    for low in range(1, MAX_RUN + 2 - size):
        high = low + size - 1
        choices = [[p for p in positions_of(card.rank) if low <= p <= high] for card in fixed]
        for placement in product(*choices):
            if len(set(placement)) == len(placement):
                reading = _place_run(low, size, suit, fixed, placement)
                found.setdefault(reading.key(), reading)
    return list(found.values())


def _place_run(
    low: int, size: int, suit: str, fixed: list[Card], placement: tuple[int, ...]
) -> Reading:
    """Build the run reading with the fixed cards at their positions and jokers in the rest."""
    slots: list[Card | None] = [None] * size
    for card, position in zip(fixed, placement, strict=True):
        slots[position - low] = card
    placed = tuple(slot or Card(None, None, True) for slot in slots)
    jokers = tuple(
        Card(rank_at(low + index), suit) for index, slot in enumerate(placed) if slot.joker
    )
    return Reading(RUN, placed, jokers, low)


def meld_problem(cards: Sequence[Card], rules: RuleSet, kinds: Iterable[str] = KINDS) -> Problem:
    """Why the cards are no meld of the wanted `kinds` (call only when there is no such reading).

    The reason names the first condition that fails; a setting the rules change from the
    default (natural-card minimums above one, wild cards never outnumbering natural ones, wild
    deuces) is cited as R11 with the rules named.
    """
    cards = tuple(cards)
    kinds = tuple(kind for kind in KINDS if kind in set(kinds))
    if not rules.wild_deuces:
        declared = next((card for card in cards if card.as_rank), None)
        if declared is not None:
            return Problem(
                f"{declared} declares a place, but under {rules.rules_name} a 2 is a natural "
                "card: only a joker stands for another card",
                "R1.4",
            )
        return _plain_problem(cards, cards, rules, kinds)
    view = problem_view(cards, kinds)
    problem = _plain_problem(view, cards, rules, kinds)
    reason = problem.reason.replace(format_cards(view), format_cards(cards))
    return Problem(reason, problem.rule, problem.line)


def _plain_problem(cards, physical, rules: RuleSet, kinds: tuple[str, ...]) -> Problem:
    """`meld_problem` on the cards as read (wild 2s as jokers); `physical` are the cards laid."""
    text = format_cards(cards)
    naturals = [card for card in cards if card.natural]
    if not cards:
        return Problem("a meld needs cards; none were given", "R4.3")
    if not naturals:
        return Problem(f"{text} has no natural card: a meld needs at least one", "R4.3")
    house = _house_naturals(physical, rules, kinds)
    if house:
        return house
    as_set = SET in kinds and len({card.rank for card in naturals}) == 1
    as_run = RUN in kinds and len({card.suit for card in naturals}) == 1
    if as_set and as_run:
        if len(cards) < MIN_SET:
            return Problem(
                f"a meld needs at least {MIN_SET} cards (a set) or {MIN_RUN} (a run); "
                f"this has {len(cards)}",
                "R4.1",
            )
        set_problem = _set_problem(cards, naturals, rules, physical)
        run_problem = _run_problem(cards, naturals, rules, physical)
        return Problem(f"as a set, {set_problem.reason}; as a run, {run_problem.reason}", "R4")
    if as_set:
        return _set_problem(cards, naturals, rules, physical)
    if as_run:
        return _run_problem(cards, naturals, rules, physical)
    if kinds == (SET,):
        return Problem(f"{text} mixes ranks: a set is cards of one rank", "R4.1")
    if kinds == (RUN,):
        return Problem(f"{text} mixes suits: a run is one suit", "R4.2")
    if len({card.rank for card in naturals}) == len(naturals):
        return Problem(f"{text} mixes suits: a run is one suit", "R4.2")
    return Problem(f"{text} mixes ranks and suits: a set is one rank and a run is one suit", "R4.1")


WILD_AT_MOST_NATURAL = "a meld may not hold more wild cards than natural cards"


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
        return Problem(
            f"{rules.rules_name}: {WILD_AT_MOST_NATURAL}; {format_cards(cards)} has "
            f"{wild} wild and {len(cards) - wild} natural",
            "R11:naturals",
        )
    if not minimums:
        return None
    naturals = len(cards) - min(reading.wild_count() for reading in readings)
    return Problem(
        f"{rules.rules_name}: {naturals_needed_text(rules, found)}; "
        f"{format_cards(cards)} has {naturals}",
        "R11:naturals",
    )


def naturals_needed_text(rules: RuleSet, kinds: Sequence[str]) -> str:
    """`a run needs 3 natural cards`, or for both kinds `a set needs 2 natural cards and a run 3`."""
    first, *rest = kinds
    text = f"a {first} needs {rules.naturals_needed(first)} natural cards"
    return text + "".join(f" and a {kind} {rules.naturals_needed(kind)}" for kind in rest)


def _naturals_problem(cards: tuple[Card, ...], kind: str, rules: RuleSet) -> Problem:
    """Too few natural cards for the rules's minimum (only a house rule asks for more than one)."""
    naturals = sum(card.natural for card in cards)
    return Problem(
        f"{rules.rules_name}: {naturals_needed_text(rules, [kind])}; "
        f"{format_cards(cards)} has {naturals}",
        "R11:naturals",
    )


def _set_problem(
    cards: tuple[Card, ...], naturals: list[Card], rules: RuleSet, physical: tuple[Card, ...]
) -> Problem:
    """What keeps one-rank cards from being a set: a wild card declared elsewhere, too few
    cards. `cards` are as read (a wild 2 as a joker), `physical` as laid (it names the 2)."""
    rank = naturals[0].rank
    for card, laid in zip(cards, physical, strict=True):
        if card.declared and card.rank != rank:
            return Problem(
                f"{laid} is declared as {card.face()}, but {format_cards(cards)} "
                f"is a set of {rank_plural(rank)}",
                "R4.4",
            )
    if len(cards) < MIN_SET:
        return Problem(f"a set needs at least {MIN_SET} cards; this has {len(cards)}", "R4.1")
    if len(naturals) < rules.naturals.set:
        return _naturals_problem(cards, SET, rules)
    return Problem(f"{format_cards(cards)} is not a set", "R4")  # pragma: no cover


def _run_problem(
    cards: tuple[Card, ...], naturals: list[Card], rules: RuleSet, physical: tuple[Card, ...]
) -> Problem:
    """What keeps one-suit cards from being a run, most specific first. `cards` are as read (a
    wild 2 as a joker), `physical` as laid (it names the 2)."""
    text = format_cards(cards)
    suit = naturals[0].suit
    laid = dict(zip(map(id, cards), physical, strict=True))
    for card in cards:
        if card.joker and card.suit not in (None, suit):
            return Problem(
                f"{laid[id(card)]} is declared as {card.face()}, but {text} is in "
                f"{SUIT_NAMES[suit]}",
                "R4.4",
            )
    if len(cards) < MIN_RUN:
        return Problem(f"a run needs at least {MIN_RUN} cards; this has {len(cards)}", "R4.2")
    if len(cards) > MAX_RUN:
        return Problem(
            f"a run holds at most {MAX_RUN} cards (A 2 … K A); this has {len(cards)}", "R4.2"
        )
    if len(naturals) < rules.naturals.run:
        return _naturals_problem(cards, RUN, rules)
    ranks = Counter(card.rank for card in cards if card.rank is not None)
    for rank, count in sorted(ranks.items()):
        if rank != 1 and count > 1:
            card = Card(rank, suit)
            joker = next((c for c in cards if c.declared and c.rank == rank), None)
            if joker is not None:
                return Problem(
                    f"{laid[id(joker)]} stands for {card}, which {text} already has: "
                    "a run holds each card once",
                    "R4.2",
                )
            return Problem(f"{text} has {card} twice: a run holds each card once", "R4.2")
    if ranks[1] > 2 or (ranks[1] == 2 and len(cards) < MAX_RUN):
        return Problem(
            f"{text} has {ranks[1]} aces: only a 14-card run A 2 … K A has an ace at each end",
            "R4.2",
        )
    if _wraps(set(ranks), len(cards)):
        return Problem(
            f"{text} wraps around the ace: an ace is low (A 2 3 4) or high (J Q K A), never both",
            "R4.2",
        )
    wild = "a joker" if cards == physical else "a wild card"
    return Problem(_gap_problem(text, set(ranks), len(cards), suit, wild), "R4.2")


def _wraps(ranks: set[int], size: int) -> bool:
    """True when the ranks fit in `size` places only by going K A 2 around the ace."""
    ordered = sorted(ranks)
    gaps = [b - a for a, b in zip(ordered, ordered[1:], strict=False)]
    around = ordered[0] + 13 - ordered[-1]
    return bool(gaps) and max(gaps) > around and 13 - max(gaps) + 1 <= size


def _gap_problem(text: str, ranks: set[int], size: int, suit: str, wild: str) -> str:
    """The run's naturals spread over more places than it has cards."""
    others = [rank for rank in ranks if rank != 1]
    spans = []
    for ace in (LOW_ACE, HIGH_ACE) if 1 in ranks else (None,):
        places = others + ([ace] if ace else [])
        spans.append((max(places) - min(places) + 1, min(places), max(places)))
    width, low, high = min(spans)
    return (
        f"{text} is not consecutive: {Card(rank_at(low), suit)}–{Card(rank_at(high), suit)} "
        f"needs {width} cards and it has {size}; {wild} fills only one missing card"
    )


def describe_readings(readings: Sequence[Reading]) -> str:
    """`read as A or B`: the readings joined for a reason."""
    return " or ".join(reading.describe() for reading in readings)


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
    kind_words = " or ".join(dict.fromkeys(kinds))
    reason = f"{format_cards(cards)} is a legal {kind_words}, read as {describe_readings(readings)}"
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
            words = wild_deuce_words(rules, readings[0])
            return Verdict(True, f"{words} {reason}", "R11:wild_deuces", details)
    return Verdict(
        True, reason, "R4.3" if any(r.jokers for r in readings) else cited(kinds), details
    )


def cited(kinds: Sequence[str]) -> str:
    """The point of R4 a meld of these kinds rests on: a set's (R4.1), a run's (R4.2)."""
    return "R4.1" if kinds[0] == SET else "R4.2"


def wild_deuce_words(rules: RuleSet, reading: Reading) -> str:
    """`shanghai rules: the 2♠ is wild here, standing for 7♥.` (R11's citation of wild deuces)."""
    return f"{rules.rules_name}: {wild_deuce_parts(reading)}."


def wild_deuce_parts(reading: Reading) -> str:
    """`the 2♠ is wild here, standing for 7♥`: each wild 2 of a reading and what it stands for."""
    parts = []
    for text in reading.wild_deuces():
        card, stood_for = text.split("=")
        parts.append(f"the {card} is wild here, standing for {stood_for}")
    return ", ".join(parts)
