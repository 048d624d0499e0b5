"""R9 and R10 scoring: penalties, round scores with the cut bonus, totals, shared wins."""

import pytest

from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.errors import CopyLimitError
from scorekeeper.rules.scoring import (
    LeftoverError,
    card_penalty,
    hand_penalty,
    leaders,
    parse_leftovers,
    score_round,
    totals,
)


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
    assert hand_penalty(parse_cards(cards)) == penalty


def test_rank_alone_is_enough():
    assert hand_penalty(parse_leftovers("A K 4")) == 29
    assert hand_penalty(parse_leftovers("K A 5 JK")) == 45


def test_joker_is_25_online():
    assert card_penalty(parse_cards("JK")[0], "online") == 25
    assert card_penalty(parse_cards("JK")[0], "family") == 15


def leftovers(**by_seat):
    return {int(seat[1:]): parse_leftovers(text) for seat, text in by_seat.items()}


def test_round_scores_with_an_exact_cut():
    result = score_round(
        4, out=2, leftovers=leftovers(s0="A K 4", s1="7", s3="JK"), cutter=0, cut_exact=True
    )
    assert result.penalties == (29, 7, 0, 15)
    assert result.bonus == (-50, 0, 0, 0)
    assert result.scores == (-21, 7, 0, 15)


def test_no_bonus_without_an_exact_cut_or_in_the_contract_profile():
    cards = leftovers(s0="A", s1="2", s3="3")
    assert score_round(4, 2, cards, cutter=0, cut_exact=False).scores == (15, 2, 0, 3)
    assert score_round(4, 2, cards, 0, True, "contract").scores == (15, 2, 0, 3)


def test_the_cutter_may_be_the_player_out():
    result = score_round(
        4, out=0, leftovers=leftovers(s1="2", s2="3", s3="4"), cutter=0, cut_exact=True
    )
    assert result.scores == (-50, 2, 3, 4)


def test_nobody_out_everyone_scores_their_hand():
    """R9: the stock ran out; the round ends with no winner."""
    result = score_round(
        4, None, leftovers(s0="A", s1="2", s2="3", s3="4"), cutter=1, cut_exact=False
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
        score_round(4, out, leftovers(**cards), cutter=0, cut_exact=False)
    assert caught.value.seat == seat


def test_copy_limits_across_the_whole_round():
    cards = leftovers(s0="7♠ 7♠", s1="7♠", s3="2")
    with pytest.raises(CopyLimitError, match="7♠"):
        score_round(4, 2, cards, cutter=0, cut_exact=False)
    jokers = leftovers(s0="JK JK", s1="JK", s3="JK")
    with pytest.raises(CopyLimitError, match="jokers"):
        score_round(4, 2, jokers, cutter=0, cut_exact=False)


def test_totals_add_up_without_reset_and_may_go_negative():
    assert totals([(-21, 7, 0, 15), (10, -50, 5, 0)], 4) == [-11, -43, 5, 15]


def test_lowest_total_leads_and_ties_share():
    assert leaders([30, 12, 45, 12]) == [1, 3]
    assert leaders([5, 6, 7, 8]) == [0]
    assert leaders([]) == []
