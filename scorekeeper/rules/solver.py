"""R5 Opening search: can this hand go down, and how?

`solve_opening(hand, round_number, profile, players)` answers for the cards held after the draw:
rounds 1-6 look for the round's contract inside the hand with at least one card kept for the
discard; round 7 looks for a split of the whole hand into 3 runs. The answer is exact (never a
wrong "no", never an illegal "yes") and fast enough to run on every tap: the search works on
card counts, never on physical cards, and only the arrangement it finally returns is made of
real cards.

How the search works
--------------------
The hand becomes counts: `n[s][r]` copies of each natural (suit s, rank r), `N[r]` naturals of
each rank, and `J` jokers. Run positions are 1..14 (an ace sits at 1 or 14; nothing wraps).

Rounds 1-6. The runs are chosen first, as intervals (suit, lo, hi); for a fixed choice of run
intervals the rest is decided by counting, exactly:

* Sets never need more than 3 cards. In a profile with "3+" sets, a bigger set can drop a joker
  (or, with no joker, a natural: it keeps >= 3 >= set_naturals naturals) and stay legal; the card
  goes back to the hand, which only helps the discard. So every set is 3 cards.
* For a fixed choice of runs and of `k[r]` sets of each rank r, give naturals to run cells as far
  as the sets' minimum allows: rank r may lend at most `cap[r] = N[r] - set_naturals * k[r]` of its
  naturals to runs. Every natural moved from a set to a run saves that run a joker and costs the
  set at most one, so using as many naturals in runs as allowed never hurts. With
  `M[r] = sum over suits of min(n[s][r], run cells of (s, r))` and `a[r] = N[r] - M[r]`, the
  jokers needed are `sum(run cells) - sum(M) + sum over r of max(0, 3 k[r] - a[r])`, subject to
  `set_naturals * k[r] <= N[r]` (a set can always take back naturals a run would have used).
  That cost is convex in each k[r], so the cheapest k is taken greedily from per-rank marginals.
* Each run needs `run_naturals` naturals. Naturals flow rank -> (suit, rank) -> run cell, so this
  is a flow with lower bounds; by max-flow/min-cut it is feasible iff for every non-empty subset T
  of the runs, `sum over r of min(cap[r], sum over suits of min(n[s][r], cells of T at (s, r)))`
  is at least `run_naturals * |T|` (the cut of a tree-shaped rank subtree is the smaller of its
  root edge and its leaves). A flow meeting the minimums can then be augmented to a maximum flow
  without lowering any run's count (an augmenting path only ever increases a run->sink edge), so
  the joker count above and the minimums hold together. When the greedy k fails that check, every
  k within the joker budget is tried (at most 2 sets are in play when there is a run, so this is
  small).

Which run intervals are tried. In "exactly 4" profiles: every 4-card window. In "4+" profiles a
longer run is only ever needed in a special shape. Take any legal opening and trim runs while
legal (drop an end card back into the hand: the run still has >= 4 cards, enough naturals, and
no new contiguity). In a fully trimmed opening, a run longer than 4 has each end blocked: either
the end card is natural and the run has exactly `run_naturals` naturals (so it uses
`L - run_naturals` jokers, hence `L <= J + run_naturals`), or trimming would make it touch another
run of its suit, which needs that run to end exactly on this end's position. With at most two
runs in rounds 1-6 at most one end can be blocked the second way. So a run of 5+ cards is tried
only if `L <= J + run_naturals`, with a natural available at both ends (one run: both ends must
be natural-blocked, which also needs `run_naturals >= 2`) or at one end while the other run of
its suit overlaps it on exactly that other end position. (family: `5♠ JK 7♠ JK 9♠`.)
Two runs are tried as pairs of intervals that each fit alone with the sets; a pair needs at least
the jokers each run needs on its own plus what the sets need with every natural to themselves
(run cells only add demand, sets only lose naturals), so pairs over that budget are skipped.

Round 7. Every card is used, so every natural of a suit lies in that suit's runs. Each suit that
holds naturals gets 1-3 of the 3 runs; for each suit and run count, a depth-first search over
runs sorted by start position lists the joker counts for which the suit can be covered, checking
placement (`n[s][r] <= cells`), non-contiguity and the natural minimums (the same min-cut
condition, with every natural placed). Branches die early: a natural below the next run's start
must already be covered, the cells no natural can fill (jokers) never exceed J, no rank is short
by more than the runs still to come, and the last run must reach every natural still uncovered.
Every suit but the last is listed in full; the last is searched only for the (runs, jokers) the
others leave, so that the jokers add up exactly to J, and stops at the first match.

Only the final arrangement is realised as cards: a small max-flow places naturals in run cells
(minimums first, then as many as possible), the sets take the remaining naturals of their rank,
and jokers fill every other place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

from .cards import SUIT_SYMBOLS, SUITS, Card, check_copies, parse_cards, rank_name
from .contracts import CONTRACTS, Contract, contract
from .errors import CopyLimitError, RulesError, SizeError
from .melds import HIGH_ACE, MIN_RUN, MIN_SET, RUN, SET, naturals_needed_text, rank_at
from .profiles import Profile, get_profile
from .verdict import Problem, Verdict

# The most cards a hand may hold for the search: a hand after several purchases fits easily.
HAND_LIMIT = 30

RULE = "R5"

_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def _key(suit: int, rank: int) -> int:
    """A (suit, rank) count slot: suit * 16 + rank."""
    return (suit << 4) | rank


_RANKS = frozenset(range(1, 14))
_SHORT = {deal.round: deal.short() for deal in CONTRACTS}
# Canonical text of each (suit, rank) count slot.
_TEXT = {
    _key(suit, rank): rank_name(rank) + SUIT_SYMBOLS[SUITS[suit]]
    for suit in range(4)
    for rank in range(1, 14)
}

# Run cells of every interval: (lo, hi) -> tuple of (suit-less) ranks, ace counted per position.
_INTERVAL_RANKS = {
    (lo, hi): tuple(rank_at(p) for p in range(lo, hi + 1))
    for lo in range(1, HIGH_ACE + 1)
    for hi in range(lo, HIGH_ACE + 1)
}
_INTERVAL_MASK = {(lo, hi): sum(1 << p for p in range(lo, hi + 1)) for (lo, hi) in _INTERVAL_RANKS}
_SUBSETS = {
    size: [subset for width in range(1, size + 1) for subset in combinations(range(size), width)]
    for size in range(1, 4)
}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _touch(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    """Two runs of one suit are contiguous: one ends at p and the other starts at p + 1 (R5)."""
    return a[0] == b[0] and (a[2] + 1 == b[1] or b[2] + 1 == a[1])


class _Search:
    """The counts of one hand and the search for one contract."""

    __slots__ = (
        "count",
        "rank_total",
        "jokers",
        "size",
        "texts",
        "sets",
        "runs",
        "set_naturals",
        "run_naturals",
        "exact",
        "whole",
        "mask",
        "_base",
    )

    def __init__(self, cards: list[Card], deal: Contract, profile: Profile, packs, joker_limit):
        """Count the hand in one pass, refusing what cannot be judged (R1)."""
        count = [0] * 64
        rank_total = [0] * 14
        mask = [0, 0, 0, 0]
        texts = []
        jokers = 0
        too_many = False
        suit_index = _SUIT_INDEX
        for position, card in enumerate(cards, start=1):
            if card.__class__ is not Card and not isinstance(card, Card):
                raise RulesError(f"card {position} ({card!r}) is not a card")
            if card.joker:
                jokers += 1
                texts.append("JK")
                continue
            suit = suit_index.get(card.suit)
            rank = card.rank
            if suit is None or rank not in _RANKS:
                why = "has no suit" if card.suit is None else "is not a card"
                raise RulesError(f"'{card}' (card {position}) {why}: a hand holds cards like 7♠")
            key = suit << 4 | rank
            count[key] += 1
            if count[key] > packs:
                too_many = True
            rank_total[rank] += 1
            mask[suit] |= 1 << rank
            texts.append(_TEXT[key])
        if too_many or jokers > joker_limit:
            check_copies(cards, packs, joker_limit)  # raises CopyLimitError with its message
            raise CopyLimitError("more copies than the packs hold")  # pragma: no cover
        for suit in range(4):  # Bit p (1..14) of mask[s]: suit s holds the card for position p.
            if mask[suit] & 2:
                mask[suit] |= 1 << HIGH_ACE
        self.count = count
        self.rank_total = rank_total
        self.mask = mask
        self.texts = texts
        self.jokers = jokers
        self.size = len(cards)
        self.sets = deal.sets
        self.runs = deal.runs
        self.whole = deal.whole_hand
        self.set_naturals = profile.set_naturals
        self.run_naturals = profile.run_naturals
        self.exact = profile.exact_opening and not deal.whole_hand
        self._base = None

    @property
    def base_marginals(self):
        """The set marginals with every natural free (see `_marginals`), worked out once."""
        if self._base is None:
            self._base = self._marginals(range(1, 14), None)
        return self._base

    # ----- sets --------------------------------------------------------------------------------

    def _marginals(self, ranks, used):
        """(extra jokers, j, rank) for the j-th set of each rank, cheapest first.

        `used[r]` naturals of rank r are taken by runs at best (M[r]); a set may still claim them
        back down to its natural minimum, so feasibility is `set_naturals * j <= N[r]`.
        """
        out = []
        sets = self.sets
        sn = self.set_naturals
        for rank in ranks:
            total = self.rank_total[rank]
            spare = total - (used[rank] if used else 0)
            before = 0
            for j in range(1, sets + 1):
                if sn * j > total:
                    break
                cost = 3 * j - spare
                cost = cost if cost > 0 else 0
                out.append((cost - before, j, rank))
                before = cost
        out.sort()
        return out

    def _cheapest_sets(self, used, touched):
        """The greedy choice of sets (k by rank) and its joker cost, or None if too few exist."""
        sets = self.sets
        picks = []
        for item in self.base_marginals:
            if item[2] not in touched:
                picks.append(item)
                if len(picks) == sets:
                    break
        if touched:
            picks.extend(self._marginals(touched, used))
            picks.sort()
        if len(picks) < sets:
            return None
        cost = 0
        ks: dict[int, int] = {}
        for extra, _j, rank in picks[:sets]:
            cost += extra
            ks[rank] = ks.get(rank, 0) + 1
        return cost, ks

    def _all_set_choices(self, used, budget):
        """Every k (rank -> number of sets) whose joker cost fits the budget."""
        options = []
        sn = self.set_naturals
        for rank in range(1, 14):
            total = self.rank_total[rank]
            spare = total - used[rank]
            costs = []
            for j in range(1, self.sets + 1):
                if sn * j > total:
                    break
                costs.append((j, max(0, 3 * j - spare)))
            if costs:
                options.append((rank, costs))
        found = []

        def walk(index, left, cost, ks):
            if left == 0:
                found.append(dict(ks))
                return
            for position in range(index, len(options)):
                rank, costs = options[position]
                for j, extra in costs:
                    if j > left or cost + extra > budget:
                        break
                    ks[rank] = j
                    walk(position + 1, left - j, cost + extra, ks)
                    del ks[rank]

        walk(0, self.sets, 0, {})
        return found

    # ----- runs --------------------------------------------------------------------------------

    def _run_naturals_ok(self, cells_by_run, ks) -> bool:
        """The min-cut test: every subset T of runs can get run_naturals * |T| naturals."""
        rn = self.run_naturals
        count = self.count
        sn = self.set_naturals
        for subset in _SUBSETS[len(cells_by_run)]:
            merged: dict[int, int] = {}
            for index in subset:
                for key, cells in cells_by_run[index].items():
                    merged[key] = merged.get(key, 0) + cells
            by_rank: dict[int, int] = {}
            for key, cells in merged.items():
                have = count[key]
                rank = key & 15
                by_rank[rank] = by_rank.get(rank, 0) + (cells if cells < have else have)
            reach = 0
            for rank, value in by_rank.items():
                cap = self.rank_total[rank] - sn * ks.get(rank, 0)
                reach += value if value < cap else cap
            if reach < rn * len(subset):
                return False
        return True

    def _fit(self, chosen):
        """Sets k for these run intervals (rounds 1-6), or None if they cannot all be made."""
        cells_by_run = [run[3] for run in chosen]
        cells: dict[int, int] = {}
        for run_cells in cells_by_run:
            for key, number in run_cells.items():
                cells[key] = cells.get(key, 0) + number
        count = self.count
        used = [0] * 14
        run_jokers = 0
        for key, number in cells.items():
            have = count[key]
            take = number if number < have else have
            run_jokers += number - take
            used[key & 15] += take
        if run_jokers > self.jokers:
            return None
        budget = self.jokers - run_jokers
        if not self.sets:
            return {} if self._run_naturals_ok(cells_by_run, {}) else None
        touched = [rank for rank in range(1, 14) if used[rank]]
        cheapest = self._cheapest_sets(used, set(touched))
        if cheapest is None or cheapest[0] > budget:
            return None
        ks = cheapest[1]
        if self._run_naturals_ok(cells_by_run, ks):
            return ks
        if not self._run_naturals_ok(cells_by_run, {}):
            return None
        for ks in self._all_set_choices(used, budget):
            if self._run_naturals_ok(cells_by_run, ks):
                return ks
        return None

    def _interval_cells(self, suit, lo, hi):
        cells: dict[int, int] = {}
        for rank in _INTERVAL_RANKS[(lo, hi)]:
            key = _key(suit, rank)
            cells[key] = cells.get(key, 0) + 1
        return cells

    def _naturals_within(self, suit, cells) -> int:
        count = self.count
        return sum(min(count[key], number) for key, number in cells.items())

    def _candidates(self):
        """Run intervals worth trying in rounds 1-6, fewest jokers first, as
        (suit, lo, hi, cells, touch_needed, need): `cells` maps count slots to run cells,
        `touch_needed` marks a 5+ run that is only worth it overlapping the other run on its
        end position, `need` is a lower bound on the jokers it takes on its own."""
        jokers = self.jokers
        rn = self.run_naturals
        longest = self.size - 1 - MIN_SET * self.sets - MIN_RUN * (self.runs - 1)
        if self.exact:
            longest = min(longest, MIN_RUN)
        else:
            longest = min(longest, HIGH_ACE, max(MIN_RUN, jokers + rn))
        out = []
        for suit in range(4):
            bits = self.mask[suit]
            present = bits.bit_count()  # an ace counts twice: this only overestimates
            if present < rn or present + jokers < MIN_RUN:
                continue
            for length in range(MIN_RUN, longest + 1):
                for lo in range(1, HIGH_ACE + 2 - length):
                    hi = lo + length - 1
                    present = (bits & _INTERVAL_MASK[(lo, hi)]).bit_count()
                    if length - present > jokers or present < rn:
                        continue
                    touch_needed = False
                    if length > MIN_RUN:
                        lo_nat = bits >> lo & 1
                        hi_nat = bits >> hi & 1
                        both = lo_nat and hi_nat and rn >= 2
                        if not both:
                            if self.runs < 2 or not (lo_nat or hi_nat):
                                continue
                            touch_needed = True
                    cells = self._interval_cells(suit, lo, hi)
                    if length == HIGH_ACE and self._naturals_within(suit, cells) < rn:
                        continue
                    need = length - present  # jokers it needs on its own, at the least
                    out.append((need, length, suit, lo, hi, cells, touch_needed))
        # Short runs of naturals first: the arrangement shown spends few jokers.
        out.sort(key=lambda item: item[:5])
        return [(suit, lo, hi, cells, touch, need) for need, _, suit, lo, hi, cells, touch in out]

    def solve_partial(self):
        """Rounds 1-6: (runs, ks) of an opening, or None; also a reason code for a "no"."""
        if self.size < MIN_SET * self.sets + MIN_RUN * self.runs + 1:
            return None, "size"
        if self.size - self.jokers < self.set_naturals * self.sets + self.run_naturals * self.runs:
            return None, "naturals"
        set_floor = 0  # jokers the sets need even with every natural to themselves
        if self.sets:
            cheapest = self._cheapest_sets([0] * 14, set())
            if cheapest is None or cheapest[0] > self.jokers:
                return None, "sets"
            if not self.runs:
                return ([], cheapest[1]), None
            set_floor = cheapest[0]
        candidates = self._candidates()
        if not candidates:
            return None, "runs"
        if self.runs == 1:
            for run in candidates:
                ks = self._fit((run,))
                if ks is not None:
                    return ([run], ks), None
            return None, "joint"
        # Two runs: each must fit alone (adding a run never lowers the jokers needed).
        alone = [run for run in candidates if self._fit((run,)) is not None]
        # Two runs need at least the jokers each needs alone, plus the sets' own: candidates
        # come sorted by that need, so a pair over the budget ends the inner (or outer) loop.
        # Two different intervals first (the same one twice needs duplicates or jokers).
        budget = self.jokers - set_floor
        for i, first in enumerate(alone):
            limit = budget - first[5]
            if first[5] > limit:
                break
            seconds = []
            for second in alone[i + 1 :]:
                if second[5] > limit:
                    break
                seconds.append(second)
            seconds.append(first)
            for second in seconds:
                if _touch(first, second):
                    continue
                if (first[4] or second[4]) and not _overlap_at_end(first, second):
                    continue
                ks = self._fit((first, second))
                if ks is not None:
                    return ([first, second], ks), None
        return None, "joint"

    # ----- round 7 -----------------------------------------------------------------------------

    def _suit_covers(self, suit, wanted, targets=None):
        """{runs: {jokers: intervals}}: ways for `runs` runs (a count in `wanted`) to hold every
        natural of the suit, by the jokers they need (at most J). With `targets`, a set of
        (runs, jokers), the search stops at the first way that matches one of them."""
        count = self.count
        rn = self.run_naturals
        jokers = max(j for _, j in targets) if targets else self.jokers
        need = [count[_key(suit, rank)] for rank in range(14)]  # need[0] unused
        naturals = sum(need)
        # Every run needs its own run_naturals naturals of the suit.
        wanted = {t for t in wanted if rn * t <= naturals}
        if not wanted:
            return {}
        most_runs = max(wanted)
        # A rank held more times than there are runs cannot all go down (an ace may sit at
        # both ends of one run).
        if any(need[rank] > most_runs for rank in range(2, 14)) or need[1] > 2 * most_runs:
            return {}
        bits = self.mask[suit]
        intervals = []
        upto = [0] * 16  # upto[g]: intervals[:upto[g]] are those starting at or below g
        for lo in range(1, HIGH_ACE - MIN_RUN + 2):
            for hi in range(lo + MIN_RUN - 1, HIGH_ACE + 1):
                if hi - lo + 1 > naturals + jokers:
                    break
                if (bits & _INTERVAL_MASK[(lo, hi)]).bit_count() < rn:
                    continue
                intervals.append((lo, hi, _INTERVAL_RANKS[(lo, hi)]))
            upto[lo] = len(intervals)
        for lo in range(HIGH_ACE - MIN_RUN + 2, 16):
            upto[lo] = len(intervals)
        masks = [_INTERVAL_MASK[(lo, hi)] for lo, hi, _ in intervals]
        result: dict[int, dict[int, tuple]] = {t: {} for t in wanted}
        cover = [0] * 14  # run cells per rank (an ace counts at 1 and at 14)
        chosen: list[tuple[int, int, tuple]] = []
        stop = [False]

        def minimums_ok() -> bool:
            for subset in _SUBSETS[len(chosen)]:
                cells = [0] * 14
                for index in subset:
                    for rank in chosen[index][2]:
                        cells[rank] += 1
                reach = sum(min(need[rank], cells[rank]) for rank in range(1, 14))
                if reach < rn * len(subset):
                    return False
            return True

        def walk(start, extra):
            # extra: run cells that no natural of the suit can fill (jokers, at the least).
            # The naturals not yet covered: the lowest and highest such rank (2..13), the
            # largest shortfall, the aces, and the positions still short as a bit mask.
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
            placed = len(chosen)
            if not gaps and placed in result and minimums_ok():
                result[placed].setdefault(extra, tuple(chosen))
                if targets is not None and (placed, extra) in targets:
                    stop[0] = True
                    return
            runs_left = most_runs - placed
            if runs_left == 0 or short > runs_left or aces > 2 * runs_left:
                return
            last = runs_left == 1
            budget = jokers - extra
            bad_lo = bad_hi = 0
            for prev in chosen:
                bad_lo |= 1 << (prev[1] + 1)
                bad_hi |= 1 << (prev[0] - 1)
            # Runs come in order of their start, so the lowest uncovered natural must be
            # reached by the next run's start.
            for index in range(start, upto[low]):
                lo, hi, ranks = interval = intervals[index]
                if bad_lo >> lo & 1 or bad_hi >> hi & 1:
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
                walk(index, extra + added)
                chosen.pop()
                for rank in ranks:
                    cover[rank] -= 1
                if stop[0]:
                    return

        walk(0, 0)
        return {
            t: {j: tuple((lo, hi) for lo, hi, _ in found) for j, found in by.items()}
            for t, by in result.items()
        }

    def solve_whole(self):
        """Round 7: 3 runs with every card, as (runs, {}), or None with a reason code."""
        suits = [suit for suit in range(4) if self.mask[suit]]
        if not suits:
            return None, "whole"
        if self.size - self.jokers < self.run_naturals * self.runs:
            return None, "naturals"
        if len(suits) > self.runs:
            return None, "suits"
        if self.size < MIN_RUN * self.runs or self.size > HIGH_ACE * self.runs:
            return None, "whole"
        most = self.runs - (len(suits) - 1)
        # Every suit but the last is listed in full; the last one is searched only for the
        # (runs, jokers) the others leave, and stops at the first match.
        suits.sort(key=lambda suit: self.mask[suit].bit_count())
        covers = []
        reach = {(0, 0)}
        for suit in suits[:-1]:
            found = self._suit_covers(suit, set(range(1, most + 1)))
            covers.append(found)
            reach = {
                (t0 + t, j0 + j)
                for t0, j0 in reach
                for t, by_jokers in found.items()
                for j in by_jokers
                if t0 + t < self.runs and j0 + j <= self.jokers
            }
            if not reach:
                return None, "whole"
        targets = {(self.runs - t, self.jokers - j) for t, j in reach}
        covers.append(self._suit_covers(suits[-1], {t for t, _ in targets}, targets))

        def combine(index, runs_left, jokers_left, picked):
            if index == len(suits):
                if runs_left == 0 and jokers_left == 0:
                    return list(picked)
                return None
            remaining_suits = len(suits) - index - 1
            for t in range(1, runs_left - remaining_suits + 1):
                for jokers, intervals in covers[index].get(t, {}).items():
                    if jokers > jokers_left:
                        continue
                    picked.extend((suits[index], lo, hi) for lo, hi in intervals)
                    found = combine(index + 1, runs_left - t, jokers_left - jokers, picked)
                    if found is not None:
                        return found
                    del picked[len(picked) - t :]
            return None

        found = combine(0, self.runs, self.jokers, [])
        if found is None:
            return None, "whole"
        runs = [
            (suit, lo, hi, self._interval_cells(suit, lo, hi), False, 0) for suit, lo, hi in found
        ]
        return (runs, {}), None


def _overlap_at_end(a, b) -> bool:
    """Same suit, and one run ends exactly where the other starts (a one-card overlap)."""
    return a[0] == b[0] and (a[2] == b[1] or b[2] == a[1])


# ----- realising the arrangement -------------------------------------------------------------


class _Flow:
    """A tiny max-flow (BFS augmenting paths) for placing naturals in run cells."""

    def __init__(self):
        self.residual: dict[object, dict[object, int]] = {}

    def add(self, source, target, capacity):
        self.residual.setdefault(source, {})
        self.residual.setdefault(target, {})
        self.residual[source][target] = self.residual[source].get(target, 0) + capacity
        self.residual[target].setdefault(source, 0)

    def run(self, source, sink):
        while True:
            parent = {source: None}
            queue = [source]
            for node in queue:
                if node == sink:
                    break
                for nxt, capacity in self.residual[node].items():
                    if capacity > 0 and nxt not in parent:
                        parent[nxt] = node
                        queue.append(nxt)
            if sink not in parent:
                return
            path = []
            node = sink
            while parent[node] is not None:
                path.append((parent[node], node))
                node = parent[node]
            push = min(self.residual[u][v] for u, v in path)
            for u, v in path:
                self.residual[u][v] -= push
                self.residual[v][u] += push


def _place_naturals(search: _Search, runs, ks):
    """How many naturals of each (suit, rank) slot each run takes: minimums first, then most."""
    flow = _Flow()
    ranks_in_runs = {key & 15 for run in runs for key in run[3]}
    capacity = {}
    for rank in ranks_in_runs:
        cap = search.rank_total[rank] - search.set_naturals * ks.get(rank, 0)
        flow.add("source", ("rank", rank), cap)
    slots = {key for run in runs for key in run[3]}
    for key in slots:
        flow.add(("rank", key & 15), ("slot", key), search.count[key])
    for index, run in enumerate(runs):
        for key, cells in run[3].items():
            capacity[(key, index)] = cells
            flow.add(("slot", key), ("run", index), cells)
        flow.add(("run", index), "sink", search.run_naturals)
    flow.run("source", "sink")
    for index in range(len(runs)):
        flow.add(("run", index), "sink", HIGH_ACE)
    flow.run("source", "sink")
    taken = []
    for index, run in enumerate(runs):
        per_slot = {}
        for key in run[3]:
            per_slot[key] = capacity[(key, index)] - flow.residual[("slot", key)][("run", index)]
        taken.append(per_slot)
    return taken


def _face(suit: int, position: int) -> str:
    return rank_name(rank_at(position)) + SUIT_SYMBOLS[SUITS[suit]]


def _realise(cards: Sequence[Card], search: _Search, runs, ks):
    """The melds as physical cards: (melds, readings, kinds, left) in canonical text."""
    texts = search.texts
    pools: dict[int, list[int]] = {}
    joker_pool: list[int] = []
    for index, card in enumerate(cards):
        if card.joker:
            joker_pool.append(index)
        else:
            pools.setdefault(_key(_SUIT_INDEX[card.suit], card.rank), []).append(index)
    for pool in pools.values():
        pool.reverse()  # pop() hands out the earliest copy first
    joker_pool.reverse()
    used: set[int] = set()

    def take(pool: list[int]) -> int:
        index = pool.pop()
        used.add(index)
        return index

    run_melds = []
    taken = _place_naturals(search, runs, ks) if runs else []
    for (suit, lo, hi, *_), per_slot in zip(runs, taken, strict=True):
        left_for = dict(per_slot)
        meld, reading = [], []
        for position in range(lo, hi + 1):
            key = _key(suit, rank_at(position))
            if left_for.get(key, 0) > 0:
                left_for[key] -= 1
                meld.append(texts[take(pools[key])])
            else:
                take(joker_pool)
                meld.append("JK")
            reading.append(_face(suit, position))
        run_melds.append(((suit, lo, hi), meld, reading))
    set_melds = []
    for rank in sorted(ks):
        available = []
        for suit in range(4):
            available.extend(pools.get(_key(suit, rank), ()))
        available.sort(key=lambda i: (_SUIT_INDEX[cards[i].suit], i))
        groups: list[list[int]] = [[] for _ in range(ks[rank])]
        for group in groups:
            for _ in range(search.set_naturals):
                group.append(available.pop(0))
        for group in groups:
            while len(group) < MIN_SET and available:
                group.append(available.pop(0))
        for group in groups:
            for index in group:
                used.add(index)
                pools[_key(_SUIT_INDEX[cards[index].suit], rank)].remove(index)
            group.sort(key=lambda i: (_SUIT_INDEX[cards[i].suit], i))
            meld = [texts[i] for i in group]
            reading = list(meld)
            while len(meld) < MIN_SET:
                take(joker_pool)
                meld.append("JK")
                reading.append(rank_name(rank))
            set_melds.append((meld, reading))
    run_melds.sort(key=lambda item: item[0])
    melds = [meld for meld, _ in set_melds] + [meld for _, meld, _ in run_melds]
    readings = [reading for _, reading in set_melds] + [reading for _, _, reading in run_melds]
    kinds = ["set"] * len(set_melds) + ["run"] * len(run_melds)
    left = [text for i, text in enumerate(texts) if i not in used]
    return melds, readings, kinds, left


# ----- the public entry point ----------------------------------------------------------------


def _hand_cards(hand) -> list[Card]:
    """The hand as a list of cards (text is parsed), within the size limit."""
    if isinstance(hand, str):
        cards = list(parse_cards(hand))
    else:
        cards = list(hand)
        if str in {type(item) for item in cards}:
            cards = list(parse_cards(cards))
    if len(cards) > HAND_LIMIT:
        raise SizeError(
            f"{len(cards)} cards is more than the {HAND_LIMIT} a hand may hold for the opening check"
        )
    return cards


def _no_reason(code: str, search: _Search, deal: Contract, profile: Profile) -> Problem:
    """Why the hand cannot go down, on the rule that decides it."""
    size = search.size
    want = _SHORT[deal.round]
    if code == "size":
        least = MIN_SET * deal.sets + MIN_RUN * deal.runs + 1
        return Problem(
            f"{want} needs at least {least} cards, one of them kept to discard: "
            f"this hand has {_plural(size, 'card')}.",
            RULE,
        )
    if code == "sets":
        what = "No set" if deal.sets == 1 else f"No {deal.sets} sets"
        return Problem(
            f"{what} can be made from these {size} cards: a set is 3 cards of one rank with at "
            f"least {_plural(profile.set_naturals, 'natural card')}, and the hand has "
            f"{_plural(search.jokers, 'joker')}.",
            RULE,
        )
    if code == "runs":
        return Problem(
            f"No run can be made from these {size} cards: a run is {MIN_RUN} cards in a row of "
            f"one suit with at least {_plural(profile.run_naturals, 'natural card')}, jokers "
            "filling gaps.",
            RULE,
        )
    if code == "naturals":
        kinds = [(deal.sets, SET, profile.set_naturals), (deal.runs, RUN, profile.run_naturals)]
        each = ", ".join(f"{need} a {kind}" for count, kind, need in kinds if count)
        least = sum(count * need for count, _, need in kinds)
        naturals = size - search.jokers
        return Problem(
            f"{want} needs at least {least} natural cards ({each}): "
            f"this hand has {_plural(naturals, 'natural card')}.",
            "R4",
        )
    if code == "suits":
        return Problem(
            "The naturals are in 4 suits, but round 7's 3 runs can hold at most 3 suits "
            "and every card must be used.",
            RULE,
        )
    if code == "whole":
        return Problem(
            f"There is no way to split these {size} cards into 3 runs of at least {MIN_RUN} "
            "cards that use the whole hand.",
            RULE,
        )
    return Problem(
        f"There is no way to make {want} from these {size} cards at once, each card in one "
        "meld, and still keep a card to discard.",
        RULE,
    )


_NOT_NATURALS = frozenset({"size", "suits"})


def _without_house_minimums(
    cards: list[Card], deal: Contract, profile: Profile, players, code: str, problem: Problem
) -> Problem:
    """The refusal's deciding rule where the profile raises the natural-card minimums (R11).

    The same search with one natural a meld tells them apart: if it finds an opening, the house
    minimum alone refuses (R11, profile named); if not, the default rules refuse as well, and the
    reason is theirs.
    """
    if not (profile.house("set_naturals") or profile.house("run_naturals")):
        return problem
    if code in _NOT_NATURALS:
        return problem  # too few cards, or four suits in round 7: the same in every profile
    relaxed = replace(profile, set_naturals=1, run_naturals=1)
    search = _Search(cards, deal, relaxed, profile.packs(players), profile.jokers(players))
    found, code = search.solve_whole() if deal.whole_hand else search.solve_partial()
    if found is None:
        return _no_reason(code, search, deal, relaxed)
    kinds = [kind for kind, count in ((SET, deal.sets), (RUN, deal.runs)) if count]
    return Problem(
        f"{profile.rules_name}: {naturals_needed_text(profile, kinds)}, and these "
        f"{len(cards)} cards cannot make {_SHORT[deal.round]} with that many natural cards.",
        "R11",
    )


def solve_opening(
    hand: Sequence[Card] | str,
    round_number: int,
    profile: Profile | str | None = None,
    players: int | None = None,
) -> Verdict:
    """Can this hand (the cards held after the draw) go down in this round? (R5)

    Legal means an opening exists; `details` then gives one: `melds` (the hand's own cards, sets
    first, runs low to high), `readings` (the same with each joker replaced by the card it stands
    for, or by the rank alone in a set), `kinds` ("set" / "run") and `left` (the cards kept; none
    in round 7). Otherwise `melds` is empty and `left` is the whole hand.
    Raises `SizeError` above HAND_LIMIT cards, `CopyLimitError` for impossible copies and
    `RulesError` for rank-only cards, a bad round, profile or player count.
    """
    profile = get_profile(profile)
    deal = contract(round_number)
    cards = _hand_cards(hand)
    search = _Search(cards, deal, profile, profile.packs(players), profile.jokers(players))
    if deal.whole_hand:
        found, code = search.solve_whole()
    else:
        found, code = search.solve_partial()
    if found is None:
        problem = _no_reason(code, search, deal, profile)
        problem = _without_house_minimums(cards, deal, profile, players, code, problem)
        return problem.verdict({"melds": [], "readings": [], "kinds": [], "left": search.texts})
    runs, ks = found
    melds, readings, kinds, left = _realise(cards, search, runs, ks)
    shown = " + ".join(" ".join(meld) for meld in melds)
    if deal.whole_hand:
        reason = f"The whole hand goes down as 3 runs: {shown}."
    else:
        reason = (
            f"This hand can go down with {_SHORT[deal.round]}: {shown}, "
            f"keeping {_plural(len(left), 'card')} for the discard."
        )
    rule = RULE
    if _only_by_bigger_melds(cards, deal, profile, players, melds, kinds):
        reason = f"{profile.rules_name} allow opening melds above 3 and 4 cards. {reason}"
        rule = "R11"
    return Verdict(
        True, reason, rule, {"melds": melds, "readings": readings, "kinds": kinds, "left": left}
    )


def _only_by_bigger_melds(cards, deal: Contract, profile: Profile, players, melds, kinds) -> bool:
    """Whether the hand opens only because the profile allows melds above 3 / 4 cards (R11)."""
    if deal.whole_hand or profile.exact_opening:
        return False
    sizes = {SET: MIN_SET, RUN: MIN_RUN}
    if all(len(meld) == sizes[kind] for meld, kind in zip(melds, kinds, strict=True)):
        return False
    exact = replace(profile, exact_opening=True)
    search = _Search(cards, deal, exact, profile.packs(players), profile.jokers(players))
    return search.solve_partial()[0] is None
