"""R2, R3 and R11: contracts, cards dealt, packs, jokers and the exact-cut packet of every profile."""

import pytest

from scorekeeper.rules.contracts import CONTRACTS, contract
from scorekeeper.rules.errors import ProfileError, RoundError, SeatError
from scorekeeper.rules.profiles import PROFILES, get_profile


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
    c = contract(number)
    assert (c.sets, c.runs, c.short()) == (sets, runs, text)
    assert c.whole_hand == (number == 7)


def test_round_seven_says_whole_hand():
    assert str(contract(7)) == "3 runs using the whole hand, no discard"
    assert len(CONTRACTS) == 7


@pytest.mark.parametrize("bad", [0, 8, -1, "2", 2.0, True, None])
def test_round_outside_one_to_seven(bad):
    with pytest.raises(RoundError):
        contract(bad)


@pytest.mark.parametrize(
    ("name", "deal", "cuts", "packs", "jokers", "bonus", "joker_penalty"),
    [
        ("liverpool", (10, 10, 10, 12, 12, 12, 12), (41, 41, 41, 49, 49, 49, 49), 2, 3, -50, 15),
        ("contract", (10, 10, 10, 12, 12, 12, 12), (41, 41, 41, 49, 49, 49, 49), 2, 3, 0, 15),
        ("online", (7, 10, 10, 10, 12, 12, 14), (29, 41, 41, 41, 49, 49, 57), 2, 2, 0, 25),
        ("family", (10, 10, 10, 10, 12, 12, 12), (41, 41, 41, 41, 49, 49, 49), 2, 4, -50, 15),
    ],
)
def test_profile_numbers_with_four_players(name, deal, cuts, packs, jokers, bonus, joker_penalty):
    profile = get_profile(name)
    assert tuple(profile.cards_dealt(n) for n in range(1, 8)) == deal
    assert tuple(profile.exact_cut(n, 4) for n in range(1, 8)) == cuts
    assert (profile.packs(4), profile.jokers(4)) == (packs, jokers)
    assert profile.cut_bonus == bonus
    assert profile.joker_penalty == joker_penalty


def test_default_pack_is_107_cards_and_round_one_stock_is_66():
    profile = get_profile(None)
    assert profile.name == "liverpool"
    assert profile.pack_size() == 107
    assert profile.stock_after_deal(1) == 66  # 40 dealt, 1 up


def test_family_uses_three_packs_and_two_jokers_a_pack_for_five_or_more():
    family = get_profile("family")
    assert (family.packs(5), family.jokers(5)) == (3, 6)
    assert family.exact_cut(5, 6) == 6 * 12 + 1


def test_exact_cut_is_players_times_cards_plus_one_in_every_profile():
    for profile in PROFILES.values():
        for players in range(profile.min_players, profile.max_players + 1):
            for number in range(1, 8):
                expected = players * profile.cards_dealt(number) + 1
                assert profile.exact_cut(number, players) == expected
                assert profile.stock_after_deal(number, players) >= 0


@pytest.mark.parametrize(
    ("name", "players"), [("liverpool", 3), ("liverpool", 5), ("online", 9), ("family", 2)]
)
def test_player_count_outside_the_profile(name, players):
    with pytest.raises(SeatError, match=str(players)) as refused:
        get_profile(name).check_players(players)
    # The message names the rules as every page shows them, not by their key.
    assert get_profile(name).title in str(refused.value)
    assert f"the {name} profile" not in str(refused.value)


def test_unknown_profile_names_itself():
    with pytest.raises(ProfileError, match="vegas"):
        get_profile("vegas")


def test_house_profiles_change_only_what_r11_says():
    liverpool = get_profile("liverpool")
    assert get_profile("contract").exact_opening == liverpool.exact_opening
    assert get_profile("family").set_naturals == 2 and get_profile("family").run_naturals == 3
    assert get_profile("online").buying is False and get_profile("online").freed_joker_to_hand
    for name in ("online", "family"):
        profile = get_profile(name)
        assert profile.layoff_on_opening_turn and profile.go_out_by_layoff
        assert not profile.exact_opening


def test_the_deck_holds_every_card_the_profile_shuffles():
    deck = get_profile("liverpool").deck()
    assert len(deck) == 107
    assert sum(card.joker for card in deck) == 3
    family = get_profile("family").deck(6)
    assert len(family) == 3 * 52 + 6 == get_profile("family").pack_size(6)


@pytest.mark.parametrize(
    ("players", "packs", "stock_round_7"),
    [(3, 2, 106 - 43), (5, 2, 106 - 71), (6, 3, 158 - 85), (8, 3, 158 - 113)],
)
def test_online_pack_count_leaves_a_real_stock_in_round_7(players, packs, stock_round_7):
    # R11: 2 packs for 3-5 players, 3 for 6-8, always 2 jokers; round 7 deals 14 each.
    online = get_profile("online")
    assert online.packs(players) == packs
    assert online.jokers(players) == 2
    assert online.stock_after_deal(7, players) == stock_round_7 > 0


def test_joker_swap_on_the_opening_turn_only_online_and_family():
    allowed = {name for name, p in PROFILES.items() if p.swap_on_opening_turn}
    assert allowed == {"online", "family"}
    assert get_profile("family").cite("swap_on_opening_turn", "R7") == "R11"
    assert get_profile("contract").cite("swap_on_opening_turn", "R7") == "R7"
