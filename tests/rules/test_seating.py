"""R2 seats: the deal passes left each round; the dealer's right cuts, the dealer's left plays
first. Under R12.3's `direction: right` all of it mirrors."""

import pytest

from scorekeeper.rules.errors import RoundError, SeatError
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, Direction, RuleSet
from scorekeeper.rules.seating import (
    dealer_cut_by,
    dealer_seat,
    first_dealer_of,
    next_in_play,
    round_setup,
    turn_order_after,
)
from tests.referee.house_rules import SMITH


def test_rotation_through_seven_rounds_with_four_players():
    setups = [
        round_setup(first_dealer=1, round_number=n, players=4, rules=LIVERPOOL) for n in range(1, 8)
    ]
    assert [s.dealer for s in setups] == [1, 2, 3, 0, 1, 2, 3]
    assert [s.cutter for s in setups] == [0, 1, 2, 3, 0, 1, 2]
    assert [s.first_player for s in setups] == [2, 3, 0, 1, 2, 3, 0]
    # The next dealer is the one who played first this round.
    for this, following in zip(setups, setups[1:], strict=False):
        assert following.dealer == this.first_player


def test_setup_carries_deal_cut_and_stock():
    setup = round_setup(0, 4, 4, LIVERPOOL)
    assert (setup.cards_dealt, setup.exact_cut, setup.cut_bonus, setup.stock_after_deal) == (
        12,
        49,
        -50,
        58,
    )
    assert setup.contract.short() == "3 sets"


def test_six_players_in_the_family_profile():
    setup = round_setup(5, 2, 6, PRESETS["family"])
    assert (setup.dealer, setup.cutter, setup.first_player) == (0, 5, 1)
    assert setup.exact_cut == 61


@pytest.mark.parametrize("first", [-1, 4, "0", None, True])
def test_first_dealer_must_be_a_seat(first):
    with pytest.raises(SeatError):
        dealer_seat(first, 1, 4, LIVERPOOL)


def test_turn_order_after_the_active_player():
    assert turn_order_after(2, 4, LIVERPOOL) == [3, 0, 1]


# Liverpool's rules with play to the right, as a table's document says it (R12.3).
TO_THE_RIGHT = RuleSet.parse({"version": 2, "name": "Santiago", "direction": "right"})


def test_to_the_right_the_deal_the_cut_and_the_first_player_mirror():
    """Seats are numbered clockwise as the players sit; play goes to the right, so each round's
    dealer is the seat on the last dealer's right, the cutter sits on the dealer's left and the
    player on the dealer's right plays first (R12.1 point 2)."""
    assert TO_THE_RIGHT.direction is Direction.RIGHT
    setups = [round_setup(1, n, 4, TO_THE_RIGHT) for n in range(1, 8)]
    assert [s.dealer for s in setups] == [1, 0, 3, 2, 1, 0, 3]
    assert [s.cutter for s in setups] == [2, 1, 0, 3, 2, 1, 0]
    assert [s.first_player for s in setups] == [0, 3, 2, 1, 0, 3, 2]
    for this, following in zip(setups, setups[1:], strict=False):
        assert following.dealer == this.first_player
    # The exact-cut packet, the cards and the stock do not change with the direction.
    left = round_setup(1, 4, 4, LIVERPOOL)
    right = setups[3]
    assert (right.exact_cut, right.cards_dealt, right.stock_after_deal, right.cut_bonus) == (
        left.exact_cut,
        left.cards_dealt,
        left.stock_after_deal,
        left.cut_bonus,
    )


@pytest.mark.parametrize("direction", ["left", "right"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 8])
def test_who_dealt_round_1_is_found_again_from_any_rounds_dealer_or_cutter(direction, players):
    document = {"version": 2, "players": {"min": 2, "max": 8}, "direction": direction}
    rules = RuleSet.parse(document)
    for first in range(players):
        for number in rules.deal_numbers:
            setup = round_setup(first, number, players, rules)
            assert first_dealer_of(setup.dealer, number, players, rules) == first
            assert dealer_cut_by(setup.cutter, players, rules) == setup.dealer
            assert next_in_play(setup.dealer, players, rules) == setup.first_player


def test_to_the_right_the_turn_order_runs_counterclockwise():
    assert turn_order_after(2, 4, TO_THE_RIGHT) == [1, 0, 3]
    assert turn_order_after(0, 5, TO_THE_RIGHT) == [4, 3, 2, 1]


def test_shanghai_deals_ten_rounds_of_eleven_cards():
    setups = [round_setup(0, n, 5, PRESETS["shanghai"]) for n in range(1, 11)]
    assert [s.dealer for s in setups] == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]
    assert {s.cards_dealt for s in setups} == {11}
    # 5 players: 3 packs and 3 jokers (one a pack); the exact cut is 5 × 11 + 1.
    assert {s.exact_cut for s in setups} == {56}
    assert {s.stock_after_deal for s in setups} == {3 * 52 + 3 - 56}
    assert {s.cut_bonus for s in setups} == {0}
    assert dealer_seat(0, 10, 5, PRESETS["shanghai"]) == 4


def test_a_custom_rule_sets_deals_and_exact_cut():
    setup = round_setup(2, 4, 4, SMITH)
    assert (setup.cards_dealt, setup.exact_cut, setup.cut_bonus) == (11, 45, -50)
    assert setup.stock_after_deal == 107 - 45


def test_a_deal_beyond_the_rules_is_refused():
    with pytest.raises(RoundError, match="rounds 1 to 7"):
        dealer_seat(0, 8, 4, LIVERPOOL)
    with pytest.raises(RoundError, match="rounds 1 to 10"):
        round_setup(0, 11, 4, PRESETS["shanghai"])
