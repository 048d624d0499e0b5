"""R3 and R11: each deal's contract comes from the rule set, and openings follow its sizes."""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.contracts import contract, contracts
from scorekeeper.rules.errors import RoundError
from scorekeeper.rules.opening.laid import check_opening
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, RuleSet


def _need(kind: str, size: int) -> dict:
    return {"kind": kind, "size": size}


# A table's own rules: deuces wild, 11 cards every deal, runs of 10 (exact sizes, as liverpool).
CUSTOM = RuleSet.parse(
    {
        "name": "Smith family",
        "players": {"min": 3, "max": 6},
        "packs": [{"up_to": 6, "packs": 3}],
        "deals": [
            {"cards": 11, "contract": [_need("set", 3), _need("run", 10)]},
            {"cards": 11, "contract": [_need("set", 3), _need("set", 3)]},
            {
                "cards": 11,
                "contract": [_need("set", 3), _need("set", 3), _need("set", 3), _need("run", 5)],
            },
        ],
        "wild_deuces": True,
        "values": {"JK": 50, "A": 20},
        "buying": {"allowed": True, "per_game": 3},
    }
)


def opening(number: int, *melds: str, rules=PRESETS["shanghai"], left=None):
    return check_opening(number, [parse_cards(m) for m in melds], rules, left=left)


def test_liverpool_contracts_read_as_before():
    assert [str(c) for c in contracts(rules=LIVERPOOL)] == [
        "2 sets",
        "1 set + 1 run",
        "2 runs",
        "3 sets",
        "2 sets + 1 run",
        "1 set + 2 runs",
        "3 runs using the whole hand, no discard",
    ]
    assert contract(7, LIVERPOOL).whole_hand and not contract(6, LIVERPOOL).whole_hand
    assert tuple(contract(n, LIVERPOOL) for n in range(1, 8)) == contracts(rules=LIVERPOOL)


def test_shanghai_contracts_name_their_sizes():
    assert str(contract(1, PRESETS["shanghai"])) == "2 sets"
    assert str(contract(5, PRESETS["shanghai"])) == "1 set of 3 + 1 run of 7"
    assert str(contract(8, PRESETS["shanghai"])) == "1 set of 3 + 1 run of 10"
    assert str(contract(9, PRESETS["shanghai"])) == "3 sets of 3 + 1 run of 5"
    assert contract(9, PRESETS["shanghai"]).sizes("set") == [3, 3, 3]
    assert not any(contract(n, PRESETS["shanghai"]).whole_hand for n in range(1, 11))


@pytest.mark.parametrize(
    ("rules", "bad"),
    [(PRESETS["liverpool"], 8), (PRESETS["shanghai"], 11), (PRESETS["shanghai"], 0)],
)
def test_a_deal_the_rules_do_not_have(rules, bad):
    with pytest.raises(RoundError, match="rounds 1 to|whole number"):
        contract(bad, rules)


def test_an_opening_at_the_deals_sizes():
    run10 = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"
    verdict = opening(8, "7♥ 7♦ 7♣", run10)
    # Liverpool has no deal 8: the deal decides, cited as R11 with the rules named; the 2♠ stands
    # as itself (natural), so wild deuces do not decide.
    assert verdict.legal and verdict.rule == "R11" and verdict.line == "deals"
    assert verdict.reason.startswith(
        "shanghai rules: deal 8 is 1 set of 3 + 1 run of 10, a card kept to discard. "
        "A legal opening for round 8"
    )
    assert verdict.details["kinds"] == ["set", "run"]
    short = opening(8, "7♥ 7♦ 7♣", "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠")
    assert not short.legal
    assert short.rule == "R11" and short.line == "deals"
    assert "A run in the opening is at least 10 cards" in short.reason


def test_shanghai_allows_longer_melds_and_says_so():
    verdict = opening(8, "7♥ 7♦ 7♣ 7♠", "3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠")
    assert verdict.legal and verdict.rule == "R11"
    assert verdict.reason.startswith(
        "shanghai rules allow opening melds longer than the contract's sizes."
    )


def test_exact_sizes_hold_each_meld_to_its_own_size():
    run10 = "3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠"
    assert opening(1, "7♥ 7♦ 7♣", run10, rules=CUSTOM).legal
    longer = opening(1, "7♥ 7♦ 7♣", run10 + " K♠", rules=CUSTOM)
    assert not longer.legal
    # The deal's run of 10 is the rules' own (R11's citing), not liverpool's deal 1.
    assert longer.rule == "R11" and longer.line == "deals"
    assert longer.reason == (
        "Smith family rules: deal 1's contract is 1 set of 3 + 1 run of 10. "
        "A run in the opening is exactly 10 cards (R5); 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ has 11"
    )


def test_three_sets_and_a_run_of_five():
    verdict = opening(9, "7♥ 7♦ 7♣", "8♥ 8♦ 8♣", "K♥ K♦ JK", "3♠ 4♠ 5♠ 6♠ 7♠", left=1)
    assert verdict.legal and verdict.rule == "R11" and verdict.line == "deals"
    four = opening(9, "7♥ 7♦ 7♣", "8♥ 8♦ 8♣", "K♥ K♦ JK", "3♠ 4♠ 5♠ 6♠")
    assert not four.legal and "at least 5" in four.reason


def test_the_solver_finds_a_set_and_a_run_of_ten():
    hand = "7♥ 7♦ JK 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♦"
    verdict = solve_opening(hand, 8, PRESETS["shanghai"])
    assert verdict.legal
    assert [len(meld) for meld in verdict.details["melds"]] == [3, 10]
    assert verdict.details["left"] == ["K♦"]
    assert str(contract(8, PRESETS["shanghai"])) in verdict.reason
    assert not solve_opening(hand.replace("J♠", "Q♣"), 8, PRESETS["shanghai"]).legal
    assert solve_opening(hand, 1, CUSTOM).legal


def test_the_solver_refuses_too_few_cards_for_the_sizes():
    verdict = solve_opening("7♥ 7♦ 7♣ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", 8, PRESETS["shanghai"])
    assert not verdict.legal and verdict.rule == "R11" and verdict.line == "deals"
    assert verdict.reason == (
        "shanghai rules: deal 8 is 1 set of 3 + 1 run of 10, a card kept to discard. "
        "1 set of 3 + 1 run of 10 needs at least 14 cards, one of them kept to discard: "
        "this hand has 11 cards."
    )
