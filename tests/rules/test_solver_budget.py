"""The opening search under a table's own contracts has a budget of steps (R5, R11): a hand
with more ways to try than the budget gets `Undecided`, naming the hand, and never a verdict
the search has not checked; within the budget every verdict is the exhaustive search's."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.errors import Undecided
from scorekeeper.rules.opening import solver
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import PRESETS, RuleSet
from tests.rules.test_wild_solver import agree, built_hand, random_hand

# Deuces wild, three packs and six jokers, and the last deal three runs using the whole hand:
# the contract whose search branched the most before it had a budget.
WILD = RuleSet.parse(
    {
        **PRESETS["liverpool"].to_json(),
        "name": "Wild table",
        "wild_deuces": True,
        "packs": [{"up_to": 8, "packs": 3}],
        "jokers": {"fixed": 6, "per_pack": 0},
    }
)
# The slowest hands a hill-climbing search found before the budget and the count bounds (see
# bench/solver.py): each is answered within the budget now, by the bounds alone.
CLIMBED = [
    ("8♥ JK 5♦ 7♣ K♣ 6♦ 8♦ 9♦ J♦ Q♦ 3♦ 9♣ K♦ JK 2♠ 4♦ 2♦ 2♠ 2♥ 7♦ 10♦", False),
    (
        "J♦ J♦ 10♠ 7♦ 7♠ 7♠ 8♠ 9♠ 5♦ 6♠ 6♦ 5♦ 9♠ 10♦ 9♦ 9♠ 8♦ 5♦ 6♦ 5♠ 8♠ 10♦ 2♠ 2♥ 2♦ 2♣ JK JK JK JK",
        False,
    ),
]


@pytest.mark.parametrize(("hand", "legal"), CLIMBED)
def test_the_hands_that_took_seconds_are_answered_within_the_budget(hand, legal):
    assert solve_opening(hand, 7, WILD, 4).legal is legal


def test_out_of_steps_the_answer_is_undecided_naming_the_hand(monkeypatch):
    monkeypatch.setattr(solver, "SOLVE_STEPS", 5)
    hand = "7♠ 2♥ JK 2♦ 4♦ 6♦ 7♦ 2♦ 8♦ J♠ JK Q♠ 9♦ 4♦ 2♦ Q♦ JK 10♠ Q♦ 6♠ 3♦ 9♠ K♦ JK 2♥ 10♦"
    with pytest.raises(Undecided) as raised:
        solve_opening(hand, 7, WILD, 4)
    error = raised.value
    assert error.said.code.id == "solver.too_many_ways"
    assert error.said.values["size"] == 26
    assert "These 26 cards can be laid out in too many ways" in str(error)
    assert "Wild table" in str(error)


@pytest.mark.parametrize("generator", [random_hand, built_hand], ids=["random", "built"])
def test_a_small_budget_answers_undecided_or_the_exhaustive_verdict(monkeypatch, generator):
    """With a budget small enough to run out on many hands, every hand is either Undecided or
    judged as the exhaustive search judges it: running out never turns into a "no"."""
    monkeypatch.setattr(solver, "SOLVE_STEPS", 40)
    rules = RuleSet.parse({**WILD.to_json(), "jokers": {"fixed": 2, "per_pack": 0}})
    rng = random.Random(f"budget-{generator.__name__}")
    seen = Counter()
    for index in range(60):
        number = index % rules.last_deal + 1
        hand = generator(rng, rules, 4, number)
        try:
            seen[agree(hand, number, rules, 4)] += 1
        except Undecided:
            seen["undecided"] += 1
    assert seen["undecided"] and (seen[True] or seen[False]), seen


@pytest.mark.parametrize(
    ("hand", "legal"),
    [
        # An ace held once goes high or low, whichever its run needs.
        ("J♠ Q♠ K♠ A♠ A♥ 2♥ 3♥ 4♥ 5♦ 6♦ 7♦ 8♦", True),
        ("A♠ 2♠ 3♠ 4♠ J♥ Q♥ K♥ A♥ 5♦ 6♦ 7♦ 8♦", True),
        # A suit with one card twice needs two runs: with three suits, four runs in all.
        ("5♠ 6♠ 7♠ 8♠ 5♠ 9♥ 10♥ J♥ Q♥ 5♦ 6♦ 7♦ 8♦", False),
        # One run a suit: the wild cards each span needs, more than the hand holds.
        ("3♠ 9♠ 4♥ 5♥ 6♥ 7♥ 8♦ 9♦ 10♦ J♦ 2♣ JK", False),
        ("3♠ 6♠ 4♥ 5♥ 6♥ 7♥ 8♦ 9♦ 10♦ J♦ 2♣ JK", True),
    ],
)
def test_the_count_bounds_refuse_only_what_the_exhaustive_search_refuses(hand, legal):
    cards = list(parse_cards(hand))
    assert agree(cards, 7, WILD, 4) is legal
