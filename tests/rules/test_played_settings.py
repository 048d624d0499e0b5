"""Each R12.3 setting (`R12_SETTINGS`) reads out like R11's: its sentence
among a rule set's changes, in its group, for liverpool's value as for the changed one, and
under the rules of R1-R10 it changes."""

from __future__ import annotations

import pytest

from scorekeeper.rules.ruleset import LIVERPOOL, R12_SETTINGS, RuleSet
from scorekeeper.rules.ruleset.words import touched_rules

PLAYED = {
    "ace": (
        "wrap",
        "Melds and jokers",
        ("R4",),
        "the ace wraps: Q K A 2 is a run, and a run holds each rank once",
        "the ace is low or high, never both: no run turns the corner (K A 2)",
    ),
    "wild_max": (
        1,
        "Melds and jokers",
        ("R5",),
        "a meld of the opening holds at most 1 wild card",
        "no cap on the wild cards in a meld of the opening",
    ),
    "wild_spacing": (
        1,
        "Melds and jokers",
        ("R4", "R6"),
        "two wild cards of a run stand at least 1 natural card apart",
        "wild cards may stand side by side in a run",
    ),
    "buying.take_several": (
        False,
        "Turns and buying",
        ("R8",),
        "with no buying, a player takes only the top discard",
        "with no buying, a player may take several discards from the top",
    ),
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
    "distinct_set_ranks": (
        True,
        "Deals and contracts",
        ("R5",),
        "the sets of one contract are of different ranks",
        "the sets of one contract may share a rank",
    ),
    "freed_joker_to": (
        "run",
        "Melds and jokers",
        ("R7",),
        "a swapped-out wild card is laid off on a run",
        "a swapped-out wild card may be laid off on any meld",
    ),
    "out_in_one_turn_bonus": (
        -10,
        "Scoring",
        ("R10",),
        "going down and out in one turn takes 10 off the player's round",
        "going down and out in one turn earns no bonus",
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
    # A run of any suits is a meld's kind in a deal's contract: read out with the contracts.
    assert set(PLAYED) | {"any_suit_run"} == R12_SETTINGS


def test_a_run_of_any_suits_and_a_deals_cap_read_out_with_the_contracts():
    deals = [deal.copy() for deal in LIVERPOOL.to_json()["deals"]]
    deals[6] = {"cards": 12, "contract": [{"kind": "any_suit_run", "size": 12}], "wild_max": 0}
    rules = RuleSet.parse({"version": 2, "name": "Santiago", "deals": deals})
    said = dict(rules.differences())["deals.contracts"]
    assert said.endswith("· 1 run of 12 in any suits with no wild card")
    capped = {**deals[6], "contract": [{"kind": "run", "size": 12}], "wild_max": 2}
    rules = RuleSet.parse({"version": 2, "name": "Santiago", "deals": [*deals[:6], capped]})
    said = dict(rules.differences())["deals.contracts"]
    assert said.endswith("· 1 run of 12 with at most 2 wild cards a meld")


# Taking several discards is a rule of a table without buying: liverpool's rules, buying off.
NO_BUYING = {"allowed": False}


def document(place: str = "", value: object = None) -> dict:
    """Liverpool's rules without buying (as the `online` preset plays), one setting changed."""
    if place.startswith("buying."):
        return {"version": 2, "name": "Santiago", "buying": {**NO_BUYING, place[7:]: value}}
    changed = {place: value} if place else {}
    return {"version": 2, "name": "Santiago", "buying": NO_BUYING, **changed}


@pytest.mark.parametrize("place", sorted(PLAYED))
def test_a_played_setting_reads_out_in_its_group_changed_or_not(place):
    value, group, rules_touched, changed, default = PLAYED[place]
    rules, base = RuleSet.parse(document(place, value)), RuleSet.parse(document())
    assert set(rules.differences()) - set(base.differences()) == {(place, changed)}
    lines = dict(rules.read_out())[group]
    before = {line.place for line in dict(base.read_out())[group] if line.changed}
    assert {line.place for line in lines if line.changed} - before == {place}
    said = dict(base.read_out())[group]
    assert [line.sentence for line in said if line.place == place] == [default]
    assert rules.house(place) and not LIVERPOOL.house(place)
    assert not RuleSet.parse(document()).house(place)
    assert touched_rules(place) == rules_touched


def test_the_changes_are_read_in_the_documents_order():
    every = {"version": 2, "name": "Santiago", "buying": NO_BUYING}
    for place, (value, *_) in PLAYED.items():
        top, _, inner = place.partition(".")
        if inner:
            every[top] = {**every[top], inner: value}
        else:
            every[place] = value
    rules = RuleSet.parse(every)
    written = [key for key in rules.to_json() if key in PLAYED]
    said = [place for place, _ in rules.differences() if place in PLAYED and "." not in place]
    assert said == written
