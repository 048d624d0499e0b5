"""The seat draw for a club night: how many tables of which sizes, and who sits where.

Pure Python, the standard library only; it answers in values and codes (`DrawError.code`, a
`Problem`), never in sentences, so the pages and the API say them in the reader's language.

**Sizes** (`table_sizes`). The sizes differ by at most one (11 players are 4 + 4 + 3, never 8 + 3)
and lie within the rule set's range. Among the numbers of tables that allow that, the draw takes
the one that seats the fewest players outside the sizes contract rummy plays best at, 4 to 5 a
table (`PREFERRED`, narrowed to the rule set's range when the range lies outside it: a 6-8 rule set
prefers 6), and on a tie the one with more, smaller tables: a smaller table plays its deals faster,
waits less for its slowest player, and seats fewer pairs together, so pairings spread further
(24 players are 6 tables of 4, not 5 + 5 + 5 + 5 + 4; 10 players are 5 + 5, not 4 + 3 + 3).
The tables are numbered largest first, except that a table with more members pinned to it than
the smaller size takes one of the larger sizes.

**Who sits where** (`draw`). Over the last `window` nights of `history` (newest first), a pair of
tonight's players who already sat at one table is a repeat. The draw minimises, in this order,
(1) the number of repeated pairs (`Draw.repeats`, counted plainly: a pair is one repeat however
often it met), then (2) how recent and how many those meetings were (a meeting last night weighs
`window`, one `window` nights ago weighs 1). Both are one integer cost: each repeat costs more than
every possible recency term together, so (2) only ever breaks ties of (1).

**The search**, in three steps; the first that answers seats the night.

1. *A planned run.* A night without a repeat for the same players night after night needs
   nights chosen so that the next ones still have one: five nights each without a repeat, each
   the best for its own night, almost never leave a sixth (24 players at six tables of 4: never,
   in 200 tries). So when the newest nights of the window seated exactly tonight's players at
   tonight's sizes (a run), the draw follows a plan of `window + 1` nights that share no pair (a
   social golfer schedule, `schedules.plan`): the plan's first night is laid over the run's oldest (its
   tables by size and names), and when the run's later nights are the plan's next ones, tonight
   is the plan's night after them, if it repeats no pair of the window and the pins fit it. Any
   `window + 1` nights in a row without a shared pair leave a night without a repeat for ever
   (the oldest of them), so once a run reaches that, step 2 always finds one. How a plan is
   built is `schedules`' (at most 0.4 s of CPU, once per sizes, then kept): there is one for 24
   to 64 players at tables of 4 and 5, but 27 and 29; for 19 to 23 the search finds none, and
   below 19 there is none (six nights without a shared pair need 18 partners for a player at
   tables of 4, 24 at tables of 5).
2. *A draw without a repeat* (but those the pins force), by a depth-first search over whole
   tables: the player with the fewest fresh partners left opens a table, filled with players
   none of whom met (bit masks, so a table is tried in microseconds); a table with pinned
   members is filled first. The players are taken in a random order, so seeds differ. When it
   finds one it is the best draw there is; then the draw looks ahead, since the next night's
   comers are unknown: of `CANDIDATES` such draws, the one after which the most of `SAMPLES`
   imagined next nights (each member seen in the window coming as often as they came) still
   have a draw without a repeat.
3. *Annealing*, when there is no draw without a repeat or the search spent half the budget:
   each start places the players one by one, in a random order, at the table where they add the
   least cost (a greedy start); simulated annealing then proposes random swaps of two unpinned
   players (a swap's change of cost worked out from the two tables alone), accepting every swap
   that does not raise the cost and a worse one with a probability that falls as the
   temperature cools from `HOT` to `COLD` repeats, and keeps the best draw seen; a last pass
   takes every improving swap until none is left (which settles the recency ties the cooling
   leaves). `RESTARTS` starts share what is left of the budget of steps, and stop early once
   no draw can be cheaper.
Local search over swaps, because the draw is the social golfer problem night by night, where
swaps of two players within a round are the moves known to work (Dotú and Van Hentenryck's tabu
search; Triska and Musliu's greedy starts); annealing rather than tabu lists, because random
proposals cost no scan of every pair of players. Every search has a budget of steps, not of
seconds, so that the same arguments give the same draw on any machine, however busy (the plan's
own budget is fixed, so keeping it changes no draw). Figures: bench/README.md, "Seat draw".

**Repeatable.** A draw is a function of its arguments: the players are taken in sorted order (the
order of check-in does not matter), every random choice comes from `random.Random(seed)`, never
the module `random`, and the budget is counted in steps. Anyone with the night's players, pins,
history and seed can draw it again and get the same tables (a dispute about fairness settled by
drawing again). Within a table the seats (in order round the table) are drawn too; the first
dealer is drawn elsewhere.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations
from types import MappingProxyType

from . import schedules

PREFERRED = (4, 5)  # the sizes contract rummy plays best at
WINDOW = 5  # nights of history that count
RESTARTS = 4
# The default budget of proposed swaps, all starts together: this many a player, within bounds.
STEPS_PER_PLAYER = 3_000
MIN_STEPS, MAX_STEPS = 4_000, 150_000
HOT = 0.6  # the temperature, in repeats, at a start's first step ...
COLD = 0.03  # ... and at its last


class Problem(Enum):
    """Why there is no draw; `DrawError.values` holds the figures to say it with."""

    BAD_RANGE = "draw.bad_range"  # least, most: least < 1 or least > most
    TOO_FEW_PLAYERS = "draw.too_few_players"  # players, least
    NO_SPLIT = "draw.no_split"  # players, least, most: no balanced sizes fit the range
    DUPLICATE_PLAYER = "draw.duplicate_player"  # name
    PINNED_NOT_PLAYING = "draw.pinned_not_playing"  # name
    PINNED_TABLE = "draw.pinned_table"  # name, table, tables: no such table tonight
    TABLE_FULL = "draw.table_full"  # table, pinned, size: more pinned than seats
    BAD_WINDOW = "draw.bad_window"  # window
    BAD_STEPS = "draw.bad_steps"  # steps, restarts: a negative budget or no start


class DrawError(ValueError):
    """No draw for these arguments: `code` says why, `values` the figures (names, counts)."""

    def __init__(self, code: Problem, **values: object) -> None:
        self.code = code
        self.values = MappingProxyType(dict(values))
        super().__init__(code.value, dict(values))


@dataclass(frozen=True)
class Draw:
    """A night's tables: table 1 first, each table's players in seat order."""

    tables: tuple[tuple[str, ...], ...]
    repeats: int  # pairs sitting together tonight who sat together in the window
    seed: int
    # The repeated pairs themselves, each pair's names in sorted order, the pairs sorted.
    repeated: tuple[tuple[str, str], ...] = field(default=())

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(table) for table in self.tables)

    def table_of(self, name: str) -> int:
        """The (1-based) number of the table `name` sits at."""
        for number, table in enumerate(self.tables, 1):
            if name in table:
                return number
        raise KeyError(name)


# Sizes --------------------------------------------------------------------------------------


def _check_range(least: int, most: int) -> None:
    if least < 1 or least > most:
        raise DrawError(Problem.BAD_RANGE, least=least, most=most)


def _balanced(players: int, tables: int) -> tuple[int, ...]:
    small, larger = divmod(players, tables)
    return (small + 1,) * larger + (small,) * (tables - larger)


def _preferred(least: int, most: int) -> tuple[int, int]:
    low = min(max(PREFERRED[0], least), most)
    return low, max(min(PREFERRED[1], most), low)


def _outside(sizes: Iterable[int], preferred: tuple[int, int]) -> int:
    """Seats outside the preferred sizes: a table of 7 when 4-5 is preferred counts 2."""
    low, high = preferred
    return sum(max(low - size, 0, size - high) for size in sizes)


def table_sizes(players: int, least: int, most: int) -> tuple[int, ...]:
    """The sizes of tonight's tables, largest first (see the module's docstring for the rule).

    The sizes differ by at most one and lie within [least, most]; among the numbers of tables
    that allow it, the one seating the fewest players outside 4-5 a table (`PREFERRED`, narrowed
    to the range), and on a tie the one with more tables. 11 players, 3-8: (4, 4, 3); 24: six
    4s; 10: (5, 5); 6: (6,); 7: (4, 3). Raises `DrawError` (`BAD_RANGE`, `TOO_FEW_PLAYERS`,
    `NO_SPLIT`, e.g. 7 players at tables of exactly 5)."""
    _check_range(least, most)
    if players < least:
        raise DrawError(Problem.TOO_FEW_PLAYERS, players=players, least=least)
    preferred = _preferred(least, most)
    fits = [
        _balanced(players, tables)
        for tables in range(-(-players // most), players // least + 1)
        if least <= players // tables and -(-players // tables) <= most
    ]
    if not fits:
        raise DrawError(Problem.NO_SPLIT, players=players, least=least, most=most)
    return min(fits, key=lambda sizes: (_outside(sizes, preferred), -len(sizes)))


# Counting repeats ---------------------------------------------------------------------------


def _met(
    history: Sequence[Sequence[Sequence[str]]], window: int
) -> dict[frozenset[str], list[int]]:
    """Each pair that sat together in the window: the ages (0 = the newest night) it met at."""
    met: dict[frozenset[str], list[int]] = {}
    for age, night in enumerate(tuple(history)[:window]):
        for table in night:
            for first, second in combinations(dict.fromkeys(table), 2):
                met.setdefault(frozenset((first, second)), []).append(age)
    return met


def repeated_pairs(
    tables: Sequence[Sequence[str]],
    history: Sequence[Sequence[Sequence[str]]],
    window: int = WINDOW,
) -> tuple[tuple[str, str], ...]:
    """The pairs seated together at `tables` who sat together in the last `window` nights of
    `history` (newest first), each pair sorted, the pairs sorted."""
    met = _met(history, window)
    return tuple(
        sorted(
            tuple(sorted(pair))
            for table in tables
            for pair in combinations(table, 2)
            if frozenset(pair) in met
        )
    )


# The draw -----------------------------------------------------------------------------------


def _check_players(players: Sequence[str]) -> list[str]:
    names = sorted(players)
    for first, second in zip(names, names[1:], strict=False):
        if first == second:
            raise DrawError(Problem.DUPLICATE_PLAYER, name=first)
    return names


def _check_pins(pinned: Mapping[str, int], names: Sequence[str], tables: int) -> None:
    playing = set(names)
    for name in sorted(pinned):
        if name not in playing:
            raise DrawError(Problem.PINNED_NOT_PLAYING, name=name)
        table = pinned[name]
        if not 1 <= table <= tables:
            raise DrawError(Problem.PINNED_TABLE, name=name, table=table, tables=tables)


def _sizes_for_pins(sizes: tuple[int, ...], pinned: Mapping[str, int]) -> tuple[int, ...]:
    """The balanced sizes given to the tables: largest first, except that a table with more
    pinned members than the smaller size takes a larger one."""
    counts = [0] * len(sizes)
    for table in pinned.values():
        counts[table - 1] += 1
    small, large = sizes[-1], sizes[0]
    needing = [number for number, count in enumerate(counts) if count > small]
    for number in needing:
        if counts[number] > large:
            raise DrawError(Problem.TABLE_FULL, table=number + 1, pinned=counts[number], size=large)
    larger = sizes.count(large) if large > small else len(sizes)
    if len(needing) > larger:
        number = needing[larger]
        raise DrawError(Problem.TABLE_FULL, table=number + 1, pinned=counts[number], size=small)
    chosen = needing + [n for n in range(len(sizes)) if n not in needing][: larger - len(needing)]
    return tuple(large if number in chosen else small for number in range(len(sizes)))


def _weights(names: Sequence[str], met: Mapping[frozenset[str], list[int]], window: int):
    """The cost of seating each pair together: a repeat is worth more than every recency term
    of the night together (`unit`); the recency term is `window - age` for each meeting."""
    index = {name: number for number, name in enumerate(names)}
    recency = {}
    for pair, ages in met.items():
        if pair <= index.keys():
            first, second = (index[name] for name in pair)
            recency[first, second] = sum(window - age for age in ages)
    unit = sum(recency.values()) + 1
    weights = [[0] * len(names) for _ in names]
    for (first, second), term in recency.items():
        weights[first][second] = weights[second][first] = unit + term
    return weights, unit


class _Search:
    """Simulated annealing over swaps of two unpinned players (see the module's docstring)."""

    def __init__(self, weights, unit, sizes, pins, rng):
        self.weights = weights
        self.unit = unit
        self.sizes = sizes
        self.pins = pins  # player index -> table index
        self.free = [player for player in range(len(weights)) if player not in pins]
        self.rng = rng
        self.floor = self._forced()

    def _forced(self) -> int:
        """The cost of the pairs the pins put together: no draw costs less."""
        pinned = sorted(self.pins)
        return sum(
            self.weights[a][b] for a, b in combinations(pinned, 2) if self.pins[a] == self.pins[b]
        )

    def _joins(self, player: int, table: list[int]) -> int:
        row = self.weights[player]
        return sum(row[other] for other in table)

    def greedy(self) -> list[list[int]]:
        """Pinned players at their tables, then the others in a random order, each at the open
        table they add the least cost to (the first such table)."""
        tables: list[list[int]] = [[] for _ in self.sizes]
        for player in sorted(self.pins):
            tables[self.pins[player]].append(player)
        order = self.free[:]
        self.rng.shuffle(order)
        for player in order:
            open_tables = [n for n, table in enumerate(tables) if len(table) < self.sizes[n]]
            best = min(open_tables, key=lambda n: self._joins(player, tables[n]))
            tables[best].append(player)
        return tables

    def cost(self, tables: list[list[int]]) -> int:
        return sum(self.weights[a][b] for table in tables for a, b in combinations(table, 2))

    def _delta(self, tables, seat, a, b) -> int:
        """The change of cost if players `a` and `b` (at different tables) change places."""
        first, second = tables[seat[a]], tables[seat[b]]
        between = self.weights[a][b]
        return (
            self._joins(a, second)
            - self._joins(a, first)
            + self._joins(b, first)
            - self._joins(b, second)
            - 2 * between
        )

    @staticmethod
    def _swap(tables, seat, a, b) -> None:
        first, second = seat[a], seat[b]
        tables[first][tables[first].index(a)] = b
        tables[second][tables[second].index(b)] = a
        seat[a], seat[b] = second, first

    def anneal(self, tables: list[list[int]], steps: int) -> tuple[int, list[list[int]]]:
        """`steps` proposed swaps from `tables`; the cheapest tables seen and their cost."""
        seat = {player: n for n, table in enumerate(tables) for player in table}
        cost = self.cost(tables)
        best, best_tables = cost, [table[:] for table in tables]
        free, rng = self.free, self.rng
        cooling = (COLD / HOT) ** (1 / max(steps - 1, 1))
        temperature = HOT * self.unit
        for _ in range(steps):
            if best == self.floor:
                break
            a, b = rng.sample(free, 2)
            temperature *= cooling
            if seat[a] == seat[b]:
                continue
            delta = self._delta(tables, seat, a, b)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                self._swap(tables, seat, a, b)
                cost += delta
                if cost < best:
                    best, best_tables = cost, [table[:] for table in tables]
        return best, best_tables

    def descend(self, tables: list[list[int]]) -> list[list[int]]:
        """Every improving swap, in order, until none is left."""
        seat = {player: n for n, table in enumerate(tables) for player in table}
        improved = True
        while improved:
            improved = False
            for a, b in combinations(self.free, 2):
                if seat[a] != seat[b] and self._delta(tables, seat, a, b) < 0:
                    self._swap(tables, seat, a, b)
                    improved = True
        return tables

    def run(self, steps: int, restarts: int) -> list[list[int]]:
        best, best_tables = None, None
        for start in range(restarts):
            share = steps // restarts + (start < steps % restarts)
            cost, tables = self.anneal(self.greedy(), share if len(self.free) > 1 else 0)
            if best is None or cost < best:
                best, best_tables = cost, tables
            if best == self.floor:
                break
        return self.descend(best_tables)


# Draws without a repeat ----------------------------------------------------------------------


class _OutOfSteps(Exception):
    """The search without repeats spent its budget."""


def _fresh(count: int, met: Mapping[frozenset[str], list[int]], index: Mapping[str, int]):
    """Each player's partners who did not meet them in the window, as bit masks."""
    everyone = (1 << count) - 1
    fresh = [everyone & ~(1 << player) for player in range(count)]
    for pair in met:
        if pair <= index.keys():
            first, second = (index[name] for name in pair)
            fresh[first] &= ~(1 << second)
            fresh[second] &= ~(1 << first)
    return fresh


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Clean:
    """A draw whose only repeats are the pairs the pins force together, by a depth-first search
    over whole tables (see the module's docstring); None when it has none or runs out of
    steps. The players are taken in a random order, so different seeds find different draws."""

    def __init__(self, fresh, sizes, pins, rng, steps):
        order = list(range(len(fresh)))
        rng.shuffle(order)
        self.player = order  # search position -> player
        position = {player: place for place, player in enumerate(order)}
        self.fresh = [sum(1 << position[o] for o in _bits(fresh[p])) for p in order]
        self.sizes = sizes
        self.members = [0] * len(sizes)
        for player, table in pins.items():
            self.members[table] |= 1 << position[player]
        self.steps = steps

    def search(self) -> list[list[int]] | None:
        seated = 0
        for members in self.members:
            seated |= members
        try:
            found = self._fill(((1 << len(self.fresh)) - 1) & ~seated)
        except _OutOfSteps:
            return None
        if found is None:
            return None
        return [sorted(self.player[place] for place in _bits(table)) for table in found]

    def _cliques(self, pool: int, size: int) -> Iterable[int]:
        """Every set of `size` players from `pool` of whom no two met, as a mask."""
        if not size:
            yield 0
            return
        while pool.bit_count() >= size:
            low = pool & -pool
            pool ^= low
            for rest in self._cliques(pool & self.fresh[low.bit_length() - 1], size - 1):
                yield low | rest

    def _choices(self, unplaced: int) -> list[tuple[int, int, int, int]]:
        """Where the search branches: (table, who is placed, the pool, how many to add). A table
        that is partly seated (by pins) is filled first; otherwise the player with the fewest
        fresh partners left opens an empty table, one of each size."""
        members, sizes, fresh = self.members, self.sizes, self.fresh
        for table, seated in enumerate(members):
            if seated and seated.bit_count() < sizes[table]:
                pool = unplaced
                for place in _bits(seated):
                    pool &= fresh[place]
                return [(table, 0, pool, sizes[table] - seated.bit_count())]
        player = min(_bits(unplaced), key=lambda place: (fresh[place] & unplaced).bit_count())
        pool = fresh[player] & unplaced
        choices, sizes_seen = [], set()
        for table, seated in enumerate(members):
            if not seated and sizes[table] not in sizes_seen:
                sizes_seen.add(sizes[table])
                choices.append((table, 1 << player, pool, sizes[table] - 1))
        return choices

    def _fill(self, unplaced: int) -> list[int] | None:
        if not unplaced:
            return list(self.members)
        for table, opener, pool, size in self._choices(unplaced):
            before = self.members[table]
            for clique in self._cliques(pool, size):
                self.steps -= 1
                if self.steps < 0:
                    raise _OutOfSteps
                self.members[table] = before | opener | clique
                found = self._fill(unplaced & ~(opener | clique))
                if found is not None:
                    return found
            self.members[table] = before
        return None


# A planned run of nights ---------------------------------------------------------------------


def _numbered(tables, sizes, pinned: Mapping[str, int]) -> list[list[str]] | None:
    """`tables` given the numbers their pinned members are pinned to and sizes that fit, or
    None if the pins do not allow it."""
    numbered: list[list[str] | None] = [None] * len(sizes)
    rest = []
    for table in tables:
        numbers = {pinned[name] - 1 for name in table if name in pinned}
        if len(numbers) > 1:
            return None
        if not numbers:
            rest.append(table)
            continue
        number = numbers.pop()
        if numbered[number] is not None or sizes[number] != len(table):
            return None
        numbered[number] = table
    for table in sorted(rest, key=len, reverse=True):
        number = next(n for n, seated in enumerate(numbered) if seated is None)
        if sizes[number] != len(table):
            return None
        numbered[number] = table
    return numbered


def _planned(names, sizes, history, window: int, met, pinned) -> list[list[str]] | None:
    """Tonight as the next night of a planned run (see the module's docstring), or None."""
    run = schedules.run_of(history, window, names, sizes)
    if not run or len(run) >= window + 1:
        return None
    plan = schedules.plan(tuple(sorted(sizes, reverse=True)), window + 1)
    if plan is None:
        return None
    for length in range(len(run), 0, -1):
        tonight = schedules.follow(plan, run[:length])
        if tonight is None:
            continue
        if any(frozenset(p) in met for table in tonight for p in combinations(table, 2)):
            continue
        numbered = _numbered(tonight, sizes, pinned)
        if numbered is not None:
            return numbered
    return None


def _searched(names, sizes, pinned, met, window, rng, budget, restarts, ahead) -> list[list[str]]:
    """The fewest repeats the searches find: first a draw without a repeat (but those the pins
    force), with at most half the budget; failing that, annealing with what is left."""
    index = {name: number for number, name in enumerate(names)}
    pins = {index[name]: table - 1 for name, table in pinned.items()}
    fresh = _fresh(len(names), met, index)
    clean = _Clean(fresh, sizes, pins, rng, budget // 2)
    found = clean.search()
    if found is not None and ahead is not None:
        found = _ahead(found, names, sizes, pins, fresh, ahead, rng)
    if found is None:
        weights, unit = _weights(names, met, window)
        left = budget - budget // 2 + max(clean.steps, 0)
        found = _Search(weights, unit, sizes, pins, rng).run(left, restarts)
    return [[names[player] for player in table] for table in found]


CANDIDATES = 8  # draws without a repeat weighed against each other by the look-ahead
SAMPLES = 16  # the next nights it imagines
SAMPLE_STEPS = 300  # the budget of each search it makes (a candidate: four times as many)


class _Ahead:
    """The next night as the look-ahead imagines it: every member seen in the window or
    tonight comes with the share of those nights they came to; the pairs that stay blocked
    then are tonight's and those of the window's newest `window - 1` nights."""

    def __init__(self, names, history, window: int, least: int, most: int) -> None:
        nights = tuple(history)[:window]
        came = [set(names)] + [{name for table in night for name in table} for night in nights]
        self.members = sorted(set().union(*came))
        self.share = {
            member: sum(member in night for night in came) / len(came) for member in self.members
        }
        self.kept = _met(nights[: window - 1], window) if window else {}
        self.range = least, most

    def samples(self, rng: random.Random) -> list[tuple[list[str], list[int]]]:
        """`SAMPLES` imagined nights: who comes and the sizes of their tables (none where they
        cannot be seated)."""
        found = []
        for _ in range(SAMPLES):
            came = [member for member in self.members if rng.random() < self.share[member]]
            try:
                found.append((came, list(table_sizes(len(came), *self.range))))
            except DrawError:
                continue
        return found

    def clean_nights(self, tonight: list[list[str]], samples) -> int:
        """How many of the imagined nights have a draw without a repeat after `tonight`."""
        met = dict(self.kept)
        met.update(dict.fromkeys(_met([tonight], 1), [0]))
        clean = 0
        for came, sizes in samples:
            index = {name: number for number, name in enumerate(came)}
            fresh = _fresh(len(came), met, index)
            search = _Clean(fresh, sizes, {}, random.Random(len(came)), SAMPLE_STEPS)
            clean += search.search() is not None
        return clean


def _ahead(found, names, sizes, pins, fresh, ahead: _Ahead, rng) -> list[list[int]]:
    """Of `CANDIDATES` draws without a repeat (`found` and others the search finds from other
    random orders), the one after which most imagined next nights have a draw without a repeat
    too (the first on a tie)."""
    candidates = [found]
    for _ in range(CANDIDATES - 1):
        other = _Clean(fresh, sizes, pins, rng, 4 * SAMPLE_STEPS).search()
        if other is not None:
            candidates.append(other)
    samples = ahead.samples(rng)
    scores = [
        ahead.clean_nights([[names[player] for player in table] for table in candidate], samples)
        for candidate in candidates
    ]
    return candidates[scores.index(max(scores))]


def default_steps(players: int) -> int:
    """The search's budget of proposed swaps for a night of `players`."""
    return min(max(MIN_STEPS, STEPS_PER_PLAYER * players), MAX_STEPS)


def draw(
    players: Sequence[str],
    least: int,
    most: int,
    *,
    pinned: Mapping[str, int] = MappingProxyType({}),
    history: Sequence[Sequence[Sequence[str]]] = (),
    seed: int,
    window: int = WINDOW,
    steps: int | None = None,
    restarts: int = RESTARTS,
) -> Draw:
    """Tonight's tables for `players` (the checked-in names, unique) under a rule set seating
    `least` to `most` a table.

    `pinned`: name -> table number (1-based) for members who must sit at that table. `history`:
    earlier nights, newest first, each a list of tables (lists of names; names not playing
    tonight are ignored); only the last `window` count. `steps` (default `default_steps`) and
    `restarts` bound the search. The same arguments give the same `Draw`; see the module's
    docstring for the sizes, the cost and the search. Raises `DrawError`."""
    if window < 0:
        raise DrawError(Problem.BAD_WINDOW, window=window)
    names = _check_players(players)
    sizes = table_sizes(len(names), least, most)
    _check_pins(pinned, names, len(sizes))
    sizes = _sizes_for_pins(sizes, pinned)
    budget = default_steps(len(names)) if steps is None else steps
    if budget < 0 or restarts < 1:
        raise DrawError(Problem.BAD_STEPS, steps=budget, restarts=restarts)
    rng = random.Random(seed)
    met = _met(history, window)
    found = _planned(names, sizes, history, window, met, pinned)
    if found is None:
        ahead = _Ahead(names, history, window, least, most)
        found = _searched(names, sizes, pinned, met, window, rng, budget, restarts, ahead)
    tables = []
    for table in found:
        seats = sorted(table)
        rng.shuffle(seats)
        tables.append(tuple(seats))
    repeated = repeated_pairs(tables, history, window)
    return Draw(tables=tuple(tables), repeats=len(repeated), seed=seed, repeated=repeated)
