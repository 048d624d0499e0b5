"""R11's settings as one frozen value: the parts of a rule set, the limits a playable one keeps
to, and what follows from the numbers alone (the document, the deals, the packs and the cards).

`Settings` holds every number a table may change; `RuleSet` (the package) is the same value
with its names, its reader and its words. Nothing here knows a preset.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import Any, Self

from ..cards import JOKER, RANKS, SUITS, Card, check_copies, rank_name
from ..errors import RoundError, SeatError
from ..words import (
    Code,
    Gettext,
    Join,
    Said,
    english_gettext,
    english_ngettext,
    joined,
    message,
    rules_named,
    words,
)

# The document's schema version: a stored or exported rule set says which shape it has.
VERSION = 1
# What R11 allows a playable rule set (its section "A rule set is playable when").
FEWEST_PLAYERS, MOST_PLAYERS = 2, 8
MOST_PACKS = 4
MOST_DEALS = 12
MOST_MELDS = 5
SET_SIZES = range(3, 9)
RUN_SIZES = range(4, 15)
VALUES = range(0, 101)
CUT_BONUSES = range(-100, 1)
PENALTY_CARDS = range(0, 4)
BUY_LIMITS = range(1, 21)
NAME_MAX = 40
# The keys of `values`: every rank (ace low) and the joker.
VALUE_KEYS = (*(rank_name(rank) for rank in RANKS), "JK")
# A table of this many players when a question names none, within the rule set's limits.
USUAL_PLAYERS = 4
# The parts of a place in the document: `deals[7].contract` is deals, [7], contract.
_PLACE = re.compile(r"\[\d+\]|[^.\[\]]+")


class Asked(Code):
    """A deal or a table a rule set does not have, and how it names its table sizes."""

    ROUND_TYPE = "values.round_type"
    NO_ROUND = "values.no_round"
    PLAYERS_TYPE = "values.players_type"
    PLAYERS_OUT = "values.players_out"
    EXACTLY = "values.exactly"
    FROM_TO = "values.from_to"
    SETS = "values.sets"
    RUNS = "values.runs"
    SETS_OF = "values.sets_of"
    RUNS_OF = "values.runs_of"


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"

    @property
    def least(self) -> int:
        """The smallest meld of this kind any rule set may ask for (R4)."""
        return SET_SIZES.start if self is MeldKind.SET else RUN_SIZES.start


class JokerSwap(StrEnum):
    """Which wild cards may be swapped for the natural card they stand for (R7, R11)."""

    NEVER = "never"
    RUNS = "runs"
    ANY = "any"


class FreedJoker(StrEnum):
    """Where a swapped-out wild card goes: laid off the same turn, or into the hand (R7, R11)."""

    LAY_OFF = "lay_off"
    HAND = "hand"


@dataclass(frozen=True, slots=True)
class Need:
    """One meld of a contract: its kind and the fewest cards it holds (`set of 3`, `run of 7`)."""

    kind: MeldKind
    size: int

    def __str__(self) -> str:
        return f"{self.kind.value} of {self.size}"


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of the game: the cards dealt to each player and the contract to lay (R3)."""

    cards: int
    contract: tuple[Need, ...]
    # Everything is laid at once as the contract with no discard; runs may be longer (R5's round 7).
    whole_hand: bool = False

    @property
    def sets(self) -> int:
        return sum(need.kind is MeldKind.SET for need in self.contract)

    @property
    def runs(self) -> int:
        return sum(need.kind is MeldKind.RUN for need in self.contract)

    @property
    def contract_cards(self) -> int:
        """The cards the contract lays at its minimum sizes."""
        return sum(need.size for need in self.contract)

    def contract_text(
        self, gettext: Gettext | None = None, ngettext: Gettext = english_ngettext
    ) -> str:
        """`2 sets`, `1 set + 1 run` at R4's smallest sizes; else every size: `1 set of 3 +
        1 run of 10`. Each kind and size once, with its count: in the language of `gettext`,
        or (none given) a `Said` any message it fills says again in its own language."""
        counted: dict[Need, int] = {}
        for need in self.contract:
            counted[need] = counted.get(need, 0) + 1
        sized = any(need.size != need.kind.least for need in counted)
        codes = {
            (MeldKind.SET, False): Asked.SETS,
            (MeldKind.RUN, False): Asked.RUNS,
            (MeldKind.SET, True): Asked.SETS_OF,
            (MeldKind.RUN, True): Asked.RUNS_OF,
        }
        said = joined(
            Join.PLUS,
            [
                message(codes[need.kind, sized], count=count, size=need.size)
                for need, count in counted.items()
            ],
        )
        return Said(said) if gettext is None else words(said, gettext, ngettext)


@dataclass(frozen=True, slots=True)
class PackStep:
    """Tables of up to `up_to` players shuffle `packs` 52-card packs together."""

    up_to: int
    packs: int


@dataclass(frozen=True, slots=True)
class Jokers:
    """The jokers in the game: a fixed number, plus so many a pack."""

    fixed: int = 3
    per_pack: int = 0


@dataclass(frozen=True, slots=True)
class Naturals:
    """The natural cards a set and a run need; whether wild cards may outnumber them (R4, R11)."""

    set: int = 1
    run: int = 1
    wild_at_most_natural: bool = False

    def of(self, kind: MeldKind | str) -> int:
        return self.set if MeldKind(kind) is MeldKind.SET else self.run


@dataclass(frozen=True, slots=True)
class Buying:
    """Whether a passed discard may be bought (R8), the limits per player, and its penalty cards."""

    allowed: bool = True
    per_deal: int | None = None
    per_game: int | None = None
    penalty_cards: int = 1

    def buys_in_a_deal(self) -> int | None:
        """The most buys one player may make in one deal (None: no limit; 0: no buying)."""
        if not self.allowed:
            return 0
        limits = [limit for limit in (self.per_deal, self.per_game) if limit is not None]
        return min(limits) if limits else None


@dataclass(frozen=True, slots=True)
class Values:
    """The penalty of each card left in hand (R10), by rank and for a joker."""

    points: tuple[int, ...]  # in VALUE_KEYS order: A 2 … 10 J Q K JK

    def of(self, card: Card) -> int:
        """A card's penalty: a joker's own value; a natural's, or a rank-only card's, by rank.
        A 2 scores the 2's value whether it was wild or not (R11)."""
        if card.joker:
            return self.points[-1]
        return self.points[card.rank - 1]

    def __getitem__(self, key: str) -> int:
        return self.points[VALUE_KEYS.index(key)]

    def as_dict(self) -> dict[str, int]:
        return dict(zip(VALUE_KEYS, self.points, strict=True))

    @property
    def highest(self) -> int:
        return max(self.points)

    @property
    def lowest_natural(self) -> int:
        return min(self.points[:-1])


@dataclass(frozen=True)
class Settings:
    """Every R11 setting of one table's rules; everything else is the same at every table."""

    name: str
    min_players: int
    max_players: int
    packs: tuple[PackStep, ...]
    jokers: Jokers
    deals: tuple[Deal, ...]
    exact_sizes: bool
    values: Values
    wild_deuces: bool
    naturals: Naturals
    cut_bonus: int
    layoff_on_opening_turn: bool
    go_out_by_layoff: bool
    joker_swap: JokerSwap
    swap_on_opening_turn: bool
    freed_joker: FreedJoker
    buying: Buying
    # Where a preset comes from (the seeds); "" for a table's own rules. Not part of the document.
    source: str = field(default="", compare=False)

    # --- reading and writing the document -------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole document, every key present, as the server answers it (a fresh copy)."""
        return json.loads(self.dumps())

    def dumps(self) -> str:
        """The document as compact JSON text, keys in the document's order."""
        return self._text

    @cached_property
    def _text(self) -> str:
        return json.dumps(self._document, ensure_ascii=False, separators=(",", ":"))

    @cached_property
    def _document(self) -> dict[str, Any]:
        # Read often (`setting`, `house`, every citation): made once; never handed out.
        return {
            "version": VERSION,
            "name": self.name,
            "players": {"min": self.min_players, "max": self.max_players},
            "packs": [{"up_to": step.up_to, "packs": step.packs} for step in self.packs],
            "jokers": {"fixed": self.jokers.fixed, "per_pack": self.jokers.per_pack},
            "deals": [
                {
                    "cards": deal.cards,
                    "contract": [
                        {"kind": need.kind.value, "size": need.size} for need in deal.contract
                    ],
                    "whole_hand": deal.whole_hand,
                }
                for deal in self.deals
            ],
            "exact_sizes": self.exact_sizes,
            "values": self.values.as_dict(),
            "wild_deuces": self.wild_deuces,
            "naturals": {
                "set": self.naturals.set,
                "run": self.naturals.run,
                "wild_at_most_natural": self.naturals.wild_at_most_natural,
            },
            "cut_bonus": self.cut_bonus,
            "layoff_on_opening_turn": self.layoff_on_opening_turn,
            "go_out_by_layoff": self.go_out_by_layoff,
            "joker_swap": self.joker_swap.value,
            "swap_on_opening_turn": self.swap_on_opening_turn,
            "freed_joker": self.freed_joker.value,
            "buying": {
                "allowed": self.buying.allowed,
                "per_deal": self.buying.per_deal,
                "per_game": self.buying.per_game,
                "penalty_cards": self.buying.penalty_cards,
            },
        }

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"RuleSet.parse({self.dumps()!r})"

    # --- names -----------------------------------------------------------------------------

    @property
    def label(self) -> str:
        """The rule set's name for a sentence or a context line: `Liverpool`, `Smith family`."""
        return self.name

    @property
    def rules_name(self) -> str:
        """How a verdict names the rules it applies (R11): `Smith family rules` (a preset by its
        key, `shanghai rules`: see `RuleSet`)."""
        return rules_named(self.name)

    def setting(self, path: str) -> object:
        """One setting by its place in the document, as a problem names it: `cut_bonus`,
        `naturals.set`, `values.JK`, `deals[7].contract`; `KeyError` for a place there is not."""
        value: object = self._document
        for part in _PLACE.findall(path):
            try:
                value = value[int(part[1:-1]) if part.startswith("[") else part]  # type: ignore[index]
            except (KeyError, IndexError, TypeError, ValueError):
                raise KeyError(path) from None
        if isinstance(value, dict | list):
            return json.loads(json.dumps(value))
        return value

    # --- deals -------------------------------------------------------------------------------

    @property
    def last_deal(self) -> int:
        return len(self.deals)

    @property
    def deal_numbers(self) -> range:
        return range(1, len(self.deals) + 1)

    def check_deal(self, number: object) -> int:
        """The deal (round) number, or `RoundError` naming the bad value and the deals there are."""
        last = self.last_deal
        if isinstance(number, bool) or not isinstance(number, int):
            raise RoundError(message(Asked.ROUND_TYPE, last=last, value=repr(number)))
        if not 1 <= number <= last:
            said = message(Asked.NO_ROUND, number=number, rules=self.rules_name, last=last)
            raise RoundError(said)
        return number

    def deal(self, number: int) -> Deal:
        return self.deals[self.check_deal(number) - 1]

    def cards_dealt(self, number: int) -> int:
        """Cards dealt to each player in a deal (R2, R11)."""
        return self.deal(number).cards

    # --- players, packs and cards ----------------------------------------------------------

    @property
    def default_players(self) -> int:
        return min(max(USUAL_PLAYERS, self.min_players), self.max_players)

    @property
    def table_sizes(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def check_players(self, players: int | None) -> int:
        """The player count, checked against the rule set (`None` means the usual table)."""
        if players is None:
            return self.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise SeatError(message(Asked.PLAYERS_TYPE, value=repr(players)))
        if players not in self.table_sizes:
            said = message(
                Asked.PLAYERS_OUT, players=players, rules=self.rules_name, table=self.players_text()
            )
            raise SeatError(said)
        return players

    def players_text(
        self, gettext: Gettext = english_gettext, ngettext: Gettext = english_ngettext
    ) -> str:
        """`exactly 4 players`, `3 to 8 players` (in the language of `gettext`)."""
        if self.min_players == self.max_players:
            said = message(Asked.EXACTLY, players=self.min_players)
        else:
            said = message(Asked.FROM_TO, fewest=self.min_players, most=self.max_players)
        return words(said, gettext, ngettext)

    def pack_count(self, players: int | None = None) -> int:
        """How many 52-card packs are shuffled together for a table of this size."""
        players = self.check_players(players)
        return next(step.packs for step in self.packs if players <= step.up_to)

    def joker_count(self, players: int | None = None) -> int:
        """How many jokers are in the game: a fixed number, plus so many a pack."""
        return self.jokers.fixed + self.jokers.per_pack * self.pack_count(players)

    def pack_size(self, players: int | None = None) -> int:
        """Every card in the game: the packs' and the jokers."""
        return 52 * self.pack_count(players) + self.joker_count(players)

    def deck(self, players: int | None = None) -> list[Card]:
        """Every physical card shuffled together: the packs' naturals, then the jokers (R1)."""
        naturals = [
            Card(rank, suit)
            for _ in range(self.pack_count(players))
            for suit in SUITS
            for rank in RANKS
        ]
        return naturals + [JOKER] * self.joker_count(players)

    def check_copies(self, cards: Iterable[Card], players: int | None = None) -> None:
        """Raise `CopyLimitError` when the cards need more copies than this game's packs hold."""
        check_copies(cards, self.pack_count(players), self.joker_count(players))

    def exact_cut(self, number: int, players: int | None = None) -> int:
        """The packet that earns the exact-cut bonus: players × cards dealt + 1 (R2)."""
        return self.check_players(players) * self.cards_dealt(number) + 1

    def stock_after_deal(self, number: int, players: int | None = None) -> int:
        """Cards left in the stock once every hand is dealt and the upcard turned (R2)."""
        return self.pack_size(players) - self.exact_cut(number, players)

    def card_value(self, card: Card) -> int:
        """A card's penalty left in hand (R10, R11)."""
        return self.values.of(card)

    def is_wild(self, card: Card) -> bool:
        """Whether a card can stand for another: a joker, and a 2 where deuces are wild (R11)."""
        return card.joker or (self.wild_deuces and card.rank == 2)

    def naturals_needed(self, kind: MeldKind | str) -> int:
        """The fewest natural cards a meld of this kind must hold (R4, R11)."""
        return self.naturals.of(kind)

    def renamed(self, name: str) -> Self:
        return replace(self, name=name, source="")

    def plays_like(self, other: Settings) -> bool:
        """Whether two rule sets play alike, whatever each is called."""
        return replace(self, name="") == replace(other, name="")
