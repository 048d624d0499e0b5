"""The seat draw of a club night (`scorekeeper/nights/draw.py`): its CPU time, and the repeated
pairs it leaves over a season of nights against the fewest found otherwise.

Timing: nights of 8, 12, 24, 40 and 64 players under a 3-8 rule set (tables of 4-5), each after
five earlier nights of the same players drawn by the draw itself (so the search has repeats to
avoid), `DRAWS` draws of different seeds each, CPU time (`time.thread_time_ns`) per draw; p50,
p95 and max. Target: a night of 24 players (6 tables) in <= 1 s (`TARGET_SECONDS`).

Repeats: seasons of `NIGHTS` nights of 24 members with a window of 5 nights, each night drawn
with the night's seed and the nights before as history, either everyone coming or 18-24 of them
at random (the same comers for every method). Each season's total repeated pairs is set beside:
* the fewest found night by night: for each night, on the very history the draw saw, the best of
  a search with `LONG_FACTOR` times the step budget and `LONG_RESTARTS` starts, over
  `LONG_SEEDS` seeds (a night the draw left without a repeat needs no search: 0 is the least);
* a season drawn by that long search throughout (its own history);
* a published kind of answer, where everyone comes: a social golfer schedule of 24 players in 6
  tables of 4 for 6 nights with no pair twice (`GOLFERS_6_4_6`, found by a tabu search on the
  whole schedule and checked here), played in turn: any 5 nights in a row of it share no pair,
  so every night after the first has 0 repeats over a window of 5, however long the season.
Target: the draw's total within 10 % of the fewest found (`TARGET_RATIO`).
"""

from __future__ import annotations

import random
import statistics
import time
from itertools import combinations
from typing import Any

from scorekeeper.nights.draw import default_steps, draw, repeated_pairs

TITLE = "Seat draw (club night: sizes, pins, the fewest repeated pairs)"
LEAST, MOST = 3, 8
WINDOW = 5
SIZES = (8, 12, 24, 40, 64)
DRAWS, QUICK_DRAWS = 30, 5
NIGHTS = 10
SEASONS, QUICK_SEASONS = 3, 1
LONG_FACTOR, LONG_RESTARTS, LONG_SEEDS = 20, 10, 1
QUICK_LONG_FACTOR, QUICK_LONG_SEEDS = 5, 1
TARGET_SECONDS = 1.0
TARGET_RATIO = 1.10

# 24 golfers (0-23) in 6 groups of 4 for 6 weeks, no two together twice: the social golfer
# problem 6-4-6 (a tabu search over whole schedules, swaps within a week, found it; any such
# schedule serves, and `planned_season` checks this one).
GOLFERS_6_4_6 = (
    (
        (0, 1, 2, 3),
        (4, 5, 6, 7),
        (8, 9, 10, 11),
        (12, 13, 14, 15),
        (16, 17, 18, 19),
        (20, 21, 22, 23),
    ),
    (
        (0, 5, 12, 18),
        (1, 7, 15, 23),
        (2, 10, 17, 21),
        (3, 11, 19, 22),
        (4, 9, 14, 16),
        (6, 8, 13, 20),
    ),
    (
        (0, 4, 11, 23),
        (1, 8, 18, 21),
        (2, 6, 15, 22),
        (3, 9, 13, 17),
        (5, 10, 14, 19),
        (7, 12, 16, 20),
    ),
    (
        (0, 10, 15, 20),
        (1, 4, 13, 19),
        (2, 5, 11, 16),
        (3, 6, 14, 21),
        (7, 9, 18, 22),
        (8, 12, 17, 23),
    ),
    (
        (0, 6, 9, 19),
        (1, 5, 17, 20),
        (2, 14, 18, 23),
        (3, 8, 15, 16),
        (4, 10, 12, 22),
        (7, 11, 13, 21),
    ),
    (
        (0, 14, 17, 22),
        (1, 6, 11, 12),
        (2, 7, 8, 19),
        (3, 4, 18, 20),
        (5, 9, 15, 21),
        (10, 13, 16, 23),
    ),
)


def members(count: int) -> list[str]:
    return [f"M{number:02}" for number in range(count)]


def as_history(tables) -> list[list[str]]:
    return [list(table) for table in tables]


def cpu_ms(call) -> tuple[float, Any]:
    started = time.thread_time_ns()
    result = call()
    return (time.thread_time_ns() - started) / 1e6, result


# Timing ---------------------------------------------------------------------------------------


def timing_row(count: int, draws: int) -> dict[str, Any]:
    players = members(count)
    history: list[list[list[str]]] = []
    for night in range(WINDOW):
        history.insert(
            0, as_history(draw(players, LEAST, MOST, history=history, seed=night).tables)
        )
    times, repeats = [], []
    for seed in range(draws):
        took, result = cpu_ms(
            lambda seed=seed: draw(players, LEAST, MOST, history=history, seed=1000 + seed)
        )
        times.append(took)
        repeats.append(result.repeats)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    row = {
        "workload": f"{count} players, after {WINDOW} nights",
        "tables": "+".join(map(str, result.sizes)),
        "draws": draws,
        "steps": f"{default_steps(count):,}",
        "p50 ms": f"{statistics.median(times):.0f}",
        "p95 ms": f"{p95:.0f}",
        "max ms": f"{times[-1]:.0f}",
        "repeats (min-max)": f"{min(repeats)}-{max(repeats)}",
        "target": "",
        "result": "",
    }
    if count == 24:
        row["target"] = f"<= {TARGET_SECONDS * 1000:.0f} ms"
        row["result"] = "met" if times[-1] <= TARGET_SECONDS * 1000 else "MISSED"
    return row


# Seasons --------------------------------------------------------------------------------------


def comers(season: int, everyone: bool) -> list[list[str]]:
    """Who comes each night: everyone, or 18-24 of the 24 at random (seeded by the season)."""
    rng = random.Random(f"comers {season}")
    players = members(24)
    if everyone:
        return [players] * NIGHTS
    return [sorted(rng.sample(players, rng.randint(18, 24))) for _ in range(NIGHTS)]


def long_draw(players, history, seed: int, factor: int, seeds: int):
    steps = default_steps(len(players)) * factor
    return min(
        (
            draw(
                players,
                LEAST,
                MOST,
                history=history,
                seed=seed + 7919 * k,
                steps=steps,
                restarts=LONG_RESTARTS,
            )
            for k in range(seeds)
        ),
        key=lambda result: result.repeats,
    )


def season(nights: list[list[str]], season_seed: int, factor: int, seeds: int) -> dict[str, Any]:
    """The draw's season, the long search's fewest on each of its nights, and the long search's
    own season."""
    history: list[list[list[str]]] = []
    long_history: list[list[list[str]]] = []
    drawn = fewest = long_total = 0
    cpu = []
    for night, players in enumerate(nights):
        seed = season_seed * 100 + night
        took, result = cpu_ms(
            lambda players=players, seed=seed: draw(
                players, LEAST, MOST, history=history, seed=seed
            )
        )
        cpu.append(took)
        drawn += result.repeats
        if result.repeats:
            best = long_draw(players, history, seed, factor, seeds).repeats
            fewest += min(best, result.repeats)
        own = long_draw(players, long_history, seed, factor, seeds)
        long_total += own.repeats
        history.insert(0, as_history(result.tables))
        long_history.insert(0, as_history(own.tables))
    return {"drawn": drawn, "fewest": fewest, "long": long_total, "max ms": max(cpu)}


def planned_season() -> int:
    """The social golfer schedule played in turn for `NIGHTS` nights: its repeats over a window
    of 5 (0, checked), after checking that its 6 weeks share no pair and seat everyone."""
    names = members(24)
    pairs = [pair for week in GOLFERS_6_4_6 for table in week for pair in combinations(table, 2)]
    assert len(pairs) == len(set(pairs)) == 6 * 6 * 6
    assert all(sorted(sum(week, ())) == list(range(24)) for week in GOLFERS_6_4_6)
    history: list[list[list[str]]] = []
    total = 0
    for night in range(NIGHTS):
        tables = [[names[player] for player in table] for table in GOLFERS_6_4_6[night % 6]]
        total += len(repeated_pairs(tables, history, WINDOW))
        history.insert(0, tables)
    return total


def season_rows(seasons: int, factor: int, seeds: int) -> list[dict[str, Any]]:
    rows = []
    for everyone in (True, False):
        label = "all 24 come" if everyone else "18-24 come"
        results = [
            season(comers(number, everyone), number, factor, seeds) for number in range(seasons)
        ]
        for number, result in enumerate(results):
            rows.append(season_row(label, str(number), result))
        total = {key: sum(result[key] for result in results) for key in ("drawn", "fewest", "long")}
        total["max ms"] = max(result["max ms"] for result in results)
        row = season_row(label, f"all {seasons}", total)
        if everyone:
            row["published schedule (6-4-6 in turn)"] = planned_season() * seasons
        rows.append(row)
    return rows


def season_row(label: str, number: str, result: dict[str, Any]) -> dict[str, Any]:
    drawn, fewest = result["drawn"], result["fewest"]
    met = drawn <= TARGET_RATIO * fewest
    return {
        "workload": f"{label}, {NIGHTS} nights, window {WINDOW}",
        "season": number,
        "draw: repeats": drawn,
        "fewest found night by night (long search, same history)": fewest,
        "ratio": f"{drawn / fewest:.2f}" if fewest else ("1.00" if not drawn else "inf"),
        "long search's own season": result["long"],
        "draw: max ms": f"{result['max ms']:.0f}",
        "target": "<= 1.10x the fewest found",
        "result": "met" if met else "MISSED",
    }


def main(quick: bool = False) -> list[dict[str, Any]]:
    draws = QUICK_DRAWS if quick else DRAWS
    rows = [timing_row(count, draws) for count in SIZES]
    if quick:
        return rows + season_rows(QUICK_SEASONS, QUICK_LONG_FACTOR, QUICK_LONG_SEEDS)
    return rows + season_rows(SEASONS, LONG_FACTOR, LONG_SEEDS)
