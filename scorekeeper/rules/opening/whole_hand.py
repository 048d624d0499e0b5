"""R5 Opening search, round 7: the whole hand split into 3 runs, no card left.

Every card is used, so every natural of a suit lies in that suit's runs. Each suit that holds
naturals gets 1-3 of the 3 runs; for each suit and run count, a depth-first search over runs
sorted by start position lists the joker counts for which the suit can be covered, checking
placement (`n[s][r] <= cells`), non-contiguity (R5) and the natural minimums (the min-cut
condition of search.py, with every natural placed). Branches die early: a natural below the next
run's start must already be covered, the cells no natural can fill (jokers) never exceed J, no
rank is short by more than the runs still to come, and the last run must reach every natural
still uncovered. Every suit but the last is listed in full; the last is searched only for the
(runs, jokers) the others leave, so that the jokers add up exactly to J, and stops at the first
match.
"""

from __future__ import annotations

from ..melds import HIGH_ACE, MIN_RUN
from .laid import runs_touch
from .search import INTERVAL_MASK, INTERVAL_RANKS, SUBSETS, Refusal, Run, Search, slot

# Every run a suit can hold (4+ positions), numbered by start then end, and for each the runs of
# its suit it would touch (R5's rule, as a bit mask over those numbers).
_RUNS = [
    (lo, hi)
    for lo in range(1, HIGH_ACE - MIN_RUN + 2)
    for hi in range(lo + MIN_RUN - 1, HIGH_ACE + 1)
]
_TOUCHING = [
    sum(1 << other for other, (lo2, hi2) in enumerate(_RUNS) if runs_touch(lo, hi, lo2, hi2))
    for lo, hi in _RUNS
]


def solve_whole(search: Search):
    """Round 7: ((3 runs with every card, {}), None), or (None, the `Refusal`)."""
    suits = [suit for suit in range(4) if search.mask[suit]]
    refusal = _cannot_split(search, suits)
    if refusal is not None:
        return None, refusal
    # Every suit but the last is listed in full; the last one is searched only for the
    # (runs, jokers) the others leave, and stops at the first match.
    suits.sort(key=lambda suit: search.mask[suit].bit_count())
    most = search.runs - (len(suits) - 1)
    covers = []
    reach = {(0, 0)}
    for suit in suits[:-1]:
        found = SuitCovers(search, suit, set(range(1, most + 1))).found()
        covers.append(found)
        reach = {
            (t0 + t, j0 + j)
            for t0, j0 in reach
            for t, by_jokers in found.items()
            for j in by_jokers
            if t0 + t < search.runs and j0 + j <= search.jokers
        }
        if not reach:
            return None, Refusal.WHOLE
    targets = {(search.runs - t, search.jokers - j) for t, j in reach}
    covers.append(SuitCovers(search, suits[-1], {t for t, _ in targets}, targets).found())
    found = _combine(suits, covers, search.runs, search.jokers)
    if found is None:
        return None, Refusal.WHOLE
    return ([Run.of(suit, lo, hi) for suit, lo, hi in found], {}), None


def early_refusal(search: Search) -> Refusal | None:
    """What refuses the hand before any run is tried (see `_cannot_split`)."""
    return _cannot_split(search, [suit for suit in range(4) if search.mask[suit]])


def _cannot_split(search: Search, suits: list[int]) -> Refusal | None:
    """What refuses the hand before any run is tried: no natural, too few naturals for the runs'
    minimums (R4), 4 suits for 3 runs, or a size no 3 runs of 4-14 cards can be (R5)."""
    if not suits:
        return Refusal.WHOLE
    if search.size - search.jokers < search.run_naturals * search.runs:
        return Refusal.NATURALS
    if len(suits) > search.runs:
        return Refusal.SUITS
    if search.size < MIN_RUN * search.runs or search.size > HIGH_ACE * search.runs:
        return Refusal.WHOLE
    return None


def _combine(suits, covers, runs, jokers):
    """One cover per suit whose runs and jokers add up to exactly `runs` and `jokers`, as
    (suit, lo, hi) intervals, or None."""

    def pick(index, runs_left, jokers_left, picked):
        if index == len(suits):
            return list(picked) if runs_left == 0 and jokers_left == 0 else None
        remaining_suits = len(suits) - index - 1
        for t in range(1, runs_left - remaining_suits + 1):
            for used, intervals in covers[index].get(t, {}).items():
                if used > jokers_left:
                    continue
                picked.extend((suits[index], lo, hi) for lo, hi in intervals)
                found = pick(index + 1, runs_left - t, jokers_left - used, picked)
                if found is not None:
                    return found
                del picked[len(picked) - t :]
        return None

    return pick(0, runs, jokers, [])


class SuitCovers:
    """The ways some runs of one suit hold every natural of that suit (R4 runs, R5 apart).

    `found()` gives {runs: {jokers: intervals}}: for each number of runs in `wanted`, the
    (lo, hi) intervals of one cover by the jokers it needs (at most J). With `targets`, a set of
    (runs, jokers), the search stops at the first cover that matches one of them.
    """

    def __init__(self, search: Search, suit: int, wanted, targets=None):
        count = search.count
        self.rn = rn = search.run_naturals
        self.jokers = max(j for _, j in targets) if targets else search.jokers
        self.targets = targets
        self.need = need = [count[slot(suit, rank)] for rank in range(14)]  # need[0] unused
        naturals = sum(need)
        # Every run needs its own run_naturals naturals of the suit.
        wanted = {t for t in wanted if rn * t <= naturals}
        self.result: dict[int, dict[int, tuple]] = {t: {} for t in wanted}
        self.most_runs = max(wanted) if wanted else 0
        self.cover = [0] * 14  # run cells per rank (an ace counts at 1 and at 14)
        self.chosen: list[tuple[int, int, tuple, int]] = []
        self.stop = False
        self.bits = search.mask[suit]
        self.naturals = naturals

    def _intervals(self) -> None:
        """The runs of the suit that could be laid: within the naturals and jokers, with enough
        naturals of the suit in reach, as (lo, hi, ranks, number in `_RUNS`), by start then end;
        `upto[g]`: intervals[:upto[g]] start at or below g."""
        rn, longest = self.rn, self.naturals + self.jokers
        bits = self.bits
        intervals = []
        upto = [0] * 16
        for number, (lo, hi) in enumerate(_RUNS):
            if hi - lo + 1 <= longest and (bits & INTERVAL_MASK[(lo, hi)]).bit_count() >= rn:
                intervals.append((lo, hi, INTERVAL_RANKS[(lo, hi)], number))
            upto[lo] = len(intervals)
        for lo in range(HIGH_ACE - MIN_RUN + 2, 16):
            upto[lo] = len(intervals)
        self.intervals = intervals
        self.upto = upto
        self.masks = [INTERVAL_MASK[(lo, hi)] for lo, hi, _, _ in intervals]

    def found(self) -> dict[int, dict[int, tuple[tuple[int, int], ...]]]:
        """{runs: {jokers: ((lo, hi), ...)}} (see the class)."""
        need = self.need
        # A rank held more times than there are runs cannot all go down (an ace may sit at
        # both ends of one run).
        most = self.most_runs
        if not most or any(need[rank] > most for rank in range(2, 14)) or need[1] > 2 * most:
            return {}
        self._intervals()
        self._walk(0, 0, 0)
        return {
            t: {j: tuple((lo, hi) for lo, hi, _, _ in found) for j, found in by.items()}
            for t, by in self.result.items()
        }

    def _minimums_ok(self) -> bool:
        """Every subset T of the chosen runs can hold run_naturals * |T| naturals (R4)."""
        need = self.need
        chosen = self.chosen
        for subset in SUBSETS[len(chosen)]:
            cells = [0] * 14
            for index in subset:
                for rank in chosen[index][2]:
                    cells[rank] += 1
            reach = sum(min(need[rank], cells[rank]) for rank in range(1, 14))
            if reach < self.rn * len(subset):
                return False
        return True

    def _uncovered(self):
        """The naturals not yet covered: the lowest and highest such rank (2..13), the largest
        shortfall, the aces short, and the positions still short as a bit mask."""
        need, cover = self.need, self.cover
        low, high, short, gaps = 15, 0, 0, 0
        for rank in range(2, 14):
            gap = need[rank] - cover[rank]
            if gap > 0:
                if low == 15:
                    low = rank
                high = rank
                gaps |= 1 << rank
                if gap > short:
                    short = gap
        aces = need[1] - cover[1]
        if aces > 0:
            gaps |= 2 | 1 << HIGH_ACE
        return low, high, short, aces, gaps

    def _record(self, extra: int) -> None:
        """Every natural is covered: keep this cover, and stop at a target's match."""
        placed = len(self.chosen)
        if placed in self.result and self._minimums_ok():
            self.result[placed].setdefault(extra, tuple(self.chosen))
            if self.targets is not None and (placed, extra) in self.targets:
                self.stop = True

    def _walk(self, start: int, extra: int, touching: int) -> None:
        """Add runs from intervals[start:] on; `extra` counts the run cells no natural of the
        suit can fill (jokers, at the least); `touching` marks the runs (by number in `_RUNS`)
        that would touch one already chosen, which R5 forbids."""
        low, high, short, aces, gaps = self._uncovered()
        if not gaps:
            self._record(extra)
            if self.stop:
                return
        chosen = self.chosen
        runs_left = self.most_runs - len(chosen)
        if runs_left == 0 or short > runs_left or aces > 2 * runs_left:
            return
        last = runs_left == 1
        budget = self.jokers - extra
        intervals, masks, cover = self.intervals, self.masks, self.cover
        # Runs come in order of their start, so the lowest uncovered natural must be reached by
        # the next run's start.
        for index in range(start, self.upto[low]):
            lo, hi, ranks, number = interval = intervals[index]
            if touching >> number & 1:
                continue
            if last and (hi < high or aces > (lo == 1) + (hi == HIGH_ACE)):
                continue
            added = len(ranks) - (masks[index] & gaps).bit_count()
            if aces == 1 and lo == 1 and hi == HIGH_ACE:
                added += 1  # one ace is short but the run has two ace cells
            if added > budget:
                continue
            for rank in ranks:
                cover[rank] += 1
            chosen.append(interval)
            self._walk(index, extra + added, touching | _TOUCHING[number])
            chosen.pop()
            for rank in ranks:
                cover[rank] -= 1
            if self.stop:
                return
