"""R12.3 `tie_break`: tied lowest totals share the win (R10), or under `deals_won` the tied
player who went out in more deals wins, and still tied they share (R12.1 point 9, R12.5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.ruleset import LIVERPOOL, RuleSet
from scorekeeper.rules.scoring import deals_won, leaders, winners

BY_DEALS = RuleSet.read({"version": 2, "name": "Santiago", "tie_break": "deals_won"})


def decide(totals, outs, rules):
    return winners(totals, deals_won(outs, len(totals)), rules.tie_break)


def test_r12_5_tied_at_120_the_player_out_in_more_deals_wins():
    # Seats 0 and 2 tie at 120; seat 0 went out in deals 1, 4 and 6, seat 2 in 2 and 5.
    outs = [0, 2, 1, 0, 2, 0, 3]
    ahead = decide([120, 135, 120, 180], outs, BY_DEALS)
    assert ahead.seats == (0,)
    assert ahead.by_deals_won and ahead.deals_won == {0: 3, 2: 2}
    # Shared under liverpool's rules: the same table, the same totals.
    shared = decide([120, 135, 120, 180], outs, LIVERPOOL)
    assert shared.seats == (0, 2) and not shared.by_deals_won


def test_still_tied_on_deals_won_they_share():
    ahead = decide([50, 50, 70], [0, 1, None, 2], BY_DEALS)
    assert ahead.seats == (0, 1)
    assert ahead.deals_won == {0: 1, 1: 1} and not ahead.by_deals_won


def test_one_lowest_total_wins_whatever_the_deals():
    ahead = decide([40, 50, 70], [1, 1, 1, 2], BY_DEALS)
    assert ahead.seats == (0,) and ahead.deals_won == {}


@given(
    st.lists(st.integers(-100, 300), min_size=2, max_size=8).flatmap(
        lambda totals: st.tuples(
            st.just(totals),
            st.lists(st.one_of(st.none(), st.integers(0, len(totals) - 1)), max_size=12),
        )
    )
)
def test_the_winners_are_always_among_the_leaders_and_share_only_a_full_tie(case):
    totals, outs = case
    ahead = decide(totals, outs, BY_DEALS)
    assert set(ahead.seats) <= set(leaders(totals)) and ahead.seats
    if len(ahead.seats) > 1:
        counts = [outs.count(seat) for seat in ahead.seats]
        assert len(set(counts)) == 1
    assert decide(totals, outs, LIVERPOOL).seats == tuple(leaders(totals))


@pytest.mark.parametrize("totals", [[], [10]])
def test_no_table_or_one_player(totals):
    assert decide(totals, [], BY_DEALS).seats == tuple(leaders(totals))
