"""R11 The table's own rule set: every number a table may change, as one frozen value, and the
presets.

A `RuleSet` is data, not a branch on a name: the presets are instances of it, and a family's
own rules are another instance read from the same JSON document (`RuleSet.parse`,
`RuleSet.to_json`). The engine, the score book, the pages and the scripts take every number
they need from it. `RuleSet.parse` refuses a document that is not playable with a
`RuleSetError` that names every problem at once, keyed by where it is in the document
(`deals[4].cards`).

The value is built in layers, each on the one below: the settings and what follows from their
numbers (`values`), the document's reader (`reader`, `schema`) and its words (`words`); here,
on all of them, the rule set with its names, and the presets: the default `liverpool` rules
and the house rules of the sources. The ones after `liverpool` say only what they change from
it. A game keeps its own copy of the rules it was started with, so a preset changed here in a
later release never changes a game already played.

R12's settings are read and written (document version 2, `R12_SETTINGS` names each), and the
engine, the score book and the pages follow every one; R12's presets, `carioca` and
`continental`, are presets like the others.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property

from ..errors import RuleSetError
from ..words import Code, Join, Said, joined, message, rules_named
from . import schema, words
from .values import (
    BUY_LIMITS,
    CUT_BONUSES,
    FEWEST_PLAYERS,
    FIRST_VERSION,
    MOST_DEALS,
    MOST_MELDS,
    MOST_PACKS,
    MOST_PLAYERS,
    NAME_MAX,
    PENALTY_CARDS,
    R12_BUYING,
    R12_DEAL,
    R12_TOP,
    RUN_SIZES,
    SET_SIZES,
    USUAL_PLAYERS,
    VALUE_KEYS,
    VALUES,
    VERSION,
    VERSIONS,
    Ace,
    Buying,
    Deal,
    Direction,
    FreedJoker,
    FreedJokerTo,
    Jokers,
    JokerSwap,
    MeldKind,
    Naturals,
    Need,
    PackStep,
    Settings,
    TieBreak,
    Values,
)

__all__ = [
    "BUY_LIMITS",
    "CARIOCA",
    "CONTINENTAL",
    "CONTRACT",
    "CUT_BONUSES",
    "DEFAULT_RULES",
    "FAMILY",
    "FEWEST_PLAYERS",
    "FIRST_VERSION",
    "LIVERPOOL",
    "MOST_DEALS",
    "MOST_MELDS",
    "MOST_PACKS",
    "MOST_PLAYERS",
    "NAME_MAX",
    "ONLINE",
    "PENALTY_CARDS",
    "R12_SETTINGS",
    "PRESETS",
    "RUN_SIZES",
    "SET_SIZES",
    "SHANGHAI",
    "USUAL_PLAYERS",
    "VALUES",
    "VALUE_KEYS",
    "VERSION",
    "VERSIONS",
    "Ace",
    "Buying",
    "Deal",
    "Direction",
    "FreedJoker",
    "FreedJokerTo",
    "JokerSwap",
    "Jokers",
    "MeldKind",
    "Naturals",
    "Need",
    "PackStep",
    "RuleSet",
    "TieBreak",
    "Values",
    "preset",
    "r12_setting",
]


class RuleSet(Settings):
    """One table's rules: every R11 setting (`Settings`), read from its document, named and put
    in words."""

    @classmethod
    def parse(cls, document: object) -> RuleSet:
        """A preset's name (`"shanghai"`), a JSON text, a decoded document (or a rule set, as it
        is); `RuleSetError` naming every problem when it is none of these or not playable (R11).
        A key left out takes the `liverpool` value."""
        if isinstance(document, RuleSet):
            return document
        if isinstance(document, str) and not document.lstrip().startswith(("{", "[")):
            return preset(document)
        return _READ.get(document, lambda: cls.read(document))

    @classmethod
    def read(cls, document: object) -> RuleSet:
        """A rule set's document (a JSON text or a decoded one) as the model reads it, read
        afresh (`parse` keeps the documents read lately); `RuleSetError` naming every problem
        when it is not playable (R11, R12.3). A table's rules come in by `parse`."""
        return _known(schema.read(document, LIVERPOOL, cls))

    # --- names -----------------------------------------------------------------------------

    @cached_property
    def preset(self) -> str | None:
        """The preset's key (`shanghai`) when this rule set is exactly a preset, else None."""
        return next((key for key, rules in PRESETS.items() if rules == self), None)

    @property
    def rules_name(self) -> str:
        """How a verdict names the rules it applies (R11): `shanghai rules`, `Smith family rules`."""
        return rules_named(self.preset or self.name)

    def house(self, path: str) -> bool:
        """Whether this rule set changes a setting from the default `liverpool` (R11): a deal
        `liverpool` does not have is a change."""
        return _setting_or_none(self, path) != _setting_or_none(LIVERPOOL, path)

    def cite(self, path: str, default_rule: str) -> str:
        """The rule a verdict that turns on `path` rests on: R11 where this rule set changes it."""
        return "R11" if self.house(path) else default_rule

    def citation(self, path: str, default: str) -> str:
        """`cite` naming what decides: `R11:<path>` where this rule set changes the setting,
        else `default` (`R6.1`: a point of the rule it changes)."""
        return f"R11:{path}" if self.house(path) else default

    # --- in words ----------------------------------------------------------------------------

    def summary(self, say: words.Speech = words.ENGLISH) -> str:
        """One line for a list or a heading: `Shanghai · 10 deals · 3–8 players · deuces wild`
        (in the language `say` speaks)."""
        return words.summary(self, say)

    def differences(self, say: words.Speech = words.ENGLISH) -> tuple[tuple[str, str], ...]:
        """Each setting this rule set changes from `liverpool`, as (its place in the document,
        a plain sentence): `("values.JK", "a joker left in hand is 50")`, in document order."""
        return words.differences(self, LIVERPOOL, say)

    def read_out(
        self, say: words.Speech = words.ENGLISH
    ) -> tuple[tuple[str, tuple[words.Line, ...]], ...]:
        """Every setting as a sentence, grouped as R11 groups them, each marked when it differs
        from `liverpool`."""
        return words.read_out(self, LIVERPOOL, say)

    def packs_text(self, say: words.Speech = words.ENGLISH) -> str:
        """`2 + 3`, or by table size: `2 packs for 3–5 players, 3 for 6–8; jokers: 2`."""
        return words.packs_text(self, say)


def _setting_or_none(rules: RuleSet, path: str) -> object:
    try:
        return rules.setting(path)
    except KeyError:
        return None


def _contract(sets: int, runs: int, set_size: int = 3, run_size: int = 4) -> tuple[Need, ...]:
    return (Need(MeldKind.SET, set_size),) * sets + (Need(MeldKind.RUN, run_size),) * runs


# R3: the seven contracts, with R2's cards dealt; the seventh lays the whole hand.
_R3 = ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))


def _seven_deals(cards: tuple[int, ...]) -> tuple[Deal, ...]:
    return tuple(
        Deal(dealt, _contract(sets, runs), whole_hand=number == len(_R3))
        for number, (dealt, (sets, runs)) in enumerate(zip(cards, _R3, strict=True), start=1)
    )


# R10: 2–10 face value, J Q K 10, A 15, joker 15 (A 2 … 10 J Q K JK).
_R10_VALUES = (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15)

LIVERPOOL = RuleSet(
    name="Liverpool",
    source="seeds 000 and 001",
    min_players=4,
    max_players=4,
    # Two packs for any table: a table that seats more players keeps them unless it says otherwise.
    packs=(PackStep(8, 2),),
    jokers=Jokers(fixed=3, per_pack=0),
    deals=_seven_deals((10, 10, 10, 12, 12, 12, 12)),
    exact_sizes=True,
    values=Values(_R10_VALUES),
    wild_deuces=False,
    naturals=Naturals(set=1, run=1, wild_at_most_natural=False),
    cut_bonus=-50,
    layoff_on_opening_turn=False,
    go_out_by_layoff=False,
    joker_swap=JokerSwap.RUNS,
    swap_on_opening_turn=False,
    freed_joker=FreedJoker.LAY_OFF,
    buying=Buying(allowed=True, per_deal=None, per_game=None, penalty_cards=1),
)

CONTRACT = replace(LIVERPOOL, name="Contract", source="seed 001", cut_bonus=0)

ONLINE = replace(
    LIVERPOOL,
    name="Online",
    source="seed 002",
    min_players=3,
    max_players=8,
    # A third pack once two cannot deal the last deal's 14 cards and leave a real stock.
    packs=(PackStep(5, 2), PackStep(8, 3)),
    jokers=Jokers(fixed=2, per_pack=0),
    deals=_seven_deals((7, 10, 10, 10, 12, 12, 14)),
    exact_sizes=False,
    values=Values((*_R10_VALUES[:-1], 25)),
    cut_bonus=0,
    layoff_on_opening_turn=True,
    go_out_by_layoff=True,
    swap_on_opening_turn=True,
    freed_joker=FreedJoker.HAND,
    buying=Buying(allowed=False, per_deal=None, per_game=None, penalty_cards=1),
)

FAMILY = replace(
    LIVERPOOL,
    name="Family",
    source="seed 003",
    min_players=3,
    max_players=8,
    packs=(PackStep(4, 2), PackStep(8, 3)),
    jokers=Jokers(fixed=0, per_pack=2),
    deals=_seven_deals((10, 10, 10, 10, 12, 12, 12)),
    exact_sizes=False,
    naturals=Naturals(set=2, run=3, wild_at_most_natural=False),
    layoff_on_opening_turn=True,
    go_out_by_layoff=True,
    swap_on_opening_turn=True,
)

SHANGHAI = replace(
    LIVERPOOL,
    name="Shanghai",
    source=words.SOURCES["shanghai"],
    min_players=3,
    max_players=8,
    packs=(PackStep(4, 2), PackStep(6, 3), PackStep(8, 4)),
    jokers=Jokers(fixed=0, per_pack=1),
    deals=tuple(
        Deal(11, contract)
        for contract in (
            _contract(2, 0),
            _contract(1, 1),
            _contract(0, 2),
            _contract(3, 0),
            _contract(1, 1, run_size=7),
            _contract(2, 1, run_size=5),
            _contract(0, 3),
            _contract(1, 1, run_size=10),
            _contract(3, 1, run_size=5),
            _contract(0, 3, run_size=5),
        )
    ),
    exact_sizes=False,
    # 3–9 5, 10 J Q K 10, A 15, 2 20, JK 20.
    values=Values((15, 20, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 20)),
    wild_deuces=True,
    naturals=Naturals(set=1, run=1, wild_at_most_natural=True),
    cut_bonus=0,
    layoff_on_opening_turn=True,
    go_out_by_layoff=True,
    joker_swap=JokerSwap.ANY,
    swap_on_opening_turn=False,
    freed_joker=FreedJoker.HAND,
)

# R12.1 and R12.2: A 20, joker 50, else R10's values.
_R12_VALUES = (20, *_R10_VALUES[1:-1], 50)
# R12.1's escala sucia and escala real: all 13 ranks laid after the draw, no discard.
_THIRTEEN = 13

CARIOCA = replace(
    LIVERPOOL,
    name="Carioca",
    source="R12.1",
    min_players=2,
    max_players=5,
    packs=(PackStep(8, 2),),
    jokers=Jokers(fixed=0, per_pack=2),
    deals=(
        *(
            Deal(12, _contract(sets, runs))
            for sets, runs in ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3), (4, 0))
        ),
        Deal(12, (Need(MeldKind.ANY_SUIT_RUN, _THIRTEEN),), whole_hand=True),
        Deal(12, (Need(MeldKind.RUN, _THIRTEEN),), whole_hand=True, wild_max=0),
    ),
    exact_sizes=True,
    values=Values(_R12_VALUES),
    cut_bonus=0,
    layoff_on_opening_turn=False,
    go_out_by_layoff=True,
    joker_swap=JokerSwap.NEVER,
    swap_on_opening_turn=False,
    buying=Buying(allowed=False, per_deal=None, per_game=None, penalty_cards=1, take_several=False),
    direction=Direction.RIGHT,
    ace=Ace.WRAP,
    wild_max=1,
    wild_spacing=1,
    distinct_set_ranks=True,
    discard_wild=False,
    discard_draw_after_opening=False,
    tie_break=TieBreak.DEALS_WON,
)

CONTINENTAL = replace(
    LIVERPOOL,
    name="Continental",
    source="R12.2",
    min_players=2,
    max_players=8,
    packs=(PackStep(4, 2), PackStep(6, 3), PackStep(8, 4)),
    jokers=Jokers(fixed=0, per_pack=3),
    # Each deal deals one card more than its contract lays; none is a whole-hand deal.
    deals=tuple(
        Deal(sum(need.size for need in contract) + 1, contract)
        for contract in (_contract(sets, runs) for sets, runs in _R3)
    ),
    exact_sizes=False,
    values=Values(_R12_VALUES),
    cut_bonus=0,
    layoff_on_opening_turn=True,
    go_out_by_layoff=False,
    joker_swap=JokerSwap.RUNS,
    swap_on_opening_turn=True,
    freed_joker=FreedJoker.LAY_OFF,
    buying=Buying(allowed=True, per_deal=None, per_game=None, penalty_cards=1),
    direction=Direction.RIGHT,
    ace=Ace.WRAP,
    wild_spacing=1,
    out_in_one_turn_bonus=-10,
    freed_joker_to=FreedJokerTo.RUN,
)

PRESETS: dict[str, RuleSet] = {
    "liverpool": LIVERPOOL,
    "contract": CONTRACT,
    "online": ONLINE,
    "family": FAMILY,
    "shanghai": SHANGHAI,
    "carioca": CARIOCA,
    "continental": CONTINENTAL,
}
DEFAULT_RULES = LIVERPOOL


def preset(name: str) -> RuleSet:
    """The preset of that name, any case (`Shanghai`), or `RuleSetError` listing the presets."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key in PRESETS:
        return PRESETS[key]
    quoted = repr(name) if not isinstance(name, str) or len(name) <= 30 else repr(name[:29] + "…")
    choose = message(Chosen.CHOOSE, presets=joined(Join.COMMA, PRESETS))
    raise RuleSetError(
        message(Chosen.UNKNOWN, quoted=quoted, choose=choose),
        {"rules": Said(message(Chosen.NOT_A_PRESET, quoted=quoted, choose=choose))},
    )


# R12.3's twelve settings, each by the name `r12_setting` gives its places (a deal's own cap is
# `wild_max`, a meld's kind `any_suit_run`): the engine, the score book and the pages follow every
# one.
R12_SETTINGS: frozenset[str] = frozenset(
    {*R12_TOP, *(f"buying.{key}" for key in R12_BUYING), *R12_DEAL, MeldKind.ANY_SUIT_RUN.value}
)


def r12_setting(place: str) -> str:
    """The R12 setting a place in the document holds (`RuleSet.r12_places`): `ace`,
    `buying.take_several`, `wild_max` for a deal's own cap, `any_suit_run` for a meld's kind."""
    if place.startswith("buying."):
        return place
    if place.endswith(".kind"):
        return MeldKind.ANY_SUIT_RUN.value
    return place.rpartition(".")[2]


class Chosen(Code):
    """A preset asked for by a name no preset has."""

    UNKNOWN = "ruleset.unknown"
    NOT_A_PRESET = "ruleset.not_a_preset"
    CHOOSE = "ruleset.choose"


def _known(rules: RuleSet) -> RuleSet:
    """A preset read back is the preset itself, with where it comes from (R12's too)."""
    return next((preset for preset in PRESETS.values() if preset == rules), rules)


class _Read:
    """The documents read lately, each by its JSON text: a rule set sent with every question
    (the referee's API, a page's picker) is read once, not on every request. A `RuleSet` is
    frozen, so every reader may share it; a refused document is not kept (its error is raised
    again). A document whose JSON text does not read back as the very same document (a tuple, a
    key that is not text, a value JSON does not have, one nested past JSON's depth) is read as
    it is, every time.

    Each is kept with the document its text reads back as, so a document sent again is known by
    its text and one comparison, without reading the text back each time."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: OrderedDict[str, tuple[object, RuleSet]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, document: object, read: Callable[[], RuleSet]) -> RuleSet:
        text = isinstance(document, str)
        key = document if text else _json_text(document)
        if key is None:
            return read()
        with self.lock:
            kept = self.kept.get(key)
            if kept is not None:
                self.kept.move_to_end(key)
        if kept is not None and (text or _same(kept[0], document)):
            return kept[1]
        as_read = _read_back(key)
        if not text and not _same(as_read, document):
            return read()  # a tuple for a list, a key that is not text: not what JSON reads
        rules = read()
        with self.lock:
            self.kept[key] = (as_read, rules)
            if len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return rules


def _json_text(document: object) -> str | None:
    """The document as JSON text, keys in order, or None for one JSON cannot write."""
    try:
        return json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return None


def _read_back(text: str) -> object:
    """The document a JSON text reads as, or `_UNREADABLE` for one nested past what JSON reads."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return _UNREADABLE


def _same(document: object, other: object) -> bool:
    """Whether two documents are equal; not for two nested too deep to compare."""
    try:
        return document == other
    except RecursionError:
        return False


_UNREADABLE = object()


_READ = _Read(256)
