"""R12.3 `out_in_one_turn_bonus` (R12.2 point 5, R12.5): a player who goes down and goes out in
the same turn scores the rules' bonus for the deal instead of 0; only the player out can, and
only under rules that give a bonus for it."""

from __future__ import annotations

import pytest

from scorekeeper.rules.ruleset import CONTINENTAL, LIVERPOOL, RuleSet
from scorekeeper.rules.scoring import LeftoverError, parse_leftovers, score_round
from scorekeeper.rules.words import words

# A table's own rules: liverpool's with continental's −10 and an exact-cut bonus of −50.
BOTH = RuleSet.parse({"version": 2, "name": "Santiago", "out_in_one_turn_bonus": -10})


def hands(**by_seat: str) -> dict:
    return {int(seat[1:]): parse_leftovers(text) for seat, text in by_seat.items()}


def test_the_player_down_and_out_in_one_turn_scores_the_bonus_its_own_part():
    result = score_round(
        4, 2, hands(s0="A K 4", s1="7", s3="JK"), 0, False, CONTINENTAL, out_in_one_turn=True
    )
    assert CONTINENTAL.out_in_one_turn_bonus == -10
    assert result.penalties == (34, 7, 0, 50)  # continental: A 20, joker 50
    assert result.out_bonus == (0, 0, -10, 0)
    assert result.bonus == (0, 0, 0, 0)
    assert result.scores == (34, 7, -10, 50)


def test_without_it_the_player_out_scores_0_as_ever():
    result = score_round(4, 2, hands(s0="A", s1="7", s3="JK"), 0, False, CONTINENTAL)
    assert result.scores[2] == 0 and result.out_bonus == (0, 0, 0, 0)


def test_the_cutter_out_in_one_turn_takes_both_bonuses():
    assert BOTH.cut_bonus == -50
    result = score_round(4, 0, hands(s1="7", s2="5", s3="K"), 0, True, BOTH, out_in_one_turn=True)
    assert (result.bonus[0], result.out_bonus[0], result.scores[0]) == (-50, -10, -60)


def test_rules_without_the_bonus_refuse_it_as_a_problem_of_the_round():
    with pytest.raises(LeftoverError) as refused:
        score_round(4, 2, hands(s0="A", s1="7", s3="5"), 0, False, LIVERPOOL, out_in_one_turn=True)
    assert refused.value.problems == {
        None: "liverpool rules give nothing for going down and out in one turn (R12.3)"
    }


def test_nobody_out_cannot_have_gone_down_and_out_and_every_problem_is_named():
    with pytest.raises(LeftoverError) as refused:
        score_round(
            4, None, hands(s0="A", s1="7", s3="5"), 0, False, CONTINENTAL, out_in_one_turn=True
        )
    assert refused.value.problems == {
        2: "nobody went out, so every player still holds cards (R9)",
        None: "nobody went out, so nobody went down and out in one turn (R12.3)",
    }


def test_the_words_are_the_catalogs():
    from scorekeeper.rules.scoring import one_turn_problem

    said = one_turn_problem(1, LIVERPOOL)
    assert said is not None and words(said).startswith("liverpool rules give nothing")
    assert one_turn_problem(1, CONTINENTAL) is None
