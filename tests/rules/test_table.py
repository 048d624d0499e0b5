"""R6 laying off, R7 replacing a run's joker, R8 buying a passed discard, with their R11 variants."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.rules.buying import check_buy
from scorekeeper.rules.cards import JOKER, Card, parse_cards
from scorekeeper.rules.errors import CopyLimitError, RoundError, RulesError, SeatError
from scorekeeper.rules.melds import Reading
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, JokerSwap, RuleSet
from scorekeeper.rules.table import check_layoff, check_swap, wild_places

PROFILES = [PRESETS[name] for name in ("liverpool", "contract", "online", "family")]
SPADES_2_TO_A = "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠"


def layoff(
    meld: str,
    cards: str,
    round_number: int = 2,
    opened: bool = False,
    rules: RuleSet = LIVERPOOL,
    **options,
) -> dict:
    return check_layoff(
        round_number, parse_cards(meld), parse_cards(cards), opened, rules, **options
    ).to_dict()


def swap(
    meld: str,
    card: str,
    round_number: int = 2,
    opened: bool = False,
    rules: RuleSet = LIVERPOOL,
    **options,
) -> dict:
    [natural] = parse_cards(card)
    return check_swap(round_number, parse_cards(meld), natural, opened, rules, **options).to_dict()


# R6 Laying off


@pytest.mark.parametrize(
    ("rules", "legal"),
    [
        (PRESETS["liverpool"], False),
        (PRESETS["contract"], False),
        (PRESETS["online"], True),
        (PRESETS["family"], True),
    ],
)
def test_worked_case_no_lay_off_on_the_opening_turn(rules, legal):
    verdict = layoff("8♠ 8♦ 8♣", "8♥", round_number=2, opened=True, rules=rules)
    assert verdict["legal"] is legal
    if not legal:
        assert verdict["rule"] == "R6"
        assert verdict["reason"] == (
            "You opened on this turn, so you may lay off only from your next turn on"
        )
        assert verdict["meld"] == [] and verdict["jokers"] == []
    else:
        # The house rule decides: R11, with the rules named.
        assert verdict["rule"] == "R11"
        assert verdict["reason"].startswith(
            f"{rules.rules_name}: you may lay off on the turn you open. 8♥ can go on 8♠ 8♦ 8♣"
        )


def test_the_same_lay_off_is_fine_on_a_later_turn():
    verdict = layoff("8♠ 8♦ 8♣", "8♥", round_number=2)
    assert verdict == {
        "legal": True,
        "reason": "8♥ can go on 8♠ 8♦ 8♣, making 8♠ 8♦ 8♣ 8♥",
        "rule": "R6",
        "meld": ["8♠", "8♦", "8♣", "8♥"],
        "jokers": [],
        "declared": ["8♠", "8♦", "8♣", "8♥"],
        "rule_line": "R6.2",
    }


def test_a_lay_off_declares_the_jokers_in_the_meld_afterwards():
    verdict = layoff("3♠ 4♠ 5♠ 6♠", "JK", round_number=2)
    assert verdict["meld"] == ["2♠", "3♠", "4♠", "5♠", "6♠"]
    assert verdict["declared"] == ["JK=2♠", "3♠", "4♠", "5♠", "6♠"]
    assert layoff("8♠ 8♦ 8♣", "JK", round_number=1)["declared"] == ["8♠", "8♦", "8♣", "JK=8"]
    assert layoff("3♠ 4♠ 5♠ 6♠", "8♠", round_number=2)["declared"] == []


@pytest.mark.parametrize(
    ("meld", "cards", "result", "jokers"),
    [
        ("7♠ 7♥ 7♦", "7♣", ["7♠", "7♥", "7♦", "7♣"], []),
        ("7♠ 7♥ 7♦", "7♠ 7♥", ["7♠", "7♥", "7♦", "7♠", "7♥"], []),
        ("7♠ 7♥ 7♦", "JK", ["7♠", "7♥", "7♦", "7"], ["7"]),
        ("7♠ 7♥ JK", "JK 7♣", ["7♠", "7♥", "7", "7", "7♣"], ["7", "7"]),
        ("5♠ 6♠ 7♠ 8♠", "9♠", ["5♠", "6♠", "7♠", "8♠", "9♠"], []),
        ("5♠ 6♠ 7♠ 8♠", "4♠", ["4♠", "5♠", "6♠", "7♠", "8♠"], []),
        ("5♠ 6♠ 7♠ 8♠", "4♠ 9♠ 3♠", ["3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠"], []),
        ("5♠ 6♠ 7♠ 8♠", "JK 10♠", ["5♠", "6♠", "7♠", "8♠", "9♠", "10♠"], ["9♠"]),
        ("5♠ 6♠ 7♠ 8♠", "JK=4♠", ["4♠", "5♠", "6♠", "7♠", "8♠"], ["4♠"]),
        ("J♠ Q♠ K♠ A♠", "10♠", ["10♠", "J♠", "Q♠", "K♠", "A♠"], []),
        ("2♠ 3♠ 4♠ 5♠", "A♠", ["A♠", "2♠", "3♠", "4♠", "5♠"], []),
        (SPADES_2_TO_A, "A♠", ["A♠", *SPADES_2_TO_A.split()], []),
        (SPADES_2_TO_A, "JK", ["A♠", *SPADES_2_TO_A.split()], ["A♠"]),
        # An undeclared joker read at either end leaves room at the other.
        ("5♠ 6♠ 7♠ JK", "8♠", ["4♠", "5♠", "6♠", "7♠", "8♠"], ["4♠"]),
        ("5♠ 6♠ 7♠ JK", "4♠", ["4♠", "5♠", "6♠", "7♠", "8♠"], ["8♠"]),
    ],
)
def test_legal_lay_offs(meld, cards, result, jokers):
    verdict = layoff(meld, cards)
    assert verdict["legal"] is True
    assert verdict["rule"] == "R6"
    assert verdict["meld"] == result
    assert verdict["jokers"] == jokers


@pytest.mark.parametrize(
    ("meld", "cards", "reason"),
    [
        (
            "8♠ 8♦ 8♣",
            "9♣",
            "9♣ does not belong on 8♠ 8♦ 8♣: a set of 8s takes only more 8s or jokers",
        ),
        (
            # The reason names the card that does not belong, not the king that does.
            "K♠ K♦ K♣",
            "K♥ Q♥",
            "Q♥ does not belong on K♠ K♦ K♣: a set of kings takes only more kings or jokers",
        ),
        ("7♠ 7♥ 7♦", "JK=8", "JK=8 is declared as 8, but 7♠ 7♥ 7♦ is a set of 7s"),
        (
            "5♠ 6♠ 7♠ 8♠",
            "10♠",
            "10♠ leaves a gap on 5♠ 6♠ 7♠ 8♠: 9♠ would be missing; "
            "the next card at either end is 4♠ or 9♠",
        ),
        (
            # 9♠ is fine; J♠ leaves 10♠ missing, and the reason does not offer 9♠ as the fix.
            "5♠ 6♠ 7♠ 8♠",
            "9♠ J♠",
            "9♠ J♠ leave a gap on 5♠ 6♠ 7♠ 8♠: 10♠ would be missing",
        ),
        (
            "5♠ 6♠ 7♠ 8♠",
            "2♠ 10♠",
            "2♠ 10♠ leave a gap on 5♠ 6♠ 7♠ 8♠: 3♠ 4♠ and 9♠ would be missing; "
            "the next card at either end is 4♠ or 9♠",
        ),
        (
            "5♠ 6♠ 7♠ 8♠",
            "J♠ JK",
            "J♠ JK leave a gap on 5♠ 6♠ 7♠ 8♠: 9♠ 10♠ would be missing (1 joker can fill only 1); "
            "the next card at either end is 4♠ or 9♠",
        ),
        (
            "5♠ 6♠ 7♠ JK",
            "10♠",
            "10♠ does not fit 5♠ 6♠ 7♠ JK whichever way it is read: read as 4♠–7♠ (joker 4♠), "
            "10♠ leaves a gap on 5♠ 6♠ 7♠ JK: 8♠ 9♠ would be missing; the next card at either "
            "end is 3♠ or 8♠; read as 5♠–8♠ (joker 8♠), 10♠ leaves a gap on 5♠ 6♠ 7♠ JK: 9♠ "
            "would be missing; the next card at either end is 4♠ or 9♠",
        ),
        (
            # The duplicate is the problem, not the end it would go on.
            "5♠ 6♠ 7♠ 8♠",
            "9♠ 9♠",
            "9♠ is laid twice: a run holds each card once",
        ),
        (
            "5♠ 6♠ 7♠ 8♠",
            "JK=9♠ 9♠",
            "JK=9♠ and 9♠ both take the place of 9♠: a run holds each card once",
        ),
        (
            # A 14-card run holds A♦ twice: the reason is that A♦ is not the next card here.
            "A♦ 2♦ 3♦ 4♦",
            "A♦",
            "A♦ leaves a gap on A♦ 2♦ 3♦ 4♦: 5♦–K♦ would be missing; the run already starts "
            "with its ace, so A♦ could go only after the K; the next card at either end is 5♦",
        ),
        (
            "J♠ Q♠ K♠ A♠",
            "A♠",
            "A♠ leaves a gap on J♠ Q♠ K♠ A♠: 2♠–10♠ would be missing; the run already ends "
            "with its ace, so A♠ could go only before the 2; the next card at either end is 10♠",
        ),
        ("5♠ 6♠ 7♠ 8♠", "9♥", "9♥ cannot go on 5♠ 6♠ 7♠ 8♠: a run is all spades"),
        (
            "5♠ 6♠ 7♠ 8♠",
            "JK=9♥",
            "JK=9♥ is declared as 9♥, but 5♠ 6♠ 7♠ 8♠ is a run of spades",
        ),
        ("5♠ 6♠ 7♠ 8♠", "7♠", "7♠ is already in 5♠ 6♠ 7♠ 8♠: a run holds each card once"),
        (
            "5♠ 6♠ 7♠ 8♠",
            "JK=7♠",
            "JK=7♠ stands for 7♠, which 5♠ 6♠ 7♠ 8♠ already has: a run holds each card once",
        ),
        (
            "5♠ 6♠ JK 8♠",
            "7♠",
            "7♠ is already in 5♠ 6♠ JK 8♠ as a joker: replace the joker instead (R7)",
        ),
        (
            # Both ends at once: one of them is where the joker sits, whichever way it is read.
            "5♠ 6♠ 7♠ JK",
            "4♠ 8♠",
            "4♠ 8♠ does not fit 5♠ 6♠ 7♠ JK whichever way it is read: read as 4♠–7♠ "
            "(joker 4♠), 4♠ is already in 5♠ 6♠ 7♠ JK as a joker: replace the joker instead "
            "(R7); read as 5♠–8♠ (joker 8♠), 8♠ is already in 5♠ 6♠ 7♠ JK as a joker: replace "
            "the joker instead (R7)",
        ),
        (
            "J♠ Q♠ K♠ A♠",
            "2♠",
            "Nothing extends past an ace: 2♠ cannot go after the A at its top (J♠–A♠)",
        ),
        (
            "A♠ 2♠ 3♠ 4♠",
            "K♠",
            "Nothing extends past an ace: K♠ cannot go before the A at its bottom (A♠–4♠)",
        ),
        (
            "A♠ " + SPADES_2_TO_A,
            "JK",
            "A run holds at most 14 cards (A 2 … K A); A♠ " + SPADES_2_TO_A + " would have 15",
        ),
        (
            # A set stays a set: these would only make a run.
            "7♠ JK JK",
            "8♠ 9♠",
            "8♠ does not belong on 7♠ JK JK: a set of 7s takes only more 7s or jokers",
        ),
        (
            "7♠ JK JK JK",
            "9♥",
            "9♥ does not fit 7♠ JK JK JK whichever way it is read: as a set, 9♥ does not belong "
            "on 7♠ JK JK JK: a set of 7s takes only more 7s or jokers; as a run, 9♥ cannot go "
            "on 7♠ JK JK JK: a run is all spades",
        ),
    ],
)
def test_illegal_lay_offs(meld, cards, reason):
    verdict = layoff(meld, cards)
    assert verdict.pop("rule_line").startswith("R6.")
    # Each reason is a coded message: its code names the lay-off reason the words render.
    assert verdict.pop("code").startswith("layoff.")
    assert verdict == {
        "legal": False,
        "reason": reason,
        "rule": "R6",
        "meld": [],
        "jokers": [],
        "declared": [],
    }


def test_a_meld_read_as_set_or_run_takes_either():
    assert layoff("7♠ JK JK JK", "7♥")["meld"] == ["7♠", "7", "7", "7", "7♥"]
    assert layoff("7♠ JK JK JK", "8♠")["meld"] == ["4♠", "5♠", "6♠", "7♠", "8♠"]


@pytest.mark.parametrize(
    ("round_number", "meld", "cards", "kind", "contract"),
    [
        (1, "5♠ 6♠ 7♠ 8♠", "9♠", "run", "2 sets"),
        (4, "5♠ 6♠ 7♠ 8♠", "4♠", "run", "3 sets"),
        (3, "7♠ 7♥ 7♦", "7♣", "set", "2 runs"),
    ],
)
@pytest.mark.parametrize("rules", PROFILES, ids=str)
def test_no_lay_off_on_a_meld_the_contract_cannot_have_put_down(
    round_number, meld, cards, kind, contract, rules
):
    verdict = layoff(meld, cards, round_number=round_number, rules=rules)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R6"
    only = "runs" if kind == "set" else "sets"
    assert verdict["reason"] == (
        f"Round {round_number}'s contract is {contract}, so only {only} are on the table: "
        f"{meld} is a {kind}, which no player can have put down this round"
    )
    # The same lay-off in a round whose contract has both kinds is fine.
    assert layoff(meld, cards, round_number=5, rules=rules)["legal"] is True


def test_a_meld_read_as_set_or_run_is_the_kind_the_contract_has():
    # Round 1 has only sets: 7♠ JK JK JK is a set of 7s there, so 8♠ does not belong.
    verdict = layoff("7♠ JK JK JK", "8♠", round_number=1)
    assert verdict["legal"] is False
    assert verdict["reason"] == (
        "8♠ does not belong on 7♠ JK JK JK: a set of 7s takes only more 7s or jokers"
    )
    assert layoff("7♠ JK JK JK", "7♥", round_number=1)["legal"] is True
    # Round 3 has only runs: the same meld takes 8♠ but not 7♥.
    assert layoff("7♠ JK JK JK", "8♠", round_number=3)["legal"] is True
    refused = layoff("7♠ JK JK JK", "7♥", round_number=3)
    assert refused["legal"] is False
    assert "a run is all spades" in refused["reason"]


@pytest.mark.parametrize("rules", PROFILES, ids=str)
def test_round_7_has_no_laying_off(rules):
    verdict = layoff("5♠ 6♠ 7♠ 8♠", "9♠", round_number=7, rules=rules)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R6"
    assert verdict["reason"] == "Round 7 has no laying off: the whole hand goes down at once"


def test_the_meld_on_the_table_must_be_legal():
    verdict = layoff("5♠ 6♠ 8♠ 9♠", "10♠")
    assert verdict["legal"] is False
    assert verdict["rule"] == "R4"
    assert verdict["reason"].startswith("The meld on the table, 5♠ 6♠ 8♠ 9♠, is not legal: ")


def test_the_family_table_meld_needs_its_naturals():
    assert layoff("5♠ 6♠ JK JK", "9♠")["legal"] is True
    verdict = layoff("5♠ 6♠ JK JK", "9♠", rules=PRESETS["family"])
    assert verdict["legal"] is False
    assert verdict["rule"] == "R11"
    assert verdict["reason"] == (
        "The meld on the table, 5♠ 6♠ JK JK, is not legal: "
        "family rules: a run needs 3 natural cards; 5♠ 6♠ JK JK has 2"
    )


def test_a_table_meld_in_a_runs_only_round_is_judged_as_a_run():
    # Round 3 has no sets: 5♠ JK JK is judged as a run (too short), not as a set that
    # lacks the family rules' second natural card.
    verdict = layoff("5♠ JK JK", "6♠", round_number=3, rules=PRESETS["family"])
    assert verdict["rule"] == "R4"
    assert verdict["reason"] == (
        "The meld on the table, 5♠ JK JK, is not legal: a run needs at least 4 cards; this has 3"
    )


@pytest.mark.parametrize(
    ("rules", "legal"),
    [
        (PRESETS["liverpool"], False),
        (PRESETS["contract"], False),
        (PRESETS["online"], True),
        (PRESETS["family"], True),
    ],
)
def test_going_out_by_laying_off_the_last_card(rules, legal):
    verdict = layoff("5♠ 6♠ 7♠ 8♠", "9♠", rules=rules, left=0)
    assert verdict["legal"] is legal
    if not legal:
        assert verdict["rule"] == "R6"
        assert verdict["reason"] == (
            "You go out by discarding your last card, so you may not lay it off"
        )
    else:
        assert verdict["rule"] == "R11"
        assert verdict["reason"].startswith(
            f"{rules.rules_name}: you may go out by laying off your last card. 9♠ can go on"
        )
    kept = layoff("5♠ 6♠ 7♠ 8♠", "9♠", rules=rules, left=1)
    assert kept["legal"] is True and kept["rule"] == "R6"


def test_lay_off_input_errors():
    with pytest.raises(RulesError):
        layoff("5♠ 6♠ 7♠ 8♠", "")
    with pytest.raises(RulesError):
        layoff("5♠ 6♠ 7♠ 8♠", "9♠", left=-1)
    with pytest.raises(CopyLimitError):
        layoff("7♠ 7♠ 7♥", "7♠")
    with pytest.raises(CopyLimitError):
        layoff("7♠ JK JK", "JK JK")
    with pytest.raises(RoundError):
        layoff("7♠ 7♥ 7♦", "7♣", round_number=0)
    with pytest.raises(SeatError):
        layoff("7♠ 7♥ 7♦", "7♣", players=3)


def test_lay_off_order_does_not_matter():
    one = layoff("8♠ 6♠ 7♠ 5♠", "3♠ 9♠ 4♠")
    two = layoff("5♠ 6♠ 7♠ 8♠", "4♠ 3♠ 9♠")
    assert one["meld"] == two["meld"] == ["3♠", "4♠", "5♠", "6♠", "7♠", "8♠", "9♠"]


# R7 Replacing a run's joker


@pytest.mark.parametrize(
    ("meld", "card", "result"),
    [
        ("5♠ 6♠ JK 8♠", "7♠", ["5♠", "6♠", "7♠", "8♠"]),
        ("5♠ 6♠ 7♠ JK", "8♠", ["5♠", "6♠", "7♠", "8♠"]),
        ("5♠ 6♠ 7♠ JK", "4♠", ["4♠", "5♠", "6♠", "7♠"]),
        ("5♠ 6♠ JK=7♠ 8♠", "7♠", ["5♠", "6♠", "7♠", "8♠"]),
        ("JK 2♠ 3♠ 4♠", "A♠", ["A♠", "2♠", "3♠", "4♠"]),
        ("J♠ Q♠ K♠ JK", "A♠", ["J♠", "Q♠", "K♠", "A♠"]),
        ("JK Q♠ K♠ A♠", "J♠", ["J♠", "Q♠", "K♠", "A♠"]),
        ("5♥ JK JK 8♥", "6♥", ["5♥", "6♥", "7♥", "8♥"]),
    ],
)
def test_legal_swaps_free_the_joker_to_lay_off(meld, card, result):
    verdict = swap(meld, card)
    # The meld afterwards with its wild cards declared: the joker left in it stands for 7♥.
    declared = ["5♥", "6♥", "JK=7♥", "8♥"] if meld == "5♥ JK JK 8♥" else result
    assert verdict.pop("declared") == declared
    assert verdict.pop("rule_line") == "R7.2"  # a run's joker, swapped for its exact card
    assert verdict == {
        "legal": True,
        "reason": (
            f"{card} replaces the joker in {meld}; the freed joker must be laid off on a meld on "
            "the table this turn, never kept in hand"
        ),
        "rule": "R7",
        "meld": result,
        "freed": "JK",
        "joker_to": "lay it off this turn",
    }


@pytest.mark.parametrize(
    ("rules", "joker_to"),
    [
        (PRESETS["liverpool"], "lay it off this turn"),
        (PRESETS["contract"], "lay it off this turn"),
        (PRESETS["online"], "your hand"),
        (PRESETS["family"], "lay it off this turn"),
    ],
)
def test_where_the_freed_joker_goes(rules, joker_to):
    verdict = swap("5♠ 6♠ JK 8♠", "7♠", rules=rules)
    assert verdict["legal"] is True
    assert verdict["joker_to"] == joker_to
    assert ("your hand" in verdict["reason"]) is (joker_to == "your hand")


@pytest.mark.parametrize(
    ("meld", "card", "reason"),
    [
        (
            "5♠ 6♠ JK 8♠",
            "7♥",
            "7♥ is not what a joker stands for in 5♠ 6♠ JK 8♠: the joker is 7♠",
        ),
        (
            "5♠ 6♠ 7♠ JK",
            "9♠",
            "9♠ is not what a joker stands for in 5♠ 6♠ 7♠ JK: the joker is 4♠ or 8♠",
        ),
        (
            "5♠ 6♠ 7♠ JK=8♠",
            "4♠",
            "4♠ is not what a joker stands for in 5♠ 6♠ 7♠ JK=8♠: the joker is 8♠",
        ),
        (
            "7♠ 7♥ JK",
            "7♦",
            "A joker in a set stays there for the rest of the round; 7♠ 7♥ JK is a set",
        ),
        (
            "7♠ 7♥ JK=7",
            "7♣",
            "A joker in a set stays there for the rest of the round; 7♠ 7♥ JK=7 is a set",
        ),
        ("5♠ 6♠ 7♠ 8♠", "9♠", "5♠ 6♠ 7♠ 8♠ has no joker to replace"),
        ("5♠ 6♠ JK 8♠", "JK", "Only a natural card can replace a joker"),
    ],
)
def test_illegal_swaps(meld, card, reason):
    verdict = swap(meld, card)
    # A set's joker stays (R7.1); a run's is swapped only for its exact card (R7.2).
    assert verdict.pop("rule_line") == ("R7.1" if "is a set" in reason else "R7.2")
    # Each reason is a coded message: its code names the swap's reason the words render.
    assert verdict.pop("code").startswith("table.")
    assert verdict == {
        "legal": False,
        "reason": reason,
        "rule": "R7",
        "meld": [],
        "freed": None,
        "joker_to": None,
        "declared": [],
    }


@pytest.mark.parametrize("rules", [PRESETS["liverpool"], PRESETS["contract"]], ids=str)
def test_swapping_needs_an_earlier_opening(rules):
    verdict = swap("5♠ 6♠ JK 8♠", "7♠", opened=True, rules=rules)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R7"
    assert verdict["reason"] == (
        "You opened on this turn: only a player who opened on an earlier turn may replace a joker"
    )


@pytest.mark.parametrize(
    ("rules", "after"),
    [
        (
            PRESETS["online"],
            "online rules: you may replace a joker on the turn you open and a freed joker goes "
            "into your hand. 7♠ replaces the joker in 5♠ 6♠ JK 8♠; the freed joker goes into "
            "your hand",
        ),
        (
            PRESETS["family"],
            "family rules: you may replace a joker on the turn you open. 7♠ replaces the joker "
            "in 5♠ 6♠ JK 8♠; the freed joker must be laid off on a meld on the table this turn, "
            "never kept in hand",
        ),
    ],
)
def test_online_and_family_swap_on_the_opening_turn(rules, after):
    verdict = swap("5♠ 6♠ JK 8♠", "7♠", opened=True, rules=rules)
    assert verdict["legal"] is True
    assert verdict["rule"] == "R11"
    assert verdict["reason"] == after


def test_the_online_freed_joker_to_hand_cites_r11():
    verdict = swap("5♠ 6♠ JK 8♠", "7♠", rules=PRESETS["online"])
    assert verdict["rule"] == "R11"
    assert verdict["reason"].startswith("online rules: a freed joker goes into your hand. ")


@pytest.mark.parametrize("rules", PROFILES, ids=str)
def test_no_swapping_in_round_7(rules):
    verdict = swap("5♠ 6♠ JK 8♠", "7♠", round_number=7, rules=rules)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R5"
    assert verdict["reason"] == (
        "Round 7 has no turn after an opening: the whole hand goes down at once and ends the "
        "round, so no joker on the table can be replaced"
    )


def test_no_swap_on_a_run_in_a_sets_only_round():
    verdict = swap("5♠ 6♠ JK 8♠", "7♠", round_number=1)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R6"
    assert verdict["reason"].startswith(
        "Round 1's contract is 2 sets, so only sets are on the table"
    )


def test_swap_on_an_illegal_meld_cites_r4():
    verdict = swap("5♠ 6♠ JK 9♠", "7♠")
    assert verdict["legal"] is False
    assert verdict["rule"] == "R4"
    assert verdict["reason"].startswith("The meld on the table, 5♠ 6♠ JK 9♠, is not legal: ")
    assert "is not consecutive" in verdict["reason"]


def test_swap_on_a_family_meld_short_of_naturals_cites_r11():
    verdict = swap("5♠ 6♠ JK JK", "7♠", rules=PRESETS["family"])
    assert verdict["rule"] == "R11"
    assert "family rules: a run needs 3 natural cards" in verdict["reason"]


def test_a_meld_read_as_set_or_run_swaps_as_a_run():
    assert swap("7♠ JK JK JK", "8♠")["meld"] == ["5♠", "6♠", "7♠", "8♠"]
    assert swap("7♠ JK JK JK", "7♥")["legal"] is False


def test_swap_input_errors():
    with pytest.raises(CopyLimitError):
        swap("JK JK JK 8♠", "JK")
    with pytest.raises(CopyLimitError):
        swap("5♠ 5♠ JK 8♠", "5♠")
    with pytest.raises(RulesError):
        check_swap(3, parse_cards("5♠ 6♠ JK 8♠"), Card(7, None), False, LIVERPOOL)


# R8 Buying


@pytest.mark.parametrize(
    ("players", "active", "requests", "last_buyer", "buyer"),
    [
        (4, 0, [2, 3], None, 2),
        (4, 0, [3, 2], None, 2),
        (4, 0, [3, 1, 2], None, 1),
        (4, 2, [1, 0], None, 0),
        (4, 3, [1, 2], None, 1),
        (4, 3, [2], None, 2),
        (4, 0, [1, 2], 1, 2),
        (4, 0, [2, 1, 3], 2, 1),
        (4, 0, [1], 1, None),
        (4, 0, [0], None, None),
        (4, 0, [0, 3], None, 3),
        (4, 0, [], None, None),
        (4, 0, [2, 2], None, 2),
        (4, 1, [0], 3, 0),
    ],
)
def test_the_requester_who_plays_soonest_buys(players, active, requests, last_buyer, buyer):
    verdict = check_buy(players, active, requests, LIVERPOOL, last_buyer)
    assert verdict.to_dict()["buyer"] == buyer
    assert verdict.legal is (buyer is not None)
    assert verdict.rule == "R8"


def test_buy_reasons_number_seats_from_one():
    assert check_buy(4, 0, [3, 2], LIVERPOOL).reason == (
        "Seat 3 plays before Seat 4 after Seat 1, whose turn it is, so Seat 3 gets the discard and "
        "takes the top stock card as a penalty"
    )
    assert check_buy(4, 0, [1], LIVERPOOL).reason == (
        "Seat 2 gets the discard and takes the top stock card as a penalty"
    )
    assert check_buy(4, 0, [1, 2], LIVERPOOL, last_buyer=1).reason == (
        "Seat 2 took the previous discard and may not take two in a row, so Seat 3 gets the "
        "discard and takes the top stock card as a penalty"
    )
    assert check_buy(4, 0, [], LIVERPOOL).reason == "Nobody asked to buy the discard"
    assert check_buy(4, 0, [0], LIVERPOOL).reason == (
        "It is Seat 1's turn and Seat 1 passed the discard, so nobody buys it"
    )
    assert check_buy(4, 0, [1], LIVERPOOL, last_buyer=1).reason == (
        "Seat 2 took the previous discard and may not take two in a row, so nobody buys this one"
    )


def test_buy_reasons_use_the_seat_names():
    names = ["Ann", "Bob", "Cat", "Dan"]
    assert check_buy(4, 0, [3, 2], LIVERPOOL, names=names).reason == (
        "Cat plays before Dan after Ann, whose turn it is, so Cat gets the discard and "
        "takes the top stock card as a penalty"
    )
    assert check_buy(4, 0, [0], LIVERPOOL, names=names).reason == (
        "It is Ann's turn and Ann passed the discard, so nobody buys it"
    )
    assert check_buy(4, 0, [1], LIVERPOOL, last_buyer=1, names=names).reason == (
        "Bob took the previous discard and may not take two in a row, so nobody buys this one"
    )


@pytest.mark.parametrize(
    ("rules", "players", "active", "requests", "buyer"),
    [
        (PRESETS["contract"], 4, 1, [3, 0], 3),
        (PRESETS["family"], 6, 4, [1, 5, 3], 5),
        (PRESETS["family"], 8, 7, [6, 3], 3),
        (PRESETS["family"], 3, 2, [1, 0], 0),
    ],
)
def test_buying_in_other_profiles(rules, players, active, requests, buyer):
    assert check_buy(players, active, requests, rules=rules).details["buyer"] == buyer


def test_the_online_profile_has_no_buying():
    verdict = check_buy(5, 0, [1, 2], rules=PRESETS["online"])
    assert verdict.to_dict() == {
        "legal": False,
        "reason": "Online rules have no buying: a player may instead take several discards "
        "from the top, plus one stock card for each extra",
        "rule": "R11",
        "buyer": None,
        "penalty_cards": None,
        "code": "buy.no_buying",
    }


@pytest.mark.parametrize(
    ("players", "active", "requests", "last_buyer", "rules"),
    [
        (4, 4, [1], None, LIVERPOOL),
        (4, 0, [4], None, LIVERPOOL),
        (4, 0, [-1], None, LIVERPOOL),
        (4, 0, [1], 7, LIVERPOOL),
        (4, "0", [1], None, LIVERPOOL),
        (5, 0, [1], None, LIVERPOOL),
        (2, 0, [1], None, PRESETS["family"]),
        (9, 0, [1], None, PRESETS["online"]),
    ],
)
def test_buy_input_errors(players, active, requests, last_buyer, rules):
    with pytest.raises(SeatError):
        check_buy(players, active, requests, rules, last_buyer)


# R11: lay-off and swap under any rule set


def house(**settings) -> RuleSet:
    """Liverpool with some settings changed, as a table named Jones plays it."""
    return replace(LIVERPOOL, **settings).renamed("Jones")


def test_no_swap_at_all_where_the_rules_say_never():
    rules = house(joker_swap=JokerSwap.NEVER)
    verdict = swap("7♠ 8♠ JK 10♠", "9♠", rules=rules)
    assert verdict["legal"] is False
    assert verdict["rule"] == "R11"
    assert verdict["reason"] == "Jones rules: no joker on the table may be swapped"


def test_a_sets_joker_may_be_swapped_where_the_rules_say_any():
    verdict = swap("7♠ 7♥ JK", "7♣", round_number=1, rules=PRESETS["shanghai"])
    assert verdict["legal"] is True
    assert verdict["rule"] == "R11"
    assert verdict["reason"].startswith(
        "shanghai rules: a set's joker may be swapped too, for a natural card of the set's rank"
    )
    assert verdict["meld"] == ["7♠", "7♥", "7♣"]
    assert verdict["freed"] == "JK" and verdict["joker_to"] == "your hand"
    wrong = swap("7♠ 7♥ JK", "8♣", round_number=1, rules=PRESETS["shanghai"])
    assert wrong["legal"] is False
    assert wrong["reason"] == "8♣ is not what a joker stands for in 7♠ 7♥ JK: the joker is 7"


def test_under_runs_a_sets_joker_stays_whatever_the_card():
    verdict = swap("7♠ 7♥ JK", "7♣", round_number=1, rules=house(joker_swap=JokerSwap.RUNS))
    assert verdict["legal"] is False and verdict["rule"] == "R7"


@pytest.mark.parametrize(
    ("rules", "legal", "rule"),
    [(PRESETS["online"], True, "R11"), (PRESETS["shanghai"], False, "R7")],
)
def test_swapping_on_the_opening_turn_follows_the_rules(rules, legal, rule):
    verdict = swap("7♠ 8♠ JK 10♠", "9♠", opened=True, rules=rules)
    assert (verdict["legal"], verdict["rule"]) == (legal, rule)


def test_a_freed_joker_goes_where_the_rules_say():
    laid = swap("7♠ 8♠ JK 10♠", "9♠", rules=PRESETS["liverpool"])
    kept = swap("7♠ 8♠ JK 10♠", "9♠", rules=PRESETS["shanghai"])
    assert laid["joker_to"] == "lay it off this turn" and laid["rule"] == "R7"
    assert kept["joker_to"] == "your hand" and kept["rule"] == "R11"
    assert "a freed joker goes into your hand" in kept["reason"]


def test_a_wild_two_is_found_by_its_place():
    rules = PRESETS["shanghai"]
    two = Card.parse("2♥")
    run = Reading("run", (Card.parse("5♠"), Card.parse("6♠"), two, Card.parse("8♠")), (), 5)
    assert wild_places(run, rules) == [(2, two, Card.parse("7♠"))]
    assert wild_places(run, LIVERPOOL) == []
    # A 2 at its own place in a run of its suit, or in a set of 2s, is natural.
    own = Reading("run", tuple(parse_cards("A♥ 2♥ 3♥ 4♥")), (), 1)
    assert wild_places(own, rules) == []
    twos = Reading("set", tuple(parse_cards("2♠ 2♥ JK")), (Card(2, None),))
    assert wild_places(twos, rules) == [(2, JOKER, Card(2, None))]
    sevens = Reading("set", tuple(parse_cards("7♠ 2♥ 7♦")), ())
    assert wild_places(sevens, rules) == [(1, two, Card(7, None))]


def test_a_wild_two_is_swapped_like_a_joker():
    verdict = swap("5♠ 6♠ 2♥ 8♠", "7♠", round_number=3, rules=PRESETS["shanghai"])
    assert verdict["legal"] is True and verdict["rule"] == "R11"
    assert verdict["freed"] == "2♥"
    assert verdict["meld"] == ["5♠", "6♠", "7♠", "8♠"]
    assert "a 2 is wild, and a wild 2 is swapped like a joker" in verdict["reason"]


def test_the_melds_on_the_table_are_the_deals_contracts():
    # Shanghai's third deal is 2 runs: no set can be on the table.
    refused = layoff("8♠ 8♦ 8♣", "8♥", round_number=3, rules=PRESETS["shanghai"])
    assert refused["legal"] is False and refused["rule"] == "R6"
    assert "Round 3's contract is" in refused["reason"]
    assert "so only runs are on the table" in refused["reason"]
    # Its seventh deal is 3 runs of 4 and not a whole-hand deal: laying off is allowed.
    assert layoff("5♠ 6♠ 7♠ 8♠", "9♠", round_number=7, rules=PRESETS["shanghai"])["legal"] is True
    # Its tenth deal exists, and is runs only too.
    assert layoff("8♠ 8♦ 8♣", "8♥", round_number=10, rules=PRESETS["shanghai"])["legal"] is False


def test_a_whole_hand_deal_has_no_laying_off_whichever_it_is():
    deals = list(LIVERPOOL.deals)
    deals[2] = replace(deals[2], whole_hand=True)
    rules = house(deals=tuple(deals))
    verdict = layoff("5♠ 6♠ 7♠ 8♠", "9♠", round_number=3, rules=rules)
    # The rules' own deal 3 decides: R11, with the rules named (R11's citing).
    assert verdict["rule"] == "R11" and verdict["settings"] == ["deals"]
    assert verdict["reason"] == (
        f"{rules.rules_name}: deal 3 is laid all at once, with no discard. "
        "Round 3 has no laying off: the whole hand goes down at once"
    )
    assert swap("7♠ 8♠ JK 10♠", "9♠", round_number=3, rules=rules)["rule"] == "R11"
    # Liverpool's seventh deal, under these rules, is still a whole-hand deal.
    assert layoff("5♠ 6♠ 7♠ 8♠", "9♠", round_number=7, rules=rules)["legal"] is False


def test_a_deal_the_rules_do_not_have_is_refused_by_name():
    with pytest.raises(RoundError, match="shanghai rules have rounds 1 to 10"):
        layoff("5♠ 6♠ 7♠ 8♠", "9♠", round_number=11, rules=PRESETS["shanghai"])
    with pytest.raises(RoundError, match="liverpool rules have rounds 1 to 7"):
        swap("7♠ 8♠ JK 10♠", "9♠", round_number=8)


def test_a_lay_off_that_makes_wild_cards_outnumber_natural_ones():
    verdict = layoff("7♠ 7♥ JK", "JK JK", round_number=1, rules=PRESETS["shanghai"], players=8)
    assert verdict["legal"] is False and verdict["rule"] == "R11"
    assert verdict["reason"] == (
        "shanghai rules: a meld may not hold more wild cards than natural cards; "
        "7♠ 7♥ JK JK JK would hold 3 wild and 2 natural"
    )
