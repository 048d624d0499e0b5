"""R2, R3 and R11: contracts, cards dealt, packs, jokers and the exact-cut packet of every preset."""

import pytest

from scorekeeper.rules.contracts import contract, contracts
from scorekeeper.rules.errors import RoundError, RuleSetError, SeatError
from scorekeeper.rules.ruleset import DEFAULT_RULES, LIVERPOOL, PRESETS, FreedJoker, preset


@pytest.mark.parametrize(
    ("number", "sets", "runs", "text"),
    [
        (1, 2, 0, "2 sets"),
        (2, 1, 1, "1 set + 1 run"),
        (3, 0, 2, "2 runs"),
        (4, 3, 0, "3 sets"),
        (5, 2, 1, "2 sets + 1 run"),
        (6, 1, 2, "1 set + 2 runs"),
        (7, 0, 3, "3 runs"),
    ],
)
def test_contracts(number, sets, runs, text):
    c = contract(number, LIVERPOOL)
    assert (c.sets, c.runs, c.short()) == (sets, runs, text)
    assert c.whole_hand == (number == 7)


def test_round_seven_says_whole_hand():
    assert str(contract(7, LIVERPOOL)) == "3 runs using the whole hand, no discard"
    assert len(contracts(rules=LIVERPOOL)) == 7


@pytest.mark.parametrize("bad", [0, 8, -1, "2", 2.0, True, None])
def test_round_outside_one_to_seven(bad):
    with pytest.raises(RoundError):
        contract(bad, LIVERPOOL)


@pytest.mark.parametrize(
    ("name", "deal", "cuts", "packs", "jokers", "bonus", "joker_penalty"),
    [
        ("liverpool", (10, 10, 10, 12, 12, 12, 12), (41, 41, 41, 49, 49, 49, 49), 2, 3, -50, 15),
        ("contract", (10, 10, 10, 12, 12, 12, 12), (41, 41, 41, 49, 49, 49, 49), 2, 3, 0, 15),
        ("online", (7, 10, 10, 10, 12, 12, 14), (29, 41, 41, 41, 49, 49, 57), 2, 2, 0, 25),
        ("family", (10, 10, 10, 10, 12, 12, 12), (41, 41, 41, 41, 49, 49, 49), 2, 4, -50, 15),
    ],
)
def test_preset_numbers_with_four_players(name, deal, cuts, packs, jokers, bonus, joker_penalty):
    rules = preset(name)
    assert tuple(rules.cards_dealt(n) for n in rules.deal_numbers) == deal
    assert tuple(rules.exact_cut(n, 4) for n in rules.deal_numbers) == cuts
    assert (rules.pack_count(4), rules.joker_count(4)) == (packs, jokers)
    assert rules.cut_bonus == bonus
    assert rules.values["JK"] == joker_penalty


def test_shanghai_deals_eleven_cards_ten_times():
    shanghai = preset("shanghai")
    assert shanghai.last_deal == 10
    assert {shanghai.cards_dealt(n) for n in shanghai.deal_numbers} == {11}
    assert [shanghai.pack_count(n) for n in (3, 4, 5, 6, 7, 8)] == [2, 2, 3, 3, 4, 4]
    assert shanghai.exact_cut(10, 8) == 8 * 11 + 1
    with pytest.raises(RoundError, match="rounds 1 to 10"):
        shanghai.cards_dealt(11)


def test_default_pack_is_107_cards_and_round_one_stock_is_66():
    rules = DEFAULT_RULES
    assert rules.preset == "liverpool"
    assert rules.pack_size() == 107
    assert rules.stock_after_deal(1) == 66  # 40 dealt, 1 up


def test_family_uses_three_packs_and_two_jokers_a_pack_for_five_or_more():
    family = preset("family")
    assert (family.pack_count(5), family.joker_count(5)) == (3, 6)
    assert family.exact_cut(5, 6) == 6 * 12 + 1


def test_exact_cut_is_players_times_cards_plus_one_in_every_preset():
    for rules in PRESETS.values():
        for players in rules.table_sizes:
            for number in rules.deal_numbers:
                expected = players * rules.cards_dealt(number) + 1
                assert rules.exact_cut(number, players) == expected
                assert rules.stock_after_deal(number, players) >= 0


@pytest.mark.parametrize(
    ("name", "players"), [("liverpool", 3), ("liverpool", 5), ("online", 9), ("family", 2)]
)
def test_player_count_outside_the_rules(name, players):
    with pytest.raises(SeatError, match=str(players)) as refused:
        preset(name).check_players(players)
    # The message names the rules as a verdict does (R11).
    assert f"{name} rules are for" in str(refused.value)


def test_unknown_preset_names_itself():
    with pytest.raises(RuleSetError, match="vegas"):
        preset("vegas")


def test_house_presets_change_only_what_r11_says():
    liverpool = preset("liverpool")
    assert preset("contract").exact_sizes == liverpool.exact_sizes
    assert preset("family").naturals.set == 2 and preset("family").naturals.run == 3
    online = preset("online")
    assert online.buying.allowed is False and online.freed_joker is FreedJoker.HAND
    for name in ("online", "family", "shanghai"):
        rules = preset(name)
        assert rules.layoff_on_opening_turn and rules.go_out_by_layoff
        assert not rules.exact_sizes


def test_the_deck_holds_every_card_the_profile_shuffles():
    deck = preset("liverpool").deck()
    assert len(deck) == 107
    assert sum(card.joker for card in deck) == 3
    family = preset("family").deck(6)
    assert len(family) == 3 * 52 + 6 == preset("family").pack_size(6)


@pytest.mark.parametrize(
    ("players", "packs", "stock_round_7"),
    [(3, 2, 106 - 43), (5, 2, 106 - 71), (6, 3, 158 - 85), (8, 3, 158 - 113)],
)
def test_online_pack_count_leaves_a_real_stock_in_round_7(players, packs, stock_round_7):
    # R11: 2 packs for 3-5 players, 3 for 6-8, always 2 jokers; round 7 deals 14 each.
    online = preset("online")
    assert online.pack_count(players) == packs
    assert online.joker_count(players) == 2
    assert online.stock_after_deal(7, players) == stock_round_7 > 0


def test_joker_swap_on_the_opening_turn_only_online_family_and_continental():
    allowed = {name for name, p in PRESETS.items() if p.swap_on_opening_turn}
    assert allowed == {"online", "family", "continental"}  # R12.2 point 4: from going down on
    assert preset("family").cite("swap_on_opening_turn", "R7") == "R11"
    assert preset("contract").cite("swap_on_opening_turn", "R7") == "R7"
