"""R12.3 `freed_joker_to: run` (R12.2 point 4, continental): a joker swapped out of a run must be
laid off on a run the same turn; the swap's reason says so, cites R11 with the setting and names
the rules; under liverpool's rules it may go on any meld."""

from __future__ import annotations

from scorekeeper.rules import Card, parse_cards
from scorekeeper.rules.ruleset import CONTINENTAL, LIVERPOOL, FreedJokerTo, RuleSet
from scorekeeper.rules.table import LAID_IN_RUN, LAID_OFF, check_swap

MADRID = RuleSet.parse(
    {"version": 2, "name": "Madrid", "joker_swap": "runs", "freed_joker_to": "run"}
)
RUN = parse_cards("7♠ 8♠ JK 10♠")


def test_the_freed_joker_goes_on_a_run_and_the_reason_names_the_rules():
    verdict = check_swap(3, RUN, Card.parse("9♠"), False, MADRID, 4)
    assert verdict.legal
    assert (verdict.rule, verdict.line) == ("R11", "freed_joker_to")
    assert verdict.reason == (
        "Madrid rules: a freed joker is laid off on a run. 9♠ replaces the joker in 7♠ 8♠ JK 10♠; "
        "the freed joker must be laid off on a run on the table this turn, never kept in hand"
    )
    assert verdict.details["joker_to"] == LAID_IN_RUN == "lay it off on a run this turn"


def test_continental_plays_it_and_liverpool_lays_it_off_anywhere():
    assert CONTINENTAL.freed_joker_to is FreedJokerTo.RUN
    verdict = check_swap(3, RUN, Card.parse("9♠"), False, LIVERPOOL, 4)
    assert verdict.legal and verdict.rule == "R7" and verdict.details["joker_to"] == LAID_OFF
    assert "on a run" not in verdict.reason


def test_a_freed_joker_kept_in_hand_is_not_laid_anywhere():
    hand = RuleSet.parse(
        {"version": 2, "name": "Madrid", "freed_joker": "hand", "freed_joker_to": "run"}
    )
    verdict = check_swap(3, RUN, Card.parse("9♠"), False, hand, 4)
    assert verdict.legal and verdict.line == "freed_joker"
    assert verdict.details["joker_to"] == "your hand"


def test_kept_in_hand_the_read_out_says_nothing_of_where_it_is_laid():
    hand = RuleSet.parse(
        {"version": 2, "name": "Madrid", "freed_joker": "hand", "freed_joker_to": "run"}
    )
    assert [place for place, _ in hand.differences()] == ["freed_joker"]
