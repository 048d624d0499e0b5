"""R11 Wild deuces and "no more wild cards than natural cards", in meld, opening and solver."""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import Card, parse_cards
from scorekeeper.rules.errors import CopyLimitError
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.opening.laid import check_opening
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import PRESETS
from scorekeeper.rules.table import check_layoff, check_swap

from .test_contracts_rules import CUSTOM

EVERY = [*PRESETS.values(), CUSTOM]
WILD = [rules for rules in EVERY if rules.wild_deuces]


def meld(text: str, rules) -> dict:
    return check_meld(parse_cards(text), rules).to_dict()


def test_a_declared_2_is_read_whatever_the_rules():
    card = Card.parse("2♥=7♠")
    assert (card.rank, card.suit, card.stands_for, str(card)) == (2, "H", Card(7, "S"), "2♥=7♠")
    assert Card.parse("2♠=7").stands_for == Card(7, None)


@pytest.mark.parametrize("rules", EVERY, ids=str)
def test_a_set_of_2s_is_natural_under_every_rule_set(rules):
    verdict = meld("2♠ 2♥ 2♦", rules)
    assert verdict["legal"] is True and verdict["rule"] == "R4"
    assert verdict["readings"] == [["2♠", "2♥", "2♦"]]
    assert verdict.get("wild_deuces", [[]]) == [[]]


@pytest.mark.parametrize("rules", EVERY, ids=str)
def test_the_2_of_a_runs_own_suit_at_its_place_is_natural(rules):
    verdict = meld("A♠ 2♠ 3♠ 4♠", rules)
    assert verdict["legal"] is True and verdict["rule"] == "R4"
    assert verdict["readings"] == [["A♠", "2♠", "3♠", "4♠"]]
    assert verdict["jokers"] == [[]]


@pytest.mark.parametrize("rules", EVERY, ids=str)
def test_a_2_elsewhere_is_wild_only_where_deuces_are_wild(rules):
    verdict = meld("5♠ 6♠ 2♥ 8♠", rules)
    if rules in WILD:
        assert verdict["legal"] is True and verdict["rule"] == "R11"
        name = rules.rules_name
        assert verdict["reason"].startswith(f"{name}: the 2♥ is wild here, standing for 7♠.")
        assert verdict["readings"] == [["5♠", "6♠", "7♠", "8♠"]]
        assert verdict["wild_deuces"] == [["2♥=7♠"]]
    else:
        assert verdict["legal"] is False and "wild_deuces" not in verdict


@pytest.mark.parametrize("rules", EVERY, ids=str)
def test_a_declared_2(rules):
    verdict = meld("5♠ 6♠ 2♥=7♠ 8♠", rules)
    if rules in WILD:
        assert verdict["legal"] is True
        assert verdict["wild_deuces"] == [["2♥=7♠"]]
    else:
        assert verdict["legal"] is False and verdict["rule"] == "R1"
        assert "2♥=7♠ declares a place" in verdict["reason"]
        assert "a 2 is a natural card" in verdict["reason"]


def test_a_declared_2_is_held_to_its_place():
    assert meld("5♠ 6♠ 2♥=4♠ 8♠", PRESETS["shanghai"])["legal"] is False
    assert meld("5♠ 6♠ 7♠ 2♥=8♠", PRESETS["shanghai"])["readings"] == [["5♠", "6♠", "7♠", "8♠"]]


def test_a_2_of_the_runs_suit_away_from_its_place_is_wild():
    verdict = meld("5♠ 6♠ 2♠ 8♠", PRESETS["shanghai"])
    assert verdict["wild_deuces"] == [["2♠=7♠"]]


def test_a_2_in_a_set_of_another_rank_is_wild():
    verdict = meld("7♠ 7♥ 2♥", PRESETS["shanghai"])
    assert verdict["legal"] is True and verdict["jokers"] == [["7"]]
    assert verdict["wild_deuces"] == [["2♥=7"]]


def test_a_2_is_read_both_ways_and_each_reading_once():
    verdict = meld("2♠ 3♠ 4♠ JK", PRESETS["shanghai"])
    assert verdict["readings"] == [
        ["A♠", "2♠", "3♠", "4♠"],
        ["2♠", "3♠", "4♠", "5♠"],
        ["3♠", "4♠", "5♠", "6♠"],
    ]
    assert verdict["wild_deuces"] == [[], [], ["2♠=5♠"]]
    assert verdict["rule"] == "R4"  # natural readings exist: wild deuces do not decide


@pytest.mark.parametrize(
    ("text", "wild", "natural"),
    [("7♠ 2♥ JK", 2, 1), ("7♠ 2♥ 2♦ JK 7♥", 3, 2), ("5♠ JK 2♥ JK 9♠", 3, 2)],
)
def test_no_more_wild_cards_than_natural_cards(text, wild, natural):
    verdict = meld(text, PRESETS["shanghai"])
    assert verdict["legal"] is False and verdict["rule"] == "R11"
    assert verdict["reason"] == (
        "shanghai rules: a meld may not hold more wild cards than natural cards; "
        f"{text} has {wild} wild and {natural} natural"
    )


def test_as_many_wild_cards_as_natural_cards_is_allowed():
    assert meld("7♠ 7♥ 2♥ JK", PRESETS["shanghai"])["legal"] is True
    assert meld("5♠ JK JK 8♠", PRESETS["shanghai"])["legal"] is True
    # Without the setting the same cards are a meld.
    assert meld("7♠ 2♥ JK", CUSTOM)["legal"] is True


def test_copy_limits_count_a_wild_2_as_the_2_it_is():
    with pytest.raises(CopyLimitError):
        check_meld(parse_cards("5♠ 6♠ 2♥ 2♥=8♠ 2♥=9♠"), PRESETS["shanghai"], 4)


def test_an_opening_with_a_wild_2_cites_the_rules():
    verdict = check_opening(
        1, [parse_cards("7♠ 7♥ 2♦"), parse_cards("9♠ 9♥ 9♦")], PRESETS["shanghai"]
    )
    assert verdict.legal and verdict.rule == "R11"
    assert verdict.reason.startswith("shanghai rules: the 2♦ is wild here, standing for 7.")
    assert verdict.details["wild_deuces"] == [["2♦=7"], []]
    refused = check_opening(
        1, [parse_cards("7♠ 2♥ 2♦"), parse_cards("9♠ 9♥ 9♦")], PRESETS["shanghai"]
    )
    assert not refused.legal and refused.rule == "R11"


def test_the_solver_plays_a_2_wild_only_when_it_must():
    verdict = solve_opening("7♠ 7♥ 2♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦", 1, PRESETS["shanghai"])
    assert verdict.legal and verdict.rule == "R11"
    assert verdict.details["melds"] == [["7♠", "7♥", "2♦"], ["9♠", "9♥", "9♦"]]
    assert verdict.details["readings"][0] == ["7♠", "7♥", "7"]
    assert verdict.details["wild_deuces"] == [["2♦=7"], []]
    natural = solve_opening("2♠ 2♥ 2♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦", 1, PRESETS["shanghai"])
    assert natural.legal and natural.rule == "R5"
    assert natural.details["wild_deuces"] == [[], []]


def test_the_solver_refuses_what_only_wild_cards_would_make():
    verdict = solve_opening("7♠ 2♥ JK 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦", 1, PRESETS["shanghai"])
    assert not verdict.legal and verdict.rule == "R11"
    assert verdict.reason.startswith(
        "shanghai rules: a meld may not hold more wild cards than natural cards"
    )
    # Where 2s are natural the 2♥ makes no set of 7s either.
    assert not solve_opening("7♠ 2♥ JK 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦", 1, PRESETS["liverpool"]).legal


def test_an_opening_reads_its_2s_natural_where_it_can():
    # 3♠ 4♠ 2♠ JK reads as A♠–4♠ or 2♠–5♠ (the 2♠ natural) or 3♠–6♠ (the 2♠ wild).
    verdict = check_opening(
        2, [parse_cards("7♥ 7♦ 7♣"), parse_cards("3♠ 4♠ 2♠ JK")], PRESETS["shanghai"]
    )
    assert verdict.legal and verdict.rule == "R5"
    assert verdict.details["wild_deuces"] == [[], []]
    wild = check_opening(
        2, [parse_cards("7♥ 7♦ 7♣"), parse_cards("5♠ 6♠ 2♠ JK")], PRESETS["shanghai"]
    )
    assert wild.legal and wild.rule == "R11"
    assert wild.details["wild_deuces"] == [[], ["2♠=3♠"]]


# Every answer that shows cards gives them `declared` as well: each wild card in R1 notation as
# the place it stands for (`JK=J`, `2♠=7`), so a page shows the card played, not a plain card.


def test_a_melds_readings_declare_their_wild_cards():
    jacks = meld("J♠ J♥ JK", PRESETS["liverpool"])
    assert jacks["readings"] == [["J♠", "J♥", "J"]]
    assert jacks["declared"] == [["J♠", "J♥", "JK=J"]]
    sevens = meld("7♠ 7♥ 2♠", PRESETS["shanghai"])
    assert sevens["declared"] == [["7♠", "7♥", "2♠=7"]]
    run = meld("5♠ 6♠ 2♥ JK", PRESETS["shanghai"])
    assert ["5♠", "6♠", "2♥=7♠", "JK=8♠"] in run["declared"]
    assert len(run["declared"]) == len(run["readings"])
    assert meld("7♠ 8♥ 9♦", PRESETS["liverpool"])["declared"] == []


def test_an_opening_and_the_solver_declare_the_same_wild_cards():
    melds = [parse_cards("7♠ 7♥ 2♦"), parse_cards("9♠ 9♥ 9♦")]
    opening = check_opening(1, melds, PRESETS["shanghai"]).to_dict()
    solved = solve_opening("7♠ 7♥ 2♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦", 1, PRESETS["shanghai"]).to_dict()
    assert opening["declared"] == solved["declared"] == [["7♠", "7♥", "2♦=7"], ["9♠", "9♥", "9♦"]]
    joker = solve_opening("7♠ 7♥ JK 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥", 1, PRESETS["liverpool"]).to_dict()
    assert joker["declared"] == [["7♠", "7♥", "JK=7"], ["9♠", "9♥", "9♦"]]
    assert joker["melds"] == [["7♠", "7♥", "JK"], ["9♠", "9♥", "9♦"]]  # as before
    refused = solve_opening("7♠ 8♥ 3♣ 4♣ 5♣ 8♦ A♥ K♦ 10♠ J♦ Q♣", 1, PRESETS["liverpool"]).to_dict()
    assert refused["declared"] == []


# Every verdict names what in its rule decides: a point of R1-R10 (`rule_line`), or the settings
# of R11's table (`settings`), so a page can show that line before the whole section.


def test_a_verdict_names_the_point_or_the_setting_that_decides():
    assert meld("J♠ J♥ JK", PRESETS["liverpool"])["rule_line"] == "R4.3"
    assert meld("J♠ J♥ J♦", PRESETS["liverpool"])["rule_line"] == "R4.1"
    assert meld("JK JK JK", PRESETS["liverpool"])["rule_line"] == "R4.3"
    assert meld("5♠ 6♠ 8♠ 9♠", PRESETS["liverpool"])["rule_line"] == "R4.2"
    shanghai = meld("7♠ 7♥ 2♠", PRESETS["shanghai"])
    assert (shanghai["rule"], shanghai["settings"]) == ("R11", ["wild_deuces"])
    assert "rule_line" not in shanghai
    too_wild = meld("7♠ 2♥ JK", PRESETS["shanghai"])
    assert (too_wild["rule"], too_wild["settings"]) == ("R11", ["naturals"])
    touching = [parse_cards("3♠ 4♠ 5♠ 6♠"), parse_cards("7♠ 8♠ 9♠ 10♠")]
    assert check_opening(3, touching, PRESETS["liverpool"]).to_dict()["rule_line"] == "R5.2"
    refused = solve_opening("7♠ 2♥ JK 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥ K♦", 1, PRESETS["shanghai"]).to_dict()
    assert refused["settings"] == ["naturals"]


def test_a_lay_off_or_a_swap_names_every_setting_that_allows_it():
    meld_, card = parse_cards("8♠ 8♦ 8♣"), parse_cards("8♥")
    online = check_layoff(2, meld_, card, True, PRESETS["online"], left=0).to_dict()
    assert online["settings"] == ["layoff_on_opening_turn", "go_out_by_layoff"]
    liverpool = check_layoff(2, meld_, card, True, PRESETS["liverpool"]).to_dict()
    assert (liverpool["rule"], liverpool["rule_line"]) == ("R6", "R6.1")
    swap = check_swap(
        2, parse_cards("7♠ 7♥ 2♦"), Card(7, "D"), False, PRESETS["shanghai"]
    ).to_dict()
    assert swap["legal"] and swap["settings"] == ["joker_swap", "wild_deuces", "freed_joker"]
