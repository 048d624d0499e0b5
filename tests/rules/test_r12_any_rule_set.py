"""Hypothesis over R12's settings: any rule set the checker accepts is one the engine can deal,
score and judge. For documents drawn across R12.3's ranges (and a little past them), every deal
is dealt from the rule set's own pack at a table size it allows, and the hand is judged by the
search, laid as an opening, laid off, its cards scored and the winners named: each answers, or
refuses with a `RulesError` naming why (never another exception, the API's 500)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings

from scorekeeper.rules.contracts import contract
from scorekeeper.rules.errors import RulesError, RuleSetError
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.opening.laid import check_opening
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import RuleSet
from scorekeeper.rules.scoring import score_round, winners
from scorekeeper.rules.table import check_layoff
from tests.rules.test_ruleset_v2 import r12_documents

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _judged(call, *arguments):
    """The verdict, or None where the engine refuses by name."""
    try:
        return call(*arguments)
    except RulesError:
        return None


@SETTINGS
@given(r12_documents())
def test_every_rule_set_the_checker_takes_is_dealt_scored_and_judged(document):
    try:
        rules = RuleSet.parse(document)
    except RuleSetError:
        return
    chance = random.Random(rules.dumps())
    players = chance.choice(list(rules.table_sizes))
    for number in rules.deal_numbers:
        deck = rules.deck(players)
        chance.shuffle(deck)
        deal = rules.deal(number)
        hand = deck[: deal.cards + 1]
        wanted = contract(number, rules)
        verdict = _judged(solve_opening, hand, number, rules, players)
        if verdict is not None and verdict.legal:
            melds = [
                [card for card in hand if str(card) in meld] for meld in verdict.details["melds"]
            ]
            left = len(verdict.details["left"])
            _judged(check_opening, number, melds[: wanted.melds], rules, players, left)
        cut = sum(need.size for need in wanted.needs[:1])
        _judged(check_opening, number, [hand[:cut]], rules, players, None)
        _judged(check_meld, hand[:4], rules, players)
        _judged(check_layoff, number, hand[:4], hand[4:5], False, rules, players, None)
        leftovers = {seat: deck[seat * 3 : seat * 3 + 3] for seat in range(1, players)}
        scored = _judged(score_round, players, 0, leftovers, 0, False, rules)
        one_turn = _judged(
            score_round,
            players,
            0,
            leftovers,
            0,
            False,
            rules,
            None,
            bool(rules.out_in_one_turn_bonus),
        )
        assert scored is not None and one_turn is not None
        assert one_turn.scores[0] == rules.out_in_one_turn_bonus
    totals = [chance.randint(0, 200) for _ in range(players)]
    deals_won = [chance.randint(0, rules.last_deal) for _ in range(players)]
    assert winners(totals, deals_won, rules.tie_break).seats
