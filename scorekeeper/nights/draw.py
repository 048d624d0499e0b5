"""The seat draw of a club night: balanced table sizes within the rule set's range, pinned members
kept at their table, and the repeated pairs of the last nights counted.

A stand-in with the draw's interface (round-robin seating of the seeded shuffle); the search that
spreads pairings takes its place.
"""

from __future__ import annotations

import enum
import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# The table a contract rummy club prefers to seat: four, as the deals are written for.
PREFERRED = 4


class Problem(enum.Enum):
    TOO_FEW = "too_few"  # fewer players than one table's least
    NO_FIT = "no_fit"  # no balanced split fits the range
    PINNED = "pinned"  # a pinned table that the draw does not make, or that pins overfill


class DrawError(ValueError):
    """A draw that cannot be made; `code` says why."""

    def __init__(self, code: Problem, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Draw:
    tables: tuple[tuple[str, ...], ...]
    repeats: int
    seed: int


def table_sizes(players: int, least: int, most: int) -> tuple[int, ...]:
    """Balanced sizes within least..most, biggest first: 11 players at 3..8 -> (4, 4, 3)."""
    if players < least:
        raise DrawError(Problem.TOO_FEW, f"{players} players cannot fill a table of {least}")
    target = min(max(PREFERRED, least), most)
    count = max(1, math.ceil(players / target))
    while count > 1 and players // count < least:
        count -= 1
    while math.ceil(players / count) > most:
        count += 1
    if players // count < least or math.ceil(players / count) > most:
        raise DrawError(
            Problem.NO_FIT, f"{players} players do not split into tables of {least}-{most}"
        )
    small, extra = divmod(players, count)
    return tuple(small + 1 if table < extra else small for table in range(count))


def draw(
    players: Sequence[str],
    least: int,
    most: int,
    *,
    pinned: Mapping[str, int] = {},  # noqa: B006 - read only
    history: Sequence[Sequence[Sequence[str]]] = (),
    seed: int,
    window: int = 5,
) -> Draw:
    """Seat `players` (pinned ones at their table, numbered from 1) in balanced tables."""
    sizes = table_sizes(len(players), least, most)
    tables: list[list[str]] = [[] for _ in sizes]
    for name, number in pinned.items():
        if name not in players:
            continue
        if not 1 <= number <= len(sizes) or len(tables[number - 1]) >= sizes[number - 1]:
            raise DrawError(Problem.PINNED, f"{name} cannot sit at table {number}")
        tables[number - 1].append(name)
    rest = [name for name in players if name not in pinned]
    random.Random(seed).shuffle(rest)
    turn = itertools.cycle(range(len(sizes)))
    for name in rest:
        table = next(t for t in turn if len(tables[t]) < sizes[t])
        tables[table].append(name)
    return Draw(tuple(map(tuple, tables)), repeats(tables, history, window), seed)


def repeats(
    tables: Sequence[Sequence[str]], history: Sequence[Sequence[Sequence[str]]], window: int = 5
) -> int:
    """How many pairs at these tables sat together in the last `window` nights."""
    before = {
        frozenset(pair)
        for night in history[:window]
        for table in night
        for pair in itertools.combinations(table, 2)
    }
    return sum(
        frozenset(pair) in before for table in tables for pair in itertools.combinations(table, 2)
    )
