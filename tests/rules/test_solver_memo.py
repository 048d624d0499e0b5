"""The general opening search remembers what it has worked out from the cards left (R5, R11):
the wild cards the runs still to lay need at the least, from the naturals left, and the sets
on what the runs leave, from each rank's total and the wild cards left. Remembering changes no
verdict and no opening found, and hands that ran out of steps before are now decided, as the
search without a budget decides them."""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.solver import WILD_SHAPES
from scorekeeper.rules.cards import SUITS, parse_cards
from scorekeeper.rules.contracts import contract
from scorekeeper.rules.opening import general
from scorekeeper.rules.opening.solver import SOLVE_STEPS, solve_opening
from scorekeeper.rules.ruleset import RuleSet
from tests.rules.exhaustive import validate_opening
from tests.rules.test_wild_solver import agree

# The rule sets of bench/solver.py's "any rule set" rows: deuces wild, 3 packs and 6 jokers.
# The bench's shapes of a table's own rules (wild deuces, three packs, six jokers), so these
# tests and the bench's climbs search the same rule sets.
SHAPES = WILD_SHAPES


def _search(cards, rules: RuleSet, deal: int, steps: int | None, remember: bool):
    """The general search's answer, or "undecided" once out of steps; without `remember`,
    every bound and every set counted out afresh, as before the search remembered them."""
    walk = general._Walk
    saved = walk._least_wild, walk.sets
    if not remember:
        walk._least_wild = lambda self, masks, index: self._fewest_wild(masks, index)
        walk.sets = walk._sets_on
    try:
        return general.solve_general(cards, contract(deal, rules), rules, steps=steps)
    except general.OutOfSteps:
        return "undecided"
    finally:
        walk._least_wild, walk.sets = saved


@contextmanager
def without_count_bounds():
    """The search without the bound by counts of a whole-hand deal (test_solver_counts.py), its
    last run free to give any natural to the sets: as it was when these hands were climbed."""
    walk = general._Walk
    saved = walk._sets_and_runs_need, walk._kept_for_sets
    walk._sets_and_runs_need = lambda self, index: 0
    walk._kept_for_sets = lambda self, index, present: ()
    try:
        yield
    finally:
        walk._sets_and_runs_need, walk._kept_for_sets = saved


def _climb_hand(rng: random.Random, rules: RuleSet, size: int, suits: tuple[int, ...] = (2,)):
    """A hand as the bench's climb starts from: the cards of a number of suits drawn from
    `suits` (two, as the bench), the 2s and the jokers of the pack."""
    drawn = rng.sample(SUITS, suits[0] if len(suits) == 1 else rng.choice(suits))
    pool = [card for card in rules.deck(4) if card.joker or card.suit in drawn or card.rank == 2]
    return rng.sample(pool, min(size, len(pool)))


@contextmanager
def _every_answer_checked():
    """Each bound and each sets' answer the search gives, remembered or not, is checked against
    the same counted out afresh (off the budget) on the cards then left."""
    walk = general._Walk
    saved = walk._least_wild, walk.sets

    def afresh(self, compute, *args):
        steps, self.steps = self.steps, None
        try:
            return compute(self, *args)
        finally:
            self.steps = steps

    def least_wild(self, masks, index):
        found = saved[0](self, masks, index)
        assert found == afresh(self, walk._fewest_wild, list(masks), index)
        return found

    def sets(self, wild):
        found = saved[1](self, wild)
        assert found == afresh(self, walk._sets_on, wild)
        return found

    walk._least_wild, walk.sets = least_wild, sets
    try:
        yield
    finally:
        walk._least_wild, walk.sets = saved


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    shape=st.sampled_from(sorted(SHAPES)),
    size=st.integers(min_value=13, max_value=30),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_remembering_changes_no_verdict_nor_opening(shape, size, seed):
    """On the bench's hardest kind of hands, every answer remembered is the one counted out
    afresh, and the search remembering gives the very opening (or None) the search counting
    everything afresh gives, whenever both decide."""
    rules, deal = SHAPES[shape]
    cards = _climb_hand(random.Random(seed), rules, size)
    with _every_answer_checked():
        remembered = _search(cards, rules, deal, SOLVE_STEPS, remember=True)
    afresh = _search(cards, rules, deal, SOLVE_STEPS, remember=False)
    if "undecided" not in (remembered, afresh):
        assert remembered == afresh, " ".join(str(card) for card in cards)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_answer_remembered_is_the_one_counted_afresh(shape):
    """A seeded sweep of the bench's kind of hands, each answer remembered checked."""
    rules, deal = SHAPES[shape]
    rng = random.Random(f"memo-sweep-{shape}")
    with _every_answer_checked():
        for _ in range(150):
            _search(_climb_hand(rng, rules, rng.randint(13, 20)), rules, deal, 10_000, True)


def test_the_same_ranks_left_with_other_wild_cards_are_other_sets():
    """Runs of their size or more (deal 6) can leave the same naturals with more or fewer wild
    cards: the sets are remembered by both, or this hand's answers would differ."""
    rules, deal = SHAPES["set + 2 runs of their size+, deal 6"]
    cards = list(parse_cards("K♣ 9♣ 2♥ 8♦ 5♦ J♦ 4♣ 9♦ 6♦ 4♣ 7♦ A♦ JK 2♠"))
    with _every_answer_checked():
        found = _search(cards, rules, deal, None, remember=True)
    assert found == _search(cards, rules, deal, None, remember=False)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_remembering_agrees_with_the_exhaustive_search(shape):
    """On hands small enough for the exhaustive search, in each of the bench's shapes."""
    rules, deal = SHAPES[shape]
    rng = random.Random(f"memo-{shape}")
    for _ in range(12):
        cards = _climb_hand(rng, rules, rng.randint(11, 14))
        agree(cards, deal, rules, 4)


# Hands the bench's climbs found out of steps (40,031 and 40,043 of 40,000) before the search
# remembered its bounds and sets: each is decided within the budget now. The exhaustive search
# refuses the first too (64 s); the second's opening is checked card by card.
DECIDED_NOW = [
    (
        "3 runs, whole hand",
        "K♣ 5♥ 2♠ 4♣ JK 4♥ 2♦ 2♠ JK 8♥ J♥ 6♣ 10♥ 6♥ JK 5♣ JK K♣ 9♥ K♥ 2♣",
        False,
    ),
    (
        "3 runs of 4+, a discard",
        "K♠ 9♣ 10♠ 3♠ 8♠ 9♣ 4♠ 10♠ K♥ 6♣ 3♥ 2♦ K♣ JK 3♠ 5♠ 9♣ 2♥ 7♠ 6♠ A♣ 10♣ 7♥ A♠ J♣ JK",
        True,
    ),
]


@pytest.mark.parametrize(("shape", "hand", "legal"), DECIDED_NOW)
def test_hands_out_of_steps_before_are_decided_within_the_budget(shape, hand, legal):
    rules, deal = SHAPES[shape]
    cards = list(parse_cards(hand))
    verdict = solve_opening(cards, deal, rules, 4)
    assert verdict.legal is legal
    assert (_search(cards, rules, deal, None, remember=False) is not None) is legal
    with without_count_bounds():
        assert _search(cards, rules, deal, SOLVE_STEPS, remember=False) == "undecided"
    if legal:
        assert not validate_opening(cards, deal, rules, verdict.details)
