"""What a rule set's settings do, said beside each setting (`ruleeffects.notes`)."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.rules import PRESETS
from scorekeeper.rules.ruleeffects import buys_needed, notes
from scorekeeper.rules.ruleset import LIVERPOOL, SHANGHAI, Buying, Deal, MeldKind, Need


def three_runs(size: int) -> tuple[Need, ...]:
    return (Need(MeldKind.RUN, size),) * 3


def test_a_deal_whose_contract_outgrows_the_hand_needs_a_buy():
    rules = replace(LIVERPOOL, deals=(*LIVERPOOL.deals, Deal(11, three_runs(4))))
    assert notes(rules)["deals[7].cards"] == (
        "Deal 8 needs 13 cards: 11 dealt + the draw is 12, so it needs a buy"
    )


def test_a_contract_two_buys_away_says_so():
    assert notes(SHANGHAI)["deals[9].cards"] == (
        "Deal 10 needs 16 cards: 11 dealt + the draw is 12, so it needs 2 buys"
    )


def test_a_whole_hand_deal_keeps_no_discard():
    whole = Deal(11, three_runs(4), whole_hand=True)
    assert buys_needed(whole) == 0
    assert buys_needed(Deal(11, three_runs(4))) == 1
    rules = replace(LIVERPOOL, deals=(Deal(10, three_runs(4), whole_hand=True),))
    assert notes(rules)["deals[0].cards"] == (
        "Deal 1 needs 12 cards, the whole hand laid with no discard: 10 dealt + the draw is "
        "11, so it needs a buy"
    )
    assert "no discard" in notes(rules)["deals[0].contract"]


def test_a_deal_the_hand_holds_has_no_buy_note():
    for rules in PRESETS.values():
        for index, deal in enumerate(rules.deals):
            assert (f"deals[{index}].cards" in notes(rules)) == (buys_needed(deal) > 0)


def test_the_cards_in_the_game_for_each_table_size():
    assert notes(SHANGHAI)["packs"] == (
        "3–4 players: 2 packs + 2 jokers = 106 cards; 5–6 players: 3 packs + 3 jokers = "
        "159 cards; 7–8 players: 4 packs + 4 jokers = 212 cards"
    )
    assert notes(LIVERPOOL)["packs"] == "4 players: 2 packs + 3 jokers = 107 cards"


def test_the_exact_cut_of_each_deal_for_the_usual_table():
    assert notes(LIVERPOOL)["cut_bonus"] == (
        "With 4 players the exact cut is 41 in deals 1–3, 49 in deals 4–7: it takes 50 off "
        "the cutter's round"
    )
    assert notes(PRESETS["online"])["cut_bonus"] == (
        "With 4 players the exact cut is 29 in deal 1, 41 in deals 2–4, 49 in deals 5 and 6, "
        "57 in deal 7: it earns no bonus"
    )


def test_the_smallest_stock_is_named_with_its_table_and_deal():
    assert notes(PRESETS["online"])["deals"] == (
        "The smallest stock: 35 cards, with 5 players in deal 7 (5 × 14 dealt + the upcard "
        "from 106)"
    )


def test_a_deal_limit_above_the_game_limit_is_capped_by_it():
    rules = replace(LIVERPOOL, buying=Buying(per_deal=5, per_game=3))
    assert notes(rules)["buying"] == (
        "A player buys at most 3 a game, so never more than 3 in one deal either"
    )
    assert "buying" not in notes(LIVERPOOL)


def test_wild_deuces_count_the_wild_cards():
    assert notes(SHANGHAI)["wild_deuces"] == "With 4 players: 8 twos + 2 jokers = 10 wild cards"
    assert "wild_deuces" not in notes(LIVERPOOL)


def test_every_note_is_keyed_by_a_place_of_the_document():
    for rules in PRESETS.values():
        for place in notes(rules):
            rules.setting(place)  # KeyError for a place the document does not have
