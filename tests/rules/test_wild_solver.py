"""The opening search agrees with the exhaustive search under rule sets that change the
contracts and the wild cards (R11): shanghai's ten deals (deuces wild, no more wild cards than
natural ones, melds of at least their size) and a table's own rules (deuces wild, exact sizes,
a run of 10), on random and on built hands."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorekeeper.rules.cards import JOKER, SUITS, Card, parse_cards
from scorekeeper.rules.contracts import contract
from scorekeeper.rules.opening.solver import solve_opening
from scorekeeper.rules.ruleset import PRESETS, RuleSet
from tests.rules.exhaustive import exhaustive_opening, validate_opening

from .test_contracts_rules import CUSTOM, _need

# Whole-hand deals with sets, deuces wild and no more wild cards than natural ones.
WHOLE = RuleSet.parse(
    {
        "name": "Whole hand",
        "deals": [
            {"cards": 10, "contract": [_need("set", 3), _need("run", 4)], "whole_hand": True},
            {
                "cards": 12,
                "contract": [_need("set", 3), _need("run", 4), _need("run", 4)],
                "whole_hand": True,
            },
            {"cards": 10, "contract": [_need("set", 3), _need("set", 3)], "whole_hand": True},
        ],
        "wild_deuces": True,
        "naturals": {"set": 1, "run": 1, "wild_at_most_natural": True},
    }
)
# The default rules with deuces wild: round 7's whole hand of 3 runs in the general search.
DEUCES = RuleSet.parse({**PRESETS["liverpool"].to_json(), "name": "Deuces", "wild_deuces": True})
RULES = {"shanghai": PRESETS["shanghai"], "custom": CUSTOM, "whole": WHOLE, "deuces": DEUCES}


def _fits(cards, rules, players) -> bool:
    try:
        rules.check_copies(cards, players)
    except Exception:  # noqa: BLE001 - a CopyLimitError: draw again
        return False
    return True


def random_hand(rng: random.Random, rules, players: int, number: int) -> list[Card]:
    """A hand as dealt, plus the draw and sometimes a buy."""
    size = rules.cards_dealt(number) + 1 + rng.choice([0, 0, 2])
    return rng.sample(rules.deck(players), size)


def built_hand(rng: random.Random, rules, players: int, number: int) -> list[Card]:
    """The deal's contract built meld by meld with jokers and 2s among the cards, plus spare
    cards, then maybe spoiled by one change: hands near the line between yes and no."""
    deal = contract(number, rules)
    deck = rules.deck(players)
    for _ in range(50):
        cards: list[Card] = []
        for need in deal.needs:
            if need.kind.value == "set":
                rank = rng.randint(1, 13)
                cards += [Card(rank, rng.choice(SUITS)) for _ in range(need.size)]
            else:
                suit = rng.choice(SUITS)
                low = rng.randint(1, 15 - need.size)
                cards += [Card(1 if p == 14 else p, suit) for p in range(low, low + need.size)]
        for _ in range(rng.randint(0, 3)):
            wild = JOKER if rng.random() < 0.5 else Card(2, rng.choice(SUITS))
            cards[rng.randrange(len(cards))] = wild
        if not deal.whole_hand:
            cards += rng.sample(deck, rng.randint(1, 2))
        roll = rng.random()
        if roll < 0.3:
            cards[rng.randrange(len(cards))] = rng.choice(deck)
        elif roll < 0.45:
            cards.pop(rng.randrange(len(cards)))
        if _fits(cards, rules, players) and len(cards) <= 16:
            rng.shuffle(cards)
            return cards
    return random_hand(rng, rules, players, number)


def agree(hand, number, rules, players):
    verdict = solve_opening(hand, number, rules, players)
    reference = exhaustive_opening(hand, number, rules)
    text = " ".join(str(card) for card in hand)
    assert verdict.legal == (reference is not None), (
        f"deal {number} {rules.label}: {text}: solver {verdict.legal}, exhaustive {reference}"
    )
    if verdict.legal:
        problems = validate_opening(hand, number, rules, verdict.details)
        assert not problems, (text, problems, verdict.details)
        marks = [mark for meld in verdict.details["wild_deuces"] for mark in meld]
        settings = verdict.line.split(",") if verdict.rule == "R11" else []
        assert ("wild_deuces" in settings) == bool(marks)
    else:
        assert verdict.details["melds"] == []
        assert Counter(verdict.details["left"]) == Counter(str(card) for card in hand)
    return verdict.legal


@pytest.mark.parametrize("generator", [random_hand, built_hand], ids=["random", "built"])
@pytest.mark.parametrize("name", sorted(RULES))
def test_agrees_with_exhaustive_search(name, generator):
    rules = RULES[name]
    rng = random.Random(f"{name}-{generator.__name__}")
    players = rules.default_players
    results = Counter()
    for index in range(100):
        number = index % rules.last_deal + 1
        hand = generator(rng, rules, players, number)
        results[agree(hand, number, rules, players)] += 1
    if generator is built_hand:
        assert results[True] and results[False], results


def test_a_natural_2_and_a_wild_2_in_one_hand():
    rules = RULES["shanghai"]
    hand = list(parse_cards("A♠ 2♠ 3♠ 4♠ 5♥ 6♥ 2♦ 8♥ K♣ 9♣ 9♦ Q♦"))
    verdict = solve_opening(hand, 3, rules)
    assert verdict.legal
    assert verdict.details["melds"] == [["A♠", "2♠", "3♠", "4♠"], ["5♥", "6♥", "2♦", "8♥"]]
    assert verdict.details["wild_deuces"] == [[], ["2♦=7♥"]]
    assert verdict.reason.startswith("shanghai rules: the 2♦ is wild here, standing for 7♥.")
