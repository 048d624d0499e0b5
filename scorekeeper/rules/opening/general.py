"""R5 Opening search for any contract a rule set may ask (R11), on counts.

The fast search (search.py, whole_hand.py) is built on the default contracts: melds at R4's least
sizes, at most two runs beside the sets, a whole-hand deal of runs only, jokers the only wild
cards. Every other contract comes here: melds of any size, "exactly" or "at least" (R11's
`exact_sizes`), whole-hand deals with sets, wild deuces and wild cards never outnumbering
natural ones. The search is exact, by these steps:

* Wild deuces: every 2 is counted twice, as a natural of its place and as one of the wild cards
  W = jokers + 2s; a meld pays one of W for each wild card it holds and for each 2 it holds as
  itself. That is exact: in any opening the wild cards can be jokers first (a joker does all a
  wild 2 does), so an opening exists iff the 2s laid as themselves plus the wild cards laid are
  at most W, each 2 laid as itself being one of those held. The search with deuces natural is
  tried first, so a 2 is played wild only where the hand cannot open otherwise.
* Runs first: every run of every allowed length at every place, and for each, which of the
  naturals present it leaves to the sets or other runs (at most the wild cards to spare), so
  every way of sharing the naturals is tried. Runs of one suit never touch (R5). Outside a
  whole-hand deal a run longer than its size is kept only where each end is natural or meets
  another run of its suit on exactly that place: any other legal opening stays legal with that
  end dropped back into the hand (a wild end: the naturals are unchanged and the wild cards one
  fewer; the run still has its size), until every run is so.
* Counts before places: in a whole-hand deal of runs alone, a suit needs as many runs as it
  holds copies of one card (an ace two to a run, which then goes from ace to ace); where every
  suit left takes exactly one run, that run spans its suit's lowest natural to its highest, and
  the wild cards it needs are that span less the naturals. A hand over either bound has no
  opening, and no run is placed for it.
* Counts for every whole-hand deal, with sets or not, before each run is laid: every card left
  is laid, so an opening spends as wild cards its melds' places less the naturals left (a 2
  under wild deuces counts as a wild card: laid as itself it is one of W). For each sharing
  of the runs still to lay among the suits, and each choice of the sets' ranks: a natural of
  a rank no set takes lies in a run of its suit, one copy a run at a place (an ace two), so
  each rank with more copies in a suit than that suit's runs (all of a suit with none) needs
  a set, and those ranks must be no more than the sets and each hold a set's natural minimum.
  The wild cards needed are then at least, by gaps, the sets' sizes above their ranks'
  naturals plus, for each suit of one run, the places of its span without a natural; and, by
  length, the runs' places (at least their sizes; a suit's runs at least its naturals; its
  one run its span; runs of a suit that all hold one place, since one has a copy for each,
  at least the stretches j of them cover, each holding the places of j copies or more) plus
  the sets' places (at least their sizes and the naturals no run can hold) less the naturals
  left. Any opening gives one such sharing and choice of ranks (or more ranks than it uses,
  which never needs more wild cards) and spends at least both counts, so a hand whose least
  over every sharing and choice is above its wild cards has no opening. The least reads only
  the counts left and the runs to lay, and is remembered by them.
* The last run of a whole-hand deal with sets: every natural it does not hold goes to a set
  of its rank, so the ranks left beside its places each need a set; with more of them than
  sets it cannot open, with as many it keeps every natural of another rank (given away, that
  natural would have no meld), and only its choices of the rest are tried.
* A budget of steps, where the caller gives one (`steps`): every place looked at, run tried,
  choice of naturals, card taken, rank tried for a set, suit counted for a bound and answer
  looked up counts, so the steps follow the time taken; past the budget `OutOfSteps` is
  raised, never an answer the search has not finished.
* Remembered by what is left: the wild cards the runs still to lay need at the least depend
  only on the naturals left (each suit's places, as bits) and on which runs are still to lay,
  so that bound is counted out once for each (runs to lay, naturals left) and looked up after;
  the sets depend only on each rank's total left and the wild cards left, so they are searched
  once for each (totals, wild cards) and looked up when other runs leave the same. The keys are
  all that each answer reads, so a remembered answer is the answer counted afresh, and no
  verdict changes. A whole sub-search is not remembered: its answer also turns on the runs
  already laid (a run of their suit may not touch them; outside a whole-hand deal, a long run's
  wild ends must meet another run), and with those in the key the same state came back for at
  most 1 in 11 sub-searches on the bench's hardest hands (a run is known by the naturals it
  takes, and runs of one size are already tried in one order): the key cost 4-9 % more steps
  than those hits saved.
* Sets last, by counting: once the runs are fixed only each rank's total matters. Outside a
  whole-hand deal a set is laid at exactly its size (a bigger one can give back a wild card, or
  a natural when it has none, and stay legal); the sets given to a rank need at least their
  natural minimums of it and wild cards for what it lacks. In a whole-hand deal every natural
  left must go to a set of its rank, and every wild card left to some set.
"""

from __future__ import annotations

from itertools import combinations

from ..cards import rank_name
from ..contracts import Contract
from ..melds import HIGH_ACE, RUN, SET, rank_at
from ..ruleset import MeldKind, RuleSet
from .laid import runs_touch
from .search import INTERVAL_MASK, SLOT_TEXT, SUIT_INDEX, face, slot

# The run positions of each rank, as bits: an ace at both ends.
_RANK_BITS = [0, (1 << 1) | (1 << HIGH_ACE)] + [1 << rank for rank in range(2, 14)]

# The places of every run of each length, as bit masks over positions 1..14.
_WINDOW_MASKS = {
    length: [INTERVAL_MASK[(lo, lo + length - 1)] for lo in range(1, HIGH_ACE + 2 - length)]
    for length in range(1, HIGH_ACE + 1)
}


class Rules:
    """What the search reads of the rule set, for one deal."""

    def __init__(
        self,
        deal: Contract,
        rules: RuleSet,
        capped: bool,
        minimums: tuple[int, int],
        deuces: bool,
        distinct: bool = False,
    ):
        self.deuces = deuces
        # The sets of one contract are of different ranks (R12.3 `distinct_set_ranks`).
        self.distinct = distinct
        self.whole = deal.whole_hand
        self.exact = rules.exact_sizes and not deal.whole_hand
        self.capped = capped
        self.set_naturals, self.run_naturals = minimums
        self.runs = sorted((n.size for n in deal.needs if n.kind is MeldKind.RUN), reverse=True)
        self.sets = sorted((n.size for n in deal.needs if n.kind is MeldKind.SET), reverse=True)

    def least(self, kind: str, size: int) -> int:
        """The fewest naturals a meld of this kind and size holds."""
        need = self.set_naturals if kind == SET else self.run_naturals
        return max(need, (size + 1) // 2) if self.capped else need


def search(count: list[int], wilds: int, size: int, rules: Rules, steps: list[int] | None = None):
    """((runs, sets)) for one opening on these counts, or None.

    runs: [(suit, lo, hi, natural positions)]; sets: [(rank, naturals, wilds)].
    """
    discard = 0 if rules.whole else 1
    if size < sum(rules.runs) + sum(rules.sets) + discard:
        return None
    walk = _Walk(count, rules, steps[0] if steps else None)
    try:
        return walk.runs(0, wilds, size, None)
    finally:
        if steps:
            steps[0] = walk.steps


class OutOfSteps(Exception):
    """A search given a budget of steps used them all before it could answer."""


class _Walk:
    """The depth-first search over runs (see the module's docstring), on counts it updates and
    restores in place; `steps` bounds the runs it tries (None: no bound)."""

    def __init__(self, count: list[int], rules: Rules, steps: int | None = None):
        self.steps = steps
        self.count = list(count)
        self.totals = [0] * 14
        for key, number in enumerate(count):
            if number:
                self.totals[key & 15] += number
        self.rules = rules
        self.discard = 0 if rules.whole else 1
        self.chosen: list = []
        self.masks = self._masks()
        self.bounds: dict = {}  # (index, masks) -> `_least_wild`: the naturals left decide it
        self.set_answers: dict = {}  # (totals, wild) -> `sets`: each rank's total decides it
        self.whole_bounds: dict = {}  # (index, counts) -> `_sets_and_runs_need`

    def runs(self, index: int, wild: int, cards: int, previous):
        """Lay runs[index:] (then the sets) with `wild` wild cards and `cards` cards left."""
        if index == len(self.rules.runs):
            return self._finish(wild)
        if self._least_wild(self.masks, index) > wild:
            return None
        if self.rules.whole and self._sets_and_runs_need(index) > wild:
            return None
        for run, least, must in self._places(index, wild, cards, previous):
            length = run[2] - run[1] + 1
            found = self._run(index, run, least, wild, cards - length, must)
            if found is not None:
                return found
        return None

    def _finish(self, wild: int):
        """The runs chosen, once each keeps its ends (see `_trimmed`), and the sets they leave."""
        if not self._trimmed():
            return None
        sets = self.sets(wild)
        return None if sets is None else (list(self.chosen), sets)

    def _places(self, index: int, wild: int, cards: int, previous):
        """Each place runs[index] may take: ((suit, lo, hi), the naturals a run of its length
        holds at least, the positions it must hold a natural at), longest runs last. A run
        after one of its size comes no earlier than it (`previous`); in a whole-hand deal of
        runs alone the runs come in the order of the naturals they cover instead."""
        rules = self.rules
        need = rules.runs[index]
        later = sum(rules.runs[index + 1 :]) + sum(rules.sets) + self.discard
        longest = min(HIGH_ACE, cards - later)
        lengths = [need] if rules.exact else range(need, longest + 1)
        after = previous if index > 0 and rules.runs[index - 1] == need else None
        first = None
        if rules.whole and not rules.sets:
            first, lengths = self._cover_first(self.masks, index, wild, cards, lengths)
            after = None
        for length in (length for length in lengths if length <= longest):
            least = rules.least(RUN, length)
            for suit, lo in self._windows(self.masks, length):
                self._step()
                run = (suit, lo, lo + length - 1)
                if not self._open(run, least, wild, after):
                    continue
                must = _covering(first, run)
                if must is not None:
                    yield run, least, must

    def _open(self, run: tuple[int, int, int], least: int, wild: int, after) -> bool:
        """Whether a run may take these places: the naturals its window holds at most (an ace
        held once counts at both ends) reach `least` and the wild cards fill the rest; it comes
        no earlier than `after` (None: any order) and touches no run of its suit (R5)."""
        suit, lo, hi = run
        present = (self.masks[suit] & INTERVAL_MASK[(lo, hi)]).bit_count()
        if present < least or hi - lo + 1 - present > wild:
            return False
        if after is not None and run < after:
            return False
        return not self._touches(suit, lo, hi)

    def _cover_first(self, masks: list[int], index: int, wild: int, cards: int, lengths):
        """A whole-hand deal of runs: every natural left must go in a run still to lay. When
        those runs are all of one size the next one covers the first natural left (any opening
        can lay its runs in the order of the first naturals they hold), and the last run takes
        every card left. Returns ((suit, its positions), lengths) or (None, ()) when the
        naturals left need more runs than remain, or more wild cards than are left."""
        rules = self.rules
        cover = [bits & ~4 if rules.deuces else bits for bits in masks]  # a 2 left is wild
        remaining = len(rules.runs) - index
        suits = sum(1 for bits in cover if bits)
        needed = self._runs_each_suit_needs()
        if suits > remaining or needed > remaining:
            return None, ()
        if needed == suits == remaining and self._one_run_each_wild(cover) > wild:
            return None, ()
        if remaining == 1:
            lengths = [cards] if rules.runs[index] <= cards <= HIGH_ACE else []
        if len(set(rules.runs[index:])) != 1:
            return None, lengths
        suit = next((suit for suit in range(4) if cover[suit]), None)
        if suit is None:
            return None, lengths
        low = (cover[suit] & -cover[suit]).bit_length() - 1
        return (suit, (1, HIGH_ACE) if low == 1 else (low,)), lengths

    def _runs_each_suit_needs(self) -> int:
        """A whole-hand deal of runs: the runs the naturals left need at the least, summed over
        the suits. A run holds each place once, so a suit needs as many runs as it has copies of
        any one card, an ace two to a run (only a run from ace to ace holds both of its places);
        with wild deuces a 2 left over is a wild card and needs no run of its suit."""
        self._step(4)  # each suit's counts looked at
        count, total = self.count, 0
        for suit in range(4):
            base = suit << 4
            most = max(count[base + (3 if self.rules.deuces else 2) : base + 14])
            total += max(most, (count[base | 1] + 1) // 2)
        return total

    def _one_run_each_wild(self, cover: list[int]) -> int:
        """The wild cards a whole-hand deal needs when each suit's naturals left (`cover`, bits
        of positions 1..14, an ace at both ends) go in one run of that suit: a run from its
        lowest natural to its highest, at least the shortest run long, less its naturals; an
        ace held once taken low or high, whichever needs fewer, twice at both ends."""
        shortest, total = min(self.rules.runs), 0
        for suit, bits in enumerate(cover):
            if not bits:
                continue
            self._step()  # the suit's span looked at
            places = [bits]
            if bits & 2 and self.count[(suit << 4) | 1] < 2:
                places = [held for held in (bits & ~(1 << HIGH_ACE), bits & ~2) if held]
            total += min(
                max(shortest, held.bit_length() - (held & -held).bit_length() + 1)
                - held.bit_count()
                for held in places
            )
        return total

    @staticmethod
    def _windows(masks: list[int], length: int):
        """(suit, lo) of each window of `length` places that holds a natural of its suit."""
        for suit in range(4):
            bits = masks[suit]
            if bits:
                low = (bits & -bits).bit_length() - 1
                high = bits.bit_length() - 1
                first = max(1, low - length + 1)
                for lo in range(first, min(HIGH_ACE + 1 - length, high) + 1):
                    yield suit, lo

    def _least_wild(self, masks: list[int], index: int) -> int:
        """The wild cards runs[index:] need at the least: each the fewest missing cards of a window
        of its size (a lower bound: a longer run holds such a window, and no fewer wild cards)."""
        key = (index, *masks)
        self._step()  # the bound looked up
        if key not in self.bounds:
            self.bounds[key] = self._fewest_wild(masks, index)
        return self.bounds[key]

    def _sets_and_runs_need(self, index: int) -> int:
        """A whole-hand deal (with sets or runs alone): the wild cards runs[index:] and the sets
        need at the least by counts (`_SetsAndRuns`), _NEVER where no sharing of them holds
        every natural left. It reads only the naturals left, so it is counted once for each (runs to lay,
        counts left) and looked up after."""
        key = (index, *self.count)
        self._step()  # the bound looked up
        if key not in self.whole_bounds:
            self._step(17)  # each suit's counts and each rank's total looked at
            runs = self.rules.runs[index:]
            bound = _SetsAndRuns(self.count, self.masks, runs, self.rules, self._step)
            self.whole_bounds[key] = bound.least_wild()
        return self.whole_bounds[key]

    def _fewest_wild(self, masks: list[int], index: int) -> int:
        """`_least_wild`, counted window by window."""
        total = 0
        needs = self.rules.runs[index:]
        for need in set(needs):
            fewest = need
            windows = _WINDOW_MASKS[need]
            self._step(len(windows) * sum(1 for bits in masks if bits))
            for bits in masks:
                if bits:
                    most = max((bits & window).bit_count() for window in windows)
                    if need - most < fewest:
                        fewest = need - most
            total += fewest * needs.count(need)
        return total

    def _masks(self) -> list[int]:
        """Bit p of masks[s]: a natural of suit s is left for run position p (1..14)."""
        count = self.count
        masks = [0, 0, 0, 0]
        for suit in range(4):
            bits = 0
            base = suit << 4
            for rank in range(1, 14):
                if count[base | rank]:
                    bits |= 1 << rank
            if bits & 2:
                bits |= 1 << HIGH_ACE
            masks[suit] = bits
        return masks

    def _trimmed(self) -> bool:
        """Outside a whole-hand deal, each run above its size has each end natural, or meeting
        another run of its suit on exactly that place (see the module's docstring)."""
        if self.rules.whole:
            return True
        chosen = self.chosen
        for (suit, lo, hi, naturals), need in zip(chosen, self.rules.runs, strict=True):
            if hi - lo + 1 == need:
                continue
            for end in (lo, hi):
                if end in naturals:
                    continue
                if not any(
                    s == suit and (a == end or b == end) and (a, b) != (lo, hi)
                    for s, a, b, _ in chosen
                ):
                    return False
        return True

    def _touches(self, suit: int, lo: int, hi: int) -> bool:
        return any(s == suit and runs_touch(lo, hi, a, b) for s, a, b, _ in self.chosen)

    def _run(self, index, run, least, wild, cards, must=()):
        """Try one run with each choice of the naturals it leaves to other melds; with `must`,
        it holds a natural at one of those positions."""
        self._step()
        suit, lo, hi = run
        present = self._present(suit, lo, hi)
        length = hi - lo + 1
        forced = length - len(present)
        if forced > wild or len(present) < least:
            return None
        spare = min(wild - forced, len(present) - least)
        if not self.rules.sets and len(self.rules.runs) == 1:
            spare = 0  # no other meld could take a natural the run leaves
        # A lone run above its size keeps natural ends (see `_trimmed`).
        lone = not self.rules.whole and len(self.rules.runs) == 1 and length > self.rules.runs[0]
        if lone and (lo not in present or hi not in present):
            return None
        keep = self._kept_for_sets(index, present)
        if keep is None:
            return None
        for naturals in _kept(present, spare, ((lo, hi) if lone else ()) + keep, must):
            self._step()
            cost = length - len(naturals)
            if self.rules.deuces and 2 in naturals:
                cost += 1  # the 2 laid as itself is one of the wild cards held
            if cost > wild:
                continue
            found = self._with(index, run, naturals, wild - cost, cards)
            if found is not None:
                return found
        return None

    def _kept_for_sets(self, index: int, present: list[int]) -> tuple[int, ...] | None:
        """The naturals the last run of a whole-hand deal with sets must keep, or None where
        none of its choices can open. Every natural it does not hold must go to a set of its
        rank (a 2 under wild deuces is a wild card), so the ranks left beside its places need
        a set each: more of them than sets and it cannot open; as many, and a natural of any
        other rank it gives away would have no meld, so it keeps each (see the module)."""
        rules = self.rules
        if not (rules.whole and rules.sets and index == len(rules.runs) - 1):
            return ()
        self._step(2)  # the ranks left beside its places counted
        inside = [0] * 14
        for position in present:
            inside[rank_at(position)] += 1
        outside = {
            rank
            for rank in range(1, 14)
            if self.totals[rank] > inside[rank] and not (rules.deuces and rank == 2)
        }
        if len(outside) > len(rules.sets):
            return None
        if len(outside) < len(rules.sets):
            return ()
        return tuple(
            p
            for p in present
            if rank_at(p) not in outside and not (rules.deuces and rank_at(p) == 2)
        )

    def _step(self, steps: int = 1) -> None:
        """Count steps against the budget of steps, if any: one a place looked at for a run (to
        lay it, or to bound the wild cards it needs), a run tried on it, a choice of the
        naturals it keeps, a card taken or given back, a suit counted for a bound, and a bound
        or sets' answer looked up."""
        if self.steps is not None:
            self.steps -= steps
            if self.steps < 0:
                raise OutOfSteps

    def _present(self, suit: int, lo: int, hi: int) -> list[int]:
        """The positions of the run that a natural left in hand can take (an ace once)."""
        count = self.count
        present, taken = [], {}
        for position in range(lo, hi + 1):
            key = slot(suit, rank_at(position))
            if count[key] - taken.get(key, 0) > 0:
                taken[key] = taken.get(key, 0) + 1
                present.append(position)
        return present

    def _with(self, index: int, run, naturals, wild: int, cards: int):
        """The rest of the opening with this run laid on these naturals (taken, then given
        back)."""
        suit = run[0]
        self._step(2 * len(naturals))  # each taken, then given back
        self._take(suit, naturals, -1)
        self.chosen.append((*run, naturals))
        found = self.runs(index + 1, wild, cards, run)
        self.chosen.pop()
        self._take(suit, naturals, 1)
        return found

    def _take(self, suit: int, positions, sign: int) -> None:
        """Take the naturals at these positions (sign -1) or give them back (+1), keeping the
        masks of what is left."""
        count, masks, totals, base = self.count, self.masks, self.totals, suit << 4
        for position in positions:
            rank = 1 if position == HIGH_ACE else position
            count[base | rank] += sign
            totals[rank] += sign
            if count[base | rank]:
                masks[suit] |= _RANK_BITS[rank]
            else:
                masks[suit] &= ~_RANK_BITS[rank]

    def sets(self, wild: int):
        """The sets on what the runs leave (see `_sets`). They read only each rank's total left
        and the wild cards left, so each such pair is answered once, and looked up (a step)
        when other runs leave the same."""
        key = (*self.totals, wild)
        self._step()
        if key not in self.set_answers:
            self.set_answers[key] = self._sets_on(wild)
        return self.set_answers[key]

    def _sets_on(self, wild: int):
        rules = self.rules
        if not rules.sets:
            if rules.whole and (wild or any(_naturals_left(self.totals, rules))):
                return None
            return []
        return _sets(self.totals, wild, rules, self._step)


def _allocations(runs: int) -> list[tuple[int, int, int, int]]:
    """Every way to share `runs` runs among the four suits: (runs of suit 0, ..., of suit 3)."""
    if runs not in _SHARES:
        _SHARES[runs] = [
            (a, b, c, runs - a - b - c)
            for a in range(runs + 1)
            for b in range(runs + 1 - a)
            for c in range(runs + 1 - a - b)
        ]
    return _SHARES[runs]


_SHARES: dict[int, list[tuple[int, int, int, int]]] = {}
_NEVER = 1 << 30  # the wild cards needed where no opening exists


class _SetsAndRuns:
    """The bound by counts of a whole-hand deal, with sets or not (see `least_wild`), on the
    naturals left: each suit's counts by rank and places (as bits), each rank's total, and the ranks a
    set may take (those with its natural minimum). Under wild deuces a 2 is a wild card, never
    a natural to place."""

    def __init__(self, count: list[int], masks: list[int], runs: list[int], rules: Rules, step):
        self.rules, self.step = rules, step
        self.runs, self.shortest, self.run_sizes = len(runs), min(runs), sum(runs)
        self.counts = [count[base : base + 14] for base in (0, 16, 32, 48)]
        self.held = list(masks)
        if rules.deuces:
            for suit in range(4):
                self.counts[suit][2] = 0
                self.held[suit] &= ~4
        self.totals = [a + b + c + d for a, b, c, d in zip(*self.counts, strict=True)]
        self.naturals = sum(self.totals)
        self.suit_naturals = [sum(counts) for counts in self.counts]
        present = 0
        for bits in self.held:
            present |= bits
        present = (present & _MIDDLE) | (2 if present & _ACES else 0)  # the ranks left, as bits
        least = rules.least(SET, min(rules.sets)) if rules.sets else None
        self.settable = sum(
            1 << rank
            for rank in _ranks(present)
            if least is not None and self.totals[rank] >= least
        )
        self.present = [(bits & _MIDDLE) | (2 if bits & _ACES else 0) for bits in self.held]
        self.over: dict[tuple[int, int], int] = {}

    def _over(self, suit: int, runs: int) -> int:
        """The ranks of a suit with more naturals than `runs` runs of it can hold (an ace two
        to a run), counted when first asked."""
        if not runs:
            return self.present[suit]
        key = (suit, runs)
        if key not in self.over:
            counts = self.counts[suit]
            self.over[key] = sum(
                1 << rank
                for rank in _ranks(self.present[suit])
                if counts[rank] > (2 * runs if rank == 1 else runs)
            )
        return self.over[key]

    def least_wild(self) -> int:
        """The fewest wild cards the runs and sets left need, _NEVER where no sharing of the runs
        among the suits and of the sets among the ranks holds every natural left."""
        sets = len(self.rules.sets)
        best = _NEVER
        for share in _allocations(self.runs):
            self.step()  # the sharing looked at
            forced = 0
            for suit in range(4):
                if not share[suit]:
                    forced |= self.present[suit]  # a suit with no run gives every rank to the sets
            if forced.bit_count() > sets:
                continue
            for suit in range(4):
                if share[suit]:
                    forced |= self._over(suit, share[suit])
            if forced.bit_count() > sets or forced & ~self.settable:
                continue
            unheld = self._unheld(share, forced)
            for given, held in self._set_ranks(share, forced, sets - forced.bit_count()):
                best = min(best, self._wild(share, given, held, unheld))
        return best

    def _unheld(self, share, forced: int) -> int:
        """The naturals no run of this sharing can hold, which the sets must: of each forced
        rank, the copies a suit has beyond its runs (an ace two to a run)."""
        unheld = 0
        for rank in range(1, 14):
            if forced >> rank & 1:
                for suit in range(4):
                    room = 2 * share[suit] if rank == 1 else share[suit]
                    unheld += max(0, self.counts[suit][rank] - room)
        return unheld

    def _set_ranks(self, share, forced: int, slots: int):
        """(ranks the runs give up, ranks whose naturals the sets hold) to try: the forced ranks
        and as many others as the sets have room for (more ranks never need more wild cards, so
        each choice fills every slot). With one slot, each rank a suit of one run holds is
        tried, and all the others as one choice (the runs giving them all up, the sets holding
        the one of most naturals), which needs no more than any of them; past one slot, one
        choice: the runs give up every rank a set may take, the sets hold the forced ranks and
        the others of most naturals."""
        extra = self.settable & ~forced
        if not slots or not extra:
            return [(forced, forced)]
        ranks = sorted(
            (rank for rank in range(1, 14) if extra >> rank & 1), key=lambda r: -self.totals[r]
        )
        if slots > 1:
            return [(forced | extra, forced | sum(1 << rank for rank in ranks[:slots]))]
        spanned = 0
        for suit in range(4):
            if share[suit] == 1:
                spanned |= self.held[suit] | (2 if self.held[suit] >> HIGH_ACE & 1 else 0)
        tried = [(forced | 1 << rank, forced | 1 << rank) for rank in ranks if spanned >> rank & 1]
        rest = [rank for rank in ranks if not spanned >> rank & 1]
        if rest:
            tried.append((forced | sum(1 << rank for rank in rest), forced | 1 << rest[0]))
        return tried

    def _wild(self, share, given: int, held: int, unheld: int) -> int:
        """The wild cards needed when each suit has `share` runs, the runs hold every natural
        of a rank not in `given`, and the sets hold at most the naturals of the ranks in `held`.
        Two counts, each a floor, the larger kept: by gaps, the sets' cards above those
        naturals and each suit of one run its span's places without a natural; by length, every
        card left is laid, so the wild cards are the melds' places less the naturals left, the
        runs at least their sizes, each suit's runs at least its naturals and its one run at
        least its span, the sets at least their sizes and the naturals no run can hold."""
        sets = sum(self.rules.sets)
        gaps = sets
        for rank in range(1, 14):
            if held >> rank & 1:
                gaps -= self.totals[rank]
        gaps, runs = max(0, gaps), 0
        for suit in range(4):
            runs_here = share[suit]
            if not runs_here:
                continue
            self.step()  # the suit's runs counted
            counts = self.counts[suit]
            naturals = self.suit_naturals[suit]
            for rank in range(1, 14):
                if given >> rank & 1:
                    naturals -= counts[rank]
            length = runs_here * self.shortest
            if runs_here == 1:
                span, missing = self._span(suit, given)
                gaps += missing
                length = max(length, span)
            else:
                length = max(length, self._layers(suit, given, runs_here))
            runs += max(length, naturals)
        return max(gaps, max(runs, self.run_sizes) + max(sets, unheld) - self.naturals)

    def _layers(self, suit: int, given: int, runs: int) -> int:
        """The least length of a suit's `runs` runs (two or more) that hold every natural of
        the ranks not given to the sets, or 0 where no place of it has a copy for every run.
        Where one has, every run holds that place, so the runs share a place, and for each j
        the places j of them cover are one stretch, holding every place with j copies or more:
        their lengths add up to at least those stretches (for two runs, see `_two_runs`). An
        ace held once is taken low or high; aces held more often are left out, which only
        lowers the bound."""
        counts = self.counts[suit]
        ranks = list(_ranks(self.present[suit] & ~given & _MIDDLE))
        layers = [sum(1 << r for r in ranks if counts[r] >= j) for j in range(1, runs + 1)]
        if not layers[-1]:
            return 0
        firsts = [layers[0]]
        if counts[1] == 1 and not given & 2:
            firsts = [layers[0] | 2, layers[0] | 1 << HIGH_ACE]
        if runs == 2:
            return min(_two_runs(first, layers[1], self.shortest) for first in firsts)
        rest = sum(_hull(bits) for bits in layers[1:])
        return rest + min(_hull(first) for first in firsts)

    def _span(self, suit: int, given: int) -> tuple[int, int]:
        """The least length and the fewest places without a natural of a suit's one run: it
        holds every natural of the ranks not given to the sets, so it spans them, at least the
        shortest run long, and holds no more naturals than the suit has on its places; an ace
        held once low or high."""
        held = self.held[suit]
        core = held & ~given & _MIDDLE
        aces = self.counts[suit][1]
        if given & 2 or not aces:
            options = [core]
        elif aces > 1:
            options = [core | _ACES]
        else:
            options = [core | 2, core | 1 << HIGH_ACE]
        found = [_covering_run(span, held, self.shortest) for span in options]
        return min(length for length, _ in found), min(missing for _, missing in found)


def _ranks(bits: int):
    """The ranks (or places) whose bits are set, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _hull(bits: int) -> int:
    """The places from the lowest of `bits` to the highest (0 for none)."""
    return bits.bit_length() - (bits & -bits).bit_length() + 1 if bits else 0


def _two_runs(once: int, twice: int, shortest: int) -> int:
    """The least length of two runs of one suit, each at least `shortest` long, both holding
    every place of `twice` (not none) and one of them every place of `once`. Both hold a
    place, so they overlap: one holds the other (the outer spans `once`, the inner `twice`),
    or they cross, the first from the lowest of `once` to the highest of `twice` at least,
    the second from the lowest of `twice` to the highest of `once`."""
    low, high = (once & -once).bit_length() - 1, once.bit_length() - 1
    low2, high2 = (twice & -twice).bit_length() - 1, twice.bit_length() - 1
    nested = max(shortest, high - low + 1) + max(shortest, high2 - low2 + 1)
    crossed = max(shortest, high2 - low + 1) + max(shortest, high - low2 + 1)
    return min(nested, crossed)


_ACES = 2 | 1 << HIGH_ACE  # an ace's places, low and high
_MIDDLE = ((1 << HIGH_ACE) - 1) & ~3  # the places of 2 to king


def _covering_run(span: int, held: int, shortest: int) -> tuple[int, int]:
    """(length, places without a natural of `held`) of the shortest run covering every place
    of `span`, at least `shortest` long, on its best window; _NEVER where no run can."""
    if not span:
        return shortest, 0
    low, high = (span & -span).bit_length() - 1, span.bit_length() - 1
    length = max(shortest, high - low + 1)
    if length > HIGH_ACE:
        return _NEVER, _NEVER
    return length, min(
        length - (held & INTERVAL_MASK[(lo, lo + length - 1)]).bit_count()
        for lo in range(max(1, high - length + 1), min(low, HIGH_ACE + 1 - length) + 1)
    )


def _covering(first, run: tuple[int, int, int]) -> tuple[int, ...] | None:
    """The positions of `first` (suit, positions: the natural a run must cover, or None) that the
    run holds: () with nothing to cover, None where the run covers none of them."""
    if first is None:
        return ()
    suit, lo, hi = run
    must = tuple(p for p in first[1] if lo <= p <= hi)
    return must if suit == first[0] and must else None


def _kept(present: list[int], spare: int, ends: tuple[int, ...], must: tuple[int, ...]):
    """The naturals a run may keep: those present less each choice of up to `spare` given to
    other melds, never giving away one of `ends`, and holding one of `must` where given.

    Only the naturals that may be given are chosen from (a lone `must` kept like an end), so
    every choice looked at is one tried, and counted: the steps follow the work."""
    held = [p for p in must if p in present]
    if must and not held:
        return
    fixed = set(ends) | set(held if len(held) == 1 else ())
    free = [p for p in present if p not in fixed]
    for yields in range(spare + 1):
        for given in combinations(free, yields):
            if len(held) > 1 and all(p in given for p in held):
                continue  # both places of an ace held twice given away
            yield tuple(p for p in present if p not in given)


def _naturals_left(totals: list[int], rules: Rules) -> list[int]:
    """The ranks with naturals that must still be laid in a whole-hand deal: with wild deuces a
    2 left over is one of the wild cards, counted in W."""
    return [rank for rank in range(1, 14) if totals[rank] and not (rules.deuces and rank == 2)]


def _sets(totals: list[int], wild: int, rules: Rules, step):
    """The sets on what the runs leave: [(rank, naturals, wilds)], or None; `step()` counts
    each rank tried for a set against the search's budget.

    Sets are given ranks in turn, ranks with most naturals first; a rank is tried only while its
    sets' natural minimums fit what it holds and (outside a whole-hand deal) the wild cards
    they need so far fit W."""
    sizes = rules.sets
    step(len(sizes) + 13)  # the ranks looked at and ordered, the sets to give them
    ranks = sorted((rank for rank in range(1, 14) if totals[rank]), key=lambda r: -totals[r])
    if rules.whole and len(_naturals_left(totals, rules)) > len(sizes):
        return None
    fill = [
        0 if rules.whole else (size if rules.exact else max(size, rules.set_naturals))
        for size in sizes
    ]
    groups: dict[int, list[int]] = {}
    spent: dict[int, tuple[int, int]] = {}  # rank -> (cards of its sets, their natural minimums)

    def cost(rank: int, cards: int) -> int:
        if rules.deuces and rank == 2:
            return cards
        return max(0, cards - totals[rank])

    def walk(index: int, previous: int, used: int):
        if index == len(sizes):
            return _share(groups, totals, wild, rules)
        same = index > 0 and sizes[index - 1] == sizes[index]
        size = fill[index] or sizes[index]
        least = rules.least(SET, size if not rules.whole else sizes[index])
        for order, rank in enumerate(ranks):
            step()
            if same and order < previous:
                continue
            if rules.distinct and rank in groups:
                continue
            cards, minimum = spent.get(rank, (0, 0))
            if minimum + least > totals[rank]:
                continue
            more = cost(rank, cards + size) - cost(rank, cards)
            if used + more > wild:
                continue
            spent[rank] = (cards + size, minimum + least)
            groups.setdefault(rank, []).append(sizes[index])
            found = walk(index + 1, order, used + more)
            groups[rank].pop()
            if groups[rank]:
                spent[rank] = (cards, minimum)
            else:
                del groups[rank]
                del spent[rank]
            if found is not None:
                return found
        return None

    return walk(0, 0, 0)


def _share(groups, totals, wild, rules: Rules):
    """Naturals and wild cards for each group of sets of one rank, or None. `low` and `high`
    bound what the groups can take of W (a 2 laid as itself counts, see the module)."""
    if rules.whole and len(groups) < len(_naturals_left(totals, rules)):
        return None
    if rules.whole and any(rank not in groups for rank in _naturals_left(totals, rules)):
        return None
    laid, low, high = [], 0, 0
    for rank, sizes in groups.items():
        have = totals[rank]
        if not rules.whole:
            sizes = [size if rules.exact else max(size, rules.set_naturals) for size in sizes]
        least = [rules.least(SET, size) for size in sizes]
        if sum(least) > have:
            return None
        if rules.deuces and rank == 2:
            low += max(sum(sizes), sum(least))
            high += 2 * have if rules.capped else wild
        else:
            low += max(0, sum(sizes) - have)
            high += have if rules.capped else wild
        laid.append((rank, sizes, least, have))
    if low > wild or (rules.whole and high < wild):
        return None
    return _deal_out(laid, wild if rules.whole else low, rules)


def _deal_out(laid, wild, rules: Rules):
    """Each set's (rank, naturals, wilds) taking exactly `wild` of W: every minimum first, then
    naturals up to its size, in a whole-hand deal the rest of a rank's naturals (not the 2s,
    which are wild cards when not laid as themselves) to its first set; wild cards to fill,
    then the rest where a set may take them."""
    sets = []
    for rank, sizes, least, have in laid:
        naturals = list(least)
        left = have - sum(least)
        for i, size in enumerate(sizes):
            more = min(left, max(0, size - naturals[i]))
            naturals[i] += more
            left -= more
        if rules.whole and not (rules.deuces and rank == 2):
            naturals[0] += left
        for i, size in enumerate(sizes):
            sets.append([rank, naturals[i], max(0, size - naturals[i])])
    wild -= sum(item[2] + (item[1] if rules.deuces and item[0] == 2 else 0) for item in sets)
    for item in sets:
        room = item[1] - item[2] if rules.capped else wild
        give = min(room, wild)
        item[2] += give
        wild -= give
    return [tuple(item) for item in sets] if wild == 0 else None


def counts(cards) -> list[int]:
    """The naturals of the hand by (suit, rank) slot."""
    count = [0] * 64
    for card in cards:
        if not card.joker:
            count[slot(SUIT_INDEX[card.suit], card.rank)] += 1
    return count


class _Naturals:
    """The hand's natural cards by slot, each taken once as the opening places it."""

    def __init__(self, cards):
        self.pools: dict[int, list[int]] = {}
        for index, card in enumerate(cards):
            if not card.joker:
                self.pools.setdefault(slot(SUIT_INDEX[card.suit], card.rank), []).append(index)
        self.used: set[int] = set()

    def take(self, key: int) -> int:
        """The hand index of the next natural of this slot."""
        index = self.pools[key].pop(0)
        self.used.add(index)
        return index

    def run(self, suit: int, lo: int, hi: int, naturals) -> list[tuple[int | None, str]]:
        """A run's places: (hand index, or None for a wild card, and the card shown)."""
        return [
            (self.take(slot(suit, rank_at(p))) if p in naturals else None, face(suit, p))
            for p in range(lo, hi + 1)
        ]

    def set(self, rank: int, naturals: int, wilds: int) -> list[tuple[int | None, str]]:
        """A set's places: its naturals of any suit, then its wild cards shown as the rank."""
        places = []
        for _ in range(naturals):
            key = next(k for k in sorted(self.pools) if k & 15 == rank and self.pools[k])
            places.append((self.take(key), SLOT_TEXT[key]))
        return places + [(None, rank_name(rank))] * wilds

    def wild_pool(self, cards) -> list[int]:
        """The wild cards in the order they fill places: the jokers, then the 2s left."""
        jokers = [i for i, card in enumerate(cards) if card.joker]
        return jokers + sorted(
            i for pool in self.pools.values() for i in pool if cards[i].rank == 2
        )


def _lay(cards, places, wild_pool: list[int], used: set[int]):
    """A meld of the hand's own cards, each wild place taking the next wild card; and each 2
    played wild, marked as the card it stands for (`2♦=7♠`)."""
    meld, marks = [], []
    for index, shown in places:
        if index is None:
            index = wild_pool.pop(0)
            used.add(index)
            if not cards[index].joker:
                marks.append(f"{cards[index].physical.face()}={shown}")
        meld.append(str(cards[index].physical))
    return meld, marks


def realise(cards, found):
    """The opening as the hand's own cards: (melds, readings, kinds, wild deuces, left).

    Every natural is placed first; then the wild places take the jokers, then the 2s left."""
    runs, sets = found
    hand = _Naturals(cards)
    plans = [(RUN, hand.run(*run)) for run in sorted(runs)]
    plans += [(SET, hand.set(*meld)) for meld in sorted(sets)]
    wild_pool = hand.wild_pool(cards)
    melds, readings, kinds, marks_all = [], [], [], []
    # Sets first, then runs low to high, as the fast search shows them.
    for kind, places in sorted(plans, key=lambda plan: plan[0] != SET):
        meld, marks = _lay(cards, places, wild_pool, hand.used)
        melds.append(meld)
        readings.append([shown for _, shown in places])
        kinds.append(kind)
        marks_all.append(marks)
    left = [str(card.physical) for i, card in enumerate(cards) if i not in hand.used]
    return melds, readings, kinds, marks_all, left


def solve_general(cards, deal: Contract, rules: RuleSet, steps=None):
    """(melds, readings, kinds, wild deuces, left) of one opening, or None (exact). With `steps`,
    `OutOfSteps` once that many runs were tried without an answer.

    With wild deuces the hand is searched with its 2s natural first, then with every 2 also
    one of the wild cards (see the module's docstring)."""
    capped = rules.naturals.wild_at_most_natural
    minimums = (rules.naturals.set, rules.naturals.run)
    distinct = rules.distinct_set_ranks
    jokers = sum(card.joker for card in cards)
    count = counts(cards)
    budget = [steps] if steps else None
    plans = [(Rules(deal, rules, capped, minimums, False, distinct), jokers)]
    if rules.wild_deuces:
        twos = sum(count[slot(suit, 2)] for suit in range(4))
        if twos:
            plans.append((Rules(deal, rules, capped, minimums, True, distinct), jokers + twos))
    for plan, wilds in plans:
        found = search(count, wilds, len(cards), plan, budget)
        if found is not None:
            return realise(cards, found)
    return None
