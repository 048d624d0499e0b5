"""R11's table of presets, cell by cell: each test is one row of the table in RULES.md, with the
columns liverpool, contract, online, family, shanghai in that order."""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS, RuleSet, RuleSetError
from scorekeeper.rules.ruleset import (
    CONTRACT,
    DEFAULT_RULES,
    FAMILY,
    LIVERPOOL,
    ONLINE,
    SHANGHAI,
    FreedJoker,
    JokerSwap,
    MeldKind,
    preset,
)

COLUMNS = ("liverpool", "contract", "online", "family", "shanghai")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
# R3's contracts as (sets, runs), at R4's smallest sizes; the seventh lays the whole hand.
R3 = ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))


def row(read) -> tuple:
    """One row of R11's table: the setting read from each preset, in the table's column order."""
    return tuple(read(PRESETS[name]) for name in COLUMNS)


def test_the_presets_are_the_tables_columns_in_order():
    # R11's table, then R12's presets (R12.1, R12.2).
    assert tuple(PRESETS) == (*COLUMNS, "carioca", "continental")
    assert row(lambda rules: rules) == (LIVERPOOL, CONTRACT, ONLINE, FAMILY, SHANGHAI)
    assert DEFAULT_RULES is LIVERPOOL


def test_players():
    assert row(lambda rules: (rules.min_players, rules.max_players)) == (
        (4, 4),
        (4, 4),
        (3, 8),
        (3, 8),
        (3, 8),
    )


def packs_by_table_size(rules: RuleSet) -> dict[int, int]:
    return {players: rules.pack_count(players) for players in rules.table_sizes}


def test_packs():
    two, three, four = 2, 3, 4
    assert row(packs_by_table_size) == (
        {4: two},
        {4: two},
        {3: two, 4: two, 5: two, 6: three, 7: three, 8: three},  # 2 for 3–5, 3 for 6–8
        {3: two, 4: two, 5: three, 6: three, 7: three, 8: three},  # 2 for 3–4, 3 for 5–8
        {3: two, 4: two, 5: three, 6: three, 7: four, 8: four},  # 2 for 3–4, 3 for 5–6, 4 for 7–8
    )


def test_jokers():
    """3 · 3 · 2 · 2 a pack · 1 a pack."""
    assert row(lambda rules: (rules.jokers.fixed, rules.jokers.per_pack)) == (
        (3, 0),
        (3, 0),
        (2, 0),
        (0, 2),
        (0, 1),
    )
    assert (
        FAMILY.joker_count(5) == 6 and SHANGHAI.joker_count(8) == 4 and ONLINE.joker_count(8) == 2
    )


def seven_deals(cards: tuple[int, ...]) -> tuple:
    """R3's contracts at the smallest sizes with these cards dealt, the seventh whole-hand."""
    return tuple(
        (
            dealt,
            ((MeldKind.SET, 3),) * sets + ((MeldKind.RUN, 4),) * runs,
            number == 7,
        )
        for number, (dealt, (sets, runs)) in enumerate(zip(cards, R3, strict=True), start=1)
    )


def deals(rules: RuleSet) -> tuple:
    return tuple(
        (deal.cards, tuple((need.kind, need.size) for need in deal.contract), deal.whole_hand)
        for deal in rules.deals
    )


def sets_and_runs(sets: int, set_size: int, runs: int, run_size: int) -> tuple:
    return ((MeldKind.SET, set_size),) * sets + ((MeldKind.RUN, run_size),) * runs


def test_deals():
    shanghai = (
        sets_and_runs(2, 3, 0, 4),  # 2 sets of 3
        sets_and_runs(1, 3, 1, 4),  # set of 3 + run of 4
        sets_and_runs(0, 3, 2, 4),  # 2 runs of 4
        sets_and_runs(3, 3, 0, 4),  # 3 sets of 3
        sets_and_runs(1, 3, 1, 7),  # set of 3 + run of 7
        sets_and_runs(2, 3, 1, 5),  # 2 sets of 3 + run of 5
        sets_and_runs(0, 3, 3, 4),  # 3 runs of 4
        sets_and_runs(1, 3, 1, 10),  # set of 3 + run of 10
        sets_and_runs(3, 3, 1, 5),  # 3 sets of 3 + run of 5
        sets_and_runs(0, 3, 3, 5),  # 3 runs of 5
    )
    assert row(deals) == (
        seven_deals((10, 10, 10, 12, 12, 12, 12)),  # R3's table
        seven_deals((10, 10, 10, 12, 12, 12, 12)),  # same
        seven_deals((7, 10, 10, 10, 12, 12, 14)),
        seven_deals((10, 10, 10, 10, 12, 12, 12)),
        tuple((11, contract, False) for contract in shanghai),  # 10, 11 cards each, no whole hand
    )
    assert row(lambda rules: rules.last_deal) == (7, 7, 7, 7, 10)


def test_exact_sizes():
    assert row(lambda rules: rules.exact_sizes) == (True, True, False, False, False)


def test_values():
    r10 = {"A": 15, **{str(n): n for n in range(2, 11)}, "J": 10, "Q": 10, "K": 10, "JK": 15}
    shanghai = {"A": 15, "2": 20, **{str(n): 5 for n in range(3, 10)}, "10": 10}
    shanghai |= {"J": 10, "Q": 10, "K": 10, "JK": 20}
    assert row(lambda rules: rules.values.as_dict()) == (
        r10,  # 2–10 face, J Q K 10, A 15, JK 15
        r10,  # same
        r10 | {"JK": 25},  # JK 25, else same
        r10,  # same as liverpool
        shanghai,  # 3–9 5, 10 J Q K 10, A 15, 2 20, JK 20
    )
    assert all(tuple(rules.values.as_dict()) == RANKS for rules in PRESETS.values())


def test_wild_deuces():
    assert row(lambda rules: rules.wild_deuces) == (False, False, False, False, True)


def test_naturals():
    """1 / 1; no · same · same · 2 / 3; no · 1 / 1; yes."""
    assert row(
        lambda rules: (rules.naturals.set, rules.naturals.run, rules.naturals.wild_at_most_natural)
    ) == ((1, 1, False), (1, 1, False), (1, 1, False), (2, 3, False), (1, 1, True))


def test_cut_bonus():
    assert row(lambda rules: rules.cut_bonus) == (-50, 0, 0, -50, 0)


def test_layoff_on_opening_turn():
    assert row(lambda rules: rules.layoff_on_opening_turn) == (False, False, True, True, True)


def test_go_out_by_layoff():
    assert row(lambda rules: rules.go_out_by_layoff) == (False, False, True, True, True)


def test_joker_swap():
    runs, any_ = JokerSwap.RUNS, JokerSwap.ANY
    assert row(lambda rules: rules.joker_swap) == (runs, runs, runs, runs, any_)


def test_swap_on_opening_turn():
    assert row(lambda rules: rules.swap_on_opening_turn) == (False, False, True, True, False)


def test_freed_joker():
    lay_off, hand = FreedJoker.LAY_OFF, FreedJoker.HAND
    assert row(lambda rules: rules.freed_joker) == (lay_off, lay_off, hand, lay_off, hand)


def test_buying():
    """yes; none; 1 · same · no · yes; none; 1 · yes; none; 1."""
    buying = row(lambda rules: rules.buying)
    assert [b.allowed for b in buying] == [True, True, False, True, True]
    allowed = [b for b in buying if b.allowed]
    assert {(b.per_deal, b.per_game, b.penalty_cards) for b in allowed} == {(None, None, 1)}
    assert row(lambda rules: rules.buying.buys_in_a_deal()) == (None, None, 0, None, None)


def test_the_default_pack_is_107_cards_and_round_one_leaves_a_stock_of_66():
    """R1, R2: two packs and 3 jokers; 4 × 10 dealt and 1 up."""
    assert LIVERPOOL.pack_size(4) == 107
    assert LIVERPOOL.exact_cut(1, 4) == 41 and LIVERPOOL.exact_cut(4, 4) == 49
    assert LIVERPOOL.stock_after_deal(1, 4) == 66


@pytest.mark.parametrize("name", COLUMNS)
def test_every_preset_is_playable_and_reads_back_as_itself(name):
    rules = PRESETS[name]
    assert RuleSet.parse(rules.to_json()) is rules
    assert RuleSet.parse(rules.dumps()) is rules
    assert eval(repr(rules), {"RuleSet": RuleSet}) == rules
    assert rules.preset == name
    assert preset(name.upper()) is rules and RuleSet.parse(f" {name} ") is rules
    for number in rules.deal_numbers:
        for players in rules.table_sizes:
            assert rules.stock_after_deal(number, players) > 0


def test_the_shanghai_document_is_the_issues_example():
    """The JSON contract's example is shanghai as the server answers it, key for key."""
    document = SHANGHAI.to_json()
    assert list(document) == [
        "version",
        "name",
        "players",
        "packs",
        "jokers",
        "deals",
        "exact_sizes",
        "values",
        "wild_deuces",
        "naturals",
        "cut_bonus",
        "layoff_on_opening_turn",
        "go_out_by_layoff",
        "joker_swap",
        "swap_on_opening_turn",
        "freed_joker",
        "buying",
    ]
    assert {key: document[key] for key in ("version", "name", "players", "packs", "jokers")} == {
        "version": 1,
        "name": "Shanghai",
        "players": {"min": 3, "max": 8},
        "packs": [{"up_to": 4, "packs": 2}, {"up_to": 6, "packs": 3}, {"up_to": 8, "packs": 4}],
        "jokers": {"fixed": 0, "per_pack": 1},
    }
    assert len(document["deals"]) == 10
    assert document["deals"][0] == {
        "cards": 11,
        "contract": [{"kind": "set", "size": 3}, {"kind": "set", "size": 3}],
        "whole_hand": False,
    }
    assert document["values"] == {
        "A": 15,
        "2": 20,
        **{str(n): 5 for n in range(3, 10)},
        "10": 10,
        "J": 10,
        "Q": 10,
        "K": 10,
        "JK": 20,
    }
    assert {key: document[key] for key in list(document)[8:]} == {
        "wild_deuces": True,
        "naturals": {"set": 1, "run": 1, "wild_at_most_natural": True},
        "cut_bonus": 0,
        "layoff_on_opening_turn": True,
        "go_out_by_layoff": True,
        "joker_swap": "any",
        "swap_on_opening_turn": False,
        "freed_joker": "hand",
        "buying": {"allowed": True, "per_deal": None, "per_game": None, "penalty_cards": 1},
    }


def test_an_unknown_preset_lists_the_presets():
    with pytest.raises(RuleSetError) as raised:
        preset("canasta")
    assert raised.value.problems == {
        "rules": "'canasta' is not a preset: choose one of "
        "liverpool, contract, online, family, shanghai, carioca, continental"
    }


def test_rules_names_and_citations():
    assert row(lambda rules: rules.rules_name) == (
        "liverpool rules",
        "contract rules",
        "online rules",
        "family rules",
        "shanghai rules",
    )
    assert SHANGHAI.cite("naturals.wild_at_most_natural", "R4") == "R11"
    assert LIVERPOOL.cite("naturals.wild_at_most_natural", "R4") == "R4"
    assert FAMILY.cite("values.JK", "R10") == "R10" and ONLINE.cite("values.JK", "R10") == "R11"
    assert SHANGHAI.house("deals[9]") and not SHANGHAI.house("deals[0].contract")
    assert not LIVERPOOL.house("deals[9]")  # a place neither has is no change
