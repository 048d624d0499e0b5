"""R11's citing: a verdict that turns on a setting the rule set changes from liverpool (a deal
among them) cites R11 and names the rule set; a wild 2 is named as the 2 it is."""

from __future__ import annotations

import pytest

from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.citing import Cited, deal_change
from scorekeeper.rules.errors import CopyLimitError
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.opening.laid import check_opening
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import LIVERPOOL, PRESETS, RuleSet
from scorekeeper.rules.table import check_layoff, check_swap
from scorekeeper.rules.words import words


def document(name: str, **changes) -> RuleSet:
    """Liverpool's document with some settings changed, under a table's own name."""
    return RuleSet.parse({**LIVERPOOL.to_json(), "name": name, **changes})


def deals(**flags) -> list[dict]:
    """Liverpool's deals with whole-hand flags changed: `deals(d7=False)`."""
    found = LIVERPOOL.to_json()["deals"]
    for key, whole in flags.items():
        found[int(key[1:]) - 1]["whole_hand"] = whole
    return found


SMITH = document("Smith family", deals=deals(d7=False))
TWO_RUNS = document("Two runs", deals=deals(d3=True))
NO_JOKERS = document("No jokers", jokers={"fixed": 0, "per_pack": 0})


def cards(text: str):
    return parse_cards(text)


def test_a_set_of_2s_takes_no_5_even_with_deuces_wild():
    # The 2s of a set of 2s are natural (R11): 5♣ does not fit, whatever 2s may do elsewhere.
    verdict = check_layoff(1, cards("2♠ 2♥ 2♦"), cards("5♣"), False, PRESETS["shanghai"])
    assert not verdict.legal and verdict.rule == "R6" and verdict.line == "2"
    assert verdict.reason == (
        "5♣ does not belong on 2♠ 2♥ 2♦: a set of 2s takes only more 2s or wild cards"
    )
    assert check_layoff(1, cards("2♠ 2♥ 2♦"), cards("2♣"), False, PRESETS["shanghai"]).rule == "R6"


def test_a_wild_2_in_a_meld_is_named_as_the_2_it_is():
    twice = check_meld(cards("5♠ 6♠ 2♣=8♠ 8♠"), PRESETS["shanghai"])
    assert twice.reason == (
        "2♣=8♠ stands for 8♠, which 5♠ 6♠ 2♣=8♠ 8♠ already has: a run holds each card once"
    )
    gap = check_meld(cards("5♠ 6♠ 2♣=9♠ 8♠"), PRESETS["shanghai"])
    assert "JK" not in gap.reason and "a wild card fills only one missing card" in gap.reason


def test_a_wild_2_laid_off_is_named_as_the_2_it_is():
    verdict = check_layoff(3, cards("5♠ 6♠ 7♠ 8♠"), cards("2♣=8♠"), False, PRESETS["shanghai"])
    assert verdict.reason == (
        "2♣=8♠ stands for 8♠, which 5♠ 6♠ 7♠ 8♠ already has: a run holds each card once"
    )


def test_a_lay_off_that_needs_a_wild_2_cites_the_deuces_setting():
    verdict = check_layoff(3, cards("5♠ 6♠ 7♠ 8♠"), cards("2♣"), False, PRESETS["shanghai"])
    assert verdict.legal and verdict.rule == "R11"
    assert verdict.to_dict()["settings"] == ["wild_deuces"]
    assert verdict.reason.startswith("shanghai rules: the 2♣ is wild here, standing for 4♠. ")
    # A 2 of the run's own suit at its own place is natural: R6 decides.
    natural = check_layoff(3, cards("3♠ 4♠ 5♠ 6♠"), cards("2♠"), False, PRESETS["shanghai"])
    assert natural.legal and natural.rule == "R6" and natural.line == "2"


def test_four_suits_are_not_said_of_three():
    hand = "3♠ 4♠ 5♠ 6♠ 8♥ 9♥ 10♥ J♥ 9♦ 10♦ J♦"
    verdict = solve_opening(hand, 3, TWO_RUNS)
    assert not verdict.legal
    assert "The naturals are in 3 suits, but round 3's 2 runs can hold at most 2 suits" in (
        verdict.reason
    )


def test_a_joker_in_a_game_without_jokers_is_said_plainly():
    with pytest.raises(CopyLimitError) as refused:
        check_meld(cards("7♣ 7♦ JK"), NO_JOKERS)
    assert str(refused.value) == "1 joker, but this game is played without jokers"
    with pytest.raises(CopyLimitError) as four:
        check_meld(cards("7♣ JK JK JK JK"), LIVERPOOL)
    assert str(four.value) == "4 jokers, but this game has only 3 (2 packs)"


def test_a_deal_7_that_is_not_whole_hand_is_not_refused_by_r5():
    hand = "3♠ 4♠ 5♠ 6♠ 8♥ 9♥ 10♥ J♥ 2♦ 3♦ 4♦ 5♦"
    verdict = solve_opening(hand, 7, SMITH)
    assert not verdict.legal and verdict.rule == "R11" and verdict.line == "deals"
    assert verdict.reason.startswith(
        "Smith family rules: deal 7 is not laid all at once, so a card is kept to discard. "
    )
    opening = check_opening(7, [cards("3♠ 4♠ 5♠ 6♠"), cards("8♥ 9♥ 10♥ J♥")], SMITH)
    assert opening.rule == "R11" and opening.line == "deals"
    # Liverpool's own deal 7 is cited by R5, as before.
    assert solve_opening(hand, 7, LIVERPOOL).rule == "R5"


def test_a_lay_off_in_a_deal_liverpool_lays_all_at_once_cites_the_deal():
    verdict = check_layoff(7, cards("3♠ 4♠ 5♠ 6♠"), cards("7♠"), False, SMITH)
    assert verdict.legal and verdict.rule == "R11" and verdict.line == "deals"
    swapped = check_swap(7, cards("7♠ 8♠ JK 10♠"), cards("9♠")[0], False, SMITH)
    assert swapped.legal and swapped.rule == "R11" and swapped.line == "deals"
    # A deal that is liverpool's own decides nothing new: R6.
    assert check_layoff(3, cards("3♠ 4♠ 5♠ 6♠"), cards("7♠"), False, SMITH).rule == "R6"


def test_a_setting_already_cited_keeps_its_place_beside_the_deal():
    verdict = check_layoff(7, cards("3♠ 4♠ 5♠ 6♠"), cards("7♠"), True, PRESETS["shanghai"])
    assert verdict.to_dict()["settings"] == ["deals", "layoff_on_opening_turn"]
    assert verdict.reason.startswith(
        "shanghai rules: deal 7 is not laid all at once, so a card is kept to discard; "
        "you may lay off on the turn you open. "
    )


def bracketed(text: str, **values) -> str:
    """A stand-in translation: each text in brackets, so a test sees every text it rendered."""
    return f"<{text}>" % values


def bracketed_plural(singular: str, plural: str, num: int, **values) -> str:
    return bracketed(singular if num == 1 else plural, **{**values, "num": num})


def test_a_house_reason_is_coded_so_a_translation_says_all_of_it():
    named = check_layoff(7, cards("3♠ 4♠ 5♠ 6♠"), cards("7♠"), True, PRESETS["shanghai"])
    assert named.code == "citing.house_named" and named.to_dict()["settings"][0] == "deals"
    assert words(named.message) == named.reason
    assert named.values["rules"] == "shanghai rules"
    assert named.values["said"].values["items"][0].code is Cited.LAID
    said = words(named.message, bracketed, bracketed_plural)
    # The rules are named once, in the house text and in the translation's words (`named.rules`);
    # the setting's reason reads on after it.
    assert said.startswith("<<shanghai rules>: <deal 7 is <not laid all at once")
    assert said.count("shanghai rules") == 1 and "<you may lay off on the turn you open" in said

    plain = solve_opening("3♠ 4♠ 5♠ 6♠ 8♥ 9♥ 10♥ J♥ 2♦ 3♦ 4♦ 5♦", 7, SMITH)
    assert plain.code == "citing.house" and words(plain.message) == plain.reason
    translated = words(plain.message, bracketed, bracketed_plural)
    assert translated.startswith("<<Smith family rules>: <deal 7 is <not laid all at once")
    # The refusal beside it is a sentence of its own, in the translation's words too, its
    # contract included (`Said`: plain text in English, said again here).
    assert translated.endswith(
        ". <<3 runs> needs at least 13 cards, one of them kept to discard: "
        "this hand has <12 cards>.>>"
    )


@pytest.mark.parametrize(
    ("rules", "number", "said"),
    [
        ("liverpool", 7, None),
        ("family", 4, None),  # 10 cards dealt, the same contract: nothing a verdict rests on
        ("shanghai", 2, None),
        ("shanghai", 5, "deal 5's contract is 1 set of 3 + 1 run of 7"),
        ("shanghai", 8, "deal 8 is 1 set of 3 + 1 run of 10, a card kept to discard"),
    ],
)
def test_the_deals_a_verdict_names(rules, number, said):
    assert deal_change(PRESETS[rules], number) == said


def test_a_name_the_engine_hands_on_as_text_is_said_again_in_the_translation():
    """`shanghai rules` and `Seat 3` read as plain text in English, and a translation says
    them in its own words wherever they fill a message."""
    from scorekeeper.rules.buying import seat_labels
    from scorekeeper.rules.ruleset.values import Asked
    from scorekeeper.rules.words import message

    rules = PRESETS["shanghai"]
    assert rules.rules_name == "shanghai rules" and f"{rules.rules_name}!" == "shanghai rules!"
    refused = message(Asked.NO_ROUND, number=12, rules=rules.rules_name, last=10)
    assert words(refused) == "round 12 does not exist: shanghai rules have rounds 1 to 10"
    assert "<shanghai rules> have rounds" in words(refused, bracketed, bracketed_plural)
    seats = seat_labels(4, ["Ann"])
    assert seats == ["Ann", "Seat 2", "Seat 3", "Seat 4"]
    assert (
        words(message(Asked.EXACTLY, players=seats[2]), bracketed) == "<exactly <Seat 3> players>"
    )
