"""R4 melds: readings of sets and runs, jokers, aces, copy limits and the reasons a player reads."""

from __future__ import annotations

import random

import pytest

from scorekeeper.rules.cards import Card, parse_cards
from scorekeeper.rules.errors import CopyLimitError, RulesError
from scorekeeper.rules.melds import Meld, Reading, check_meld, meld_readings
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, RuleSet

SPADES_A_TO_K = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"
FULL_RUN = ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠", "10♠", "J♠", "Q♠", "K♠", "A♠"]


def judge(text: str, rules: RuleSet = LIVERPOOL, players: int | None = None) -> dict:
    return check_meld(parse_cards(text), rules, players).to_dict()


def test_the_briefs_example_exactly():
    verdict = judge("5♠ 6♠ JK 8♠")
    assert verdict == {
        "legal": True,
        "reason": verdict["reason"],
        "rule": "R4",
        "kind": "run",
        "kinds": ["run"],
        "readings": [["5♠", "6♠", "7♠", "8♠"]],
        "jokers": [["7♠"]],
        "declared": [["5♠", "6♠", "JK=7♠", "8♠"]],
        "rule_line": "R4.3",
    }
    assert "7♠" in verdict["reason"]


@pytest.mark.parametrize(
    ("text", "readings", "jokers"),
    [
        ("A♠ 2♠ 3♠ 4♠", [["A♠", "2♠", "3♠", "4♠"]], [[]]),
        ("J♠ Q♠ K♠ A♠", [["J♠", "Q♠", "K♠", "A♠"]], [[]]),
        ("4♠ A♠ 3♠ 2♠", [["A♠", "2♠", "3♠", "4♠"]], [[]]),
        ("A♠ K♠ Q♠ J♠", [["J♠", "Q♠", "K♠", "A♠"]], [[]]),
        ("2♥ 3♥ 4♥ 5♥ 6♥", [["2♥", "3♥", "4♥", "5♥", "6♥"]], [[]]),
        (
            "5♠ 6♠ 7♠ JK",
            [["4♠", "5♠", "6♠", "7♠"], ["5♠", "6♠", "7♠", "8♠"]],
            [["4♠"], ["8♠"]],
        ),
        ("5♠ 6♠ 7♠ JK=8♠", [["5♠", "6♠", "7♠", "8♠"]], [["8♠"]]),
        ("5♠ 6♠ 7♠ JK=4♠", [["4♠", "5♠", "6♠", "7♠"]], [["4♠"]]),
        ("5♠ 6♠ JK=7 8♠", [["5♠", "6♠", "7♠", "8♠"]], [["7♠"]]),
        ("JK=A♠ 2♠ 3♠ 4♠", [["A♠", "2♠", "3♠", "4♠"]], [["A♠"]]),
        ("J♠ Q♠ K♠ JK=A♠", [["J♠", "Q♠", "K♠", "A♠"]], [["A♠"]]),
        ("J♠ Q♠ K♠ JK=A", [["J♠", "Q♠", "K♠", "A♠"]], [["A♠"]]),
        ("JK 2♠ 3♠ 4♠", [["A♠", "2♠", "3♠", "4♠"], ["2♠", "3♠", "4♠", "5♠"]], [["A♠"], ["5♠"]]),
        (
            "Q♥ K♥ JK JK",
            [["10♥", "J♥", "Q♥", "K♥"], ["J♥", "Q♥", "K♥", "A♥"]],
            [["10♥", "J♥"], ["J♥", "A♥"]],
        ),
        (
            "3♦ JK 5♦ JK",
            [["2♦", "3♦", "4♦", "5♦"], ["3♦", "4♦", "5♦", "6♦"]],
            [["2♦", "4♦"], ["4♦", "6♦"]],
        ),
        ("3♣ JK JK 6♣", [["3♣", "4♣", "5♣", "6♣"]], [["4♣", "5♣"]]),
    ],
)
def test_runs_every_reading_low_to_high(text, readings, jokers):
    verdict = judge(text)
    assert verdict["legal"] is True
    assert verdict["readings"] == readings
    assert verdict["jokers"] == jokers
    assert verdict["kinds"] == ["run"] * len(readings)
    assert verdict["kind"] == "run"


@pytest.mark.parametrize(
    ("text", "reading", "jokers"),
    [
        ("7♠ 7♥ 7♦", ["7♠", "7♥", "7♦"], []),
        ("7♠ 7♠ 7♥", ["7♠", "7♠", "7♥"], []),
        ("7♦ 7♠ 7♥", ["7♦", "7♠", "7♥"], []),
        ("7♣ 7♦ 7♥ 7♠ 7♠", ["7♣", "7♦", "7♥", "7♠", "7♠"], []),
        ("7♠ 7♥ JK", ["7♠", "7♥", "7"], ["7"]),
        ("JK 7♥ 7♠", ["7", "7♥", "7♠"], ["7"]),
        ("7♠ 7♥ JK=7", ["7♠", "7♥", "7"], ["7"]),
        ("Q♠ JK JK", ["Q♠", "Q", "Q"], ["Q", "Q"]),
        ("A♠ A♥ JK", ["A♠", "A♥", "A"], ["A"]),
        ("2♣ 2♣ 2♦", ["2♣", "2♣", "2♦"], []),
    ],
)
def test_sets_one_rank_suits_free_duplicates_allowed(text, reading, jokers):
    """A set is shown as listed, each joker replaced by its rank."""
    verdict = judge(text)
    assert verdict["legal"] is True
    assert verdict["kind"] == "set"
    assert verdict["kinds"] == ["set"]
    assert verdict["readings"] == [reading]
    assert verdict["jokers"] == [jokers]


def test_deuces_are_natural_not_wild():
    verdict = judge("2♠ 5♠ 6♠ 7♠")
    assert verdict["legal"] is False
    assert "not consecutive" in verdict["reason"]


def test_one_meld_can_read_as_a_set_or_a_run():
    verdict = judge("7♠ JK JK JK")
    assert verdict["legal"] is True
    assert verdict["kind"] == "set"
    assert verdict["kinds"] == ["set", "run", "run", "run", "run"]
    assert verdict["readings"] == [
        ["7♠", "7", "7", "7"],
        ["4♠", "5♠", "6♠", "7♠"],
        ["5♠", "6♠", "7♠", "8♠"],
        ["6♠", "7♠", "8♠", "9♠"],
        ["7♠", "8♠", "9♠", "10♠"],
    ]
    assert verdict["jokers"][0] == ["7", "7", "7"]
    assert verdict["jokers"][2] == ["5♠", "6♠", "8♠"]
    assert "set or run" in verdict["reason"]


def test_a_lone_ace_with_jokers_reads_low_and_high():
    verdict = judge("A♠ JK JK JK")
    assert verdict["readings"] == [
        ["A♠", "A", "A", "A"],
        ["A♠", "2♠", "3♠", "4♠"],
        ["J♠", "Q♠", "K♠", "A♠"],
    ]


def test_the_fourteen_card_run_has_an_ace_at_each_end():
    verdict = judge(SPADES_A_TO_K + " A♠")
    assert verdict["legal"] is True
    assert verdict["readings"] == [FULL_RUN]
    assert verdict["jokers"] == [[]]


def test_a_joker_completing_the_fourteen_card_run_is_one_reading():
    # The natural ace low with the joker high, or the other way round, shows the same cards.
    verdict = judge(SPADES_A_TO_K + " JK")
    assert verdict["readings"] == [FULL_RUN]
    assert verdict["jokers"] == [["A♠"]]


def test_a_thirteen_card_run_with_one_ace_reads_either_way():
    verdict = judge(SPADES_A_TO_K)
    assert verdict["readings"] == [FULL_RUN[:13], FULL_RUN[1:]]


def test_a_joker_inside_the_fourteen_card_run():
    verdict = judge("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ JK 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠")
    assert verdict["readings"] == [FULL_RUN]
    assert verdict["jokers"] == [["7♠"]]


@pytest.mark.parametrize(
    ("text", "name", "reason"),
    [
        (
            "K♠ A♠ 2♠ 3♠",
            None,
            "K♠ A♠ 2♠ 3♠ wraps around the ace: an ace is low (A 2 3 4) or high (J Q K A), never both",
        ),
        (
            "Q♠ K♠ JK 2♠ 3♠",
            None,
            "Q♠ K♠ JK 2♠ 3♠ wraps around the ace: an ace is low (A 2 3 4) or high (J Q K A), never both",
        ),
        ("7♠ 8♥ 9♠ 10♠", None, "7♠ 8♥ 9♠ 10♠ mixes suits: a run is one suit"),
        (
            "7♠ 7♥ 8♠",
            None,
            "7♠ 7♥ 8♠ mixes ranks and suits: a set is one rank and a run is one suit",
        ),
        ("7♠ 7♥", None, "a set needs at least 3 cards; this has 2"),
        ("7♠ JK", None, "a meld needs at least 3 cards (a set) or 4 (a run); this has 2"),
        ("JK JK JK", None, "JK JK JK has no natural card: a meld needs at least one"),
        (
            "JK=7♠ JK=8♠ JK=9♠",
            None,
            "JK=7♠ JK=8♠ JK=9♠ has no natural card: a meld needs at least one",
        ),
        ("", None, "a meld needs cards; none were given"),
        ("5♠ 6♠ 7♠", None, "a run needs at least 4 cards; this has 3"),
        ("7♠ JK JK", "family", "family rules: a set needs 2 natural cards; 7♠ JK JK has 1"),
        (
            "5♠ 6♠ JK JK",
            "family",
            "family rules: a run needs 3 natural cards; 5♠ 6♠ JK JK has 2",
        ),
        (
            "5♠ JK JK JK",
            "family",
            "family rules: a set needs 2 natural cards and a run 3; 5♠ JK JK JK has 1",
        ),
        (
            "7♠ JK=8 JK",
            None,
            "as a set, JK=8 is declared as 8, but 7♠ JK=8 JK is a set of 7s; "
            "as a run, a run needs at least 4 cards; this has 3",
        ),
        ("5♠ 6♠ 6♠ 7♠", None, "5♠ 6♠ 6♠ 7♠ has 6♠ twice: a run holds each card once"),
        (
            "5♠ JK=6♠ 6♠ 7♠",
            None,
            "JK=6♠ stands for 6♠, which 5♠ JK=6♠ 6♠ 7♠ already has: a run holds each card once",
        ),
        (
            "A♠ A♠ 2♠ 3♠",
            None,
            "A♠ A♠ 2♠ 3♠ has 2 aces: only a 14-card run A 2 … K A has an ace at each end",
        ),
        (
            "5♠ 6♠ 9♠ 10♠",
            None,
            "5♠ 6♠ 9♠ 10♠ is not consecutive: 5♠–10♠ needs 6 cards and it has 4; "
            "a joker fills only one missing card",
        ),
        (
            "5♠ 6♠ JK 9♠ 10♠",
            None,
            "5♠ 6♠ JK 9♠ 10♠ is not consecutive: 5♠–10♠ needs 6 cards and it has 5; "
            "a joker fills only one missing card",
        ),
        (
            "A♠ 2♠ 3♠ 9♠",
            None,
            "A♠ 2♠ 3♠ 9♠ is not consecutive: A♠–9♠ needs 9 cards and it has 4; "
            "a joker fills only one missing card",
        ),
        ("7♠ 8♠ 9♠ JK=10♥", None, "JK=10♥ is declared as 10♥, but 7♠ 8♠ 9♠ JK=10♥ is in spades"),
        (
            "5♠ 6♠ 7♠ JK=10♠",
            None,
            "5♠ 6♠ 7♠ JK=10♠ is not consecutive: 5♠–10♠ needs 6 cards and it has 4; "
            "a joker fills only one missing card",
        ),
        ("7♠ 7♥ JK=8", None, "JK=8 is declared as 8, but 7♠ 7♥ JK=8 is a set of 7s"),
        ("K♠ K♥ JK=Q♠", None, "JK=Q♠ is declared as Q♠, but K♠ K♥ JK=Q♠ is a set of kings"),
    ],
)
def test_illegal_melds_name_the_problem(text, name, reason):
    verdict = judge(text, PRESETS[name or "liverpool"])
    assert verdict["legal"] is False
    # Only the family rules' natural-card minimums are a house rule (R11, rules named).
    assert verdict["rule"] == ("R11" if name == "family" else "R4")
    assert verdict["kind"] is None
    assert verdict["kinds"] == []
    assert verdict["readings"] == []
    assert verdict["jokers"] == []
    assert verdict["reason"] == reason


def test_a_fifteenth_card_is_refused():
    verdict = judge(SPADES_A_TO_K + " A♠ JK")
    assert verdict["legal"] is False
    assert verdict["reason"] == "a run holds at most 14 cards (A 2 … K A); this has 15"
    assert verdict["rule"] == "R4"


def test_nothing_goes_past_an_ace():
    assert judge("Q♠ K♠ A♠ 2♠")["legal"] is False
    assert judge("K♠ A♠ JK JK")["readings"] == [["J♠", "Q♠", "K♠", "A♠"]]
    assert judge("A♠ 2♠ JK JK")["readings"] == [["A♠", "2♠", "3♠", "4♠"]]


@pytest.mark.parametrize(
    ("text", "liverpool", "family"),
    [
        ("7♠ 7♥ JK", True, True),
        ("7♠ JK JK", True, False),
        ("5♠ 6♠ 7♠ JK", True, True),
        ("5♠ 6♠ JK JK", True, False),
        ("5♠ JK 7♠ JK", True, False),
        ("5♠ JK JK JK", True, False),
    ],
)
def test_family_rules_need_more_natural_cards(text, liverpool, family):
    assert judge(text)["legal"] is liverpool
    assert judge(text, PRESETS["contract"])["legal"] is liverpool
    if text.count("JK") <= 2:  # the online game has only 2 jokers
        assert judge(text, PRESETS["online"])["legal"] is liverpool
    assert judge(text, PRESETS["family"])["legal"] is family


def test_declared_joker_fixes_the_reading():
    assert len(judge("5♠ 6♠ 7♠ JK")["readings"]) == 2
    assert judge("5♠ 6♠ 7♠ JK=8♠")["jokers"] == [["8♠"]]
    # In a set a joker declared as 8♠ stands for an 8: suits are free.
    assert judge("8♠ 8♥ JK=8♠")["readings"] == [["8♠", "8♥", "8"]]


def test_undeclared_jokers_are_interchangeable():
    verdict = judge("5♠ JK JK JK")
    assert verdict["readings"] == [
        ["5♠", "5", "5", "5"],
        ["2♠", "3♠", "4♠", "5♠"],
        ["3♠", "4♠", "5♠", "6♠"],
        ["4♠", "5♠", "6♠", "7♠"],
        ["5♠", "6♠", "7♠", "8♠"],
    ]


@pytest.mark.parametrize(
    "text",
    [
        "5♠ 6♠ 7♠ JK",
        "7♠ JK JK JK",
        "JK 2♠ 3♠ 4♠",
        "7♣ 7♦ 7♥ 7♠ JK",
        "K♠ A♠ 2♠ 3♠",
        "Q♥ K♥ JK JK",
        SPADES_A_TO_K + " JK",
        "7♠ 8♥ 9♠ 10♠",
    ],
)
def test_listing_order_does_not_matter(text):
    cards = list(parse_cards(text))
    expected = unordered(check_meld(cards, LIVERPOOL).to_dict())
    shuffler = random.Random(text)
    for _ in range(6):
        shuffler.shuffle(cards)
        assert unordered(check_meld(cards, LIVERPOOL).to_dict()) == expected


def unordered(verdict: dict) -> dict:
    """The verdict without its reason, a set's cards sorted (a set is shown as listed)."""
    readings, declared = (
        [
            sorted(reading) if kind == "set" else reading
            for kind, reading in zip(verdict["kinds"], verdict[field], strict=True)
        ]
        for field in ("readings", "declared")
    )
    return {**verdict, "reason": None, "readings": readings, "declared": declared}


@pytest.mark.parametrize(
    ("text", "rules", "players"),
    [
        ("7♠ 7♠ 7♠", LIVERPOOL, None),
        ("7♠ JK JK JK JK", LIVERPOOL, None),
        ("7♠ JK JK JK", PRESETS["online"], 4),
        ("7♠ 7♠ 7♠", PRESETS["family"], 4),
    ],
)
def test_copy_limits_raise(text, rules, players):
    with pytest.raises(CopyLimitError):
        check_meld(parse_cards(text), rules, players)


def test_copy_limits_grow_with_the_packs():
    assert judge("7♠ 7♠ 7♠", PRESETS["family"], 5)["legal"] is True
    assert judge("7♠ 7♥ JK JK JK JK JK JK", PRESETS["family"], 5)["legal"] is True
    with pytest.raises(CopyLimitError):
        check_meld(parse_cards("7♠ 7♥ JK JK JK JK JK"), PRESETS["family"], 4)
    assert judge("7♠ JK JK JK")["legal"] is True


def test_a_card_without_a_suit_cannot_be_placed():
    with pytest.raises(RulesError):
        meld_readings([Card(7, None), Card(7, "S"), Card(7, "H")], LIVERPOOL)


def test_readings_use_the_rules():
    cards = parse_cards("7♠ JK JK")
    assert [r.kind for r in meld_readings(cards, LIVERPOOL)] == ["set"]
    assert meld_readings(cards, PRESETS["family"]) == []


def test_reading_value_object():
    [low, high] = meld_readings(parse_cards("7♠ 5♠ JK 6♠"), LIVERPOOL)
    assert isinstance(low, Reading)
    assert (low.kind, low.low, low.high, low.suit) == ("run", 4, 7, "S")
    assert low.slots == parse_cards("JK 5♠ 6♠ 7♠")
    assert low.jokers == (Card(4, "S"),)
    assert low.cards() == parse_cards("4♠ 5♠ 6♠ 7♠")
    assert low.span() == "4♠–7♠"
    assert str(high) == "5♠ 6♠ 7♠ 8♠ (joker 8♠)"
    [as_set] = meld_readings(parse_cards("9♦ JK 9♠"), LIVERPOOL)
    assert (as_set.kind, as_set.suit, as_set.low) == ("set", None, 0)
    assert as_set.joker_faces() == ["9"]
    assert as_set.describe() == "9♦ 9 9♠ (joker 9)"


def test_the_high_ace_is_position_fourteen():
    [reading] = meld_readings(parse_cards("J♥ Q♥ K♥ A♥"), LIVERPOOL)
    assert (reading.low, reading.high) == (11, 14)
    [reading] = meld_readings(parse_cards("A♥ 2♥ 3♥ 4♥"), LIVERPOOL)
    assert (reading.low, reading.high) == (1, 4)


def test_meld_value_object():
    meld = Meld.parse("ts js qs jk")
    assert str(meld) == "10♠ J♠ Q♠ JK"
    assert repr(meld) == "Meld.parse('10♠ J♠ Q♠ JK')"
    assert eval(repr(meld)) == meld
    assert hash(meld) == hash(Meld.parse("10♠ J♠ Q♠ JK"))
    assert len(meld) == 4
    assert list(meld) == list(parse_cards("10♠ J♠ Q♠ JK"))
    assert [r.faces() for r in meld.readings(rules=LIVERPOOL)] == [
        ["9♠", "10♠", "J♠", "Q♠"],
        ["10♠", "J♠", "Q♠", "K♠"],
    ]
    assert Meld(list(parse_cards("7♠ 7♥ 7♦"))).cards == parse_cards("7♠ 7♥ 7♦")
    with pytest.raises(AttributeError):
        meld.cards = ()  # type: ignore[misc]


def test_legal_reason_lists_every_reading():
    reason = judge("5♠ 6♠ 7♠ JK")["reason"]
    assert reason == (
        "5♠ 6♠ 7♠ JK is a legal run, read as 4♠ 5♠ 6♠ 7♠ (joker 4♠) or 5♠ 6♠ 7♠ 8♠ (joker 8♠)"
    )


def test_players_are_checked():
    with pytest.raises(RulesError):
        check_meld(parse_cards("7♠ 7♥ 7♦"), PRESETS["liverpool"], 5)
