"""R12.3's meld settings, played: the ace that wraps, wild cards spaced in a run, a cap on wild
cards in a meld of the opening (the rule set's and a deal's own), and the run in any suits; each
in a meld, an opening, a lay-off and the search for an opening, with R12.5's worked cases."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

import pytest

from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.melds import check_meld, meld_readings
from scorekeeper.rules.opening.laid import check_opening
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import (
    CARIOCA,
    CONTINENTAL,
    LIVERPOOL,
    SHANGHAI,
    Ace,
    Naturals,
    RuleSet,
)
from scorekeeper.rules.table import check_layoff

TABLE = 4


def meld(text: str, rules: RuleSet):
    return check_meld(parse_cards(text), rules, TABLE)


def opening(deal: int, rules: RuleSet, *melds: str, left: int | None = None):
    return check_opening(deal, [parse_cards(text) for text in melds], rules, TABLE, left)


def layoff(meld_text: str, cards: str, rules: RuleSet, deal: int = 3):
    return check_layoff(deal, parse_cards(meld_text), parse_cards(cards), False, rules, TABLE)


# --- R12.5's worked cases ------------------------------------------------------------------


def test_carioca_deal_2_the_ace_wraps_and_one_joker_a_meld():
    legal = opening(2, CARIOCA, "7♥ 7♣ JK", "Q♦ K♦ A♦ 2♦")
    assert legal.legal and legal.rule == "R11" and "the ace wraps" in legal.reason
    refused = opening(2, CARIOCA, "7♥ JK JK", "3♠ 4♠ 5♠ 6♠")
    assert not refused.legal and refused.rule == "R11"
    assert refused.reason == (
        "carioca rules: a meld of the opening holds at most 1 wild card; 7♥ JK JK has 2 wild cards"
    )
    # The same opening under liverpool's rules: no corner, no cap.
    assert not opening(2, LIVERPOOL, "7♥ 7♣ JK", "Q♦ K♦ A♦ 2♦").legal
    assert opening(2, LIVERPOOL, "7♥ JK JK", "3♠ 4♠ 5♠ 6♠").legal


def test_carioca_a_joker_is_laid_off_only_away_from_another():
    beside = layoff("4♣ 5♣ 6♣ JK=7♣", "JK=8♣", CARIOCA)
    assert not beside.legal and beside.rule == "R11"
    assert "two wild cards of a run stand at least 1 natural card apart" in beside.reason
    below = layoff("4♣ 5♣ 6♣ JK=7♣", "JK=3♣", CARIOCA)
    assert below.legal and below.details["meld"] == ["3♣", "4♣", "5♣", "6♣", "7♣"]
    # Not declared, the joker goes where it may: below.
    assert layoff("4♣ 5♣ 6♣ JK=7♣", "JK", CARIOCA).details["jokers"] == ["3♣", "7♣"]
    assert layoff("4♣ 5♣ 6♣ JK=7♣", "JK=8♣", LIVERPOOL).legal


def test_carioca_deals_9_and_10_the_thirteen_ranks():
    spades = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠"
    real = opening(10, CARIOCA, spades, left=0)
    assert real.legal and real.details["kinds"] == ["run"]
    joker = opening(10, CARIOCA, spades.replace("9♠", "JK"), left=0)
    assert not joker.legal and "hold no wild card" in joker.reason
    dirty = opening(9, CARIOCA, "A♠ 2♥ 3♦ 4♣ 5♠ 6♥ 7♦ 8♣ 9♠ 10♥ J♦ Q♣ K♠", left=0)
    assert dirty.legal and dirty.details["kinds"] == ["any_suit_run"]
    twice = opening(9, CARIOCA, "A♠ 2♥ 3♦ 4♣ 5♠ 6♥ 7♦ 8♣ 9♠ 10♥ J♦ Q♣ Q♠", left=0)
    assert not twice.legal and "has two queens: a run in any suits holds each rank once" in (
        twice.reason
    )
    # The search finds both, and refuses the joker in deal 10 naming the cap.
    assert solve_opening(spades, 10, CARIOCA, TABLE).legal
    capped = solve_opening(spades.replace("9♠", "JK"), 10, CARIOCA, TABLE)
    assert not capped.legal and capped.rule == "R11"
    assert "a meld of the opening holds at most 0 wild cards" in capped.reason
    assert solve_opening("A♠ 2♥ 3♦ 4♣ 5♠ 6♥ 7♦ 8♣ 9♠ 10♥ J♦ Q♣ K♠", 9, CARIOCA, TABLE).legal


def test_continental_escaleras_round_the_ace_and_spaced_jokers():
    assert meld("J♥ Q♥ K♥ A♥ 2♥", CONTINENTAL).legal
    beside = meld("JK=3♥ JK=4♥ 5♥ 6♥", CONTINENTAL)
    assert not beside.legal and beside.reason == (
        "continental rules: two wild cards of a run stand at least 1 natural card apart; "
        "JK=3♥ JK=4♥ 5♥ 6♥ has 0 natural cards between two"
    )
    apart = meld("JK=4♥ 5♥ 6♥ JK=7♥", CONTINENTAL)
    assert apart.legal and apart.details["readings"] == [["4♥", "5♥", "6♥", "7♥"]]
    # Undeclared, the two jokers are read only where they stand apart.
    assert meld("JK JK 5♥ 6♥", CONTINENTAL).details["jokers"] == [["4♥", "7♥"]]
    assert len(meld("JK JK 5♥ 6♥", LIVERPOOL).details["readings"]) == 3


def test_continental_deal_1_seven_cards_down_and_out():
    laid = opening(1, CONTINENTAL, "8♠ 8♥ 8♦ 8♣", "Q♣ Q♦ Q♥", left=1)
    assert laid.legal
    found = solve_opening("8♠ 8♥ 8♦ 8♣ Q♣ Q♦ Q♥ 3♥", 1, CONTINENTAL, TABLE)
    assert found.legal and len(found.details["left"]) >= 1


# --- the ace that wraps ------------------------------------------------------------------


WRAP = replace(LIVERPOOL, name="Santiago", ace=Ace.WRAP)


def test_a_wrapping_run_is_legal_only_where_the_ace_wraps_and_says_so():
    legal = meld("Q♦ K♦ A♦ 2♦", WRAP)
    assert legal.legal and legal.rule == "R11"
    assert legal.reason.startswith("Santiago rules: the ace wraps, so Q K A 2 is a run.")
    assert meld("J♦ Q♦ K♦ A♦", WRAP).rule == "R4"  # no corner turned: R4's own run
    refused = meld("Q♦ K♦ A♦ 2♦", LIVERPOOL)
    assert not refused.legal and "wraps around the ace" in refused.reason


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("A♦ A♦ 2♦ 3♦", "A♦ A♦ 2♦ 3♦ has two aces: where the ace wraps a run holds each rank once"),
        ("K♦ A♦ 2♦ 4♦", "K♦ A♦ 2♦ 4♦ is not consecutive: K♦–4♦ needs 5 cards and it has 4"),
        (
            "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦",
            "where the ace wraps a run holds each rank once, at most 13 cards; this has 14",
        ),
    ],
)
def test_a_run_refused_where_the_ace_wraps_says_why_round_the_ace(cards, reason):
    verdict = meld(cards, WRAP)
    assert not verdict.legal and reason in verdict.reason


def test_lay_offs_go_on_round_the_ace():
    before = layoff("A♠ 2♠ 3♠ 4♠", "K♠", WRAP)
    assert before.legal and before.details["meld"] == ["K♠", "A♠", "2♠", "3♠", "4♠"]
    assert before.reason.startswith("Santiago rules: the ace wraps")
    assert layoff("J♠ Q♠ K♠ A♠", "2♠", WRAP).legal
    assert not layoff("A♠ 2♠ 3♠ 4♠", "K♠", LIVERPOOL).legal
    gap = layoff("A♠ 2♠ 3♠ 4♠", "Q♠", WRAP)
    assert not gap.legal and "K♠ would be missing" in gap.reason
    full = layoff("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠", "K♠ 2♠", WRAP)
    assert not full.legal and "at most 13 cards" in full.reason


def test_runs_of_one_suit_touch_round_the_ace():
    touching = opening(3, WRAP, "J♠ Q♠ K♠ A♠", "2♠ 3♠ 4♠ 5♠")
    assert not touching.legal and "touch in one suit" in touching.reason
    # Under R4 an ace-high run and a run from 2 are apart... but the ace is not on both.
    assert opening(3, LIVERPOOL, "J♠ Q♠ K♠ A♠", "2♠ 3♠ 4♠ 5♠").legal
    assert opening(3, WRAP, "J♠ Q♠ K♠ A♠", "3♠ 4♠ 5♠ 6♠").legal


# --- caps, spacing and the run in any suits in a rule set's own deals -----------------------


def test_a_deals_own_cap_overrides_the_rule_sets():
    document = LIVERPOOL.to_json()
    document.update(version=2, name="Santiago", wild_max=2)
    document["deals"][0] = {**document["deals"][0], "wild_max": 0}
    rules = RuleSet.parse(document)
    refused = opening(1, rules, "7♠ 7♥ JK", "9♠ 9♥ 9♦")
    assert not refused.legal and "hold no wild card" in refused.reason
    assert opening(2, rules, "7♠ JK JK", "3♠ 4♠ 5♠ 6♠").legal
    assert not opening(2, rules, "7♠ JK JK JK", "3♠ 4♠ 5♠ 6♠").legal


def test_the_search_names_the_spacing_when_only_it_refuses():
    rules = replace(LIVERPOOL, name="Santiago", wild_spacing=1)
    hand = "JK JK 5♥ 8♥ 9♣ 9♦ 9♠ K♣ 2♦ 4♠"
    assert solve_opening(hand, 2, LIVERPOOL, TABLE).legal
    verdict = solve_opening(hand, 2, rules, TABLE)
    assert not verdict.legal and verdict.rule == "R11"
    assert "two wild cards of a run stand at least 1 natural card apart" in verdict.reason


def test_a_run_of_any_suits_in_a_deal_that_is_not_whole_hand():
    document = LIVERPOOL.to_json()
    document.update(version=2, name="Santiago")
    document["deals"][0] = {"cards": 10, "contract": [{"kind": "any_suit_run", "size": 5}]}
    rules = RuleSet.parse(document)
    found = solve_opening("3♠ 4♥ 5♦ 6♣ 7♠ K♦ K♥ 9♣ 9♠ Q♦ J♣", 1, rules, TABLE)
    assert found.legal and found.details["kinds"] == ["any_suit_run"]
    assert found.details["melds"] == [["3♠", "4♥", "5♦", "6♣", "7♠"]]
    refused = solve_opening("3♠ 4♥ 5♦ 6♣ 8♠ K♦ K♥ 9♣ 9♠ Q♦ Q♣", 1, rules, TABLE)
    assert not refused.legal
    assert opening(1, rules, "JK 4♥ 5♦ 6♣ 7♠").legal


# --- the search against brute force ----------------------------------------------------------


def _brute_force(cards, deal: int, rules: RuleSet, whole: bool) -> bool:
    """Whether some split of the hand into the contract's melds is a legal opening, by trying
    every split the laid opening's check accepts (with a card kept outside a whole-hand deal)."""
    needs = len(rules.deal(deal).contract)
    legal_melds: dict[tuple, bool] = {}

    def is_meld(group) -> bool:
        key = tuple(sorted(map(str, group)))
        if key not in legal_melds:
            legal_melds[key] = bool(meld_readings(group, rules, any_suit=True))
        return legal_melds[key]

    def split(left: list[int], chosen: list[tuple], first: int) -> bool:
        if len(chosen) == needs:
            if (len(left) == 0) != whole:
                return False
            melds = [tuple(cards[i] for i in group) for group in chosen]
            return check_opening(deal, melds, rules, TABLE).legal
        for size in range(3, len(left) + 1):
            for group in combinations(left, size):
                if chosen and group < chosen[-1] and len(group) == len(chosen[-1]):
                    continue
                if is_meld([cards[i] for i in group]):
                    rest = [i for i in left if i not in group]
                    if split(rest, [*chosen, group], first):
                        return True
        return False

    return split(list(range(len(cards))), [], 0)


_CORNER = ["Q", "K", "A", "2", "3", "4"]
_SUITS = ["♠", "♥"]
SPACED = replace(LIVERPOOL, name="Santiago", ace=Ace.WRAP, wild_spacing=1, wild_max=1)
DEUCES = replace(SHANGHAI, name="Santiago", ace=Ace.WRAP, wild_spacing=1)


@pytest.mark.parametrize(
    ("rules", "deal"),
    [(CARIOCA, 1), (CARIOCA, 2), (CARIOCA, 3), (CONTINENTAL, 2), (SPACED, 3), (DEUCES, 2)],
    ids=["carioca-1", "carioca-2", "carioca-3", "continental-2", "spaced-3", "deuces-2"],
)
def test_the_search_agrees_with_brute_force_round_the_corner(rules, deal):
    """Hands of 8 to 10 cards round the ace (Q K A 2 3 4 of two suits, and jokers): the search
    says yes exactly where some split of the hand is a legal opening, and every opening it
    gives is one the laid check accepts."""
    chance = random.Random(f"{rules.name}-{deal}")
    agreed = {True: 0, False: 0}
    for _ in range(40):
        size = chance.randint(8, 10)
        jokers = min(3, rules.joker_count(TABLE))
        deck = [f"{rank}{suit}" for rank in _CORNER for suit in _SUITS] * 2 + ["JK"] * jokers
        cards = list(parse_cards(" ".join(chance.sample(deck, size))))
        found = solve_opening(cards, deal, rules, TABLE)
        assert found.legal == _brute_force(cards, deal, rules, False), [str(c) for c in cards]
        if found.legal:
            melds = [parse_cards(" ".join(meld)) for meld in found.details["melds"]]
            assert check_opening(deal, melds, rules, TABLE).legal
        agreed[found.legal] += 1
    assert agreed[True] and agreed[False]  # both answers were tried


# Outside a whole-hand deal the search cuts only the melds' own sizes where every longer meld
# holds one of its size (a run needing one natural, wild cards free to outnumber natural ones);
# these tables are on both sides of that line.
TWO_NATURALS_A_SET = replace(CONTINENTAL, name="Madrid", naturals=Naturals(set=2, run=1))
# Without spacing, jokers side by side leave a run's natural cards at its ends.
TWO_NATURALS_A_RUN = replace(
    CONTINENTAL, name="Madrid", naturals=Naturals(set=1, run=2), wild_spacing=0
)
NO_MORE_WILD = replace(
    CONTINENTAL,
    name="Madrid",
    naturals=Naturals(set=1, run=1, wild_at_most_natural=True),
    wild_spacing=0,
)


@pytest.mark.parametrize(
    ("rules", "deal"),
    [
        (CONTINENTAL, 1),
        (CONTINENTAL, 3),
        (TWO_NATURALS_A_SET, 2),
        (TWO_NATURALS_A_RUN, 3),
        (NO_MORE_WILD, 3),
    ],
    ids=["continental-1", "continental-3", "set-naturals-2", "run-naturals-2", "no-more-wild"],
)
def test_melds_cut_at_their_sizes_miss_no_opening_a_longer_meld_makes(rules, deal):
    """Hands of 9 to 11 cards round the ace with up to 4 jokers, where runs of 5 and 6 and sets
    of 4 are there to be laid: the search says yes exactly where some split into melds of any
    length is a legal opening (the brute force tries every length)."""
    chance = random.Random(f"longer-{rules.naturals}-{deal}")
    agreed = {True: 0, False: 0}
    for _ in range(40):
        size = chance.randint(9, 11)
        deck = [f"{rank}{suit}" for rank in _CORNER for suit in _SUITS] * 2 + ["JK"] * 4
        cards = list(parse_cards(" ".join(chance.sample(deck, size))))
        found = solve_opening(cards, deal, rules, TABLE)
        assert found.legal == _brute_force(cards, deal, rules, False), [str(c) for c in cards]
        agreed[found.legal] += 1
    assert agreed[True] and agreed[False]


def test_a_run_longer_than_its_size_opens_where_none_of_its_size_holds_two_naturals():
    """3♠ JK JK JK 7♠ holds two natural cards, but no four of its places do: under two naturals
    a run, it is laid at five."""
    cards = list(parse_cards("3♠ JK JK JK 7♠ 8♥ 9♥ 10♥ J♥ K♣"))
    found = solve_opening(cards, 3, TWO_NATURALS_A_RUN, TABLE)
    assert found.legal
    assert ["3♠", "JK", "JK", "JK", "7♠"] in found.details["melds"]
    assert _brute_force(cards, 3, TWO_NATURALS_A_RUN, False)


def test_a_run_takes_a_wild_card_where_a_set_needs_its_natural():
    """One wild card a meld: 5♠ goes to the set of fives (5♥ 5♠ JK) and the run of spades takes
    the other joker in its place (4♠ JK 6♠ 7♠): a natural left for a run's place is not always
    the run's where the contract has sets."""
    rules = replace(CONTINENTAL, name="Madrid", wild_max=1)
    cards = list(parse_cards("4♠ 5♠ 6♠ 7♠ 5♥ JK JK K♣"))
    found = solve_opening(cards, 2, rules, TABLE)
    assert found.legal, found.reason
    assert _brute_force(cards, 2, rules, False)


def test_two_sets_of_one_rank_are_found_whichever_suits_each_takes():
    """Six sevens of four suits make two sets where the rules let two sets share a rank: the
    search picks one set's suits, and the other set's are what is left."""
    cards = list(parse_cards("7♠ 7♠ 7♥ 7♦ 7♦ 7♣ K♣"))
    found = solve_opening(cards, 1, CONTINENTAL, TABLE)
    assert found.legal, found.reason
    assert sorted(len(meld) for meld in found.details["melds"]) == [3, 3]
    assert _brute_force(cards, 1, CONTINENTAL, False)
