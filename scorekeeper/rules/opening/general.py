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
        self, deal: Contract, rules: RuleSet, capped: bool, minimums: tuple[int, int], deuces: bool
    ):
        self.deuces = deuces
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

    def runs(self, index: int, wild: int, cards: int, previous):
        """Lay runs[index:] (then the sets) with `wild` wild cards and `cards` cards left."""
        if index == len(self.rules.runs):
            return self._finish(wild)
        if self._least_wild(self.masks, index) > wild:
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
        for naturals in _kept(present, spare, (lo, hi) if lone else (), must):
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


def solve_general(cards, deal: Contract, rules: RuleSet, capped=None, minimums=None, steps=None):
    """(melds, readings, kinds, wild deuces, left) of one opening, or None (exact). With `steps`,
    `OutOfSteps` once that many runs were tried without an answer.

    With wild deuces the hand is searched with its 2s natural first, then with every 2 also
    one of the wild cards (see the module's docstring)."""
    capped = rules.naturals.wild_at_most_natural if capped is None else capped
    minimums = minimums or (rules.naturals.set, rules.naturals.run)
    jokers = sum(card.joker for card in cards)
    count = counts(cards)
    budget = [steps] if steps else None
    plans = [(Rules(deal, rules, capped, minimums, False), jokers)]
    if rules.wild_deuces:
        twos = sum(count[slot(suit, 2)] for suit in range(4))
        if twos:
            plans.append((Rules(deal, rules, capped, minimums, True), jokers + twos))
    for plan, wilds in plans:
        found = search(count, wilds, len(cards), plan, budget)
        if found is not None:
            return realise(cards, found)
    return None
