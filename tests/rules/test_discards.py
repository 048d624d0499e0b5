"""R8's turn at the discard pile under R12.3's settings (R12.1 point 6 and 7, R12.5): taking the
top discard once gone down (`discard_draw_after_opening`) and discarding a wild card
(`discard_wild`), under liverpool's rules, carioca's and a table's own."""

from __future__ import annotations

import pytest

from scorekeeper.rules import Card
from scorekeeper.rules.discards import check_take, check_throw
from scorekeeper.rules.errors import RulesError
from scorekeeper.rules.ruleset import CARIOCA, LIVERPOOL, RuleSet

SANTIAGO = RuleSet.parse(
    {"version": 2, "name": "Santiago", "discard_wild": False, "discard_draw_after_opening": False}
)
DEUCES = RuleSet.parse({"version": 2, "name": "Deuces", "wild_deuces": True, "discard_wild": False})


def test_r12_5_a_player_who_has_gone_down_may_not_take_the_top_discard():
    verdict = check_take(True, SANTIAGO)
    assert not verdict.legal
    assert (verdict.rule, verdict.line) == ("R11", "discard_draw_after_opening")
    assert verdict.reason == (
        "Santiago rules: a player who has gone down draws only from the stock, "
        "never the top discard"
    )
    assert verdict.to_dict()["code"] == "discard.no_take_down"
    assert not check_take(True, CARIOCA).legal


def test_before_going_down_anyone_may_take_it_and_liverpool_lets_a_down_player_too():
    assert check_take(False, SANTIAGO).legal and check_take(False, SANTIAGO).rule == "R8"
    verdict = check_take(True, LIVERPOOL)
    assert verdict.legal and verdict.rule == "R8"
    assert (
        verdict.reason == "A player who has gone down may still take the top discard on their turn"
    )


def test_r12_5_a_joker_may_not_be_discarded_a_natural_card_may():
    verdict = check_throw(Card.parse("JK"), SANTIAGO)
    assert not verdict.legal and (verdict.rule, verdict.line) == ("R11", "discard_wild")
    assert verdict.reason == "Santiago rules: a wild card is never discarded, and JK is a wild card"
    assert check_throw(Card.parse("7♠"), SANTIAGO).legal
    assert not check_throw(Card.parse("JK"), CARIOCA).legal


def test_a_deuce_is_wild_only_where_deuces_are():
    assert not check_throw(Card.parse("2♠"), DEUCES).legal
    assert check_throw(Card.parse("2♠"), SANTIAGO).legal  # a 2 is a natural card here


def test_liverpool_lets_a_joker_be_discarded():
    verdict = check_throw(Card.parse("JK"), LIVERPOOL)
    assert verdict.legal and verdict.rule == "R8"
    assert (
        verdict.reason == "JK is a wild card, and a wild card may be discarded like any other card"
    )


def test_a_card_the_rules_do_not_hold_is_refused():
    no_jokers = RuleSet.parse(
        {"version": 1, "name": "Plain", "jokers": {"fixed": 0, "per_pack": 0}}
    )
    with pytest.raises(RulesError):
        check_throw(Card.parse("JK"), no_jokers)
