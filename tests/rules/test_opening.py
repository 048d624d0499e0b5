"""R5 opening: the whole contract at once, exact sizes, no touching same-suit runs, the cards left."""

from __future__ import annotations

import random

import pytest

from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.errors import CopyLimitError, RoundError, RulesError, SeatError
from scorekeeper.rules.opening.laid import check_opening, runs_touch
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, RuleSet

PRESET_RULES = [PRESETS[name] for name in ("liverpool", "contract", "online", "family")]
EXACT = [PRESETS["liverpool"], PRESETS["contract"]]
LOOSE = [PRESETS["online"], PRESETS["family"]]


def opening(round_number: int, *melds: str, rules: RuleSet = LIVERPOOL, **options) -> dict:
    return check_opening(round_number, [parse_cards(m) for m in melds], rules, **options).to_dict()


# Worked cases from RULES.md


@pytest.mark.parametrize("rules", PRESET_RULES, ids=str)
def test_worked_round_1_two_sets_with_five_left(rules):
    verdict = opening(1, "7♠ 7♥ 7♦", "9♠ 9♥ 9♦", rules=rules, left=5)
    assert verdict["legal"] is True
    assert verdict["rule"] == "R5"
    assert verdict["melds"] == [["7♠", "7♥", "7♦"], ["9♠", "9♥", "9♦"]]
    assert verdict["kinds"] == ["set", "set"]
    assert verdict["jokers"] == [[], []]
    assert "5 cards left" in verdict["reason"]


@pytest.mark.parametrize("rules", PRESET_RULES, ids=str)
def test_worked_round_2_set_and_run_with_the_discard(rules):
    verdict = opening(2, "7♣ 7♦ 7♥", "3♠ 4♠ 5♠ 6♠", rules=rules)
    assert verdict["legal"] is True
    assert verdict["kinds"] == ["set", "run"]
    assert verdict["melds"] == [["7♣", "7♦", "7♥"], ["3♠", "4♠", "5♠", "6♠"]]
    assert sum(len(m) for m in verdict["melds"]) == 7


@pytest.mark.parametrize("rules", PRESET_RULES, ids=str)
def test_worked_contiguous_spade_runs_are_not_two_runs(rules):
    verdict = opening(3, "3♠ 4♠ 5♠ 6♠", "7♠ 8♠ 9♠ 10♠", rules=rules)
    assert verdict == {
        "legal": False,
        "reason": "3♠–6♠ and 7♠–10♠ touch in one suit, so they count as one run, not two",
        "rule": "R5",
        "melds": [],
        "kinds": [],
        "jokers": [],
        "declared": [],
        "rule_line": "R5.2",
        "code": "laid.touch",
    }


# Contiguity (R5)


@pytest.mark.parametrize(
    ("runs", "legal"),
    [
        (("3♠ 4♠ 5♠ 6♠", "8♠ 9♠ 10♠ J♠"), True),  # a gap
        (("3♠ 4♠ 5♠ 6♠", "5♠ 6♠ 7♠ 8♠"), True),  # overlap with the other pack's cards
        (("3♠ 4♠ 5♠ 6♠", "3♠ 4♠ 5♠ 6♠"), True),  # the same run twice, from two packs
        (("A♠ 2♠ 3♠ 4♠", "J♠ Q♠ K♠ A♠"), True),  # no wrap round the ace
        (("3♠ 4♠ 5♠ 6♠", "7♥ 8♥ 9♥ 10♥"), True),  # different suits may touch
        (("7♠ 8♠ 9♠ 10♠", "3♠ 4♠ 5♠ 6♠"), False),  # listed high first
        (("A♠ 2♠ 3♠ 4♠", "5♠ 6♠ 7♠ 8♠"), False),
        (("10♥ J♥ Q♥ K♥", "6♥ 7♥ 8♥ 9♥"), False),
    ],
)
def test_same_suit_runs_must_not_touch(runs, legal):
    assert opening(3, *runs)["legal"] is legal


@pytest.mark.parametrize(
    ("runs", "melds"),
    [
        # The first joker may be 2♠, leaving a gap at 6♠.
        (
            ("3♠ 4♠ 5♠ JK", "JK 8♠ 9♠ 10♠"),
            [["2♠", "3♠", "4♠", "5♠"], ["7♠", "8♠", "9♠", "10♠"]],
        ),
        (
            ("3♠ 4♠ 5♠ JK", "7♠ 8♠ 9♠ 10♠"),
            [["2♠", "3♠", "4♠", "5♠"], ["7♠", "8♠", "9♠", "10♠"]],
        ),
        # The joker may stand for 6♠, overlapping the first run.
        (
            ("3♠ 4♠ 5♠ 6♠", "7♠ 8♠ 9♠ JK"),
            [["3♠", "4♠", "5♠", "6♠"], ["6♠", "7♠", "8♠", "9♠"]],
        ),
        (
            ("3♠ 4♠ 5♠ 6♠", "JK 8♠ 9♠ 10♠"),
            [["3♠", "4♠", "5♠", "6♠"], ["8♠", "9♠", "10♠", "J♠"]],
        ),
        (
            ("JK 2♠ 3♠ 4♠", "5♠ 6♠ 7♠ 8♠"),
            [["2♠", "3♠", "4♠", "5♠"], ["5♠", "6♠", "7♠", "8♠"]],
        ),
    ],
)
def test_contiguity_holds_under_some_reading_of_the_jokers(runs, melds):
    verdict = opening(3, *runs)
    assert verdict["legal"] is True
    assert verdict["melds"] == melds


@pytest.mark.parametrize(
    ("runs", "reason"),
    [
        # A♠ 2♠ 3♠ JK can only be A♠–4♠.
        (
            ("A♠ 2♠ 3♠ JK", "5♠ 6♠ 7♠ 8♠"),
            "A♠–4♠ and 5♠–8♠ touch in one suit, so they count as one run, not two",
        ),
        # A declared joker fixes its place: no other reading to escape to.
        (
            ("3♠ 4♠ 5♠ JK=6♠", "7♠ 8♠ 9♠ 10♠"),
            "3♠–6♠ and 7♠–10♠ touch in one suit, so they count as one run, not two",
        ),
        (
            ("3♠ 4♠ 5♠ 6♠", "JK=7♠ 8♠ 9♠ 10♠"),
            "3♠–6♠ and 7♠–10♠ touch in one suit, so they count as one run, not two",
        ),
    ],
)
def test_touching_under_every_reading_is_illegal(runs, reason):
    verdict = opening(3, *runs)
    assert verdict["legal"] is False
    assert verdict["reason"] == reason


def test_touching_whichever_way_the_jokers_are_read():
    verdict = opening(7, "A♠ 2♠ 3♠ 4♠", "5♠ 6♠ 7♠ 8♠", "JK 10♥ J♥ Q♥", left=0)
    assert verdict["legal"] is False
    assert verdict["reason"] == (
        "A♠–4♠ and 5♠–8♠ touch in one suit, so they count as one run, not two, "
        "whichever way the jokers are read"
    )


@pytest.mark.parametrize(
    ("lo1", "hi1", "lo2", "hi2", "touch"),
    [
        (3, 6, 7, 10, True),
        (7, 10, 3, 6, True),
        (1, 4, 5, 8, True),
        (10, 13, 14, 14, True),
        (3, 6, 8, 11, False),
        (3, 6, 5, 8, False),
        (3, 6, 3, 6, False),
        (1, 4, 11, 14, False),
        (11, 14, 1, 4, False),
        (2, 5, 6, 14, True),
    ],
)
def test_runs_touch(lo1, hi1, lo2, hi2, touch):
    assert runs_touch(lo1, hi1, lo2, hi2) is touch


# The contract (R3) and whole-contract opening (R5)


@pytest.mark.parametrize(
    ("round_number", "melds", "reason"),
    [
        (2, ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦"), "Round 2 needs 1 set + 1 run; you laid 2 sets"),
        (1, ("7♣ 7♦ 7♥", "3♠ 4♠ 5♠ 6♠"), "Round 1 needs 2 sets; you laid 1 set + 1 run"),
        (3, ("7♣ 7♦ 7♥", "3♠ 4♠ 5♠ 6♠"), "Round 3 needs 2 runs; you laid 1 set + 1 run"),
        (
            4,
            ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦", "3♠ 4♠ 5♠ 6♠"),
            "Round 4 needs 3 sets; you laid 2 sets + 1 run",
        ),
        (
            6,
            ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦", "3♠ 4♠ 5♠ 6♠"),
            "Round 6 needs 1 set + 2 runs; you laid 2 sets + 1 run",
        ),
        (
            3,
            ("7♠ JK JK JK", "9♠ 9♥ 9♦"),
            "Round 3 needs 2 runs; you laid 1 set + 1 run or 2 sets",
        ),
    ],
)
def test_the_contract_decides_the_kinds(round_number, melds, reason):
    verdict = opening(round_number, *melds)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R3"
    assert verdict["reason"] == reason
    assert verdict["melds"] == verdict["kinds"] == verdict["jokers"] == []


def test_a_meld_read_either_way_fills_the_missing_kind():
    verdict = opening(2, "9♠ 9♥ 9♦", "7♠ JK JK JK")
    assert verdict["legal"] is True
    assert verdict["kinds"] == ["set", "run"]
    assert verdict["melds"][1] == ["4♠", "5♠", "6♠", "7♠"]
    assert verdict["jokers"] == [[], ["4♠", "5♠", "6♠"]]


@pytest.mark.parametrize(
    ("round_number", "melds", "reason"),
    [
        (
            2,
            ("7♣ 7♦ 7♥",),
            "Round 2 needs 1 set + 1 run laid together; you laid 1 meld, and an opening is never piecemeal",
        ),
        (
            1,
            ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦", "K♠ K♥ K♦"),
            "Round 1 needs 2 sets laid together; you laid 3 melds, and no extra melds are allowed",
        ),
        (
            5,
            (),
            "Round 5 needs 2 sets + 1 run laid together; you laid 0 melds, and an opening is never piecemeal",
        ),
    ],
)
def test_no_piecemeal_and_no_extra_melds(round_number, melds, reason):
    for rules in PRESET_RULES:
        verdict = opening(round_number, *melds, rules=rules)
        assert verdict["legal"] is False
        assert verdict["rule"] == "R5"
        assert verdict["reason"] == reason


@pytest.mark.parametrize(
    ("round_number", "melds"),
    [
        (1, ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦")),
        (2, ("7♣ 7♦ 7♥", "3♠ 4♠ 5♠ 6♠")),
        (3, ("3♠ 4♠ 5♠ 6♠", "8♥ 9♥ 10♥ J♥")),
        (4, ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦", "K♠ K♥ K♦")),
        (5, ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦", "3♠ 4♠ 5♠ 6♠")),
        (6, ("7♣ 7♦ 7♥", "3♠ 4♠ 5♠ 6♠", "8♠ 9♠ 10♠ J♠")),
    ],
)
def test_every_contract_of_rounds_1_to_6(round_number, melds):
    for rules in PRESET_RULES:
        assert opening(round_number, *melds, rules=rules, left=1)["legal"] is True
    shuffled = tuple(reversed(melds))
    if round_number in (1, 4):
        assert opening(round_number, *shuffled)["legal"] is True


# Exact sizes (R5, R11)


@pytest.mark.parametrize(
    ("round_number", "melds", "reason"),
    [
        (
            1,
            ("7♣ 7♦ 7♥ 7♠", "9♠ 9♥ 9♦"),
            "A set in the opening is exactly 3 cards (R5); 7♣ 7♦ 7♥ 7♠ has 4",
        ),
        (
            2,
            ("7♣ 7♦ 7♥", "3♠ 4♠ 5♠ 6♠ 7♠"),
            "A run in the opening is exactly 4 cards (R5); 3♠ 4♠ 5♠ 6♠ 7♠ has 5",
        ),
        (
            2,
            ("7♣ 7♦ 7♥ JK", "3♠ 4♠ 5♠ 6♠"),
            "A set in the opening is exactly 3 cards (R5); 7♣ 7♦ 7♥ JK has 4",
        ),
        (
            1,
            ("7♠ JK JK JK", "9♠ 9♥ 9♦"),
            "A set in the opening is exactly 3 cards (R5); 7♠ JK JK JK has 4",
        ),
        (
            2,
            ("7♠ JK JK JK", "9♠ 9♥ 9♦ 9♣"),
            "A set in the opening is exactly 3 cards (R5); 9♠ 9♥ 9♦ 9♣ has 4",
        ),
    ],
)
def test_exact_size_openings_in_liverpool_and_contract(round_number, melds, reason):
    for rules in EXACT:
        verdict = opening(round_number, *melds, rules=rules)
        assert verdict["legal"] is False
        assert verdict["rule"] == "R5"
        assert verdict["reason"] == reason
    if "JK JK JK" not in " ".join(melds):  # online has 2 jokers; family needs 2 naturals a set
        for rules in LOOSE:
            assert opening(round_number, *melds, rules=rules)["legal"] is True


def test_longer_melds_are_reported_as_laid_in_loose_rules():
    verdict = opening(2, "7♣ 7♦ 7♥ 7♥ 7♠", "3♠ 4♠ 5♠ 6♠ 7♠ 8♠", rules=PRESETS["online"])
    assert verdict["melds"] == [
        ["7♣", "7♦", "7♥", "7♥", "7♠"],
        ["3♠", "4♠", "5♠", "6♠", "7♠", "8♠"],
    ]


# Bad melds (R4) and naturals (R11)


@pytest.mark.parametrize(
    ("round_number", "melds", "reason"),
    [
        (
            3,
            ("K♠ A♠ 2♠ 3♠", "5♥ 6♥ 7♥ 8♥"),
            "K♠ A♠ 2♠ 3♠ wraps around the ace: an ace is low (A 2 3 4) or high (J Q K A), never both",
        ),
        (1, ("7♠ 7♥", "9♠ 9♥ 9♦"), "7♠ 7♥: a set needs at least 3 cards; this has 2"),
        (2, ("7♣ 7♦ 7♥", "7♠ 8♥ 9♠ 10♠"), "7♠ 8♥ 9♠ 10♠ mixes suits: a run is one suit"),
        (1, ("JK JK JK", "9♠ 9♥ 9♦"), "JK JK JK has no natural card: a meld needs at least one"),
    ],
)
def test_a_bad_meld_cites_r4(round_number, melds, reason):
    verdict = opening(round_number, *melds)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R4"
    assert verdict["reason"] == reason


@pytest.mark.parametrize(
    ("melds", "family"),
    [
        (("7♣ 7♦ JK", "3♠ 4♠ 5♠ JK"), True),
        (("7♣ JK JK", "3♠ 4♠ 5♠ 6♠"), False),
        (("7♣ 7♦ 7♥", "3♠ 4♠ JK JK"), False),
        (("7♣ 7♦ 7♥", "3♠ 4♠ JK 6♠"), True),
    ],
)
def test_family_natural_cards(melds, family):
    assert opening(2, *melds)["legal"] is True
    verdict = opening(2, *melds, rules=PRESETS["family"])
    assert verdict["legal"] is family
    if not family:
        # The house rule decides: R11 with the rules named, never R4.
        assert verdict["rule"] == "R11"
        assert verdict["reason"].startswith("family rules: a ")


def test_family_round_7_run_short_of_naturals_is_judged_as_a_run():
    # Round 7 has no sets: the reason is the family run minimum, not a set's.
    verdict = opening(7, "5♠ JK JK JK", "6♥ 7♥ 8♥ 9♥", "2♣ 3♣ 4♣ 5♣ 6♣", rules=PRESETS["family"])
    assert verdict["legal"] is False
    assert verdict["rule"] == "R11"
    assert verdict["reason"] == "family rules: a run needs 3 natural cards; 5♠ JK JK JK has 1"


@pytest.mark.parametrize(
    ("round_number", "melds", "reason"),
    [
        # Only sets in rounds 1 and 4, only runs in rounds 3 and 7: the meld is judged as the
        # kind the contract lays.
        (1, ("7♠ 8♥", "9♠ 9♥ 9♦"), "7♠ 8♥ mixes ranks: a set is cards of one rank"),
        (3, ("7♠ 7♥", "5♥ 6♥ 7♥ 8♥"), "7♠ 7♥ mixes suits: a run is one suit"),
        (
            7,
            ("7♠ JK", "5♥ 6♥ 7♥ 8♥", "9♣ 10♣ J♣ Q♣ K♣"),
            "7♠ JK: a run needs at least 4 cards; this has 2",
        ),
        (
            2,
            ("7♠ JK", "5♥ 6♥ 7♥ 8♥"),
            "7♠ JK: a meld needs at least 3 cards (a set) or 4 (a run); this has 2",
        ),
    ],
)
def test_a_bad_meld_is_judged_as_the_kinds_the_contract_lays(round_number, melds, reason):
    verdict = opening(round_number, *melds)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R4"
    assert verdict["reason"] == reason


@pytest.mark.parametrize("name", ["online", "family"])
def test_a_bigger_opening_meld_is_legal_by_the_house_rule(name):
    rules = PRESETS[name]
    verdict = opening(1, "7♣ 7♦ 7♥ 7♠", "9♠ 9♥ 9♦", rules=rules)
    assert verdict["legal"] is True
    assert verdict["rule"] == "R11"
    assert verdict["reason"].startswith(
        f"{name} rules allow opening melds above 3 and 4 cards. A legal opening for round 1"
    )
    exact = opening(1, "7♣ 7♦ 7♥", "9♠ 9♥ 9♦", rules=rules)
    assert exact["legal"] is True and exact["rule"] == "R5"


# Round 7 (R5)


def test_round_7_three_runs_using_the_whole_hand():
    verdict = opening(7, "3♠ 4♠ 5♠ 6♠ 7♠", "9♠ 10♠ J♠ Q♠", "A♥ 2♥ 3♥ 4♥", left=0)
    assert verdict["legal"] is True
    assert verdict["kinds"] == ["run", "run", "run"]
    assert [len(m) for m in verdict["melds"]] == [5, 4, 4]


@pytest.mark.parametrize("rules", PRESET_RULES, ids=str)
def test_round_7_runs_may_be_longer_in_every_rule_set(rules):
    melds = ("2♦ 3♦ 4♦ 5♦ 6♦ 7♦", "8♣ 9♣ 10♣ J♣ Q♣", "J♥ Q♥ K♥ A♥")
    assert opening(7, *melds, rules=rules, left=0)["legal"] is True


@pytest.mark.parametrize(
    ("melds", "left", "rule", "reason"),
    [
        (
            ("3♠ 4♠ 5♠ 6♠ 7♠", "9♠ 10♠ J♠ Q♠", "A♥ 2♥ 3♥ 4♥"),
            1,
            "R5",
            "Round 7 lays the whole hand at once with no discard, but 1 card would be left",
        ),
        (
            ("3♠ 4♠ 5♠ 6♠ 7♠", "7♥ 7♦ 7♣", "A♥ 2♥ 3♥ 4♥"),
            0,
            "R3",
            "Round 7 needs 3 runs; you laid 1 set + 2 runs",
        ),
        (
            ("3♠ 4♠ 5♠ 6♠ 7♠", "8♠ 9♠ 10♠ J♠ Q♠", "A♥ 2♥ 3♥ 4♥"),
            0,
            "R5",
            "3♠–7♠ and 8♠–Q♠ touch in one suit, so they count as one run, not two",
        ),
        (
            ("3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", "A♥ 2♥ 3♥ 4♥ 5♥"),
            0,
            "R5",
            "Round 7 needs 3 runs laid together; you laid 2 melds, "
            "and an opening is never piecemeal",
        ),
        (
            ("3♠ 4♠ 5♠", "9♠ 10♠ J♠ Q♠ K♠", "A♥ 2♥ 3♥ 4♥ 5♥"),
            0,
            "R4",
            "a run needs at least 4 cards; this has 3",
        ),
    ],
)
def test_round_7_refusals(melds, left, rule, reason):
    verdict = opening(7, *melds, left=left)
    assert verdict["legal"] is False
    assert verdict["rule"] == rule
    assert verdict["reason"].endswith(reason)


# Cards left in hand (R5)


@pytest.mark.parametrize("round_number", [1, 4])
def test_rounds_1_to_6_keep_a_card_for_the_discard(round_number):
    melds = ("7♣ 7♦ 7♥", "9♠ 9♥ 9♦", "K♠ K♥ K♦")[: 2 if round_number == 1 else 3]
    assert opening(round_number, *melds, left=1)["legal"] is True
    verdict = opening(round_number, *melds, left=0)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R5"
    assert verdict["reason"] == (
        "After opening you must still hold a card for the discard that ends the turn; "
        "none would be left"
    )


@pytest.mark.parametrize("left", [-1, 1.5, "2", True])
def test_a_bad_left_count_raises(left):
    with pytest.raises(RulesError):
        check_opening(1, [parse_cards("7♣ 7♦ 7♥"), parse_cards("9♠ 9♥ 9♦")], LIVERPOOL, left=left)


# Copy limits (R1) and input checks


@pytest.mark.parametrize(
    ("round_number", "melds"),
    [
        (1, ("7♠ 7♠ 7♥", "7♠ 7♦ 7♣")),
        (4, ("7♠ 7♥ JK", "9♠ JK JK", "K♠ K♥ JK")),
        (3, ("3♠ 4♠ 5♠ 6♠", "3♠ 4♠ 5♠ 6♠", "3♠ 4♠ 5♠ 6♠")),
    ],
)
def test_copy_limits_across_the_melds(round_number, melds):
    with pytest.raises(CopyLimitError):
        opening(round_number, *melds)


def test_a_third_copy_is_fine_with_three_packs():
    assert opening(1, "7♠ 7♠ 7♥", "7♠ 7♦ 7♣", rules=PRESETS["family"], players=5)["legal"] is True


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"round_number": 0}, RoundError),
        ({"round_number": 8}, RoundError),
        ({"round_number": 1, "players": 5}, SeatError),
        ({"round_number": 1, "rules": PRESETS["online"], "players": 9}, SeatError),
    ],
)
def test_bad_input_raises(args, error):
    with pytest.raises(error):
        check_opening(
            melds=[parse_cards("7♣ 7♦ 7♥"), parse_cards("9♠ 9♥ 9♦")], **{"rules": LIVERPOOL, **args}
        )


def test_order_inside_each_meld_does_not_matter():
    cases = [
        (3, ("3♠ 4♠ 5♠ JK", "JK 8♠ 9♠ 10♠")),
        (2, ("9♠ 9♥ 9♦", "7♠ JK JK JK")),
        (3, ("3♠ 4♠ 5♠ 6♠", "7♠ 8♠ 9♠ 10♠")),
        (7, ("3♠ 4♠ 5♠ 6♠ 7♠", "9♠ 10♠ J♠ Q♠", "A♥ 2♥ 3♥ 4♥")),
    ]
    shuffler = random.Random(7)
    for round_number, melds in cases:
        cards = [list(parse_cards(m)) for m in melds]
        expected = unordered(check_opening(round_number, cards, LIVERPOOL).to_dict())
        for _ in range(5):
            for meld in cards:
                shuffler.shuffle(meld)
            assert unordered(check_opening(round_number, cards, LIVERPOOL).to_dict()) == expected


def unordered(verdict: dict) -> dict:
    """The verdict without its reason, a set's cards sorted (a set is shown as listed)."""
    melds, declared = (
        [
            sorted(meld) if kind == "set" else meld
            for kind, meld in zip(verdict["kinds"], verdict[field], strict=True)
        ]
        for field in ("melds", "declared")
    )
    return {**verdict, "reason": None, "melds": melds, "declared": declared}


def test_legal_reason_names_the_contract_and_the_readings():
    verdict = opening(3, "3♠ 4♠ 5♠ JK", "JK 8♠ 9♠ 10♠", left=2)
    assert verdict["reason"] == (
        "A legal opening for round 3 (2 runs): run 2♠ 3♠ 4♠ 5♠ (joker 2♠), "
        "run 7♠ 8♠ 9♠ 10♠ (joker 7♠), with 2 cards left for the discard"
    )
