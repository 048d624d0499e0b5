"""Each R12.3 setting the score book plays (`PLAYED_R12`) reads out like R11's: its sentence
among a rule set's changes, in its group, for liverpool's value as for the changed one, and
under the rules of R1-R10 it changes."""

from __future__ import annotations

import pytest

from scorekeeper.rules.ruleset import LIVERPOOL, PLAYED_R12, RuleSet
from scorekeeper.rules.ruleset.words import touched_rules

PLAYED = {
    "direction": (
        "right",
        "Players and packs",
        ("R2", "R8"),
        "play, the deal and buying go to the right: the cutter sits on the dealer's left "
        "and the player on the dealer's right plays first",
        "play, the deal and buying go to the left, clockwise",
    ),
    "discard_wild": (
        False,
        "Turns and buying",
        ("R8",),
        "a wild card is never discarded",
        "a wild card may be discarded",
    ),
    "discard_draw_after_opening": (
        False,
        "Turns and buying",
        ("R8",),
        "a player who has gone down draws only from the stock",
        "a player who has gone down may still take the top discard",
    ),
    "freed_joker_to": (
        "run",
        "Melds and jokers",
        ("R7",),
        "a swapped-out wild card is laid off on a run",
        "a swapped-out wild card may be laid off on any meld",
    ),
    "tie_break": (
        "deals_won",
        "Scoring",
        ("R10",),
        "level on the lowest total at the end, the player who went out in more deals wins; "
        "still level, they share the win",
        "level on the lowest total at the end, the players share the win",
    ),
}


def test_every_played_setting_is_read_out_here():
    assert set(PLAYED) == PLAYED_R12


@pytest.mark.parametrize("place", sorted(PLAYED))
def test_a_played_setting_reads_out_in_its_group_changed_or_not(place):
    value, group, rules_touched, changed, default = PLAYED[place]
    rules = RuleSet.parse({"version": 2, "name": "Santiago", place: value})
    assert rules.differences() == ((place, changed),)
    lines = dict(rules.read_out())[group]
    assert [line.place for line in lines if line.changed] == [place]
    said = dict(LIVERPOOL.read_out())[group]
    assert [line.sentence for line in said if line.place == place] == [default]
    assert rules.house(place) and not LIVERPOOL.house(place)
    assert touched_rules(place) == rules_touched
