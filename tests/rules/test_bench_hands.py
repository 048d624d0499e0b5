"""The solver benchmark's realistic hands follow each preset's own rules, and its speed-up counts
only the hands it says it counts (bench/solver.py). No timing is asserted."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.solver import EXHAUSTIVE_FLOOR, _speed_up, api_body, realistic_hands
from scorekeeper.rules.ruleset import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_realistic_hands_are_dealt_by_the_presets_rules(preset):
    rules = PRESETS[preset]
    hands = realistic_hands(rules, 300)
    assert {deal for deal, _players, _hand in hands} == set(rules.deal_numbers)
    bought = 0
    for deal, players, hand in hands:
        assert players in rules.table_sizes
        extra = len(hand) - rules.cards_dealt(deal) - 1  # the deal and the draw
        assert extra >= 0
        assert extra % (1 + rules.buying.penalty_cards) == 0 or len(hand) == 30
        bought += extra > 0
        rules.check_copies(hand, players)  # no more copies than the table's packs hold
    assert (bought > 0) == rules.buying.allowed


def test_realistic_hands_are_the_same_every_run():
    first = realistic_hands(PRESETS["shanghai"], 50)
    assert first == realistic_hands(PRESETS["shanghai"], 50)
    assert first != realistic_hands(PRESETS["shanghai"], 50, seed=1)


def test_the_request_names_the_preset_and_carries_every_card():
    deal, players, hand = realistic_hands(PRESETS["family"], 1)[0]
    body = api_body("family", deal, players, hand)
    assert body["profile"] == "family" and body["round"] == deal and body["players"] == players
    assert Counter(body["hand"].split()) == Counter(str(card) for card in hand)


def test_the_speed_up_counts_only_slow_hands_both_searches_agree_on():
    exhaustive = [(0.5, True), (2.0, False), (4.0, True), None, (3.0, True)]
    legal = [True, False, True, True, False]  # the last one: the searches disagree
    api = [0.1, 0.5, 0.5, 0.1, 0.1]
    direct = [0.01, 0.1, 0.1, 0.01, 0.01]
    figures = _speed_up(exhaustive, legal, api, direct)
    assert EXHAUSTIVE_FLOOR == 1.0
    assert figures == {"hands": 2, "disagree": 1, "api": 6.0, "direct": 30.0}
