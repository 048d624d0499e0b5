"""R9 and R10 scoring: penalties, round scores with the cut bonus, totals, shared wins."""

from dataclasses import replace

import pytest

from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, Values
from scorekeeper.rules.scoring import (
    LeftoverError,
    card_penalty,
    hand_penalty,
    leaders,
    least_points,
    most_points,
    parse_leftovers,
    points_problem,
    score_round,
    totals,
    value_citation,
)
from tests.referee.house_rules import SMITH


@pytest.mark.parametrize(
    ("cards", "penalty"),
    [
        ("A♠ K♦ 4♥", 29),  # worked case
        ("K♣ A♥ 5♦ JK", 45),  # worked case
        ("2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", 54),
        ("J♠ Q♠ K♠", 30),
    ],
)
def test_penalties(cards, penalty):
    assert hand_penalty(parse_cards(cards), LIVERPOOL) == penalty


def test_rank_alone_is_enough():
    assert hand_penalty(parse_leftovers("A K 4"), LIVERPOOL) == 29
    assert hand_penalty(parse_leftovers("K A 5 JK"), LIVERPOOL) == 45


def test_joker_is_25_online():
    assert card_penalty(parse_cards("JK")[0], PRESETS["online"]) == 25
    assert card_penalty(parse_cards("JK")[0], PRESETS["family"]) == 15


def leftovers(**by_seat):
    return {int(seat[1:]): parse_leftovers(text) for seat, text in by_seat.items()}


def test_round_scores_with_an_exact_cut():
    result = score_round(
        4,
        out=2,
        leftovers=leftovers(s0="A K 4", s1="7", s3="JK"),
        cutter=0,
        cut_exact=True,
        rules=LIVERPOOL,
    )
    assert result.penalties == (29, 7, 0, 15)
    assert result.bonus == (-50, 0, 0, 0)
    assert result.scores == (-21, 7, 0, 15)


def test_no_bonus_without_an_exact_cut_or_in_the_contract_profile():
    cards = leftovers(s0="A", s1="2", s3="3")
    assert score_round(4, 2, cards, cutter=0, cut_exact=False, rules=LIVERPOOL).scores == (
        15,
        2,
        0,
        3,
    )
    assert score_round(4, 2, cards, 0, True, PRESETS["contract"]).scores == (15, 2, 0, 3)


def test_the_cutter_may_be_the_player_out():
    result = score_round(
        4,
        out=0,
        leftovers=leftovers(s1="2", s2="3", s3="4"),
        cutter=0,
        cut_exact=True,
        rules=LIVERPOOL,
    )
    assert result.scores == (-50, 2, 3, 4)


def test_nobody_out_everyone_scores_their_hand():
    """R9: the stock ran out; the round ends with no winner."""
    result = score_round(
        4,
        None,
        leftovers(s0="A", s1="2", s2="3", s3="4"),
        cutter=1,
        cut_exact=False,
        rules=LIVERPOOL,
    )
    assert result.scores == (15, 2, 3, 4)


@pytest.mark.parametrize(
    ("out", "cards", "seat"),
    [
        (2, {"s0": "A", "s1": "2", "s2": "3", "s3": "4"}, 2),  # the player out holds cards
        (2, {"s0": "A", "s3": "4"}, 1),  # another player holds none
        (None, {"s0": "A", "s1": "2", "s2": "3"}, 3),  # nobody out, one empty hand
    ],
)
def test_impossible_leftovers_are_refused(out, cards, seat):
    with pytest.raises(LeftoverError) as caught:
        score_round(4, out, leftovers(**cards), cutter=0, cut_exact=False, rules=LIVERPOOL)
    assert caught.value.seat == seat


def test_copy_limits_across_the_whole_round():
    """Named by the hands that hold the copies together (R1)."""
    cards = leftovers(s0="7♠ 7♠", s1="7♠", s3="2")
    with pytest.raises(LeftoverError) as refused:
        score_round(4, 2, cards, cutter=0, cut_exact=False, rules=LIVERPOOL)
    assert list(refused.value.problems) == [(0, 1)]
    assert "3 × 7♠" in refused.value.problems[(0, 1)]
    jokers = leftovers(s0="JK JK", s1="JK", s3="JK")
    with pytest.raises(LeftoverError) as refused:
        score_round(4, 2, jokers, cutter=0, cut_exact=False, rules=LIVERPOOL)
    assert list(refused.value.problems) == [(0, 1, 3)]


def test_totals_add_up_without_reset_and_may_go_negative():
    assert totals([(-21, 7, 0, 15), (10, -50, 5, 0)], 4) == [-11, -43, 5, 15]


def test_lowest_total_leads_and_ties_share():
    assert leaders([30, 12, 45, 12]) == [1, 3]
    assert leaders([5, 6, 7, 8]) == [0]
    assert leaders([]) == []


# R11: the rules' own values


def test_the_custom_values_price_the_hand():
    hand = parse_cards("JK A♠ 2♥ K♦")
    assert hand_penalty(hand, SMITH) == 50 + 20 + 2 + 10
    assert hand_penalty(hand, PRESETS["liverpool"]) == 15 + 15 + 2 + 10


def test_a_wild_two_scores_the_twos_value():
    assert card_penalty(parse_cards("2♠")[0], PRESETS["shanghai"]) == 20
    assert hand_penalty(parse_cards("2♠ 3♥ 10♦ JK"), PRESETS["shanghai"]) == 20 + 5 + 10 + 20


def test_a_score_that_turns_on_a_changed_value_cites_r11_with_the_rules_name():
    assert value_citation(parse_cards("JK K♠"), SMITH) == (
        "R11",
        "Smith family rules: a joker left in hand is 50",
    )
    assert value_citation(parse_cards("A♠ JK"), SMITH) == (
        "R11",
        "Smith family rules: an ace left in hand is 20 and a joker left in hand is 50",
    )
    assert value_citation(parse_cards("K♠ 7♥"), SMITH) == ("R10", "")
    assert value_citation(parse_cards("JK"), PRESETS["liverpool"]) == ("R10", "")


def test_the_largest_hand_uses_the_highest_value():
    assert most_points(SMITH, 4) == 107 * 50
    assert most_points(PRESETS["liverpool"], 4) == 107 * 15


def test_the_lowest_hand_is_the_lowest_value_which_may_be_zero():
    assert least_points(PRESETS["liverpool"]) == 2
    assert least_points(PRESETS["shanghai"]) == 5
    free = replace(LIVERPOOL, values=Values((0, *LIVERPOOL.values.points[1:]))).renamed("Aces")
    assert least_points(free) == 0
    assert points_problem(0, False, 1000, free) is None
    assert points_problem(1, False, 1000, PRESETS["liverpool"]) == (
        "1 points cannot be: a player who did not go out holds at least one card, "
        "worth at least 2 (R10)"
    )
    assert points_problem(4, False, 1000, PRESETS["shanghai"]) == (
        "4 points cannot be: a player who did not go out holds at least one card, "
        "worth at least 5 (R11)"
    )


def test_the_cut_bonus_comes_from_the_rules():
    hands = {1: parse_cards("K♠"), 2: parse_cards("K♥"), 3: parse_cards("K♦")}
    bonus = replace(LIVERPOOL, cut_bonus=-30).renamed("Thirty")
    assert score_round(4, 0, hands, 3, True, bonus).scores == (0, 10, 10, -20)
    assert score_round(4, 0, hands, 3, True, PRESETS["shanghai"]).scores == (0, 10, 10, 10)
