"""R11's settings as one frozen value: the parts of a rule set, the limits a playable one keeps
to, and what follows from the numbers alone (the document, the deals, the packs and the cards).

`Settings` holds every number a table may change; `RuleSet` (the package) is the same value
with its names, its reader and its words. Nothing here knows a preset.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
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

# The document's schema version: a stored or exported rule set says which shape it has. Version
# 2 adds R12's settings; a rule set that keeps all of them at their defaults is written as the
# version-1 document it always was (`Settings.version`).
VERSION = 2
VERSIONS = (1, 2)
FIRST_VERSION = 1
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
# R12.3: a run of suits free holds each rank once; a wrapping ace holds every run to 13 cards.
ANY_SUIT_RUN_SIZES = range(4, 14)
WRAPPED_RUN = 13
# R12.3: the most wild cards in one meld of an opening. A meld needs a natural card and a run
# holds at most 14 cards, so a cap of 13 wild cards is the largest that says anything.
WILD_CAPS = range(0, 14)
# R12.3: the fewest natural cards between two wild cards of one run. Two cards of a run of at
# most 14 have at most 12 between them.
WILD_SPACINGS = range(0, 13)
OUT_IN_ONE_TURN_BONUSES = range(-100, 1)
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
    ANY_SUIT_RUNS = "values.any_suit_runs"
    ANY_SUIT_RUNS_OF = "values.any_suit_runs_of"


class MeldKind(StrEnum):
    """A contract's meld: a set, a run of one suit (R4), or a run whose suits are free (R12.3's
    `any_suit_run`, carioca's escala sucia)."""

    SET = "set"
    RUN = "run"
    ANY_SUIT_RUN = "any_suit_run"

    @property
    def least(self) -> int:
        """The smallest meld of this kind any rule set may ask for (R4, R12.3)."""
        return self.sizes.start

    @property
    def sizes(self) -> range:
        """The sizes a contract may ask of a meld of this kind (R11, R12.3)."""
        return {
            MeldKind.SET: SET_SIZES,
            MeldKind.RUN: RUN_SIZES,
            MeldKind.ANY_SUIT_RUN: ANY_SUIT_RUN_SIZES,
        }[self]


class JokerSwap(StrEnum):
    """Which wild cards may be swapped for the natural card they stand for (R7, R11)."""

    NEVER = "never"
    RUNS = "runs"
    ANY = "any"


class FreedJoker(StrEnum):
    """Where a swapped-out wild card goes: laid off the same turn, or into the hand (R7, R11)."""

    LAY_OFF = "lay_off"
    HAND = "hand"


class FreedJokerTo(StrEnum):
    """The meld a freed wild card laid off the same turn must go on: any, or a run (R12.3)."""

    ANY = "any"
    RUN = "run"


class Direction(StrEnum):
    """The way play, the deal and the dealer's rotation go: to the left, clockwise (R2), or to
    the right, the cutter, the first player and buying priority mirrored (R12.3)."""

    LEFT = "left"
    RIGHT = "right"


class Ace(StrEnum):
    """Whether the ace turns the corner: never (R4), or `wrap`, Q K A 2 a run (R12.3)."""

    NO_WRAP = "no_wrap"
    WRAP = "wrap"


class TieBreak(StrEnum):
    """How tied lowest totals end: they share the win (R10), or the most deals gone out in wins,
    and still tied share (R12.3)."""

    SHARE = "share"
    DEALS_WON = "deals_won"


# R12's settings at the top of the document, each with its default: what every table did
# before R12 (R12.3). A document writes one only where it differs.
R12_TOP: dict[str, Any] = {
    "direction": Direction.LEFT.value,
    "ace": Ace.NO_WRAP.value,
    "wild_max": None,
    "wild_spacing": 0,
    "distinct_set_ranks": False,
    "discard_wild": True,
    "discard_draw_after_opening": True,
    "out_in_one_turn_bonus": 0,
    "tie_break": TieBreak.SHARE.value,
    "freed_joker_to": FreedJokerTo.ANY.value,
}
# R12's setting inside `buying`, and inside each deal.
R12_BUYING: dict[str, Any] = {"take_several": True}
R12_DEAL: dict[str, Any] = {"wild_max": None}


def r12_written(
    settings: Mapping[str, Any], defaults: Mapping[str, Any] = R12_TOP
) -> dict[str, Any]:
    """Those of R12's settings at one level of the document (`R12_TOP`'s keys at the top,
    `R12_BUYING`'s in `buying`, as a document holds them) that differ from their defaults: what
    a document writes there, after version 1's keys and as version 2 when there is any."""
    return {key: value for key, value in settings.items() if value != defaults[key]}


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
    # The deal's own most wild cards in one meld of the opening (R12.3); None: the rule set's.
    wild_max: int | None = None

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
            (MeldKind.ANY_SUIT_RUN, False): Asked.ANY_SUIT_RUNS,
            (MeldKind.SET, True): Asked.SETS_OF,
            (MeldKind.RUN, True): Asked.RUNS_OF,
            (MeldKind.ANY_SUIT_RUN, True): Asked.ANY_SUIT_RUNS_OF,
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
    # With buying off, whether R11's `online` take of several discards is allowed (R12.3).
    take_several: bool = True

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
    """Every R11 setting of one table's rules, and R12's; everything else is the same at every
    table. R12's settings default to what every table did before them (R12.3)."""

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
    direction: Direction = Direction.LEFT
    ace: Ace = Ace.NO_WRAP
    # The most wild cards in one meld of an opening (None: no cap); a deal's own overrides it.
    wild_max: int | None = None
    wild_spacing: int = 0
    distinct_set_ranks: bool = False
    discard_wild: bool = True
    discard_draw_after_opening: bool = True
    out_in_one_turn_bonus: int = 0
    tie_break: TieBreak = TieBreak.SHARE
    freed_joker_to: FreedJokerTo = FreedJokerTo.ANY
    # Where a preset comes from (the seeds); "" for a table's own rules. Not part of the document.
    source: str = field(default="", compare=False)

    # --- reading and writing the document -------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The document as it is written and sent (a fresh copy): every setting of version 1,
        and each of R12's that differs from its default (`version`)."""
        return json.loads(self.dumps())

    def every_setting(self) -> dict[str, Any]:
        """The version-2 document with every setting written, R12's at their defaults too (a
        fresh copy): what `setting` reads, and what a document that leaves a key out takes."""
        return json.loads(json.dumps(self._document))

    def dumps(self) -> str:
        """The document as compact JSON text, keys in the document's order."""
        return self._text

    @cached_property
    def _text(self) -> str:
        return json.dumps(self._written, ensure_ascii=False, separators=(",", ":"))

    @property
    def version(self) -> int:
        """The version of the document this rule set is written as: 2 when it changes one of
        R12's settings, else 1, so a rule set written before R12 keeps its very document (and
        its share code) (R12)."""
        return VERSION if self.r12_places else FIRST_VERSION

    @cached_property
    def r12_places(self) -> tuple[str, ...]:
        """The places in the document of each of R12's settings this rule set changes from its
        default, a meld of suits free among them (`deals[8].contract[0].kind`): none for a rule
        set that plays as every table did before R12 (R12.3)."""
        top, buying, deals = self._written_r12
        kinds = [
            f"deals[{index}].contract[{place}].kind"
            for index, deal in enumerate(self.deals)
            for place, need in enumerate(deal.contract)
            if need.kind is MeldKind.ANY_SUIT_RUN
        ]
        return (
            *top,
            *(f"buying.{key}" for key in buying),
            *(f"deals[{index}].wild_max" for index in deals),
            *kinds,
        )

    @cached_property
    def _r12(self) -> dict[str, Any]:
        """R12's settings at the top of the document, as it writes them."""
        return {
            "direction": self.direction.value,
            "ace": self.ace.value,
            "wild_max": self.wild_max,
            "wild_spacing": self.wild_spacing,
            "distinct_set_ranks": self.distinct_set_ranks,
            "discard_wild": self.discard_wild,
            "discard_draw_after_opening": self.discard_draw_after_opening,
            "out_in_one_turn_bonus": self.out_in_one_turn_bonus,
            "tie_break": self.tie_break.value,
            "freed_joker_to": self.freed_joker_to.value,
        }

    @cached_property
    def _written_r12(self) -> tuple[dict[str, Any], dict[str, Any], tuple[int, ...]]:
        """R12's settings that differ from their defaults: at the top, in `buying`, and the
        deals that have their own `wild_max`."""
        top = r12_written(self._r12)
        buying = r12_written({"take_several": self.buying.take_several}, R12_BUYING)
        deals = tuple(index for index, deal in enumerate(self.deals) if deal.wild_max is not None)
        return top, buying, deals

    @cached_property
    def _written(self) -> dict[str, Any]:
        top, buying, deals = self._written_r12
        version_one = {key: value for key, value in self._document.items() if key not in R12_TOP}
        written = {
            **version_one,
            "version": self.version,
            "deals": [
                {key: value for key, value in deal.items() if key != "wild_max" or index in deals}
                for index, deal in enumerate(self._document["deals"])
            ],
            "buying": {
                key: value
                for key, value in self._document["buying"].items()
                if key not in R12_BUYING or key in buying
            },
        }
        return {**written, **top}

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
                    "wild_max": deal.wild_max,
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
                "take_several": self.buying.take_several,
            },
            **self._r12,
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

    def wild_cap(self, number: int) -> int | None:
        """The most wild cards in one meld of an opening in a deal: the deal's own `wild_max`,
        else the rule set's (None: no cap) (R12.3)."""
        own = self.deal(number).wild_max
        return self.wild_max if own is None else own

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
