"""R12 The rule-set document, version 2: R12.3's settings as typed fields with today's defaults,
a version-1 document read as it always was (its very text and share code kept), R12.3's
conditions of "playable" named with every other problem at once, and R12.1's and R12.2's
presets, kept apart from the ones a table picks."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import PRESETS, RuleSet, RuleSetError, contract, sharing
from scorekeeper.rules.cards import parse_cards
from scorekeeper.rules.ruleset import (
    CARIOCA,
    CONTINENTAL,
    FIRST_VERSION,
    LIVERPOOL,
    R12_SETTINGS,
    SHANGHAI,
    VERSION,
    VERSIONS,
    Ace,
    Buying,
    Deal,
    Direction,
    FreedJoker,
    FreedJokerTo,
    Jokers,
    JokerSwap,
    MeldKind,
    Naturals,
    Need,
    PackStep,
    TieBreak,
    preset,
    r12_setting,
)
from scorekeeper.rules.ruleset.values import R12_BUYING, R12_DEAL, R12_TOP

# Each earlier preset's document and share code as the release before R12 wrote them.
V1_PRESETS = json.loads((Path(__file__).parent / "ruleset_v1_presets.json").read_text("utf-8"))

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ALL_PRESETS = PRESETS
# The presets from before R12: every one of them written as version 1.
EARLIER = {key: rules for key, rules in PRESETS.items() if key in V1_PRESETS}


def problems(document: object) -> dict[str, str]:
    with pytest.raises(RuleSetError) as raised:
        RuleSet.read(document)
    return raised.value.problems


def deal(cards: int, *needs: tuple[str, int], whole_hand: bool = False, **own) -> dict:
    contract = [{"kind": kind, "size": size} for kind, size in needs]
    return {"cards": cards, "contract": contract, "whole_hand": whole_hand, **own}


# --- The settings and their defaults ---------------------------------------------------------


def test_the_new_settings_default_to_todays_game():
    """R12.3's "default" column: every earlier preset plays as it did."""
    assert set(EARLIER) == set(PRESETS) - {"carioca", "continental"}
    for rules in EARLIER.values():
        assert rules.direction is Direction.LEFT and rules.ace is Ace.NO_WRAP
        assert rules.wild_max is None and rules.wild_spacing == 0
        assert not rules.distinct_set_ranks
        assert rules.discard_wild and rules.discard_draw_after_opening
        assert rules.out_in_one_turn_bonus == 0
        assert rules.tie_break is TieBreak.SHARE and rules.freed_joker_to is FreedJokerTo.ANY
        assert rules.buying.take_several
        assert all(each.wild_max is None for each in rules.deals)
        assert all(
            need.kind is not MeldKind.ANY_SUIT_RUN for d in rules.deals for need in d.contract
        )
        assert rules.r12_places == () and rules.version == FIRST_VERSION
        every = rules.every_setting()
        assert {key: every[key] for key in R12_TOP} == R12_TOP
        assert every["buying"]["take_several"] is R12_BUYING["take_several"]
        assert [each["wild_max"] for each in every["deals"]] == [R12_DEAL["wild_max"]] * len(
            rules.deals
        )


def test_a_setting_that_is_a_choice_is_an_enum():
    assert [member.value for member in Direction] == ["left", "right"]
    assert [member.value for member in Ace] == ["no_wrap", "wrap"]
    assert [member.value for member in TieBreak] == ["share", "deals_won"]
    assert [member.value for member in FreedJokerTo] == ["any", "run"]
    assert MeldKind.ANY_SUIT_RUN.value == "any_suit_run"
    assert MeldKind.ANY_SUIT_RUN.sizes == range(4, 14) and MeldKind.ANY_SUIT_RUN.least == 4


def test_each_new_setting_reads_and_is_written_only_where_it_differs():
    document = {
        "direction": "right",
        "ace": "wrap",
        "wild_max": 2,
        "wild_spacing": 3,
        "distinct_set_ranks": True,
        "discard_wild": False,
        "discard_draw_after_opening": False,
        "out_in_one_turn_bonus": -25,
        "tie_break": "deals_won",
        "freed_joker_to": "run",
        "buying": {"allowed": False, "take_several": False},
    }
    rules = RuleSet.read(document)
    assert (rules.direction, rules.ace, rules.tie_break, rules.freed_joker_to) == (
        Direction.RIGHT,
        Ace.WRAP,
        TieBreak.DEALS_WON,
        FreedJokerTo.RUN,
    )
    assert (rules.wild_max, rules.wild_spacing, rules.out_in_one_turn_bonus) == (2, 3, -25)
    assert rules.distinct_set_ranks and not rules.discard_wild
    assert not rules.discard_draw_after_opening and not rules.buying.take_several
    written = rules.to_json()
    assert written["version"] == VERSION == 2
    assert list(written)[-10:] == list(R12_TOP)
    assert written["buying"]["take_several"] is False
    assert rules.house("direction") and not LIVERPOOL.house("direction")
    assert rules.setting("wild_spacing") == 3 and LIVERPOOL.setting("wild_spacing") == 0
    # One setting changed: only it is written, after version 1's.
    one = RuleSet.read({"wild_spacing": 1}).to_json()
    assert one["version"] == 2 and list(one)[-1] == "wild_spacing"
    assert not set(R12_TOP) - {"wild_spacing"} & set(one)
    assert "take_several" not in one["buying"]
    assert all("wild_max" not in each for each in one["deals"])


def test_a_deals_own_wild_cap_overrides_the_rule_sets():
    rules = RuleSet.read(
        {"wild_max": 1, "deals": [deal(10, ("set", 3)), deal(10, ("run", 4), wild_max=0)]}
    )
    assert rules.deals[1].wild_max == 0 and rules.deals[0].wild_max is None
    assert (rules.wild_cap(1), rules.wild_cap(2)) == (1, 0)
    written = rules.to_json()["deals"]
    assert "wild_max" not in written[0] and written[1]["wild_max"] == 0
    assert rules.r12_places == ("wild_max", "deals[1].wild_max")
    assert LIVERPOOL.wild_cap(7) is None


def test_a_run_of_suits_free_is_a_contract_kind():
    rules = RuleSet.read(
        {"deals": [deal(12, ("any_suit_run", 13), whole_hand=True), deal(10, ("any_suit_run", 4))]}
    )
    assert rules.deals[0].contract == (Need(MeldKind.ANY_SUIT_RUN, 13),)
    assert rules.deals[0].contract_text() == "1 run of 13 in any suits"
    assert rules.deals[1].contract_text() == "1 run in any suits"
    assert rules.version == 2
    assert rules.r12_places == ("deals[0].contract[0].kind", "deals[1].contract[0].kind")
    assert RuleSet.read(rules.to_json()) == rules


# --- Version 1 and version 2 -----------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(EARLIER))
def test_an_earlier_presets_version_1_document_reads_as_before_and_keeps_its_identity(key):
    """The document and share code the release before R12 wrote: read as the very preset, and
    written again byte for byte, so a saved rule set, a game's copy and a share code keep it."""
    rules, before = EARLIER[key], V1_PRESETS[key]
    assert json.loads(before["text"])["version"] == 1
    assert RuleSet.parse(before["text"]) is rules
    assert RuleSet.parse(json.loads(before["text"])) is rules
    assert sharing.from_code(before["code"]) is rules
    assert rules.dumps() == before["text"]
    assert sharing.code(rules) == before["code"]
    assert rules.to_json() == json.loads(before["text"])
    assert sharing.file_text(rules) == json.dumps(json.loads(before["text"]), indent=2) + "\n"


@pytest.mark.parametrize("key", sorted(EARLIER))
def test_a_version_2_document_of_the_defaults_is_the_version_1_rule_set(key):
    rules = EARLIER[key]
    every = rules.every_setting()
    assert every["version"] == 2 and set(R12_TOP) <= set(every)
    assert RuleSet.parse({**every, "version": 2}) is rules
    assert RuleSet.parse({**rules.to_json(), "version": 2}) is rules
    assert RuleSet.parse({**rules.to_json(), "version": 2}).dumps() == V1_PRESETS[key]["text"]


def test_a_document_without_a_version_is_read_as_the_latest():
    assert RuleSet.parse({}) is LIVERPOOL
    assert RuleSet.read({"direction": "right"}).direction is Direction.RIGHT


@pytest.mark.parametrize("version", [0, 3, -1, 2.0, "2", None, True, [2]])
def test_a_version_there_is_not_is_refused(version):
    said = problems({"version": version})
    assert list(said) == ["version"]
    assert said["version"].startswith("must be 1 or 2, the versions there are, not ")


@pytest.mark.parametrize(
    ("document", "place"),
    [
        *(({key: value}, key) for key, value in R12_TOP.items()),
        ({"buying": {"take_several": True}}, "buying.take_several"),
        ({"deals": [deal(10, ("set", 3), wild_max=1)]}, "deals[0].wild_max"),
        ({"deals": [deal(10, ("any_suit_run", 4))]}, "deals[0].contract[0].kind"),
    ],
)
def test_a_version_1_document_holds_none_of_r12s_settings(document, place):
    """Even at its default, R12's setting in a version-1 document is named: that document is
    not what it says it is."""
    said = problems({"version": 1, **document})
    assert said == {place: "is a setting of version 2: a version 1 document leaves it out"}
    assert RuleSet.read({"version": 2, **document}) is not None


def test_versions_are_the_ones_there_are():
    assert VERSIONS == (1, 2) and VERSION == 2 and FIRST_VERSION == 1


# --- Playable -------------------------------------------------------------------------------


def test_every_problem_is_named_at_once():
    found = problems(
        {
            "version": 2,
            "players": {"min": 2, "max": 4},
            "packs": [{"up_to": 8, "packs": 1}],
            "jokers": {"fixed": 2, "per_pack": 0},
            "deals": [
                deal(10, ("run", 14)),
                deal(10, ("set", 5), wild_max=0),
                deal(10, ("any_suit_run", 14)),
                deal(10, ("set", 3), wild_max=14),
            ],
            "ace": "wrap",
            "direction": "up",
            "wild_spacing": 13,
            "distinct_set_ranks": "yes",
            "discard_wild": None,
            "out_in_one_turn_bonus": 5,
            "tie_break": "coin",
            "freed_joker_to": "set",
            "buying": {"take_several": 1},
        }
    )
    assert found == {
        "deals[0].contract[0].size": "must be at most 13 when the ace wraps (ace: wrap), a run "
        "holding each rank once, not 14",
        "deals[1].contract[0]": "a set of 5 with at most 0 wild cards (wild_max) needs 5 natural "
        "cards of one rank, and a game of 2 players has only 4 (1 pack)",
        "deals[2].contract[0].size": "must be from 4 to 13, not 14",
        "deals[3].wild_max": "must be from 0 to 13, not 14",
        "direction": 'must be one of left, right, not "up"',
        "wild_spacing": "must be from 0 to 12, not 13",
        "distinct_set_ranks": 'must be true or false, not "yes"',
        "discard_wild": "must be true or false, not null",
        "out_in_one_turn_bonus": "must be from -100 to 0, not 5",
        "tie_break": 'must be one of share, deals_won, not "coin"',
        "freed_joker_to": 'must be one of any, run, not "set"',
        "buying.take_several": "must be true or false, not 1",
    }


def test_a_wrapping_ace_holds_a_run_to_13_cards():
    wrapped = {"ace": "wrap", "buying": {"allowed": True}}
    assert problems({**wrapped, "deals": [deal(12, ("run", 14), whole_hand=True)]}) == {
        "deals[0].contract[0].size": "must be at most 13 when the ace wraps (ace: wrap), a run "
        "holding each rank once, not 14"
    }
    assert RuleSet.read({**wrapped, "deals": [deal(12, ("run", 13), whole_hand=True)]})
    assert RuleSet.read({"deals": [deal(13, ("run", 14), whole_hand=True)]})


@pytest.mark.parametrize(
    ("packs", "cap", "refused"),
    [(1, 0, True), (1, 1, False), (2, 0, False), (1, None, False)],
)
def test_a_run_with_no_wild_card_needs_its_natural_cards(packs, cap, refused):
    """The 14-card run, A to K and A again, holds two aces of one suit: one pack has one."""
    document = {
        "players": {"min": 2, "max": 4},
        "packs": [{"up_to": 8, "packs": packs}],
        "deals": [deal(13, ("run", 14), whole_hand=True, wild_max=cap)],
    }
    if cap is None:
        del document["deals"][0]["wild_max"]
    if refused:
        assert problems(document) == {
            "deals[0].contract[0]": "a run of 14 with at most 0 wild cards (wild_max) needs 14 "
            "natural cards of one suit, and a game of 2 players has only 13 (1 pack)"
        }
    else:
        assert RuleSet.read(document).deals[0].wild_max == cap


def test_a_rule_sets_cap_is_checked_at_every_table_size():
    """Four of a rank a pack: a set of 6 with no wild card needs two packs, so the smallest
    table with one is named."""
    document = {
        "players": {"min": 2, "max": 8},
        "packs": [{"up_to": 3, "packs": 1}, {"up_to": 8, "packs": 2}],
        "deals": [deal(7, ("set", 6))],
        "wild_max": 0,
    }
    assert problems(document) == {
        "deals[0].contract[0]": "a set of 6 with at most 0 wild cards (wild_max) needs 6 natural "
        "cards of one rank, and a game of 2 players has only 4 (1 pack)"
    }
    assert RuleSet.read({**document, "wild_max": 2}).wild_max == 2
    assert RuleSet.read({**document, "players": {"min": 4, "max": 8}}).wild_max == 0


def test_wild_spacing_and_direction_never_make_a_rule_set_unplayable():
    """A run may always be laid with no wild card; the exact-cut packet is the same either way."""
    rules = RuleSet.read({"wild_spacing": 12, "direction": "right"})
    assert rules.exact_cut(1, 4) == LIVERPOOL.exact_cut(1, 4) == 41
    assert RuleSet.read({"wild_spacing": 12, "wild_max": 0}).wild_spacing == 12


# --- The presets of R12 ----------------------------------------------------------------------


def _shared_back(rules: RuleSet) -> RuleSet:
    """The rule set its share code opens as."""
    return sharing.from_code(sharing.code(rules))


@pytest.mark.parametrize("key", sorted(ALL_PRESETS))
def test_every_preset_reads_back_as_itself(key):
    rules = ALL_PRESETS[key]
    assert RuleSet.read(rules.to_json()) is rules
    assert RuleSet.read(rules.dumps()) is rules
    assert RuleSet.read(rules.every_setting()) is rules
    assert _shared_back(rules) is rules
    assert eval(repr(rules), {"RuleSet": RuleSet}) == rules
    for number in rules.deal_numbers:
        for players in rules.table_sizes:
            assert rules.stock_after_deal(number, players) > 0


def test_r12s_presets_are_offered_beside_the_others():
    assert list(PRESETS)[-2:] == ["carioca", "continental"]
    assert PRESETS["carioca"] is CARIOCA and PRESETS["continental"] is CONTINENTAL
    assert preset("Carioca") is RuleSet.parse("carioca") is CARIOCA
    assert RuleSet.parse(CONTINENTAL.dumps()) is CONTINENTAL
    assert CARIOCA.preset == "carioca" and CARIOCA.rules_name == "carioca rules"
    assert CONTINENTAL.rules_name == "continental rules"
    assert (CARIOCA.source, CONTINENTAL.source) == ("R12.1", "R12.2")


def _contract(*kinds: str) -> tuple[Need, ...]:
    sizes = {"set": 3, "run": 4}
    return tuple(Need(MeldKind(kind), sizes[kind]) for kind in kinds)


def test_carioca_is_r12_1_line_by_line():
    rules = CARIOCA
    assert rules.name == "Carioca"
    # 1. 2-5 players; two packs and 2 jokers a pack (108 cards); no exact-cut bonus.
    assert (rules.min_players, rules.max_players) == (2, 5)
    assert all(rules.pack_count(n) == 2 for n in rules.table_sizes)
    assert rules.jokers == Jokers(fixed=0, per_pack=2)
    assert {rules.pack_size(n) for n in rules.table_sizes} == {108}
    assert rules.cut_bonus == 0
    # 2. Play, the deal and the dealer's rotation go to the right.
    assert rules.direction is Direction.RIGHT
    # 3. Every deal deals 12 cards; ten deals.
    assert [each.cards for each in rules.deals] == [12] * 10
    assert [each.contract for each in rules.deals[:8]] == [
        _contract("set", "set"),
        _contract("set", "run"),
        _contract("run", "run"),
        _contract("set", "set", "set"),
        _contract("set", "set", "run"),
        _contract("set", "run", "run"),
        _contract("run", "run", "run"),
        _contract("set", "set", "set", "set"),
    ]
    assert not any(each.whole_hand or each.wild_max is not None for each in rules.deals[:8])
    assert rules.deals[8] == Deal(12, (Need(MeldKind.ANY_SUIT_RUN, 13),), whole_hand=True)
    assert rules.deals[9] == Deal(12, (Need(MeldKind.RUN, 13),), whole_hand=True, wild_max=0)
    # 4. The ace wraps.
    assert rules.ace is Ace.WRAP
    # 5. Exactly the contract's sizes; the tríos of one contract of different ranks.
    assert rules.exact_sizes and rules.distinct_set_ranks
    # 6. One wild card a meld of the opening, never side by side; never discarded or swapped.
    assert rules.wild_max == 1 and rules.wild_spacing == 1
    assert [rules.wild_cap(n) for n in rules.deal_numbers] == [1] * 9 + [0]
    assert not rules.discard_wild and rules.joker_swap is JokerSwap.NEVER
    # 7. Lay-offs from the next turn; out by laying off; stock only after going down.
    assert not rules.layoff_on_opening_turn and rules.go_out_by_layoff
    assert not rules.discard_draw_after_opening
    # 8. No buying, no taking of several discards.
    assert rules.buying == Buying(allowed=False, take_several=False)
    # 9. A 20, joker 50, else R10's; ties broken by the deals gone out in.
    assert rules.values.as_dict() == {
        "A": 20,
        **{str(n): n for n in range(2, 11)},
        "J": 10,
        "Q": 10,
        "K": 10,
        "JK": 50,
    }
    assert rules.tie_break is TieBreak.DEALS_WON
    # The rest is R1-R11's.
    assert not rules.wild_deuces and rules.naturals == Naturals(1, 1, False)
    assert rules.out_in_one_turn_bonus == 0 and rules.freed_joker_to is FreedJokerTo.ANY


def test_continental_is_r12_2_line_by_line():
    rules = CONTINENTAL
    assert rules.name == "Continental"
    # 1. 2-8 players; 2 packs for 2-4, 3 for 5-6, 4 for 7-8; 3 jokers a pack; no cut bonus.
    assert (rules.min_players, rules.max_players) == (2, 8)
    assert rules.packs == (PackStep(4, 2), PackStep(6, 3), PackStep(8, 4))
    assert [rules.pack_count(n) for n in rules.table_sizes] == [2, 2, 2, 3, 3, 4, 4]
    assert rules.jokers == Jokers(fixed=0, per_pack=3)
    assert [rules.joker_count(n) for n in (2, 5, 8)] == [6, 9, 12]
    assert rules.cut_bonus == 0 and rules.direction is Direction.RIGHT
    # 2. Seven deals, each one card more than the contract; no whole-hand deal.
    assert [each.cards for each in rules.deals] == [7, 8, 9, 10, 11, 12, 13]
    assert [each.contract for each in rules.deals] == [
        _contract("set", "set"),
        _contract("set", "run"),
        _contract("run", "run"),
        _contract("set", "set", "set"),
        _contract("set", "set", "run"),
        _contract("set", "run", "run"),
        _contract("run", "run", "run"),
    ]
    assert all(each.cards == each.contract_cards + 1 for each in rules.deals)
    assert not any(each.whole_hand or each.wild_max is not None for each in rules.deals)
    # 3. The ace wraps; melds may be longer than their minimum; tríos may share a rank.
    assert rules.ace is Ace.WRAP and not rules.exact_sizes and not rules.distinct_set_ranks
    # 4. No cap, never side by side; a run's joker swapped from the turn of going down, the
    # freed joker laid in a run the same turn; jokers may be discarded.
    assert rules.wild_max is None and rules.wild_spacing == 1
    assert rules.joker_swap is JokerSwap.RUNS and rules.swap_on_opening_turn
    assert rules.freed_joker is FreedJoker.LAY_OFF and rules.freed_joker_to is FreedJokerTo.RUN
    assert rules.discard_wild
    # 5. Lay off on the turn of going down; out always with a discard; -10 down and out.
    assert rules.layoff_on_opening_turn and not rules.go_out_by_layoff
    assert rules.out_in_one_turn_bonus == -10
    # 6. Buying as R8, one penalty card, no limits.
    assert rules.buying == Buying(allowed=True, per_deal=None, per_game=None, penalty_cards=1)
    # 7. A 20, joker 50; ties share.
    assert rules.values == CARIOCA.values and rules.tie_break is TieBreak.SHARE
    assert rules.discard_draw_after_opening
    assert not rules.wild_deuces and rules.naturals == Naturals(1, 1, False)


def test_a_contract_of_a_run_of_suits_free_is_said():
    assert [str(contract(number, CARIOCA)) for number in (8, 9, 10)] == [
        "4 sets",
        "1 run of 13 in any suits using the whole hand, no discard",
        "1 run of 13 using the whole hand, no discard",
    ]
    mixed = RuleSet.read({"deals": [deal(12, ("any_suit_run", 4), ("set", 3), ("run", 4))]})
    assert str(contract(1, mixed)) == "1 set + 1 run + 1 run in any suits"
    assert mixed.deals[0].contract_text() == "1 run in any suits + 1 set + 1 run"


def test_r12_5_scores_left_in_hand():
    for rules in (CARIOCA, CONTINENTAL):
        assert sum(map(rules.card_value, parse_cards("A♠ K♦ 4♥"))) == 34
        assert sum(map(rules.card_value, parse_cards("K♣ A♥ 5♦ JK"))) == 85


def test_the_r12_presets_write_what_they_change():
    assert CARIOCA.to_json()["version"] == CONTINENTAL.to_json()["version"] == 2
    assert CONTINENTAL.r12_places == (
        "direction",
        "ace",
        "wild_spacing",
        "out_in_one_turn_bonus",
        "freed_joker_to",
    )
    assert "buying.take_several" in CARIOCA.r12_places
    assert CARIOCA.to_json()["deals"][9]["wild_max"] == 0
    assert CARIOCA.to_json()["deals"][8]["contract"] == [{"kind": "any_suit_run", "size": 13}]
    # A table starting from carioca and changing a setting of R11 keeps R12's.
    changed = RuleSet.read({**CARIOCA.to_json(), "name": "Santiago", "cut_bonus": -20})
    assert changed.plays_like(replace(CARIOCA, cut_bonus=-20))


# --- Any document the checker takes reads back as itself --------------------------------------


@st.composite
def r12_documents(draw) -> dict:
    """A preset's document with R12's settings drawn from their ranges and a little past them,
    its deals' own caps and runs of suits free among them."""
    document = copy.deepcopy(draw(st.sampled_from(list(ALL_PRESETS.values()))).to_json())
    document["version"] = draw(st.sampled_from([1, 2, 2, 2]))
    drawn = {
        "direction": st.sampled_from(["left", "right"]),
        "ace": st.sampled_from(["no_wrap", "wrap"]),
        "wild_max": st.none() | st.integers(0, 14),
        "wild_spacing": st.integers(0, 13),
        "distinct_set_ranks": st.booleans(),
        "discard_wild": st.booleans(),
        "discard_draw_after_opening": st.booleans(),
        "out_in_one_turn_bonus": st.integers(-101, 1),
        "tie_break": st.sampled_from(["share", "deals_won"]),
        "freed_joker_to": st.sampled_from(["any", "run"]),
    }
    for key in draw(st.lists(st.sampled_from(sorted(drawn)), unique=True, max_size=6)):
        document[key] = draw(drawn[key])
    if draw(st.integers(0, 3)) == 0:
        document["buying"]["take_several"] = draw(st.booleans())
    for each in document["deals"]:
        if draw(st.integers(0, 5)) == 0:
            each["wild_max"] = draw(st.none() | st.integers(0, 13))
        for need in each["contract"]:
            if need["kind"] == "run" and draw(st.integers(0, 6)) == 0:
                need["kind"] = "any_suit_run"
            if draw(st.integers(0, 9)) == 0:
                need["size"] = draw(st.integers(3, 14))
    return document


@st.composite
def version_1_documents(draw) -> dict:
    """An earlier preset's version-1 document with some of R11's settings changed."""
    document = copy.deepcopy(draw(st.sampled_from(list(EARLIER.values()))).to_json())
    if draw(st.booleans()):
        document["cut_bonus"] = draw(st.integers(-100, 0))
    if draw(st.booleans()):
        document["values"]["JK"] = draw(st.integers(0, 100))
    if draw(st.booleans()):
        document["buying"]["per_deal"] = draw(st.none() | st.integers(1, 20))
    if draw(st.booleans()):
        document["deals"][0]["cards"] = draw(st.integers(6, 14))
    if draw(st.booleans()):
        del document["name"]
    return document


@SETTINGS
@given(r12_documents())
def test_a_document_the_checker_takes_reads_back_as_itself(document):
    try:
        rules = RuleSet.read(document)
    except RuleSetError as error:
        assert error.problems and all(error.problems.values())
        return
    assert RuleSet.read(rules.to_json()) == rules
    assert RuleSet.read(rules.dumps()) == rules
    assert RuleSet.read(rules.every_setting()) == rules
    assert _shared_back(rules) == rules
    assert eval(repr(rules), {"RuleSet": RuleSet}) == rules
    written = rules.to_json()
    assert written["version"] == (2 if rules.r12_places else 1)
    assert all(
        written.get(key, default) == rules.every_setting()[key] for key, default in R12_TOP.items()
    )
    if rules.version == 1:
        assert not set(R12_TOP) & set(written)
    for place in rules.r12_places:
        assert rules.house(place) or place.endswith(".kind")
    assert rules.summary().startswith(f"{rules.name} · ")


@SETTINGS
@given(version_1_documents())
def test_a_version_1_rule_set_is_the_same_read_as_version_2(document):
    """A version-1 document reads the same as version 2, and both are written as the
    version-1 document: the version says which settings a document may hold, never what they
    mean."""
    try:
        first = RuleSet.read(document)
    except RuleSetError:
        return
    second = RuleSet.read({**document, "version": 2})
    assert second == first and second.version == first.version == 1
    assert second.dumps() == first.dumps()
    assert first.to_json() == {**document, "name": first.name}
    assert first.r12_places == ()


def test_shanghai_still_writes_its_issues_example():
    assert SHANGHAI.to_json() == json.loads(V1_PRESETS["shanghai"]["text"])


# --- What a table may use: every R12 setting, played -----------------------------------------

# One change of each R12 setting, with its place in the document.
EACH_R12_CHANGE = [
    ({"direction": "right"}, "direction"),
    ({"ace": "wrap"}, "ace"),
    ({"wild_max": 1}, "wild_max"),
    ({"wild_spacing": 1}, "wild_spacing"),
    ({"distinct_set_ranks": True}, "distinct_set_ranks"),
    ({"discard_wild": False}, "discard_wild"),
    ({"discard_draw_after_opening": False}, "discard_draw_after_opening"),
    ({"out_in_one_turn_bonus": -10}, "out_in_one_turn_bonus"),
    ({"tie_break": "deals_won"}, "tie_break"),
    ({"freed_joker_to": "run"}, "freed_joker_to"),
    ({"buying": {"take_several": False}}, "buying.take_several"),
    ({"deals": [deal(10, ("set", 3), ("set", 3), wild_max=1)]}, "deals[0].wild_max"),
    ({"deals": [deal(10, ("any_suit_run", 4), ("set", 3))]}, "deals[0].contract[0].kind"),
]


@pytest.mark.parametrize(("change", "place"), EACH_R12_CHANGE, ids=[p for _, p in EACH_R12_CHANGE])
def test_a_table_may_use_every_r12_setting(change, place):
    document = {"version": 2, "name": "Santiago", **change}
    rules = RuleSet.parse(document)
    assert rules.r12_places == (place,) and r12_setting(place) in R12_SETTINGS
    assert RuleSet.parse(json.dumps(document)) == rules == RuleSet.read(document)


def test_every_problem_is_named_beside_r12_settings():
    with pytest.raises(RuleSetError) as refused:
        RuleSet.parse({"version": 2, "ace": "wrap", "tie_break": "deals_won", "cut_bonus": 5})
    assert set(refused.value.problems) == {"cut_bonus"}
    with pytest.raises(RuleSetError) as refused:
        RuleSet.parse({"version": 2, "out_in_one_turn_bonus": 5, "wild_spacing": 13})
    assert set(refused.value.problems) == {"wild_spacing", "out_in_one_turn_bonus"}


def test_a_version_2_document_that_changes_no_r12_setting_is_a_tables_rules():
    rules = RuleSet.parse({"version": 2, "name": "Smith family", "cut_bonus": -20})
    assert rules.r12_places == () and rules.cut_bonus == -20
    assert RuleSet.parse({"version": 2, "direction": "left", "ace": "no_wrap"}) is LIVERPOOL
    assert repr(rules).startswith("RuleSet.parse(")
    assert repr(CARIOCA).startswith("RuleSet.parse(")
    assert eval(repr(CARIOCA), {"RuleSet": RuleSet}) is CARIOCA
