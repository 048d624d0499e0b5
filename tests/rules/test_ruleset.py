"""R11 A rule set is a value read from one JSON document: what a missing key means, every
condition of "A rule set is playable when…" refused under its own place with a plain message,
every problem at once, and (property-based) never anything but a rule set or a `RuleSetError`."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import PRESETS, RulesError, RuleSet, RuleSetError
from scorekeeper.rules.document import MOST_PROBLEMS
from scorekeeper.rules.ruleset import CONTRACT, LIVERPOOL, SHANGHAI
from scorekeeper.rules.ruleset.schema import MOST_TEXT

# Derandomized like the other hostile-input runs: each run draws the same examples.
SETTINGS = settings(
    max_examples=300,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def problems(document: object) -> dict[str, str]:
    with pytest.raises(RuleSetError) as raised:
        RuleSet.parse(document)
    return raised.value.problems


def deal(cards: int, *needs: tuple[str, int], whole_hand: bool = False) -> dict:
    contract = [{"kind": kind, "size": size} for kind, size in needs]
    return {"cards": cards, "contract": contract, "whole_hand": whole_hand}


SET3, RUN4, RUN10 = ("set", 3), ("run", 4), ("run", 10)


# --- The document ----------------------------------------------------------------------------


def test_a_document_that_leaves_keys_out_takes_liverpools_values():
    assert RuleSet.parse({}) is LIVERPOOL
    assert RuleSet.parse("{}") is LIVERPOOL
    assert RuleSet.parse(b'{"version": 1}') is LIVERPOOL
    house = RuleSet.parse({"cut_bonus": 0})
    assert house.name == "House" and house.renamed("Contract") == CONTRACT
    assert RuleSet.parse({"players": {"max": 6}}).min_players == 4


def test_the_issues_custom_rule_set_reads():
    """Joker 50, ace 20, deuces wild, 3 buys a game, 11 cards every deal, R3's contracts."""
    document = LIVERPOOL.to_json()
    for each in document["deals"]:
        each["cards"] = 11
    document |= {"name": "Smith family", "wild_deuces": True, "buying": {"per_game": 3}}
    document["values"] |= {"JK": 50, "A": 20}
    rules = RuleSet.parse(document)
    assert [rules.cards_dealt(n) for n in rules.deal_numbers] == [11] * 7
    assert (rules.values["JK"], rules.values["A"], rules.wild_deuces) == (50, 20, True)
    assert rules.buying.buys_in_a_deal() == 3 and rules.exact_cut(7, 4) == 45
    assert rules.summary() == "Smith family · 7 deals · 4 players · deuces wild · buying: 3 a game"
    assert rules.cite("values.JK", "R10") == "R11" and rules.cite("cut_bonus", "R2") == "R2"


def test_a_python_callers_tuples_read_as_lists_and_a_rule_set_as_itself():
    assert RuleSet.parse({"deals": tuple(LIVERPOOL.to_json()["deals"])}) is LIVERPOOL
    assert RuleSet.parse(SHANGHAI) is SHANGHAI


def test_a_named_document_keeps_its_name_tidied():
    rules = RuleSet.parse({"name": "  Smith   family ", "values": {"JK": 50}})
    assert rules.name == "Smith family"
    assert rules.rules_name == "Smith family rules" and rules.preset is None


def test_parse_takes_a_rule_set_a_name_or_a_document():
    assert RuleSet.parse(SHANGHAI) is SHANGHAI and RuleSet.parse("Shanghai") is SHANGHAI
    assert RuleSet.parse(SHANGHAI.to_json()) is SHANGHAI
    assert RuleSet.parse(SHANGHAI.dumps()) is SHANGHAI
    assert RuleSet.parse({}) is LIVERPOOL
    with pytest.raises(RuleSetError, match="unknown rule set ''"):
        RuleSet.parse("")


def test_the_document_is_fresh_each_time_and_setting_reads_one_place():
    document = SHANGHAI.to_json()
    document["values"]["JK"] = 99
    assert SHANGHAI.values["JK"] == 20 and SHANGHAI.to_json()["values"]["JK"] == 20
    assert SHANGHAI.setting("values.JK") == 20
    assert SHANGHAI.setting("deals[7].contract") == [
        {"kind": "set", "size": 3},
        {"kind": "run", "size": 10},
    ]
    with pytest.raises(KeyError):
        SHANGHAI.setting("deals[10].cards")


def test_a_rule_set_is_hashable_and_compares_by_its_settings():
    assert hash(RuleSet.parse(SHANGHAI.dumps())) == hash(SHANGHAI)
    assert len({rules for rules in PRESETS.values()}) == len(PRESETS)


def test_summary_and_differences_from_liverpool():
    assert LIVERPOOL.summary() == "Liverpool · 7 deals · 4 players · buying: no limit"
    assert SHANGHAI.summary() == (
        "Shanghai · 10 deals · 3–8 players · deuces wild · buying: no limit"
    )
    assert PRESETS["online"].summary() == "Online · 7 deals · 3–8 players · no buying"
    assert LIVERPOOL.differences() == ()
    assert CONTRACT.differences() == (("cut_bonus", "an exact cut earns no bonus"),)
    shanghai = dict(SHANGHAI.differences())
    assert shanghai["naturals.wild_at_most_natural"] == (
        "a meld may not hold more wild cards than natural cards"
    )
    assert shanghai["deals"] == "10 deals of 11 cards each"
    assert shanghai["deals.contracts"].startswith("contracts: 2 sets · 1 set + 1 run · 2 runs")
    assert "1 set of 3 + 1 run of 10" in shanghai["deals.contracts"]
    assert "values.A" not in shanghai and shanghai["values.2"] == "a 2 left in hand is 20"
    smith = RuleSet.parse(
        {"name": "Smith family", "values": {"JK": 50, "A": 20}, "buying": {"per_game": 3}}
    )
    assert smith.summary() == "Smith family · 7 deals · 4 players · buying: 3 a game"
    assert smith.differences() == (
        ("values.A", "an ace left in hand is 20"),
        ("values.JK", "a joker left in hand is 50"),
        ("buying.per_game", "a player buys at most 3 times a game"),
    )


def test_the_contract_reads_at_the_smallest_sizes_or_with_every_size():
    assert [d.contract_text() for d in LIVERPOOL.deals][:2] == ["2 sets", "1 set + 1 run"]
    assert SHANGHAI.deals[7].contract_text() == "1 set of 3 + 1 run of 10"
    assert SHANGHAI.deals[9].contract_text() == "3 runs of 5"


# --- R11 "A rule set is playable when…": each condition, under its place ----------------------

NO_BUYING = {"allowed": False}
SIX_PLAYERS = {"min": 3, "max": 6}


@pytest.mark.parametrize(
    ("document", "place", "message"),
    [
        # 2 ≤ players.min ≤ players.max ≤ 8
        ({"players": {"min": 1}}, "players.min", "must be from 2 to 8, not 1"),
        ({"players": {"max": 9}}, "players.max", "must be from 2 to 8, not 9"),
        (
            {"players": {"min": 5, "max": 3}},
            "players.max",
            "the most players (3) cannot be fewer than the fewest (5)",
        ),
        # packs give a number of packs (1–4) for every table size
        (
            {"players": SIX_PLAYERS, "packs": [{"up_to": 4, "packs": 2}]},
            "packs",
            "gives no number of packs for 5–6 players: the last step is up to 4",
        ),
        (
            {"players": SIX_PLAYERS, "packs": [{"up_to": 5, "packs": 2}]},
            "packs",
            "gives no number of packs for 6 players: the last step is up to 5",
        ),
        ({"packs": [{"up_to": 8, "packs": 5}]}, "packs[0].packs", "must be from 1 to 4, not 5"),
        ({"packs": [{"up_to": 8, "packs": 0}]}, "packs[0].packs", "must be from 1 to 4, not 0"),
        (
            {"packs": [{"packs": 2}]},
            "packs[0].up_to",
            "is missing: a whole number from 2 to 8",
        ),
        (
            {"packs": [{"up_to": 6, "packs": 2}, {"up_to": 5, "packs": 3}]},
            "packs[1].up_to",
            "each step must seat more players than the last",
        ),
        (
            {"packs": []},
            "packs",
            'must be a list of {"up_to": players, "packs": packs}, not a list',
        ),
        # 1 to 12 deals
        ({"deals": []}, "deals", "must be a list of 1 to 12 deals, not 0"),
        ({"deals": [deal(10, SET3)] * 13}, "deals", "must be a list of 1 to 12 deals, not 13"),
        ({"deals": "seven"}, "deals", 'must be a list of 1 to 12 deals, not "seven"'),
        # each contract has 1 to 5 melds, a set's size 3–8, a run's 4–14
        (
            {"deals": [deal(10)]},
            "deals[0].contract",
            'must be a list of 1 to 5 melds like {"kind": "set", "size": 3}, not 0',
        ),
        (
            {"deals": [deal(40, *[SET3] * 6)]},
            "deals[0].contract",
            'must be a list of 1 to 5 melds like {"kind": "set", "size": 3}, not 6',
        ),
        (
            {"deals": [deal(10, ("set", 2))]},
            "deals[0].contract[0].size",
            "must be from 3 to 8, not 2",
        ),
        (
            {"deals": [deal(10, ("set", 9))]},
            "deals[0].contract[0].size",
            "must be from 3 to 8, not 9",
        ),
        (
            {"deals": [deal(10, ("run", 3))]},
            "deals[0].contract[0].size",
            "must be from 4 to 14, not 3",
        ),
        (
            {"deals": [deal(20, ("run", 15))]},
            "deals[0].contract[0].size",
            "must be from 4 to 14, not 15",
        ),
        (
            {"deals": [deal(10, ("sett", 3))]},
            "deals[0].contract[0].kind",
            'must be one of set, run, any_suit_run, not "sett"',
        ),
        (
            {"deals": [{"contract": [{"kind": "set"}]}]},
            "deals[0].cards",
            "is missing: a whole number from 1 to 60",
        ),
        # every deal can be dealt: players × cards + 1 < the cards in the game, every table size
        (
            {"players": {"min": 4, "max": 8}, "deals": [deal(14, SET3)]},
            "deals[0].cards",
            "8 players × 14 cards + the upcard is 113, but a game of 8 holds only 107 cards: "
            "no stock is left",
        ),
        (
            {
                "players": {"min": 2, "max": 2},
                "packs": [{"up_to": 2, "packs": 1}],
                "jokers": {"fixed": 1},
                "deals": [deal(26, SET3)],
            },
            "deals[0].cards",
            "2 players × 26 cards + the upcard is 53, but a game of 2 holds only 53 cards: "
            "no stock is left",
        ),
        (
            {"players": {"min": 6, "max": 8}, "deals": [deal(17, SET3)]},
            "deals[0].cards",
            "7 players × 17 cards + the upcard is 120, but a game of 7 holds only 107 cards: "
            "no stock is left (nor for 8)",
        ),
        # every contract fits the hand, with the buys the limits allow, less the discard
        (
            {"buying": NO_BUYING, "deals": [deal(10, SET3)] * 4 + [deal(11, SET3, RUN10)]},
            "deals[4].cards",
            "12 cards (11 dealt + the draw) cannot hold 1 set of 3 + 1 run of 10 and a discard "
            "(14 cards), and buying is not allowed",
        ),
        (
            {"buying": {"per_deal": 1}, "deals": [deal(10, SET3, RUN10)]},
            "deals[0].cards",
            "11 cards (10 dealt + the draw) cannot hold 1 set of 3 + 1 run of 10 and a discard "
            "(14 cards), even with 1 buy of 2 cards each",
        ),
        (
            {"buying": {"per_deal": 5, "per_game": 1}, "deals": [deal(10, SET3, RUN10)]},
            "deals[0].cards",
            "11 cards (10 dealt + the draw) cannot hold 1 set of 3 + 1 run of 10 and a discard "
            "(14 cards), even with 1 buy of 2 cards each",
        ),
        (
            {"buying": NO_BUYING, "deals": [deal(12, *[("run", 5)] * 3, whole_hand=True)]},
            "deals[0].cards",
            "13 cards (12 dealt + the draw) cannot hold 3 runs of 5 (15 cards), "
            "and buying is not allowed",
        ),
        # every value a whole number 0–100, cut_bonus −100–0, penalty cards 0–3, a buy limit 1–20
        ({"values": {"JK": 101}}, "values.JK", "must be from 0 to 100, not 101"),
        ({"values": {"2": -1}}, "values.2", "must be from 0 to 100, not -1"),
        ({"values": {"A": 15.0}}, "values.A", "must be a whole number from 0 to 100, not 15.0"),
        ({"values": {"A": True}}, "values.A", "must be a whole number from 0 to 100, not true"),
        ({"values": {"A": "15"}}, "values.A", 'must be a whole number from 0 to 100, not "15"'),
        ({"cut_bonus": 5}, "cut_bonus", "must be from -100 to 0, not 5"),
        ({"cut_bonus": -101}, "cut_bonus", "must be from -100 to 0, not -101"),
        ({"cut_bonus": False}, "cut_bonus", "must be a whole number from -100 to 0, not false"),
        ({"buying": {"penalty_cards": 4}}, "buying.penalty_cards", "must be from 0 to 3, not 4"),
        ({"buying": {"per_deal": 0}}, "buying.per_deal", "must be from 1 to 20, not 0"),
        ({"buying": {"per_game": 21}}, "buying.per_game", "must be from 1 to 20, not 21"),
        (
            {"buying": {"per_game": 2.5}},
            "buying.per_game",
            "must be a whole number from 1 to 20, not 2.5",
        ),
        # the document itself: its version, its keys, its types
        ({"version": 3}, "version", "must be 1 or 2, the versions there are, not 3"),
        ({"version": 1.0}, "version", "must be 1 or 2, the versions there are, not 1.0"),
        ({"version": True}, "version", "must be 1 or 2, the versions there are, not true"),
        ({"version": "1"}, "version", 'must be 1 or 2, the versions there are, not "1"'),
        ({"cut_bonsu": 0}, "cut_bonsu", "is not a setting: did you mean cut_bonus?"),
        ({"colour": "red"}, "colour", "is not a setting of a rule set"),
        (
            {"buying": {"limit": 3}},
            "buying.limit",
            "is not a setting: the settings here are allowed, per_deal, per_game, penalty_cards, "
            "take_several",
        ),
        ({"wild_deuces": 1}, "wild_deuces", "must be true or false, not 1"),
        ({"wild_deuces": "yes"}, "wild_deuces", 'must be true or false, not "yes"'),
        ({"joker_swap": "sets"}, "joker_swap", 'must be one of never, runs, any, not "sets"'),
        ({"freed_joker": None}, "freed_joker", "must be one of lay_off, hand, not null"),
        (
            {"naturals": 2},
            "naturals",
            "must be an object with set, run, wild_at_most_natural, not 2",
        ),
        ({"name": ""}, "name", 'must be a name of 1 to 40 characters, like "Smith family"'),
        ({"name": "x" * 41}, "name", "must be at most 40 characters, not 41"),
        ({"name": "Smith\x00"}, "name", "must not hold control characters"),
        ({"jokers": {"fixed": 21}}, "jokers.fixed", "must be from 0 to 20, not 21"),
    ],
)
def test_each_unplayable_setting_is_refused_under_its_place(document, place, message):
    assert problems(document) == {place: message}


def test_a_deal_exactly_one_card_short_of_the_game_is_dealt():
    """R2: a stock of one card is a stock; R11 refuses only players × cards + 1 ≥ the cards."""
    two = {"players": {"min": 2, "max": 2}, "packs": [{"up_to": 2, "packs": 1}]}
    rules = RuleSet.parse({**two, "deals": [deal(26, SET3)]})
    assert rules.pack_size(2) == 55 and rules.stock_after_deal(1, 2) == 2
    one = RuleSet.parse({**two, "jokers": {"fixed": 2}, "deals": [deal(26, SET3)]})
    assert one.pack_size(2) == 54 and one.stock_after_deal(1, 2) == 1


def test_unlimited_buying_fits_any_contract_and_limits_fit_exactly():
    assert RuleSet.parse({"deals": [deal(10, SET3, RUN10)]}).deals[0].cards == 10
    # 12 cards with one buy of 2: 14 = 1 set of 3 + 1 run of 10 and a discard.
    RuleSet.parse({"buying": {"per_deal": 1}, "deals": [deal(11, SET3, RUN10)]})
    # A whole-hand deal keeps no card for a discard: 13 cards hold 3 runs of 4 and one more.
    RuleSet.parse({"buying": NO_BUYING, "deals": [deal(12, *[RUN4] * 3, whole_hand=True)]})


def test_every_problem_is_named_at_once():
    found = problems(
        {
            "players": {"min": 5, "max": 3},
            "deals": [deal(10, ("run", 3)), {"cards": 0, "contract": []}],
            "values": {"JK": 500, "Q": "ten"},
            "cut_bonus": 50,
            "joker_swap": "always",
            "buying": {"per_deal": 0},
            "extra": True,
        }
    )
    assert set(found) == {
        "players.max",
        "deals[0].contract[0].size",
        "deals[1].cards",
        "deals[1].contract",
        "values.JK",
        "values.Q",
        "cut_bonus",
        "joker_swap",
        "buying.per_deal",
        "extra",
    }
    assert all(isinstance(text, str) and text for text in found.values())


def test_a_contract_too_big_for_the_hand_is_named_beside_a_broken_table_size():
    """Whether a contract fits the hand does not depend on the table sizes: it is named too."""
    found = problems(
        {
            "players": {"min": 5, "max": 3},
            "deals": [deal(11, SET3, RUN10)],
            "buying": {"allowed": False},
        }
    )
    assert found == {
        "players.max": "the most players (3) cannot be fewer than the fewest (5)",
        "deals[0].cards": "12 cards (11 dealt + the draw) cannot hold 1 set of 3 + 1 run of 10 "
        "and a discard (14 cards), and buying is not allowed",
    }


def test_a_deal_that_cannot_be_dealt_is_named_beside_a_broken_table_size():
    """A refused table size leaves the other one standing: the deal is checked at it."""
    no_stock = (
        "8 players × 14 cards + the upcard is 113, but a game of 8 holds only 107 cards: "
        "no stock is left"
    )
    assert problems({"players": {"min": 1, "max": 8}, "deals": [deal(14, SET3)]}) == {
        "players.min": "must be from 2 to 8, not 1",
        "deals[0].cards": no_stock,
    }
    assert problems({"players": {"min": 8, "max": 9}, "deals": [deal(14, SET3)]}) == {
        "players.max": "must be from 2 to 8, not 9",
        "deals[0].cards": no_stock,
    }
    # Both refused, or a size the packs do not cover: no size is known, so nothing is said.
    assert problems({"players": {"min": 1, "max": 9}, "deals": [deal(14, SET3)]}) == {
        "players.min": "must be from 2 to 8, not 1",
        "players.max": "must be from 2 to 8, not 9",
    }
    assert problems(
        {
            "players": {"min": 1, "max": 8},
            "packs": [{"up_to": 4, "packs": 2}],
            "deals": [deal(14, SET3)],
        }
    ) == {"players.min": "must be from 2 to 8, not 1"}


def test_a_refused_setting_is_not_refused_again_in_other_words():
    """A broken table size says nothing of packs or deals: those checks would rest on a guess."""
    assert problems({"players": {"min": "3", "max": 8}, "packs": [{"up_to": 4, "packs": 2}]}) == {
        "players.min": 'must be a whole number from 2 to 8, not "3"'
    }
    assert problems({"buying": {"per_deal": 0}, "deals": [deal(10, SET3, RUN10)]}) == {
        "buying.per_deal": "must be from 1 to 20, not 0"
    }


def test_the_refusal_says_how_many_problems_and_the_first_ones():
    with pytest.raises(RuleSetError) as raised:
        RuleSet.parse({"cut_bonus": 5, "wild_deuces": 1, "values": {"A": -1, "K": -1}})
    error = raised.value
    assert isinstance(error, RulesError) and isinstance(error, ValueError)
    assert str(error).startswith(
        "the rule set cannot be used (4 problems): values.A: must be from 0 to 100, not -1; "
    )
    assert str(error).endswith("; …")


def test_r11_calls_these_playable_so_they_are_accepted():
    """Hard to meet is not unplayable: R11's conditions decide, and these meet them. A run of 14
    in one pack without jokers needs both aces of a suit (only a wild card can be the second);
    a set of 8 in one pack needs the 4 copies of a rank and 4 wild cards; a set that must be
    all natural at exactly its size. Nobody may go down in such a deal, and the deal still
    scores: R9's round with no winner."""
    one_pack = {"packs": [{"up_to": 8, "packs": 1}], "jokers": {"fixed": 0}}
    RuleSet.parse({**one_pack, "deals": [deal(12, ("run", 14))]})
    RuleSet.parse({**one_pack, "deals": [deal(10, ("set", 8))]})
    RuleSet.parse({"naturals": {"set": 3}, "exact_sizes": True})
    RuleSet.parse({"naturals": {"set": 8, "run": 14}})


# --- Hostile documents --------------------------------------------------------------------------


def test_text_that_is_not_json_or_not_an_object():
    assert problems("{oops") == {
        "rules": "is not JSON: expecting property name enclosed in double quotes at line 1 column 2"
    }
    assert set(problems("[1, 2]")) == {"rules"}
    assert problems(None)["rules"].endswith("not null")
    assert problems(7)["rules"].endswith("not 7")
    assert problems("canasta") == {
        "rules": "'canasta' is not a preset: choose one of "
        "liverpool, contract, online, family, shanghai, carioca, continental"
    }


def test_an_oversized_or_deeply_nested_document_is_refused_short():
    assert problems("{" + " " * MOST_TEXT + "}") == {
        "rules": f"a rule set is at most {MOST_TEXT} characters of JSON"
    }
    assert problems('{"deals": ' + "[" * 5000 + "]" * 5000 + "}") == {
        "rules": "is not a rule set: its JSON is nested far too deep"
    }
    deep: object = []
    for _ in range(100_000):
        deep = [deep]
    assert problems({"deals": [deep], "name": deep}) == {
        "deals[0]": "must be an object with cards, contract, whole_hand, wild_max, not a list",
        "name": 'must be a name of 1 to 40 characters, like "Smith family"',
    }
    assert problems({"cut_bonus": 10**5000}) == {
        "cut_bonus": "must be from -100 to 0, not a number of more than 12 digits"
    }
    assert set(problems('{"cut_bonus": 1' + "0" * 5000 + "}")) == {"rules"}


def test_junk_keys_and_values_are_quoted_short_and_counted_past_a_limit():
    found = problems({"k" * 10_000: "v" * 10_000, **{f"x{n}": n for n in range(100)}})
    assert len(found) == MOST_PROBLEMS + 1
    assert found["rules"] == f"and {101 - MOST_PROBLEMS} more problems not listed here"
    assert max(len(place) for place in found) <= 30
    assert max(len(text) for text in found.values()) < 200
    long_name = problems({"joker_swap": "a" * 10_000})["joker_swap"]
    assert len(long_name) < 80


# --- Property-based: whatever the document, a rule set that reads back, or its problems --------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=25,
)


def places(document: object, path: tuple = ()) -> list[tuple]:
    """Every place inside a decoded document, as the keys and indexes leading to it."""
    found = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            found += places(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += places(value, (*path, index))
    return found


@st.composite
def mutated_presets(draw) -> object:
    """A preset's document with a few places replaced, removed, or given an extra key."""
    document = copy.deepcopy(draw(st.sampled_from(list(PRESETS.values()))).to_json())
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(places(document)))
        if not path:
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "near", "remove", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(JSON)
        elif action == "near" and isinstance(parent[path[-1]], int):
            parent[path[-1]] += draw(st.integers(-3, 3))
        elif action == "remove" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(JSON)
    return document


@st.composite
def plausible(draw) -> dict:
    """A document built from the settings' own ranges: about half read, and those cover many
    table sizes, pack steps, contracts and buying limits."""
    low = draw(st.integers(2, 8))
    high = draw(st.integers(low, 8))
    steps = sorted(set(draw(st.lists(st.integers(2, 8), max_size=2))) | {high})
    needs = st.tuples(st.just("set"), st.integers(3, 8)) | st.tuples(
        st.just("run"), st.integers(4, 14)
    )
    deals = st.lists(
        st.tuples(st.integers(3, 14), st.lists(needs, min_size=1, max_size=3), st.booleans()),
        min_size=1,
        max_size=12,
    )
    limit = st.none() | st.integers(1, 20)
    return {
        "players": {"min": low, "max": high},
        "packs": [{"up_to": up_to, "packs": draw(st.integers(2, 4))} for up_to in steps],
        "jokers": {"fixed": draw(st.integers(0, 6)), "per_pack": draw(st.integers(0, 2))},
        "deals": [
            deal(cards, *contract, whole_hand=whole) for cards, contract, whole in draw(deals)
        ],
        "values": {"JK": draw(st.integers(0, 100)), "2": draw(st.integers(0, 100))},
        "wild_deuces": draw(st.booleans()),
        "cut_bonus": draw(st.integers(-100, 0)),
        "buying": {
            "allowed": draw(st.booleans()),
            "per_deal": draw(limit),
            "per_game": draw(limit),
            "penalty_cards": draw(st.integers(0, 3)),
        },
    }


def read_or_refuse(document: object) -> RuleSet | None:
    """The one contract: a rule set that reads back as itself, or a `RuleSetError` with
    problems; any other exception fails the test."""
    try:
        rules = RuleSet.parse(document)
    except RuleSetError as error:
        assert isinstance(error.problems, dict) and error.problems
        assert all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in error.problems.items()
        )
        assert len(error.problems) <= MOST_PROBLEMS + 1
        assert str(error)
        return None
    assert isinstance(rules, RuleSet)
    assert RuleSet.parse(rules.to_json()) == rules
    assert RuleSet.parse(rules.dumps()) == rules
    assert eval(repr(rules), {"RuleSet": RuleSet}) == rules
    assert json.loads(rules.dumps()) == rules.to_json()
    assert rules.summary().startswith(f"{rules.name} · ")
    for place, sentence in rules.differences():
        assert sentence and (place == "deals.contracts" or rules.house(place)), place
    return rules


def check_numbers(rules: RuleSet) -> None:
    """The derived numbers agree with the settings for every deal and table size (R1, R2)."""
    for players in rules.table_sizes:
        packs = rules.pack_count(players)
        assert 1 <= packs <= 4
        jokers = rules.jokers.fixed + rules.jokers.per_pack * packs
        assert rules.joker_count(players) == jokers
        assert rules.pack_size(players) == 52 * packs + jokers == len(rules.deck(players))
        for number in rules.deal_numbers:
            cut = players * rules.cards_dealt(number) + 1
            assert rules.exact_cut(number, players) == cut
            assert rules.stock_after_deal(number, players) == rules.pack_size(players) - cut > 0


@SETTINGS
@given(JSON)
def test_any_json_value_reads_or_is_refused(document):
    read_or_refuse(document)
    read_or_refuse(json.dumps(document))


@SETTINGS
@given(st.text(max_size=40))
def test_any_text_reads_or_is_refused(text):
    read_or_refuse(text)
    read_or_refuse("{" + text)


@SETTINGS
@given(mutated_presets())
def test_a_mutated_preset_reads_or_is_refused(document):
    rules = read_or_refuse(document)
    if rules is not None:
        check_numbers(rules)


@SETTINGS
@given(plausible())
def test_every_rule_set_that_reads_has_consistent_numbers(document):
    rules = read_or_refuse(document)
    if rules is not None:
        check_numbers(rules)


def test_a_document_read_again_is_the_rule_set_read_before():
    """A rule set sent with every question is read once: the same document (in any key order,
    as text or decoded) gives the very same frozen value; a refused one is refused each time."""
    document = {**PRESETS["liverpool"].to_json(), "name": "Kept table", "cut_bonus": -20}
    first = RuleSet.parse(document)
    assert RuleSet.parse(dict(reversed(list(document.items())))) is first
    assert (
        RuleSet.parse(
            json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        )
        is first
    )
    assert RuleSet.parse({**document, "cut_bonus": -30}).cut_bonus == -30
    bad = {**document, "cut_bonus": "lots"}
    for _ in range(2):
        with pytest.raises(RuleSetError):
            RuleSet.parse(bad)
    # A tuple is not JSON's list: read as it is, never answered from a list's reading.
    as_tuple = {**document, "deals": tuple(document["deals"])}
    try:
        read = RuleSet.parse(as_tuple)
    except RuleSetError:
        read = None
    assert read is None or read is not first


def test_a_document_sent_first_as_text_is_known_decoded():
    """The text read first, the decoded document sent after it is the same frozen value; one
    that only compares equal to it (a count written 4.0) is read as it is."""
    document = {**PRESETS["family"].to_json(), "name": "Text first", "cut_bonus": -15}
    text = json.dumps(document, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    first = RuleSet.parse(text)
    assert RuleSet.parse(json.loads(text)) is first
    assert RuleSet.parse(document) is first
    with_float = {**document, "players": {**document["players"], "min": 4.0}}
    try:
        read = RuleSet.parse(with_float)
    except RuleSetError:
        read = None
    assert read is not first
