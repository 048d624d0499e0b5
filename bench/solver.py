"""The R5 opening solver, "can this hand go down?", timed through the API under every preset.

Workloads (all seeded, so every run times the same hands):
* realistic, per preset (`PRESETS`: liverpool, contract, online, family, shanghai, carioca,
  continental): 10,000
  hands, deals 1 to the rule set's last in turn, each dealt from the rule set's own shuffled
  pack for a table size it allows, the deal's cards plus the draw, and about one hand in three
  after 1-3 buys (the discard and the penalty card each, within the rule set's buying limits).
  Each is posted to `POST /api/rules/solve` on the Flask test client of an in-memory app
  (`_solver_worker.py`), the preset named in the body: wild deuces, deal counts and contracts
  come from the rule set, so whatever the engine makes of them is what is timed;
* adversarial: 2,000 hands built to make the search work: 1-3 suits, a narrow band of ranks,
  duplicates, every joker the rule set allows (family with 6 players: 3 packs and 6 jokers),
  13-30 cards, every deal and preset, plus the hardest hands a hill-climbing search found; timed
  by calling `solve_opening` directly (the search itself, without the request around it).

* any rule set: four wild-heavy shapes of a table's own rules (deuces wild, 3 packs and 6
  jokers; the last deal three runs using the whole hand, three runs of at least 4 with a
  discard, a set and two runs using the whole hand, and three runs of at least their size in
  deal 6), at 21, 26 and 30 cards: a hill-climbing search (three seeded starts a shape and size,
  each keeping the change of 1-3 cards that makes the search take the most steps) finds the
  hardest hand, whose steps, CPU time and answer (a verdict, or `Undecided` once the search
  has used its budget of steps, `SOLVE_STEPS`) are shown.
* meld by meld: the same climbs under R12's meld settings (opening/by_melds.py): three of the
  shapes above with the ace wrapping and wild cards one natural card apart, and carioca's and
  continental's hardest deals; its budget is `SOLVE_STEPS // STEP_COST` of its own steps.

The exhaustive search of tests/rules/exhaustive.py times the first 1,000 realistic hands of each
preset side by side (not carioca's or continental's: it reads R4's runs only; the meld-by-meld
search is checked against brute force in tests/rules/test_r12_melds.py); the speed-up is taken over the hands where that search needs >= 1 ms of CPU
(total exhaustive CPU time over total solver CPU time on those hands, through the API and by
direct call). CPU time (`time.thread_time_ns`) is shown beside wall-clock time for every
request: on a shared machine it leaves out what other processes take, which wall-clock cannot.

`BENCH_BASELINE=<path of another checkout>[:<another>...]` times each such tree's app on the
same requests in the same run, batch by batch in turn (see `_api_side_by_side.py`), for every
preset it knows.
Every hand is timed in several runs; each hand's median time is its figure, and p50 / p95 / max
/ mean are taken over those per-hand medians (the slowest single call of any run, scheduler noise
and all, is shown beside them).
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import time
from pathlib import Path

from scorekeeper.rules.cards import JOKER, SUITS, Card, format_cards, parse_cards
from scorekeeper.rules.contracts import contract
from scorekeeper.rules.errors import CopyLimitError, RulesError, Undecided
from scorekeeper.rules.melds import check_meld
from scorekeeper.rules.opening import by_melds
from scorekeeper.rules.opening.by_melds import STEP_COST, needs_melds
from scorekeeper.rules.opening.solver import SOLVE_STEPS, solve_opening
from scorekeeper.rules.ruleset import PRESETS, RuleSet
from tests.rules.exhaustive import exhaustive_opening

from ._api_side_by_side import THIS_TREE, close_workers, open_workers, time_side_by_side

TITLE = "Solver (R5 opening search)"

REALISTIC_HANDS = 10_000
ADVERSARIAL_HANDS = 2_000
EXHAUSTIVE_HANDS = 1_000
EXHAUSTIVE_FLOOR = 1.0  # ms: the speed-up counts hands the exhaustive search needs this long for
RUNS = 3
EXHAUSTIVE_RUNS = 3
BUY_SHARE = 0.35
HAND_LIMIT = 30
TARGETS = {"p95": 2.0, "max": 20.0}  # ms through the API, realistic hands, every preset
SPEED_UP_TARGET = 10.0
ADVERSARIAL_TARGETS = {"max": 20.0}
WILD_TARGET = 50.0  # ms of CPU for any hand under any rule set, the budget's answer included
WILD_DEUCE_PROBE = "2♠ 5♥ 5♦"

# The slowest hands found by a hill-climbing search on the solver's work (preset, players,
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


def pack(preset: str = "liverpool", players: int | None = None) -> list[Card]:
    return PRESETS[preset].deck(players)


def _buys(rng: random.Random, rules: RuleSet) -> int:
    """How many discards this player bought before the hand was judged (0 most of the time)."""
    if not rules.buying.allowed or rng.random() >= BUY_SHARE:
        return 0
    wanted = rng.choice((1, 1, 1, 2, 2, 3))
    limit = rules.buying.buys_in_a_deal()
    return wanted if limit is None else min(wanted, limit)


def realistic_hands(rules: RuleSet, count: int = REALISTIC_HANDS, seed: int = 2024) -> list:
    """(deal, players, hand): the cards held after the draw, from the rule set's own pack."""
    rng = random.Random(f"{seed}:{rules.name}")
    sizes = list(rules.table_sizes)
    packs = {players: rules.deck(players) for players in sizes}
    hands = []
    for index in range(count):
        deal = index % rules.last_deal + 1
        players = rng.choice(sizes)
        cards = packs[players]
        rng.shuffle(cards)
        held = rules.cards_dealt(deal) + 1 + _buys(rng, rules) * (1 + rules.buying.penalty_cards)
        hands.append((deal, players, cards[: min(held, HAND_LIMIT)]))
    return hands


def api_body(preset: str, deal: int, players: int, hand: list[Card]) -> dict:
    """The request of `POST /api/rules/solve` (the preset by name, as every version took it)."""
    return {"hand": format_cards(hand), "round": deal, "profile": preset, "players": players}


def wild_deuces_honoured(preset: str) -> bool:
    """Whether the engine reads this preset's deuces as wild (a deuce completes a set)."""
    try:
        return check_meld(parse_cards(WILD_DEUCE_PROBE), PRESETS[preset]).legal
    except Exception:  # noqa: BLE001 - an engine without the setting may refuse in any way
        return False


def adversarial_hands(count: int = ADVERSARIAL_HANDS, seed: int = 7) -> list[tuple]:
    """(preset, players, round, hand): crowded hands that make the search work hard."""
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
        preset, players = tables[index % len(tables)]
        rules = PRESETS[preset]
        round_number = index // len(tables) % rules.last_deal + 1
        suits = rng.sample(SUITS, rng.choice([1, 1, 2, 2, 3]))
        width = rng.randint(4, 13)
        low = rng.randint(1, 14 - width)
        ranks = set(range(low, low + width))
        pool = [
            card
            for card in pack(preset, players)
            if not card.joker and card.suit in suits and card.rank in ranks
        ]
        jokers = (
            rules.joker_count(players)
            if rng.random() < 0.6
            else rng.randint(0, rules.joker_count(players))
        )
        size = rng.randint(13, 30)
        hand = rng.sample(pool, min(len(pool), size - jokers)) + [JOKER] * jokers
        rng.shuffle(hand)
        hands.append((preset, players, round_number, hand))
    for preset, players, round_number, text in HARD_HANDS:
        hands.append((preset, players, round_number, list(parse_cards(text))))
    return hands


def _time_all(calls, clock=time.perf_counter_ns) -> list[float]:
    """Milliseconds of each call, in order (wall-clock, or `time.thread_time_ns`: CPU)."""
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


def _per_hand(calls, runs: int, clock=time.perf_counter_ns) -> tuple[list[float], float]:
    """Each call's median time over `runs` runs (ms), and the slowest single call of any run.

    The hands are built before timing and frozen out of the garbage collector's way
    (`gc.freeze()`), so a collection does not scan the benchmark's own fixtures; the collector
    stays on for everything the solver allocates.
    """
    gc.collect()
    gc.freeze()
    try:
        per_run = [_time_all(calls, clock) for _ in range(runs)]
    finally:
        gc.unfreeze()
    medians = [statistics.median(times) for times in zip(*per_run, strict=True)]
    return medians, max(max(times) for times in per_run)


def _measure(calls, runs: int) -> dict[str, float]:
    """p50 / p95 / max / mean over the hands' medians (ms), and `worst`, the slowest call."""
    medians, worst = _per_hand(calls, runs)
    figures = _stats(medians)
    figures["worst"] = worst
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


def _exhaustive(preset: str, hands: list, runs: int) -> list[tuple[float, bool] | None]:
    """Each hand's exhaustive CPU time (ms, median of `runs`) and whether it finds an opening; None
    where the exhaustive search cannot judge the hand under this rule set."""
    rules = PRESETS[preset]
    if any(needs_melds(contract(number, rules), rules) for number in rules.deal_numbers):
        return [None] * len(hands)  # R12's meld settings: the oracle reads R4's runs only
    out: list[tuple[float, bool] | None] = []
    for deal, _players, hand in hands:
        try:
            found = exhaustive_opening(hand, deal, PRESETS[preset]) is not None
        except Exception:  # noqa: BLE001 - a deal or setting the oracle does not know
            out.append(None)
            continue
        times = _time_all(
            [(exhaustive_opening, (hand, deal, PRESETS[preset]))] * runs, time.thread_time_ns
        )
        out.append((statistics.median(times), found))
    return out


def _solve(hand, deal: int, preset: str, players: int):
    """`solve_opening` as the API calls it: a hand the engine cannot judge is an answer too."""
    try:
        return solve_opening(hand, deal, PRESETS[preset], players)
    except RulesError as error:
        return error


def _speed_up(exhaustive: list, legal: list, api_ms: list[float], direct_ms: list[float]) -> dict:
    """The solver against the exhaustive search on the hands that search needs >= 1 ms for."""
    slow = [
        (result[0], api, direct)
        for result, verdict, api, direct in zip(exhaustive, legal, api_ms, direct_ms, strict=False)
        if result is not None and result[1] == verdict and result[0] >= EXHAUSTIVE_FLOOR
    ]
    disagree = sum(
        1
        for result, verdict in zip(exhaustive, legal, strict=False)
        if result is not None and verdict is not None and result[1] != verdict
    )
    if not slow:
        return {"hands": 0, "disagree": disagree}
    total = sum(item[0] for item in slow)
    return {
        "hands": len(slow),
        "disagree": disagree,
        "api": total / sum(item[1] for item in slow),
        "direct": total / sum(item[2] for item in slow),
    }


def _speed_up_text(figures: dict) -> str:
    text = "no hand needs 1 ms"
    if figures["hands"]:
        met = "met" if figures["api"] >= SPEED_UP_TARGET else "MISSED"
        text = (
            f"{figures['api']:.1f}x through the API ({met}), {figures['direct']:.0f}x direct, "
            f"on {figures['hands']} hands"
        )
    if figures["disagree"]:
        text += f"; the exhaustive search judges {figures['disagree']} hands otherwise"
    return text


def _deuces_text(preset: str, rules: RuleSet) -> str:
    if not rules.wild_deuces:
        return ""
    if wild_deuces_honoured(preset):
        return ", wild deuces"
    return ", jokers only: the engine does not read deuces as wild yet"


def _preset_rows(preset: str, rules: RuleSet, workers: dict, count: int, runs: int) -> list:
    """One row per tree that knows the preset: the API's figures and the exhaustive speed-up."""
    hands = realistic_hands(rules, count)
    timed = time_side_by_side(workers, [api_body(preset, *hand) for hand in hands], runs)
    sample = hands[: min(EXHAUSTIVE_HANDS, count)]
    exhaustive = _exhaustive(preset, sample, 1 if runs == 1 else EXHAUSTIVE_RUNS)
    direct_ms, _ = _per_hand(
        [(_solve, (hand, deal, preset, players)) for deal, players, hand in sample],
        runs,
        time.thread_time_ns,
    )
    rows = []
    for label, result in timed.items():
        answered = [verdict for verdict in result["legal"] if verdict is not None]
        if not answered:
            continue  # a tree that does not know this preset
        refused = len(hands) - len(answered)
        workload = f"realistic, {preset} ({sum(answered)} can open{_deuces_text(preset, rules)}"
        workload += f"; {refused} answered 400)" if refused else ")"
        figures = _stats(result["ms"])
        figures["worst"] = result["worst"]
        row = _row(workload, f"API, {label}", len(hands), runs, figures, TARGETS)
        cpu = _stats(result["cpu"])
        met = all(cpu[key] <= limit for key, limit in TARGETS.items())
        row["CPU p50 / p95 / max ms"] = (
            f"{cpu['p50']:.3f} / {cpu['p95']:.3f} / {cpu['max']:.2f}: {'met' if met else 'MISSED'}"
        )
        speed = _speed_up(exhaustive, result["legal"], result["cpu"], direct_ms)
        row[f"vs exhaustive where it needs >= {EXHAUSTIVE_FLOOR:g} ms"] = _speed_up_text(speed)
        rows.append(row)
    return rows


def _trees() -> dict[str, Path]:
    """This tree, and those `BENCH_BASELINE` names (`:`-separated, each labelled by its folder)."""
    trees = {"today": THIS_TREE}
    for baseline in filter(None, os.environ.get("BENCH_BASELINE", "").split(os.pathsep)):
        trees[Path(baseline).name] = Path(baseline)
    return trees


def _adversarial_row(count: int, runs: int) -> dict:
    adversarial = adversarial_hands(count)
    calls = [
        (solve_opening, (hand, deal, PRESETS[preset], players))
        for preset, players, deal, hand in adversarial
    ]
    figures = _measure(calls, runs)
    opened = sum(solve_opening(*args).legal for _, args in calls)
    workload = f"adversarial 13-30 cards ({opened} can open)"
    return _row(workload, "direct call", len(calls), runs, figures, ADVERSARIAL_TARGETS)


# A table's own rules that make the general search (opening/general.py) branch the most.
def _wild_table(**change) -> RuleSet:
    document = {
        **PRESETS["liverpool"].to_json(),
        "name": "Wild table",
        "wild_deuces": True,
        "packs": [{"up_to": 8, "packs": 3}],
        "jokers": {"fixed": 6, "per_pack": 0},
    }
    return RuleSet.parse({**document, **change})


def _last_deal(*needs: tuple[str, int], whole: bool) -> list[dict]:
    deals = PRESETS["liverpool"].to_json()["deals"][:6]
    contract = [{"kind": kind, "size": size} for kind, size in needs]
    return [*deals, {"cards": 12, "contract": contract, "whole_hand": whole}]


WILD_SHAPES = {
    "3 runs, whole hand": (_wild_table(), 7),
    "3 runs of 4+, a discard": (
        _wild_table(exact_sizes=False, deals=_last_deal(*[("run", 4)] * 3, whole=False)),
        7,
    ),
    "set + 2 runs, whole hand": (
        _wild_table(deals=_last_deal(("set", 3), ("run", 4), ("run", 4), whole=True)),
        7,
    ),
    "set + 2 runs of their size+, deal 6": (_wild_table(exact_sizes=False), 6),
}
WILD_SIZES = (21, 26, 30)
CLIMB_STARTS = 3


def _steps_taken(hand: list[Card], rules: RuleSet, deal: int) -> tuple[int, float, str]:
    """(steps of the general search, CPU ms, the answer) for one hand."""
    from scorekeeper.rules.opening import general

    search, used = general.search, [0]

    def counted(count, wilds, size, plan, steps=None):
        budget = steps if steps else [10**12]
        start = budget[0]
        try:
            return search(count, wilds, size, plan, budget)
        finally:
            used[0] += start - budget[0]

    general.search = counted
    try:
        cpu, answer = _answer_timed(hand, rules, deal)
    finally:
        general.search = search
    return used[0], cpu, answer


def _answer_timed(hand: list[Card], rules: RuleSet, deal: int) -> tuple[float, str]:
    """(CPU ms, the answer) of "can this hand go down?" at a table of 4."""
    started = time.thread_time_ns()
    try:
        answer = "can open" if solve_opening(hand, deal, rules, 4).legal else "cannot"
    except Undecided:
        answer = "undecided"
    return (time.thread_time_ns() - started) / 1e6, answer


def _climb(rules: RuleSet, deal: int, size: int, rng: random.Random, tries: int, taken=None):
    """The hand of `size` cards whose search takes the most steps, hill-climbing from
    CLIMB_STARTS random hands of two suits, the 2s and the jokers, from the rule set's pack."""
    measure = taken or _steps_taken
    deck = rules.deck(4)
    best = None
    for _ in range(CLIMB_STARTS):
        suits = rng.sample(SUITS, 2)
        pool = [card for card in deck if card.joker or card.suit in suits or card.rank == 2]
        hand = rng.sample(pool, size)
        now = measure(hand, rules, deal)
        for _ in range(tries):
            changed = list(hand)
            for _ in range(rng.randint(1, 3)):
                changed[rng.randrange(size)] = rng.choice(pool if rng.random() < 0.8 else deck)
            try:
                rules.check_copies(changed, 4)
            except CopyLimitError:
                continue
            tried = measure(changed, rules, deal)
            if tried[0] >= now[0]:
                hand, now = changed, tried
        if best is None or now[0] > best[0][0]:
            best = (now, hand)
    return best


def wild_rows(tries: int) -> list[dict]:
    """The hardest hand found for each shape of a table's own rules and each size."""
    shapes = {shape: (rules, deal, WILD_SIZES) for shape, (rules, deal) in WILD_SHAPES.items()}
    return _hardest_rows("any rule set", shapes, tries, _steps_taken, SOLVE_STEPS)


def _hardest_rows(label: str, shapes: dict, tries: int, measure, budget: int) -> list[dict]:
    """For each shape (rules, deal, sizes) and size, the hardest hand a climb finds by
    `measure` (steps, CPU ms, answer), its CPU the median of RUNS runs."""
    rows = []
    for shape, (rules, deal, sizes) in shapes.items():
        rng = random.Random(f"{label}:{shape}")
        for size in sizes:
            (steps, _, answer), hand = _climb(rules, deal, size, rng, tries, measure)
            cpu = statistics.median(measure(hand, rules, deal)[1] for _ in range(RUNS))
            rows.append(
                {
                    "workload": f"{label}: {shape}, {size} cards",
                    "engine": "direct call",
                    "hands": f"hardest of {CLIMB_STARTS} climbs of {tries}",
                    "steps": f"{steps:,} of {budget:,}",
                    "max ms": f"{cpu:.1f}",
                    "answer": answer,
                    "hand": format_cards(hand),
                    "target (ms)": f"max <= {WILD_TARGET:g}: "
                    + ("met" if cpu <= WILD_TARGET else "MISSED"),
                }
            )
    return rows


# R12's meld settings (opening/by_melds.py): the wild tables above with the ace wrapping and
# wild cards one natural card apart, and the two R12 presets' hardest deals.
def _r12_table(**change) -> RuleSet:
    return _wild_table(version=2, ace="wrap", wild_spacing=1, **change)


MELD_SHAPES = {
    "3 runs, whole hand": (_r12_table(), 7, WILD_SIZES),
    "3 runs of 4+, a discard": (
        _r12_table(exact_sizes=False, deals=_last_deal(*[("run", 4)] * 3, whole=False)),
        7,
        WILD_SIZES,
    ),
    "set + 2 runs, whole hand": (
        _r12_table(deals=_last_deal(("set", 3), ("run", 4), ("run", 4), whole=True)),
        7,
        WILD_SIZES,
    ),
    "continental, deal 7": (PRESETS["continental"], 7, (14,)),
    "carioca, deal 7": (PRESETS["carioca"], 7, (13,)),
    "carioca, deal 8": (PRESETS["carioca"], 8, (13,)),
}


def _meld_steps(hand: list[Card], rules: RuleSet, deal: int) -> tuple[int, float, str]:
    """(steps of the meld-by-meld search, CPU ms, the answer) for one hand."""
    step, used = by_melds._Search.step, [0]

    def counted(search, steps: int = 1) -> None:
        used[0] += steps
        step(search, steps)

    by_melds._Search.step = counted
    try:
        cpu, answer = _answer_timed(hand, rules, deal)
    finally:
        by_melds._Search.step = step
    return used[0], cpu, answer


def meld_rows(tries: int) -> list[dict]:
    """The hardest hand found for each shape under R12's meld settings, each size."""
    return _hardest_rows("meld by meld", MELD_SHAPES, tries, _meld_steps, SOLVE_STEPS // STEP_COST)


def main(quick: bool = False) -> list[dict]:
    runs = 1 if quick else RUNS
    count = 1_000 if quick else REALISTIC_HANDS
    workers = open_workers(_trees())
    try:
        rows = [
            row
            for preset, rules in PRESETS.items()
            for row in _preset_rows(preset, rules, workers, count, runs)
        ]
    finally:
        close_workers(workers)
    rows.append(_adversarial_row(200 if quick else ADVERSARIAL_HANDS, runs))
    rows += wild_rows(30 if quick else 100)
    rows += meld_rows(20 if quick else 60)
    return rows
