"""The general opening search bounds whole-hand deals by counts before it places runs, and
after each (R5, R11): the runs shared among the suits and the sets among the ranks must hold
every natural left, and the wild cards must fill what that leaves, or the hand cannot open.
The bounds refuse only hands the search without them refuses, and hands that ran out of steps
before are decided now."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.solver import _last_deal, _wild_table
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.contracts import contract
from scorekeeper.rules.opening import general
from scorekeeper.rules.opening.search import slot
from scorekeeper.rules.opening.solver import SOLVE_STEPS, solve_opening
from scorekeeper.rules.ruleset import RuleSet
from tests.rules.exhaustive import validate_opening
from tests.rules.test_solver_memo import SHAPES, _climb_hand, without_count_bounds
from tests.rules.test_wild_solver import WHOLE, agree

# Whole-hand deals with sets beyond the bench's: two sets and a run (a slot for a rank no
# natural forces), and two sets alone, with three packs, six jokers and deuces wild; the
# capped rule set of test_wild_solver (no more wild cards than natural ones) as well.
TWO_SETS = _wild_table(deals=_last_deal(("set", 3), ("set", 3), ("run", 4), whole=True))
SETS_ONLY = _wild_table(deals=_last_deal(("set", 3), ("set", 4), whole=True))
# The climb's hands drawn from one, two or three suits: a whole-hand deal with sets spreads
# wider than the bench's two.
DRAWN = (1, 2, 2, 3)
WHOLE_SHAPES = {
    "3 runs, whole hand": SHAPES["3 runs, whole hand"],
    "set + 2 runs, whole hand": SHAPES["set + 2 runs, whole hand"],
    "2 sets + a run, whole hand": (TWO_SETS, 7),
    "2 sets, whole hand": (SETS_ONLY, 7),
    "capped: set + 2 runs": (WHOLE, 2),
    "capped: set + a run": (WHOLE, 1),
}


def _search(cards, rules: RuleSet, deal: int, steps: int | None, bounds: bool = True):
    """The general search's opening (or None), or "undecided" once out of steps."""
    try:
        if bounds:
            return general.solve_general(cards, contract(deal, rules), rules, steps=steps)
        with without_count_bounds():
            return general.solve_general(cards, contract(deal, rules), rules, steps=steps)
    except general.OutOfSteps:
        return "undecided"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=st.sampled_from(sorted(WHOLE_SHAPES)),
    size=st.integers(min_value=8, max_value=30),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_the_bounds_refuse_only_what_the_search_without_them_refuses(shape, size, seed):
    """On the bench's kind of hands, whenever the search without the bounds decides, the
    search with them decides the same: it never refuses a hand the other opens."""
    rules, deal = WHOLE_SHAPES[shape]
    cards = _climb_hand(random.Random(seed), rules, size, DRAWN)
    bounded = _search(cards, rules, deal, 4 * SOLVE_STEPS)
    unbounded = _search(cards, rules, deal, 4 * SOLVE_STEPS, bounds=False)
    if "undecided" not in (bounded, unbounded):
        assert (bounded is None) == (unbounded is None), " ".join(str(card) for card in cards)


@pytest.mark.parametrize("shape", sorted(WHOLE_SHAPES))
def test_the_bounds_agree_with_the_exhaustive_search(shape):
    """On hands small enough for the exhaustive search, in each whole-hand shape: every
    verdict is the oracle's and every opening found is checked card by card."""
    rules, deal = WHOLE_SHAPES[shape]
    rng = random.Random(f"counts-{shape}")
    verdicts = set()
    for _ in range(25):
        verdicts.add(agree(_climb_hand(rng, rules, rng.randint(9, 13), DRAWN), deal, rules, 4))
    assert False in verdicts


@pytest.mark.parametrize("shape", sorted(set(WHOLE_SHAPES) - {"2 sets, whole hand"}))
def test_every_bound_is_at_most_the_wild_cards_an_opening_spends(shape):
    """Where the search without the bounds opens a hand, the bound of the hand as dealt is no
    more than its wild cards: the opening found is itself a witness within the bound. (Hands
    of two or three suits seldom make two sets and nothing else, so that shape is left to the
    tests above.)"""
    rules, deal = WHOLE_SHAPES[shape]
    rng = random.Random(f"counts-witness-{shape}")
    opened = 0
    for _ in range(120):
        cards = _climb_hand(rng, rules, rng.randint(8, 20), DRAWN)
        found = _search(cards, rules, deal, SOLVE_STEPS, bounds=False)
        if found in (None, "undecided"):
            continue
        opened += 1
        count = general.counts(cards)
        jokers = sum(card.joker for card in cards)
        plans = [(False, jokers)]
        if rules.wild_deuces:
            plans.append((True, jokers + sum(count[slot(s, 2)] for s in range(4))))
        needs = []
        for deuces, wilds in plans:
            plan = general.Rules(
                contract(deal, rules),
                rules,
                rules.naturals.wild_at_most_natural,
                (rules.naturals.set, rules.naturals.run),
                deuces,
            )
            needs.append(general._Walk(count, plan)._sets_and_runs_need(0) - wilds)
        assert min(needs) <= 0, " ".join(str(card) for card in cards)
    assert opened


# The hardest hands the bench's climbs found before these bounds (bench/README.md, "any rule
# set"): each ran out of its 40,000 steps; the search without a budget refuses each.
UNDECIDED_BEFORE = [
    (
        "set + 2 runs, whole hand",
        "JK 4♠ J♦ K♦ 2♦ 4♠ 6♠ 9♦ 4♦ J♦ Q♦ 3♦ K♦ 8♠ 6♠ 6♦ 3♦ 5♦ Q♠ 5♦ 2♥",
    ),
    (
        "set + 2 runs, whole hand",
        "A♦ 5♦ 3♣ JK 4♦ Q♦ A♦ 8♣ 3♣ J♦ 10♣ K♦ 8♣ 2♠ 5♣ Q♦ 5♦ 9♣ 5♦ 7♦ 2♥ Q♣ 9♣ 6♣ K♣ 4♦",
    ),
    (
        "3 runs, whole hand",
        "6♥ 2♠ 2♦ 4♣ 2♣ 4♥ 7♥ 2♠ 10♥ 3♥ 9♥ 6♣ 5♣ 9♥ A♣ 10♣ J♥ 5♥ 8♥ K♥ 2♠",
    ),
]


@pytest.mark.parametrize(("shape", "hand"), UNDECIDED_BEFORE)
def test_hands_out_of_steps_before_are_refused_within_the_budget(shape, hand):
    rules, deal = WHOLE_SHAPES[shape]
    cards = list(parse_cards(hand))
    assert solve_opening(cards, deal, rules, 4).legal is False
    assert _search(cards, rules, deal, 1_000) is None
    assert _search(cards, rules, deal, SOLVE_STEPS, bounds=False) == "undecided"
    assert _search(cards, rules, deal, None, bounds=False) is None


def test_a_hand_the_bounds_let_through_still_opens():
    """A whole hand of a set and two runs the counts allow (the set of 5s, a run of each
    suit): the search finds the opening, and it is laid card by card."""
    rules, deal = WHOLE_SHAPES["set + 2 runs, whole hand"]
    cards = list(parse_cards("5♠ 5♠ 5♣ 3♠ 4♠ 6♠ 7♠ 9♣ 10♣ J♣ Q♣ JK 2♥"))
    verdict = solve_opening(cards, deal, rules, 4)
    assert verdict.legal is True
    assert not validate_opening(cards, deal, rules, verdict.details)
