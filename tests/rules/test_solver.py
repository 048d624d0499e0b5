"""R5 opening search: the fast solver against a slow exhaustive search, and hand-built edge cases.

Every "yes" is re-checked twice: by `check_opening` (scorekeeper.rules.opening.laid, the
referee's own judgement of laid melds) and by `validate_opening` in tests/rules/exhaustive.py (an
independent check of the melds, the readings and the cards left). No timing is asserted here: `make bench`
measures speed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.cards import JOKER, SUITS, Card, parse_cards
from scorekeeper.rules.contracts import contract
from scorekeeper.rules.errors import CopyLimitError, RoundError, RulesError, SeatError, SizeError
from scorekeeper.rules.opening.laid import runs_touch
from scorekeeper.rules.opening.search import Refusal, Run, Search
from scorekeeper.rules.opening.solver import HAND_LIMIT, solve_opening
from scorekeeper.rules.opening.whole_hand import solve_whole
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, Naturals, RuleSet
from tests.rules.exhaustive import card_type, exhaustive_opening, validate_opening

try:  # the referee's judgement of laid melds, written alongside the solver
    from scorekeeper.rules.opening.laid import check_opening
except ImportError:  # pragma: no cover - only before laid.py exists
    check_opening = None

PROFILES = [PRESETS[name] for name in ("liverpool", "contract", "online", "family")]
# Player counts that change the packs: family and online shuffle 3 packs for 5+ (6) players.
TABLES = [
    (PRESETS["liverpool"], None),
    (PRESETS["contract"], None),
    (PRESETS["online"], None),
    (PRESETS["online"], 6),
    (PRESETS["family"], None),
    (PRESETS["family"], 6),
]


def hand_of(text: str) -> list[Card]:
    return list(parse_cards(text))


def assert_legal_arrangement(hand, round_number, rules, players, verdict):
    """The solver's "yes" really is an opening made of this hand's cards."""
    details = verdict.details
    problems = validate_opening(hand, round_number, rules, details)
    assert not problems, (problems, [str(c) for c in hand], details)
    if check_opening is not None:
        judged = check_opening(
            round_number,
            [parse_cards(meld) for meld in details["melds"]],
            rules=rules,
            players=players,
            left=len(details["left"]),
        )
        assert judged.legal, (judged.reason, [str(c) for c in hand], details)


def agree(hand, round_number, rules, players=None):
    """Solver and exhaustive search give the same answer; a "yes" is a real opening."""
    verdict = solve_opening(hand, round_number, rules, players)
    reference = exhaustive_opening(hand, round_number, rules)
    text = " ".join(str(card) for card in hand)
    assert verdict.legal == (reference is not None), (
        f"round {round_number} {rules} ({players} players): {text}: solver says "
        f"{verdict.legal}, exhaustive found {reference}"
    )
    if verdict.rule == "R11" and verdict.legal:
        # Only a house rule allows it: with exact 3 / 4 melds the hand cannot open.
        exact = replace(rules, exact_sizes=True)
        assert exhaustive_opening(hand, round_number, exact) is None
        assert verdict.reason.startswith(f"{rules.rules_name} allow opening melds above")
    elif verdict.rule == "R11":
        # Only a house rule refuses: the same hand opens with one natural card a meld.
        relaxed = replace(rules, naturals=Naturals(1, 1, False))
        assert exhaustive_opening(hand, round_number, relaxed) is not None
        assert verdict.reason.startswith(f"{rules.rules_name}: ")
    elif verdict.rule == "R4":
        assert sum(card.natural for card in hand) < contract(round_number, LIVERPOOL).melds
    else:
        assert verdict.rule == "R5"
    if verdict.legal:
        assert_legal_arrangement(hand, round_number, rules, players, verdict)
    else:
        assert verdict.details["melds"] == []
        assert Counter(verdict.details["left"]) == Counter(
            "JK" if card.joker else str(card) for card in hand
        )
    return verdict.legal


# ----- hand generators --------------------------------------------------------------------------


def full_pack(rules: RuleSet, players: int | None) -> list[Card]:
    return rules.deck(players)


def realistic_hand(rng, rules, players, round_number) -> list[Card]:
    """The cards dealt plus the draw, from a shuffled pack."""
    size = rules.cards_dealt(round_number) + 1
    return rng.sample(full_pack(rules, players), size)


def crowded_hand(rng, rules, players, round_number) -> list[Card]:
    """Few suits, a narrow band of ranks, duplicates and many jokers: many near-openings."""
    suits = rng.sample(SUITS, rng.choice([1, 1, 2, 2, 3]))
    width = rng.randint(3, 8)
    low = rng.randint(1, 14 - width)
    ranks = set(range(low, low + width))
    if rng.random() < 0.25:
        ranks.add(1)
    pool = [
        card
        for card in full_pack(rules, players)
        if not card.joker and card.suit in suits and card.rank in ranks
    ]
    jokers = rng.randint(0, rules.joker_count(players))
    size = rng.randint(12, 13) if round_number == 7 else rng.randint(8, 13)
    hand = rng.sample(pool, min(len(pool), max(0, size - jokers))) + [JOKER] * jokers
    rng.shuffle(hand)
    return hand


def _fits_copies(cards, rules, players) -> bool:
    counts = Counter(card_type(card) for card in cards)
    return all(
        count <= (rules.joker_count(players) if kind == "JK" else rules.pack_count(players))
        for kind, count in counts.items()
    )


def built_hand(rng, rules, players, round_number) -> list[Card]:
    """A legal-looking opening built meld by meld, plus spare cards, then maybe spoiled by one
    change: the hands closest to the line between yes and no."""
    deal = contract(round_number, LIVERPOOL)
    exact = rules.exact_sizes and not deal.whole_hand
    for _ in range(100):
        cards: list[Card] = []
        suit_bias = rng.choice(SUITS)
        for _ in range(deal.sets):
            rank = rng.randint(1, 13)
            size = 3 if exact or rng.random() < 0.7 else 4
            naturals = rng.randint(rules.naturals.set, size)
            cards += [Card(rank, rng.choice(SUITS)) for _ in range(naturals)]
            cards += [JOKER] * (size - naturals)
        lengths = [4] * deal.runs
        if deal.whole_hand:
            for _ in range(rng.randint(0, 2)):
                lengths[rng.randrange(3)] += 1
        elif not exact:
            lengths = [rng.choice([4, 4, 5, 6]) for _ in lengths]
        for length in lengths:
            suit = suit_bias if rng.random() < 0.6 else rng.choice(SUITS)
            low = rng.randint(1, 15 - length)
            naturals = set(
                rng.sample(range(length), rng.randint(min(length, rules.naturals.run), length))
            )
            for offset in range(length):
                position = low + offset
                rank = 1 if position == 14 else position
                cards.append(Card(rank, suit) if offset in naturals else JOKER)
        if not deal.whole_hand:
            cards += rng.sample(full_pack(rules, players), rng.randint(1, 2))
        roll = rng.random()
        if roll < 0.3:
            cards[rng.randrange(len(cards))] = rng.choice(full_pack(rules, players))
        elif roll < 0.45:
            cards.pop(rng.randrange(len(cards)))
        elif roll < 0.55:
            cards.append(rng.choice(full_pack(rules, players)))
        if _fits_copies(cards, rules, players) and len(cards) <= 14:
            rng.shuffle(cards)
            return cards
    return realistic_hand(rng, rules, players, round_number)


GENERATORS = {"realistic": realistic_hand, "crowded": crowded_hand, "built": built_hand}


# ----- the solver agrees with the exhaustive search ---------------------------------------------


@pytest.mark.parametrize("generator", sorted(GENERATORS))
@pytest.mark.parametrize(("rules", "players"), TABLES, ids=lambda v: str(v))
def test_agrees_with_exhaustive_search(generator, rules, players):
    rng = random.Random(f"{generator}-{rules.preset}-{players}")
    make = GENERATORS[generator]
    count = {"realistic": 105, "crowded": 105, "built": 140}[generator]
    results = Counter()
    for index in range(count):
        round_number = index % 7 + 1
        hand = make(rng, rules, players, round_number)
        results[agree(hand, round_number, rules, players)] += 1
    if generator == "built":
        assert results[True] and results[False], results


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players"), TABLES, ids=lambda v: str(v))
def test_agrees_with_exhaustive_search_wider_sweep(rules, players):
    rng = random.Random(f"sweep-{rules.preset}-{players}")
    for index in range(280):
        round_number = index % 7 + 1
        make = (crowded_hand, built_hand)[index % 2]
        agree(make(rng, rules, players, round_number), round_number, rules, players)


# Hypothesis: hands drawn from two suits and a band of ranks (so openings are common), any
# round, any rules; copies are kept within what the packs hold.
card_kinds = st.one_of(
    st.tuples(st.integers(1, 13), st.sampled_from("SH")).map(lambda rs: Card(rs[0], rs[1])),
    st.tuples(st.integers(3, 8), st.sampled_from("SHDC")).map(lambda rs: Card(rs[0], rs[1])),
    st.just(JOKER),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    cards=st.lists(card_kinds, min_size=7, max_size=13),
    round_number=st.integers(1, 7),
    table=st.sampled_from(TABLES),
)
def test_hypothesis_agrees_with_exhaustive_search(cards, round_number, table):
    rules, players = table
    held: Counter = Counter()
    hand = []
    for card in cards:  # drop the copies the packs cannot hold
        kind = card_type(card)
        limit = rules.joker_count(players) if kind == "JK" else rules.pack_count(players)
        if held[kind] < limit:
            held[kind] += 1
            hand.append(card)
    agree(hand, round_number, rules, players)


# ----- hand-built cases -------------------------------------------------------------------------


def solve(text: str, round_number: int, rules=PRESETS["liverpool"], players=None):
    hand = hand_of(text)
    verdict = solve_opening(hand, round_number, rules, players)
    if verdict.legal:
        assert_legal_arrangement(hand, round_number, rules, players, verdict)
    assert verdict.legal == (exhaustive_opening(hand, round_number, rules) is not None)
    return verdict


def test_worked_round_1_two_sets():
    verdict = solve("7♠ 7♥ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ 7♦", 1)
    assert verdict.legal
    assert verdict.details["melds"] == [["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]]
    assert verdict.details["kinds"] == ["set", "set"]
    assert verdict.details["left"] == ["3♣", "4♣", "5♣", "8♦", "A♥"]
    assert verdict.details["readings"] == verdict.details["melds"]


def test_round_2_set_and_3_4_5_6_run():
    verdict = solve("7♣ 7♦ 7♥ 3♠ 4♠ 5♠ 6♠ 8♥", 2)
    assert verdict.legal
    assert verdict.details["melds"] == [["7♥", "7♦", "7♣"], ["3♠", "4♠", "5♠", "6♠"]]
    assert verdict.details["kinds"] == ["set", "run"]
    assert verdict.details["left"] == ["8♥"]


@pytest.mark.parametrize("rules", PROFILES, ids=str)
def test_contiguous_runs_are_refused(rules):
    verdict = solve("3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ 2♥", 3, rules)
    assert not verdict.legal
    assert verdict.details["melds"] == []
    assert "2 runs" in verdict.reason


@pytest.mark.parametrize(
    "text",
    [
        "3♠ 4♠ 5♠ 6♠ 6♠ 7♠ 8♠ 9♠ 2♥",  # overlap with the other pack's 6♠
        "3♠ 4♠ 5♠ 6♠ JK 7♠ 8♠ 9♠ 2♥",  # the joker stands for a second 6♠ (or 2♠)
        "3♠ 4♠ 5♠ 6♠ 8♠ 9♠ 10♠ J♠ 2♥",  # a gap
        "3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ 2♥",  # 3-6 and 8-J, keeping 7♠
    ],
)
def test_runs_of_one_suit_may_overlap_or_leave_a_gap(text):
    verdict = solve(text, 3)
    assert verdict.legal
    assert verdict.details["kinds"] == ["run", "run"]


def test_ace_high_run_and_no_wrap():
    high = solve("J♠ Q♠ K♠ A♠ 7♥ 7♦ 7♣ 2♦", 2)
    assert high.legal
    assert high.details["melds"][1] == ["J♠", "Q♠", "K♠", "A♠"]
    wrap = solve("Q♠ K♠ A♠ 2♠ 7♥ 7♦ 7♣ 3♦", 2)
    assert not wrap.legal


def test_ace_to_four_and_jack_to_ace_do_not_touch():
    assert solve("A♠ 2♠ 3♠ 4♠ J♠ Q♠ K♠ A♠ 5♥", 3).legal
    # With a single ace only one of the two runs can have it.
    assert not solve("A♠ 2♠ 3♠ 4♠ J♠ Q♠ K♠ 5♥ 9♦", 3).legal


def test_joker_fills_a_gap_and_reads_as_the_missing_card():
    verdict = solve("5♠ 6♠ JK 8♠ 9♥ 9♦ 9♣ 2♣", 2)
    assert verdict.legal
    run = verdict.details["kinds"].index("run")
    assert verdict.details["melds"][run] == ["5♠", "6♠", "JK", "8♠"]
    assert verdict.details["readings"][run] == ["5♠", "6♠", "7♠", "8♠"]


def test_set_joker_reads_as_the_rank_only():
    verdict = solve("7♠ 7♥ JK 2♣ 2♦ 2♥ K♠", 1)
    assert verdict.legal
    assert ["7♠", "7♥", "7"] in verdict.details["readings"]
    assert ["7♠", "7♥", "JK"] in verdict.details["melds"]


def test_declared_joker_may_be_used_anywhere():
    verdict = solve("7♠ 7♥ JK=K♦ 2♣ 2♦ 2♥ K♠", 1)
    assert verdict.legal
    assert ["7♠", "7♥", "JK"] in verdict.details["melds"]


def test_family_set_takes_the_natural_a_run_would_have_used():
    # Family: 2 naturals a set, 3 a run. The set of 7s needs 7♠, so the run must read
    # 5♠ 6♠ JK 8♠ with the joker standing for 7♠ although 7♠ is in the hand.
    verdict = solve("5♠ 6♠ 7♠ 8♠ 7♥ JK JK 2♣", 2, PRESETS["family"])
    assert verdict.legal
    assert verdict.details["melds"][0] == ["7♠", "7♥", "JK"]
    assert verdict.details["melds"][1] == ["5♠", "6♠", "JK", "8♠"]
    assert verdict.details["readings"][1] == ["5♠", "6♠", "7♠", "8♠"]
    # Liverpool asks 1 natural a meld: the same hand opens too.
    assert solve("5♠ 6♠ 7♠ 8♠ 7♥ JK JK 2♣", 2).legal


def test_family_run_may_need_five_cards_for_three_naturals():
    verdict = solve("5♠ JK 7♠ JK 9♠ 2♥ 2♦ 2♣ 4♥", 2, PRESETS["family"])
    assert verdict.legal
    assert verdict.details["readings"][1] == ["5♠", "6♠", "7♠", "8♠", "9♠"]
    # Liverpool asks exactly 4 cards a run: 5♠ JK 7♠ JK will do there.
    assert solve("5♠ JK 7♠ JK 9♠ 2♥ 2♦ 2♣ 4♥", 2).legal
    # Family with no fifth card to keep for the discard.
    assert not solve("5♠ JK 7♠ JK 9♠ 2♥ 2♦ 2♣", 2, PRESETS["family"]).legal


def test_family_natural_minimums_refuse_thin_melds():
    # Each set needs 2 naturals in family: 7♠ JK JK is not a set there.
    assert not solve("7♠ JK JK 9♠ 9♥ 9♦ 3♣", 1, PRESETS["family"]).legal
    assert solve("7♠ JK JK 9♠ 9♥ 9♦ 3♣", 1).legal


def test_round_7_splits_the_whole_hand():
    verdict = solve("A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♣ 10♣ J♣ Q♣ K♣", 7)
    assert verdict.legal
    assert verdict.details["left"] == []
    assert sorted(len(meld) for meld in verdict.details["melds"]) == [4, 4, 5]
    assert verdict.details["kinds"] == ["run", "run", "run"]


def test_round_7_one_suit_needs_a_gap_or_an_overlap():
    # 3♠..J♠ cannot be two runs without touching; the joker makes a second 6♠ for an overlap.
    assert not solve("3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ 5♥ 6♥ 7♥ 8♥", 7).legal
    assert solve("3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ JK 5♥ 6♥ 7♥ 8♥", 7).legal


def test_round_7_every_card_must_fit():
    assert not solve("A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♣ 10♣ J♣ Q♣ 2♦", 7).legal
    assert not solve("A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♣ 10♣ J♣ Q♣ K♦", 7).legal


@pytest.mark.parametrize(
    ("round_number", "text"),
    [
        (1, "7♠ 7♥ 7♦ 9♠ 9♥ 9♦"),
        (2, "7♠ 7♥ 7♦ 3♣ 4♣ 5♣ 6♣"),
        (3, "3♣ 4♣ 5♣ 6♣ 9♦ 10♦ J♦ Q♦"),
        (4, "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ K♠ K♥ K♦"),
        (5, "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 6♣"),
        (6, "7♠ 7♥ 7♦ 3♣ 4♣ 5♣ 6♣ 9♦ 10♦ J♦ Q♦"),
    ],
)
@pytest.mark.parametrize("rules", PROFILES, ids=str)
def test_no_card_left_for_the_discard(round_number, text, rules):
    bare = solve(text, round_number, rules)
    assert not bare.legal
    assert "discard" in bare.reason
    assert solve(text + " 2♥", round_number, rules).legal


def test_exact_rules_lay_exactly_three_and_four():
    # Four 7s: the opening lays three of them, the fourth stays in hand.
    verdict = solve("7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦", 1)
    assert verdict.legal
    assert all(len(meld) == 3 for meld in verdict.details["melds"])
    assert len(verdict.details["left"]) == 1


def test_two_sets_of_one_rank():
    assert solve("7♠ 7♥ 7♦ 7♣ 7♠ 7♥ 2♣", 1).legal


def test_a_hand_that_cannot_open_says_why():
    verdict = solve("2♠ 5♥ 9♦ J♣ K♠ 3♥ 7♦ 10♣ Q♠ A♥ 4♦", 1)
    assert not verdict.legal
    assert verdict.reason.startswith("No 2 sets can be made")
    assert verdict.details == {
        "melds": [],
        "readings": [],
        "kinds": [],
        "left": ["2♠", "5♥", "9♦", "J♣", "K♠", "3♥", "7♦", "10♣", "Q♠", "A♥", "4♦"],
        "declared": [],
    }
    runs = solve("2♠ 5♥ 9♦ J♣ K♠ 3♥ 7♦ 10♣ Q♠ 9♥ 9♣", 3)
    assert not runs.legal
    assert "run" in runs.reason


def test_round_7_with_four_suits_is_refused_plainly():
    verdict = solve("A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♣ 10♣ J♣ Q♣ K♦", 7)
    assert not verdict.legal
    assert "4 suits" in verdict.reason


def test_online_round_1_with_eight_cards():
    assert solve("7♠ 7♥ 7♦ 9♠ 9♥ JK 3♣ 4♦", 1, PRESETS["online"]).legal


def test_hand_given_as_text():
    assert solve_opening("7s 7h 7d 9s 9h 9d 3c", 1, LIVERPOOL).legal


def test_empty_hand_is_a_plain_no():
    for round_number in range(1, 8):
        assert not solve_opening([], round_number, LIVERPOOL).legal


# ----- input that cannot be judged --------------------------------------------------------------


def test_copy_limits_follow_the_packs():
    with pytest.raises(CopyLimitError):
        solve_opening(hand_of("7♠ 7♠ 7♠ 9♠ 9♥ 9♦ 3♣"), 1, LIVERPOOL)
    with pytest.raises(CopyLimitError):
        solve_opening(hand_of("JK JK JK JK 9♠ 9♥ 9♦ 3♣"), 1, LIVERPOOL)
    with pytest.raises(CopyLimitError):
        solve_opening(hand_of("JK JK JK 9♠ 9♥ 9♦ 3♣"), 1, PRESETS["online"])
    # Family with 6 players shuffles 3 packs and 6 jokers.
    assert solve_opening(hand_of("7♠ 7♠ 7♠ 7♥ JK JK JK JK JK JK 3♣"), 1, PRESETS["family"], 6).legal
    with pytest.raises(CopyLimitError):
        solve_opening(hand_of("7♠ 7♠ 7♠ JK 3♣ 9♥ 9♦"), 1, PRESETS["family"], 4)


def test_size_limit():
    assert HAND_LIMIT == 30
    thirty = hand_of(
        "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ "
        "8♥ 9♥ 10♥ J♥ Q♥ K♥ A♦ 2♦ 3♦ 4♦"
    )
    assert solve_opening(thirty, 6, LIVERPOOL).legal
    with pytest.raises(SizeError, match="30"):
        solve_opening(thirty + hand_of("5♦"), 6, LIVERPOOL)


def test_rank_only_cards_and_bad_input_are_refused():
    with pytest.raises(RulesError, match="suit"):
        solve_opening([Card(7, None), Card(7, "S"), Card(7, "H")], 1, LIVERPOOL)
    with pytest.raises(RulesError):
        solve_opening(["not a card"], 1, LIVERPOOL)
    with pytest.raises(RulesError):
        solve_opening([object()], 1, LIVERPOOL)
    with pytest.raises(RoundError):
        solve_opening(hand_of("7♠ 7♥ 7♦"), 8, LIVERPOOL)
    with pytest.raises(SeatError):
        solve_opening(hand_of("7♠ 7♥ 7♦"), 1, PRESETS["liverpool"], 6)


def test_verdict_shape():
    verdict = solve_opening(hand_of("7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣"), 1, LIVERPOOL)
    data = verdict.to_dict()
    assert data["legal"] is True
    assert data["rule"] == "R5"
    assert set(data) == {
        "legal",
        "reason",
        "rule",
        "melds",
        "readings",
        "kinds",
        "left",
        "declared",
        "rule_line",
    }


@pytest.mark.parametrize(
    ("hand", "round_number", "rules", "players", "words", "rule"),
    [
        ("7♠ 7♥ 7♦ 9♠ 9♥ 9♦", 1, PRESETS["liverpool"], None, "needs at least 7 cards", "R5"),
        # One natural card for two melds: even one natural a meld is too few (R4).
        ("JK JK JK JK JK JK 7♠", 1, PRESETS["family"], 5, "needs at least 2 natural cards", "R4"),
        # Two sets with one natural card each would do; the family rules want two each.
        (
            "7♠ 7♥ 9♠ JK JK JK 2♣",
            1,
            PRESETS["family"],
            None,
            "family rules: a set needs 2 natural",
            "R11",
        ),
        (
            "5♠ JK JK 8♠ 6♥ 7♥ JK 9♥ 2♣ 3♣ 4♣ 5♣ 6♣",
            7,
            PRESETS["family"],
            None,
            "family rules: a run needs 3 natural cards",
            "R11",
        ),
        (
            "2♠ 5♥ 9♦ J♣ K♠ 3♥ 7♦ 10♣ Q♠ A♥ 4♦",
            1,
            PRESETS["liverpool"],
            None,
            "No 2 sets can be made",
            "R5",
        ),
        (
            "2♠ 5♥ 9♦ J♣ K♠ 3♥ 7♦ 10♣ Q♠ 9♥ 9♣",
            3,
            PRESETS["liverpool"],
            None,
            "No run can be made",
            "R5",
        ),
        (
            "A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♣ 10♣ J♣ Q♣ K♦",
            7,
            PRESETS["liverpool"],
            None,
            "in 4 suits",
            "R5",
        ),
        (
            "A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 7♥ 8♥ 9♣ 10♣ J♣ K♣ 2♥",
            7,
            PRESETS["liverpool"],
            None,
            "no way to split these 13 cards into 3 runs",
            "R5",
        ),
        # A set of 7s and a run through 7♣ each exist, but not both with the one 7♣.
        (
            "7♠ 7♥ 4♣ 5♣ 6♣ 7♣ K♦ 2♠",
            2,
            PRESETS["liverpool"],
            None,
            "at once, each card in one meld",
            "R5",
        ),
    ],
)
def test_every_refusal_names_its_condition_and_rule(
    hand, round_number, rules, players, words, rule
):
    verdict = solve_opening(hand, round_number, rules, players)
    assert verdict.legal is False
    assert words in verdict.reason
    assert verdict.rule == rule


def test_an_opening_only_the_bigger_melds_allow_cites_r11():
    # Family runs need 3 natural cards: 5♠ 7♠ 9♠ hold them only in a 5-card run.
    hand = "5♠ JK 7♠ JK 9♠ 2♥ 3♥ 4♥ 5♥ K♦"
    verdict = solve(hand, 3, PRESETS["family"])
    assert verdict.legal is True
    assert verdict.rule == "R11"
    assert verdict.reason.startswith("family rules allow opening melds above 3 and 4 cards.")
    assert verdict.details["melds"][0] == ["5♠", "JK", "7♠", "JK", "9♠"]
    # Two 4-card runs need no house rule.
    plain = solve("4♠ 5♠ 6♠ 7♠ 9♥ 10♥ J♥ Q♥ 2♣", 3, PRESETS["online"])
    assert plain.legal is True and plain.rule == "R5"


# ----- the search's values: Run and Refusal ---------------------------------------------------


def test_a_run_reads_as_its_cards_and_touches_as_r5_says():
    low = Run.of(0, 3, 6)  # 3♠-6♠
    assert repr(low) == "Run(3♠-6♠, need=0)"
    assert repr(Run.of(1, 10, 14, need=2, needs_overlap=True)) == (
        "Run(10♥-A♥, need=2, needs_overlap=True)"
    )
    assert low.touches(Run.of(0, 7, 10)) and Run.of(0, 7, 10).touches(low)
    assert not low.touches(Run.of(1, 7, 10))  # another suit
    assert not low.touches(Run.of(0, 8, 11))  # a gap
    assert not low.touches(Run.of(0, 5, 8))  # an overlap
    assert not Run.of(0, 1, 4).touches(Run.of(0, 11, 14))  # no wrap round the ace
    # One rule: every pair of same-suit runs touches exactly when opening.runs_touch says so.
    spans = [(lo, hi) for lo in range(1, 12) for hi in range(lo + 3, 15)]
    for lo1, hi1 in spans:
        for lo2, hi2 in spans:
            expected = runs_touch(lo1, hi1, lo2, hi2)
            assert Run.of(2, lo1, hi1).touches(Run.of(2, lo2, hi2)) is expected
    with pytest.raises(AttributeError):
        low.lo = 4  # frozen


def test_every_refusal_has_a_rule_and_a_message():
    search = Search(
        list(parse_cards("7♠ 7♥ 4♣ 5♣")), contract(2, LIVERPOOL), PRESETS["family"], 2, 4
    )
    for refusal in Refusal:
        problem = refusal.problem(search, contract(2, LIVERPOOL))
        assert problem.rule in {"R4", "R5"}
        assert f"{problem.rule}.{problem.line}" == refusal.rule
        assert problem.reason.endswith(".") and "{" not in problem.reason
    assert Refusal.NATURALS.problem(search, contract(2, LIVERPOOL)).reason == (
        "1 set + 1 run needs at least 5 natural cards (2 a set, 3 a run): "
        "this hand has 4 natural cards."
    )
    assert {r for r in Refusal if not r.turns_on_naturals} == {Refusal.SIZE, Refusal.SUITS}


@pytest.mark.parametrize("generator", [realistic_hand, crowded_hand, built_hand])
def test_a_refusal_under_house_minimums_is_the_one_both_searches_give(generator):
    """Where the rules raises the natural-card minimums, the answer is the rule's order: the
    house search refuses; then, if its reason turns on the minimums, the search with one natural a
    meld decides (its reason, or R11 if it opens). The solver may take the cheap checks with one
    natural a meld first, but never answers otherwise."""
    rng = random.Random(f"house-order-{generator.__name__}")
    family = PRESETS["family"]
    refused = 0
    for _ in range(150):
        round_number = rng.randint(1, 7)
        hand = generator(rng, PRESETS["family"], 6, round_number)
        verdict = solve_opening(hand, round_number, PRESETS["family"], 6)
        if verdict.legal:
            continue
        refused += 1
        deal = contract(round_number, LIVERPOOL)
        search = Search(hand, deal, family, family.pack_count(6), family.joker_count(6))
        found, refusal = solve_whole(search) if deal.whole_hand else search.solve_partial()
        assert found is None
        expected = refusal.problem(search, deal)
        if refusal.turns_on_naturals:
            relaxed = search.variant(1, 1, search.exact)
            found, refusal = solve_whole(relaxed) if deal.whole_hand else relaxed.solve_partial()
            if found is not None:
                assert verdict.rule == "R11"
                continue
            expected = refusal.problem(relaxed, deal)
        assert (verdict.reason, verdict.rule) == (expected.reason, expected.rule)
    assert refused >= 20
