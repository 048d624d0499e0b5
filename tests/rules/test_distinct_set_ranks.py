"""R12.3 `distinct_set_ranks` (R12.1 point 5, R12.5): the sets of one contract are of different
ranks, so two sets of 7s are one set and a lay-off. An opening laid with two sets of one rank is
refused citing R11 with the setting and the rules named; the search ("can this hand go down?")
finds only openings with sets apart, agreeing with the exhaustive search, and says when only the
setting keeps a hand from going down."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import parse_cards
from scorekeeper.rules.cards import Card
from scorekeeper.rules.opening.laid import check_opening
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, RuleSet
from tests.rules.exhaustive import card_type, exhaustive_opening, validate_opening

SANTIAGO = RuleSet.parse({"version": 2, "name": "Santiago", "distinct_set_ranks": True})


def test_r12_5_two_sets_of_nines_are_not_two_sets():
    melds = [parse_cards("9♠ 9♥ 9♦"), parse_cards("9♣ 9♠ 9♥")]
    verdict = check_opening(1, melds, SANTIAGO, 4)
    assert not verdict.legal
    assert (verdict.rule, verdict.line) == ("R11", "distinct_set_ranks")
    assert verdict.reason == (
        "Santiago rules: the sets of one contract are of different ranks, and 9♠ 9♥ 9♦ and "
        "9♣ 9♠ 9♥ are of one rank"
    )
    assert verdict.to_dict()["code"] == "laid.same_rank"
    assert check_opening(1, melds, LIVERPOOL, 4).legal


def test_sets_of_two_ranks_open_as_ever():
    verdict = check_opening(1, [parse_cards("9♠ 9♥ 9♦"), parse_cards("7♣ 7♠ JK")], SANTIAGO, 4)
    assert verdict.legal and verdict.rule == "R5"


def test_the_search_refuses_a_hand_that_opens_only_with_two_sets_of_one_rank():
    hand = parse_cards("9♠ 9♥ 9♦ 9♣ 9♠ 9♥ 3♣ 4♦ K♠ Q♥ 2♣")
    verdict = solve_opening(hand, 1, SANTIAGO, 4)
    assert not verdict.legal and (verdict.rule, verdict.line) == ("R11", "distinct_set_ranks")
    assert verdict.reason == (
        "Santiago rules: the sets of one contract are of different ranks, and these 11 cards "
        "make 2 sets only with two sets of one rank."
    )
    assert solve_opening(hand, 1, LIVERPOOL, 4).legal


def test_the_search_finds_the_sets_apart_when_there_are():
    hand = parse_cards("9♠ 9♥ 9♦ 9♣ 9♠ 9♥ 3♣ 3♦ K♠ 3♥ 2♣")
    verdict = solve_opening(hand, 1, SANTIAGO, 4)
    assert verdict.legal
    ranks = {meld[0][:-1] for meld in verdict.details["melds"]}
    assert ranks == {"3", "9"}
    assert validate_opening(hand, 1, SANTIAGO, verdict.details) == []


# Hands crowded into few ranks, so that sets of one rank are common, under rule sets with two
# and three sets a deal and a whole-hand deal of sets.
APART = [
    SANTIAGO,
    RuleSet.parse(
        {"version": 2, "name": "Apart", "distinct_set_ranks": True, "buying": {"allowed": False}}
    ),
    replace(PRESETS["family"], distinct_set_ranks=True, name="Family apart"),
]
card_kinds = st.one_of(
    st.tuples(st.integers(6, 7), st.sampled_from("SHDC")).map(lambda rs: Card(rs[0], rs[1])),
    st.tuples(st.integers(1, 13), st.sampled_from("SH")).map(lambda rs: Card(rs[0], rs[1])),
    st.just(Card.parse("JK")),
)


def held_hand(cards, rules: RuleSet) -> list[Card]:
    """The cards, less the copies the packs of a table of 4 cannot hold."""
    held: Counter = Counter()
    hand = []
    for card in cards:
        kind = card_type(card)
        limit = rules.joker_count(4) if kind == "JK" else rules.pack_count(4)
        if held[kind] < limit:
            held[kind] += 1
            hand.append(card)
    return hand


def agrees(hand, number: int, rules: RuleSet) -> bool:
    """The search agrees with the exhaustive search and lays a real opening; its answer."""
    verdict = solve_opening(hand, number, rules, 4)
    assert verdict.legal == (exhaustive_opening(hand, number, rules) is not None), hand
    if verdict.legal:
        assert validate_opening(hand, number, rules, verdict.details) == []
    return verdict.legal


def test_a_seeded_sweep_agrees_and_the_setting_decides_some_hands():
    rng = random.Random("distinct-set-ranks")
    decided = 0
    for _ in range(300):
        rules = rng.choice(APART)
        number = min(rng.choice([1, 2, 4, 5]), rules.last_deal)
        cards = [
            Card.parse("JK")
            if (r := rng.random()) < 0.1
            else Card(rng.randint(6, 7), rng.choice("SHDC"))
            if r < 0.7
            else Card(rng.randint(1, 13), rng.choice("SH"))
            for _ in range(rng.randint(7, 14))
        ]
        hand = held_hand(cards, rules)
        plain = replace(rules, distinct_set_ranks=False)
        decided += solve_opening(hand, number, plain, 4).legal and not agrees(hand, number, rules)
    assert decided >= 10  # hands that open only with two sets of one rank were tried


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    cards=st.lists(card_kinds, min_size=7, max_size=14),
    round_number=st.sampled_from([1, 2, 4, 5]),
    rules=st.sampled_from(APART),
)
def test_hypothesis_the_search_agrees_with_the_exhaustive_search(cards, round_number, rules):
    agrees(held_hand(cards, rules), min(round_number, rules.last_deal), rules)
