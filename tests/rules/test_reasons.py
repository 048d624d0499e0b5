"""Every refusal's reason names a condition that really fails, never one that holds.

Random lay-offs and melds are judged, and each refusal's reason is read back against the cards:
a card offered as "the next card" is never one that was refused for it, a card "laid twice" was
laid twice, a "missing" card was not laid, and a gap's width really exceeds the cards.
"""

from __future__ import annotations

import random
import re

import pytest

from scorekeeper.rules.cards import SUITS, Card, format_cards
from scorekeeper.rules.errors import CopyLimitError
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.ruleset import PRESETS
from scorekeeper.rules.table import check_layoff

PRESET_RULES = [PRESETS[name] for name in ("liverpool", "family", "shanghai")]


def random_run(rng: random.Random) -> list[Card]:
    suit = rng.choice(SUITS)
    length = rng.randint(4, 8)
    low = rng.randint(1, 15 - length)
    cards = [Card(1 if p == 14 else p, suit) for p in range(low, low + length)]
    for index in rng.sample(range(length), rng.randint(0, 1)):
        cards[index] = Card(None, None, True)
    return cards


def random_laid(rng: random.Random, suit: str) -> list[Card]:
    laid = []
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if roll < 0.1:
            laid.append(Card(None, None, True))
        elif roll < 0.15:
            laid.append(Card(rng.randint(1, 13), rng.choice(SUITS)))
        else:
            laid.append(Card(rng.randint(1, 13), suit))
    return laid


def named_cards(text: str) -> set[str]:
    return set(re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", text))


@pytest.mark.parametrize("seed", range(6))
def test_lay_off_reasons_never_contradict_the_cards(seed):
    rng = random.Random(seed)
    judged = 0
    for _ in range(600):
        meld = random_run(rng)
        suit = next(card.suit for card in meld if card.natural)
        laid = random_laid(rng, suit)
        rules = rng.choice(PRESET_RULES)
        try:
            verdict = check_layoff(2, meld, laid, False, rules)
        except CopyLimitError:
            continue
        if verdict.legal or verdict.rule != "R6":
            continue
        judged += 1
        reason, text = verdict.reason, format_cards(laid)
        laid_faces = {str(card) for card in laid if card.natural}
        assert reason != f"{text} does not extend {format_cards(meld)}", reason
        for clause in reason.split("; "):
            if clause.startswith("the next card at either end is"):
                assert not named_cards(clause) & laid_faces, (text, reason)
            if "would be missing" in clause:
                missing = clause.split(": ")[-1].split(" would be missing")[0]
                assert not named_cards(missing) & laid_faces, (text, reason)
        twice = re.search(r"(\S+) is laid twice", reason)
        if twice:
            assert [str(card) for card in laid].count(twice.group(1)) >= 2, (text, reason)
    assert judged > 100


@pytest.mark.parametrize("seed", range(4))
def test_meld_gap_reasons_are_true(seed):
    rng = random.Random(seed)
    for _ in range(800):
        suit = rng.choice(SUITS)
        size = rng.randint(4, 7)
        cards = [Card(rng.randint(1, 13), suit) for _ in range(size - 1)]
        cards.append(Card(None, None, True) if rng.random() < 0.5 else Card(7, suit))
        rules = PRESET_RULES[seed % len(PRESET_RULES)]
        if rules == "shanghai" and rng.random() < 0.5:
            cards.append(Card(2, rng.choice(SUITS)))  # a wild 2 where it is not the run's own
        try:
            verdict = check_meld(cards, rules)
        except CopyLimitError:
            continue
        gap = re.search(r"needs (\d+) cards and it has (\d+)", verdict.reason)
        if gap:
            assert not verdict.legal
            assert int(gap.group(1)) > int(gap.group(2)), verdict.reason
