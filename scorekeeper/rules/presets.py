"""R11's presets: the default `liverpool` rules and the house rules of the sources, as rule sets.

Each preset is a `RuleSet` like any table's own; the ones after `liverpool` say only what they
change from it. A game keeps its own copy of the rules it was started with, so a preset changed
here in a later release never changes a game already played.
"""

from __future__ import annotations

from dataclasses import replace

from .errors import RuleSetError
from .ruleset import (
    Buying,
    Deal,
    FreedJoker,
    Jokers,
    JokerSwap,
    MeldKind,
    Naturals,
    Need,
    PackStep,
    RuleSet,
    Values,
    lend,
)


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
    source="the common ten-deal descriptions of Shanghai rum",
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

PRESETS: dict[str, RuleSet] = {
    "liverpool": LIVERPOOL,
    "contract": CONTRACT,
    "online": ONLINE,
    "family": FAMILY,
    "shanghai": SHANGHAI,
}
DEFAULT_RULES = LIVERPOOL
lend(presets=PRESETS)


def preset(name: str) -> RuleSet:
    """The preset of that name, any case (`Shanghai`), or `RuleSetError` listing the presets."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key in PRESETS:
        return PRESETS[key]
    quoted = repr(name) if not isinstance(name, str) or len(name) <= 30 else repr(name[:29] + "…")
    choose = f"choose one of {', '.join(PRESETS)}"
    raise RuleSetError(
        f"unknown rule set {quoted}: {choose} or send a rule set",
        {"rules": f"{quoted} is not a preset: {choose}"},
    )


def get_rules(rules: object = None) -> RuleSet:
    """The rules a question or a game asks for: a `RuleSet`, a preset's name, or a document
    (`None` or empty: `liverpool`); `RuleSetError` naming every problem otherwise."""
    if rules is None or rules == "":
        return DEFAULT_RULES
    if isinstance(rules, RuleSet):
        return rules
    return RuleSet.parse(rules)
