"""The R5 opening solver: "can this hand go down?" timed through the public `solve_opening`.

Workloads (all seeded, so every run times the same hands):
* realistic: 10,000 hands dealt from a shuffled 107-card pack (2 packs + 3 jokers), rounds 1-7
  in turn, 11 cards in rounds 1-3 and 13 in rounds 4-7 (the deal plus the draw), judged under the
  liverpool profile and again under family (3+ / 4+ melds, 2 / 3 naturals: the most work);
* adversarial: 2,000 hands built to make the search work: 1-3 suits, a narrow band of ranks,
  duplicates, every joker the profile allows (family with 6 players: 3 packs and 6 jokers),
  13-30 cards, every round and profile, plus the hardest hands a hill-climbing search found.

The exhaustive search of tests/rules/exhaustive.py times the first 1,000 realistic hands and the
adversarial hands of at most 13 cards side by side (it is far too slow for bigger hands).
Every hand is timed in several runs; each hand's median time is its figure, and p50 / p95 / max
/ mean are taken over those per-hand medians (the slowest single call of any run, scheduler noise
and all, is shown beside them).
"""

from __future__ import annotations

import gc
import random
import statistics
import time

from scorekeeper.rules.cards import JOKER, SUITS, Card, parse_cards
from scorekeeper.rules.profiles import PROFILES
from scorekeeper.rules.solver import solve_opening
from tests.rules.exhaustive import exhaustive_opening

TITLE = "Solver (R5 opening search)"

REALISTIC_HANDS = 10_000
ADVERSARIAL_HANDS = 2_000
EXHAUSTIVE_REALISTIC = 1_000
EXHAUSTIVE_MAX_CARDS = 13
RUNS = 5
EXHAUSTIVE_RUNS = 3
TARGETS = {"p50": 0.2, "p95": 1.0, "max": 20.0}  # ms, for realistic hands
ADVERSARIAL_TARGETS = {"max": 20.0}

# The slowest hands found by a hill-climbing search on the solver's work (profile, players,
# round, hand). They stay in the adversarial set so a regression on them shows.
HARD_HANDS = [
    ("family", 6, 7, "5♠ 7♠ JK 6♠ 4♠ 4♠ 10♠ 5♠ JK 10♠ 4♠ K♠ JK 9♠ JK A♠ 9♠ 8♠ J♠ Q♠ JK"),
    ("family", 6, 7, "6♥ 8♣ 9♥ JK 7♣ JK JK 9♥ J♣ 9♣ 7♣ 7♥ 10♥ JK 8♣ Q♣ 10♣ Q♥ JK 6♣ JK"),
    ("family", 6, 7, "4♥ JK Q♥ JK 5♥ 4♠ 8♥ 6♥ 3♠ JK 10♠ 5♠ 2♥ 9♠ A♥ JK JK 8♠ 7♥ 2♠ J♠ 6♠"),
    (
        "family",
        6,
        7,
        "JK 2♥ 2♥ JK 6♠ JK 4♥ 6♥ 6♠ 7♥ 4♠ 8♥ 7♠ JK 3♥ 6♥ 5♥ A♥ 5♠ 4♥ JK A♥ JK 8♠ 3♠",
    ),
    (
        "family",
        6,
        7,
        "JK 8♠ 6♠ 7♥ JK 3♠ 5♥ JK 6♥ Q♥ K♠ 10♠ JK Q♠ 10♥ JK 4♥ 7♠ 3♥ 8♠ 9♥ 6♠ 8♥ K♠ "
        "J♥ JK A♠ 9♠ 10♠ 5♠",
    ),
    (
        "family",
        6,
        3,
        "J♥ JK 3♦ 6♠ 4♥ 10♥ 8♥ Q♥ 10♦ 8♦ JK 4♠ 3♠ JK A♥ 10♠ JK 5♦ 3♥ 7♠ 7♦ JK 6♦ 7♥ "
        "8♠ 9♠ 5♥ 4♦ JK 9♦",
    ),
    (
        "family",
        6,
        6,
        "JK 9♦ Q♥ Q♦ JK JK 9♥ 4♠ 3♥ 10♠ JK 8♦ 9♠ 4♠ J♥ 5♦ 7♦ 6♥ 8♥ JK 4♥ A♥ 2♦ 7♠ J♦ "
        "JK A♦ 8♠ 6♠ 4♦",
    ),
    (
        "liverpool",
        None,
        7,
        "Q♥ A♥ 6♥ 5♠ 10♥ K♥ 7♥ JK 4♥ 9♠ JK 2♠ 8♠ 3♠ 4♠ JK 10♥ 7♠ 6♠ 5♥ 10♠ 3♥ 7♥ J♠ "
        "J♥ 9♥ J♥ 5♥ 8♥ Q♠",
    ),
    (
        "liverpool",
        None,
        6,
        "A♠ 7♥ 9♠ J♥ 4♦ 3♦ JK 2♥ 8♦ JK 9♦ 8♥ 2♥ 8♦ 4♥ J♦ Q♠ JK A♠ 7♦ 3♠ 6♠ K♥ K♥ 9♠ 6♠",
    ),
    ("liverpool", None, 7, "8♣ K♣ 9♣ J♣ 5♣ 4♣ 7♣ 4♣ JK 9♣ J♣ Q♣ 6♣ 7♣ 10♣ JK 8♣ 5♣ JK K♣"),
    ("liverpool", None, 3, "6♣ 3♦ 5♠ 5♥ 10♥ Q♥ JK 8♦ JK 3♣ JK"),
    (
        "online",
        6,
        7,
        "6♠ 7♥ J♥ A♥ 4♥ 10♠ Q♠ JK Q♥ 10♥ 2♠ 5♥ K♠ 7♠ A♠ 3♠ 5♠ 4♥ 4♠ 6♥ 9♠ 2♥ JK 5♥ "
        "8♥ K♥ J♠ 8♠ 3♥ 9♥",
    ),
    (
        "online",
        6,
        6,
        "9♥ 3♠ 9♠ JK 5♠ 5♥ 10♠ K♠ J♥ 7♠ A♠ 2♠ 10♠ 3♥ 8♥ Q♥ J♠ JK K♥ 6♠ 4♥ 6♠ 7♥ Q♥ 2♠",
    ),
]


def pack(profile: str = "liverpool", players: int | None = None) -> list[Card]:
    return PROFILES[profile].deck(players)


def realistic_hands(count: int = REALISTIC_HANDS, seed: int = 2024) -> list[tuple]:
    """(round, hand): 11 or 13 cards from a freshly shuffled 107-card pack, every round."""
    rng = random.Random(seed)
    cards = pack()
    hands = []
    for index in range(count):
        round_number = index % 7 + 1
        rng.shuffle(cards)
        hands.append((round_number, cards[: 11 if round_number <= 3 else 13]))
    return hands


def adversarial_hands(count: int = ADVERSARIAL_HANDS, seed: int = 7) -> list[tuple]:
    """(profile, players, round, hand): crowded hands that make the search work hard."""
    rng = random.Random(seed)
    tables = [
        ("family", 6),
        ("family", None),
        ("liverpool", None),
        ("online", 6),
        ("contract", None),
    ]
    hands = []
    for index in range(count):
        profile, players = tables[index % len(tables)]
        rules = PROFILES[profile]
        round_number = index // len(tables) % 7 + 1
        suits = rng.sample(SUITS, rng.choice([1, 1, 2, 2, 3]))
        width = rng.randint(4, 13)
        low = rng.randint(1, 14 - width)
        ranks = set(range(low, low + width))
        pool = [
            card
            for card in pack(profile, players)
            if not card.joker and card.suit in suits and card.rank in ranks
        ]
        jokers = (
            rules.jokers(players) if rng.random() < 0.6 else rng.randint(0, rules.jokers(players))
        )
        size = rng.randint(13, 30)
        hand = rng.sample(pool, min(len(pool), size - jokers)) + [JOKER] * jokers
        rng.shuffle(hand)
        hands.append((profile, players, round_number, hand))
    for profile, players, round_number, text in HARD_HANDS:
        hands.append((profile, players, round_number, list(parse_cards(text))))
    return hands


def _time_all(calls) -> list[float]:
    """Milliseconds of each call, in order."""
    clock = time.perf_counter_ns
    out = []
    for function, args in calls:
        start = clock()
        function(*args)
        out.append((clock() - start) / 1e6)
    return out


def _stats(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": ordered[len(ordered) // 2],
        "p95": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
        "max": ordered[-1],
        "mean": sum(ordered) / len(ordered),
    }


def _measure(calls, runs: int) -> dict[str, float]:
    """Each hand's median time over `runs` runs, then p50 / p95 / max / mean over the hands
    (milliseconds); `worst` is the slowest single call of any run (scheduler noise included).

    The hands are built before timing and frozen out of the garbage collector's way
    (`gc.freeze()`), so a collection does not scan the benchmark's own fixtures; the collector
    stays on for everything the solver allocates.
    """
    gc.collect()
    gc.freeze()
    try:
        per_run = [_time_all(calls) for _ in range(runs)]
    finally:
        gc.unfreeze()
    per_hand = [statistics.median(times) for times in zip(*per_run, strict=True)]
    figures = _stats(per_hand)
    figures["worst"] = max(max(times) for times in per_run)
    return figures


def _row(workload: str, engine: str, hands: int, runs: int, figures: dict, targets=None) -> dict:
    row = {
        "workload": workload,
        "engine": engine,
        "hands": hands,
        "runs": runs,
        "p50 ms": f"{figures['p50']:.3f}",
        "p95 ms": f"{figures['p95']:.3f}",
        "max ms": f"{figures['max']:.2f}",
        "mean ms": f"{figures['mean']:.3f}",
        "worst single call ms": f"{figures['worst']:.1f}",
    }
    if targets:
        met = all(figures[key] <= limit for key, limit in targets.items())
        wanted = ", ".join(f"{key} <= {limit:g}" for key, limit in targets.items())
        row["target (ms)"] = f"{wanted}: {'met' if met else 'MISSED'}"
    return row


def main(quick: bool = False) -> list[dict]:
    runs = 2 if quick else RUNS
    exhaustive_runs = 1 if quick else EXHAUSTIVE_RUNS
    realistic = realistic_hands(1_000 if quick else REALISTIC_HANDS)
    adversarial = adversarial_hands(200 if quick else ADVERSARIAL_HANDS)
    rows = []

    for profile in ("liverpool", "family"):
        calls = [(solve_opening, (hand, round_number, profile)) for round_number, hand in realistic]
        figures = _measure(calls, runs)
        opened = sum(solve_opening(*args).legal for _, args in calls)
        rows.append(
            _row(
                f"realistic, {profile} ({opened} can open)",
                "solver",
                len(calls),
                runs,
                figures,
                TARGETS,
            )
        )
    calls = [
        (solve_opening, (hand, round_number, profile, players))
        for profile, players, round_number, hand in adversarial
    ]
    figures = _measure(calls, runs)
    opened = sum(solve_opening(*args).legal for _, args in calls)
    rows.append(
        _row(
            f"adversarial 13-30 cards ({opened} can open)",
            "solver",
            len(calls),
            runs,
            figures,
            ADVERSARIAL_TARGETS,
        )
    )

    # Side by side with the exhaustive search, on the same hands.
    subsets = {
        f"realistic, first {min(EXHAUSTIVE_REALISTIC, len(realistic))}": [
            (round_number, hand, "liverpool", None)
            for round_number, hand in realistic[:EXHAUSTIVE_REALISTIC]
        ],
        f"adversarial of <= {EXHAUSTIVE_MAX_CARDS} cards": [
            (round_number, hand, profile, players)
            for profile, players, round_number, hand in adversarial
            if len(hand) <= EXHAUSTIVE_MAX_CARDS
        ],
    }
    for name, hands in subsets.items():
        fast = _measure(
            [(solve_opening, (hand, r, profile, players)) for r, hand, profile, players in hands],
            runs,
        )
        slow = _measure(
            [(exhaustive_opening, (hand, r, profile)) for r, hand, profile, _players in hands],
            exhaustive_runs,
        )
        rows.append(_row(name, "solver", len(hands), runs, fast))
        exhaustive_row = _row(name, "exhaustive", len(hands), exhaustive_runs, slow)
        exhaustive_row["solver speed-up (mean, p50)"] = (
            f"{slow['mean'] / fast['mean']:.0f}x, {slow['p50'] / fast['p50']:.0f}x"
        )
        rows.append(exhaustive_row)
    return rows
