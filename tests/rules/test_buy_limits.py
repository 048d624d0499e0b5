"""R8 buying under the rules' buying settings (R11): limits a deal and a game, penalty cards."""

from dataclasses import replace

import pytest

from scorekeeper.rules.buying import check_buy, penalty_text
from scorekeeper.rules.ruleset import FAMILY, LIVERPOOL, PRESETS, SHANGHAI, Buying, RuleSet
from tests.referee.house_rules import SMITH
from tests.support.names import NAMES


def with_buying(**settings):
    rules = replace(LIVERPOOL, buying=replace(LIVERPOOL.buying, **settings))
    return rules.renamed("Jones")


@pytest.mark.parametrize("key", ["liverpool", "contract", "family", "shanghai"])
def test_the_presets_that_buy_have_no_limit(key):
    rules = PRESETS[key]
    many = {seat: 50 for seat in range(4)}
    verdict = check_buy(4, 0, [2, 1], rules, None, NAMES, many, many)
    assert verdict.details == {"buyer": 1, "penalty_cards": 1}
    assert verdict.rule == "R8"


def test_an_asker_at_the_games_limit_is_passed_over_with_the_reason():
    verdict = check_buy(4, 0, [1, 2], SMITH, None, NAMES, bought_in_game={1: 3, 2: 2})
    assert verdict.details["buyer"] == 2
    assert verdict.rule == "R11"
    assert verdict.reason == (
        "Bob has bought 3 times this game: Smith family rules allow 3 a game, so Cat gets the "
        "discard and takes the top stock card as a penalty"
    )


def test_below_the_limit_the_first_asker_still_buys():
    verdict = check_buy(4, 0, [1, 2], SMITH, None, NAMES, bought_in_game={1: 2})
    assert verdict.details["buyer"] == 1
    assert verdict.rule == "R8"


def test_the_deals_limit_counts_the_deals_buys():
    rules = with_buying(per_deal=1)
    verdict = check_buy(4, 3, [0], rules, None, NAMES, bought_in_deal={0: 1})
    assert verdict.details["buyer"] is None
    assert verdict.reason == (
        "Ann has bought once this deal: Jones rules allow 1 a deal, so nobody buys it"
    )
    # The game's count does not matter to a limit a deal.
    assert check_buy(4, 3, [0], rules, None, NAMES, bought_in_game={0: 9}).details["buyer"] == 0


def test_both_limits_each_count_their_own_buys():
    rules = with_buying(per_deal=2, per_game=5)
    assert check_buy(4, 0, [1], rules, None, NAMES, {1: 1}, {1: 4}).details["buyer"] == 1
    assert check_buy(4, 0, [1], rules, None, NAMES, {1: 2}, {1: 4}).details["buyer"] is None
    refused = check_buy(4, 0, [1], rules, None, NAMES, {1: 0}, {1: 5})
    assert refused.reason == (
        "Bob has bought 5 times this game: Jones rules allow 5 a game, so nobody buys it"
    )


def test_the_last_buyer_and_a_limit_are_both_named():
    verdict = check_buy(4, 0, [1, 2, 3], SMITH, 1, NAMES, bought_in_game={2: 3})
    assert verdict.details["buyer"] == 3
    assert verdict.reason == (
        "Bob took the previous discard and may not take two in a row; Cat has bought 3 times "
        "this game: Smith family rules allow 3 a game, so Dan gets the discard and takes the top "
        "stock card as a penalty"
    )


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        (0, "takes no penalty card"),
        (1, "takes the top stock card as a penalty"),
        (2, "takes the top 2 stock cards as a penalty"),
        (3, "takes the top 3 stock cards as a penalty"),
    ],
)
def test_the_penalty_cards_come_from_the_rules(cards, text):
    assert penalty_text(cards) == text
    rules = with_buying(penalty_cards=cards)
    verdict = check_buy(4, 0, [1], rules, None, NAMES)
    assert verdict.details == {"buyer": 1, "penalty_cards": cards}
    assert text in verdict.reason
    # A penalty other than liverpool's one card is the table's own rule.
    assert verdict.rule == ("R8" if cards == 1 else "R11")
    assert ("Jones rules" in verdict.reason) is (cards != 1)


def test_no_buying_says_so_whatever_was_bought():
    rules = with_buying(allowed=False)
    verdict = check_buy(4, 0, [1], rules, None, NAMES, {1: 0}, {1: 0})
    assert verdict.details == {"buyer": None, "penalty_cards": None}
    assert verdict.rule == "R11" and verdict.reason.startswith("Jones rules have no buying")


def test_the_rules_limits_are_what_the_presets_say():
    assert SHANGHAI.buying == Buying(True, None, None, 1)
    assert FAMILY.buying.buys_in_a_deal() is None
    assert SMITH.buying.per_game == 3


def test_to_the_right_the_asker_on_the_active_players_right_buys_first():
    """R12.1 point 2: buying priority follows play. Ann (seat 0) passed the discard; Bob sits on
    her left and Dan on her right. To the left Bob plays next; to the right Dan does."""
    to_the_right = RuleSet.parse({"version": 2, "name": "Santiago", "direction": "right"})
    left = check_buy(4, 0, [1, 3], LIVERPOOL, None, NAMES)
    right = check_buy(4, 0, [1, 3], to_the_right, None, NAMES)
    assert (left.details["buyer"], left.rule) == (1, "R8")
    assert (right.details["buyer"], right.rule) == (3, "R11")
    assert right.reason == (
        "Dan plays before Bob after Ann, whose turn it is, so Dan gets the discard and takes "
        "the top stock card as a penalty (Santiago rules)"
    )
    # One asker: the direction decides nothing, and the reason rests on R8 alone.
    alone = check_buy(4, 0, [2], to_the_right, None, NAMES)
    assert (alone.details["buyer"], alone.rule) == (2, "R8")
    assert alone.reason == "Cat gets the discard and takes the top stock card as a penalty"
