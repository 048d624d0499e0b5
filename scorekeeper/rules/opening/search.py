"""R5 Opening search, rounds 1-6: the hand as counts, the runs worth trying, the sets they leave,
and each reason it gives when no opening exists.

The hand becomes counts: `n[s][r]` copies of each natural (suit s, rank r), `N[r]` naturals of
each rank, and `J` jokers. Run positions are 1..14 (an ace sits at 1 or 14; nothing wraps, R4).

The runs are chosen first, as intervals (a `Run`); for a fixed choice of runs the rest is decided
by counting, exactly:

* Sets never need more than 3 cards. In rules with "3+" sets, a bigger set can drop a joker
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

Which runs are tried. In "exactly 4" rules: every 4-card window. In "4+" rules a longer run
is only ever needed in a special shape. Take any legal opening and trim runs while legal (drop an
end card back into the hand: the run still has >= 4 cards, enough naturals, and no new
contiguity). In a fully trimmed opening, a run longer than 4 has each end blocked: either the end
card is natural and the run has exactly `run_naturals` naturals (so it uses `L - run_naturals`
jokers, hence `L <= J + run_naturals`), or trimming would make it touch another run of its suit,
which needs that run to end exactly on this end's position. With at most two runs in rounds 1-6
at most one end can be blocked the second way. So a run of 5+ cards is tried only if
`L <= J + run_naturals`, with a natural available at both ends (one run: both ends must be
natural-blocked, which also needs `run_naturals >= 2`) or at one end while the other run of its
suit overlaps it on exactly that other end position. (family: `5♠ JK 7♠ JK 9♠`.)
Two runs are tried as pairs of runs that each fit alone with the sets; a pair needs at least the
jokers each run needs on its own plus what the sets need with every natural to themselves (run
cells only add demand, sets only lose naturals), so pairs over that budget are skipped.

The search's runs are `Run` values: positions lo..hi of one suit, 1 = the low ace and 14 the high
ace (R4: nothing wraps); the search counts cards in (suit, rank) slots, so each run also knows its
places by slot, from the tables of positions here that whole_hand.py, general.py and
arrangement.py read too. Whether two runs touch is R5's rule, `opening.runs_touch`, the one the
referee applies to laid melds.

Every reason the search can give is one `Refusal` member: a code whose words live in words.py
(`opening.size`, ...), filled from the hand's counts (its size, its jokers, the natural-card
minimums searched) and the round's contract only when a refusal is given.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from ..cards import SUIT_SYMBOLS, SUITS, Card, check_copies, rank_name
from ..contracts import Contract
from ..errors import CopyLimitError, RulesError
from ..melds import HIGH_ACE, MIN_RUN, MIN_SET, rank_at
from ..ruleset import RuleSet
from ..verdict import Problem
from ..words import Code, Join, Message, joined, message, words
from .laid import runs_touch

SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def slot(suit: int, rank: int) -> int:
    """A (suit, rank) count slot: suit * 16 + rank."""
    return (suit << 4) | rank


def face(suit: int, position: int) -> str:
    """The canonical text of the card at a run position of a suit: `A♠` at 1 and at 14."""
    return rank_name(rank_at(position)) + SUIT_SYMBOLS[SUITS[suit]]


# Canonical text of each (suit, rank) count slot.
SLOT_TEXT = {slot(suit, rank): face(suit, rank) for suit in range(4) for rank in range(1, 14)}

_POSITIONS = [(lo, hi) for lo in range(1, HIGH_ACE + 1) for hi in range(lo, HIGH_ACE + 1)]
# Run cells of every interval: (lo, hi) -> tuple of (suit-less) ranks, ace counted per position.
INTERVAL_RANKS = {(lo, hi): tuple(rank_at(p) for p in range(lo, hi + 1)) for lo, hi in _POSITIONS}
# Bit p of an interval's mask: the interval holds position p.
INTERVAL_MASK = {(lo, hi): sum(1 << p for p in range(lo, hi + 1)) for lo, hi in _POSITIONS}
# Each non-empty subset of up to 3 runs, by their number: the min-cut test checks every one.
SUBSETS = {
    size: [subset for width in range(1, size + 1) for subset in combinations(range(size), width)]
    for size in range(1, 4)
}


def _cells(suit: int, lo: int, hi: int) -> tuple[tuple[int, int], ...]:
    """The run's places as ((count slot, places), ...): an A..A run has two places for its ace."""
    places: dict[int, int] = {}
    for rank in INTERVAL_RANKS[(lo, hi)]:
        key = slot(suit, rank)
        places[key] = places.get(key, 0) + 1
    return tuple(places.items())


CELLS = {(suit, lo, hi): _cells(suit, lo, hi) for suit in range(4) for lo, hi in _POSITIONS}


class Run(NamedTuple):
    """A run the search may lay: positions `lo`..`hi` of one suit (1 = low ace, 14 = high ace).

    `cells` counts its places by (suit, rank) count slot, as ((slot, places), ...); `need` is the
    fewest jokers it takes on its own (its places no natural of the hand can fill); `needs_overlap`
    marks a run of 5+ cards worth laying only where the other run of its suit overlaps it on
    exactly one end position (see `Search.candidates`).
    """

    suit: int
    lo: int
    hi: int
    cells: tuple[tuple[int, int], ...]
    need: int = 0
    needs_overlap: bool = False

    @classmethod
    def of(cls, suit: int, lo: int, hi: int, need: int = 0, needs_overlap: bool = False) -> Run:
        """The run of positions lo..hi of a suit (0-3, in SUITS order)."""
        return cls(suit, lo, hi, CELLS[(suit, lo, hi)], need, needs_overlap)

    def __repr__(self) -> str:
        extra = ", needs_overlap=True" if self.needs_overlap else ""
        return (
            f"Run({face(self.suit, self.lo)}-{face(self.suit, self.hi)}, need={self.need}{extra})"
        )

    def touches(self, other: Run) -> bool:
        """Same suit and contiguous, so the two read as one run: never in one opening (R5)."""
        return self.suit == other.suit and runs_touch(self.lo, self.hi, other.lo, other.hi)

    def overlaps_at_end(self, other: Run) -> bool:
        """Same suit, and one run ends exactly where the other starts (a one-card overlap)."""
        return self.suit == other.suit and (self.hi == other.lo or other.hi == self.lo)


def contract_text(deal: Contract) -> str:
    """`1 set + 1 run`: the round's contract without the whole-hand wording (R3)."""
    return deal.short()


class Need(Code):
    """The natural cards a contract needs: in all, and for each kind of meld (R4)."""

    IN_ALL = "opening.naturals_needed"
    SET = "opening.set_naturals"
    RUN = "opening.run_naturals"


def _naturals_needed(search, deal: Contract) -> Message:
    """`at least 5 natural cards (2 a set, 3 a run)`: the contract's natural-card minimums (R4)."""
    kinds = [(deal.sets, Need.SET, search.set_naturals), (deal.runs, Need.RUN, search.run_naturals)]
    each = [message(kind, need=need) for count, kind, need in kinds if count]
    least = sum(count * need for count, _, need in kinds)
    return message(Need.IN_ALL, least=least, each=joined(Join.COMMA, each))


class Refusal(Code):
    """A reason no opening exists: its code, the rule that decides it, and the values its words
    show for one hand (the search's counts) and contract."""

    SIZE = ("opening.size", "R5.3")
    NATURALS = ("opening.naturals", "R4.3")
    SETS = ("opening.sets", "R5.1")
    RUNS = ("opening.runs", "R5.1")
    SUITS = ("opening.suits", "R5.4")
    WHOLE = ("opening.whole", "R5.4")
    JOINT = ("opening.joint", "R5.1")

    def __init__(self, id: str, rule: str):
        super().__init__(id)
        self.rule = rule
        # Too few cards, or four suits in round 7, refuse alike in every rule set; any other
        # refusal may turn on the natural-card minimums (R11's settings).
        self.turns_on_naturals = self._name_ not in ("SIZE", "SUITS")

    def message(self, search, deal: Contract) -> Message:
        """This refusal's code with its values for one hand (the search's counts) and contract."""
        values = {
            "contract": contract_text(deal),
            "size": search.size,
            "jokers": search.jokers,
            "naturals": search.size - search.jokers,
            "set_naturals": search.set_naturals,
            "run_naturals": search.run_naturals,
            "sets": deal.sets,
            "runs": deal.runs,
            "round": deal.round,
            "min_set": MIN_SET,
            "min_run": MIN_RUN,
        }
        if self is Refusal.SIZE:
            values["least"] = deal.least_cards + 1
        elif self is Refusal.NATURALS:
            values["needed"] = _naturals_needed(search, deal)
        elif self is Refusal.SUITS:
            values["suits"] = search.suit_count
        return Message(self, values)

    def problem(self, search, deal: Contract) -> Problem:
        """This refusal for one hand (the search's counts) and contract, in a player's words."""
        return Problem.of(self.message(search, deal), self.rule)


_RANKS = frozenset(range(1, 14))


class Held(Code):
    """Why a hand cannot be searched at all (R1): an item that is no card, a card with no suit
    or rank, more copies than the packs hold."""

    NOT_A_CARD = "search.not_a_card"
    NO_SUIT = "search.no_suit"
    NO_RANK = "search.no_rank"
    COPIES = "search.copies"


_UNSET = object()


class Search:
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
        "_sets_alone",
    )

    def __init__(self, cards: list[Card], deal: Contract, rules: RuleSet, packs, joker_limit):
        """Count the hand in one pass, refusing what cannot be judged (R1)."""
        count = [0] * 64
        rank_total = [0] * 14
        mask = [0, 0, 0, 0]
        texts = []
        jokers = 0
        too_many = False
        suit_index = SUIT_INDEX
        for position, card in enumerate(cards, start=1):
            if card.__class__ is not Card and not isinstance(card, Card):
                raise RulesError(
                    words(message(Held.NOT_A_CARD, position=position, card=repr(card)))
                )
            if card.joker:
                jokers += 1
                texts.append("JK")
                continue
            suit = suit_index.get(card.suit)
            rank = card.rank
            if suit is None or rank not in _RANKS:
                why = Held.NO_SUIT if card.suit is None else Held.NO_RANK
                raise RulesError(message(why, card=str(card), position=position))
            key = suit << 4 | rank
            count[key] += 1
            if count[key] > packs:
                too_many = True
            rank_total[rank] += 1
            mask[suit] |= 1 << rank
            texts.append(SLOT_TEXT[key])
        if too_many or jokers > joker_limit:
            check_copies(cards, packs, joker_limit)  # raises CopyLimitError with its message
            raise CopyLimitError(message(Held.COPIES))  # pragma: no cover
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
        self.whole = whole = deal.whole_hand
        self.set_naturals = rules.naturals.set
        self.run_naturals = rules.naturals.run
        self.exact = rules.exact_sizes and not whole
        self._base = None
        self._sets_alone = _UNSET  # worked out by `early_refusal`

    @property
    def suit_count(self) -> int:
        """The suits the hand's natural cards are in."""
        return sum(1 for held in self.mask if held)

    def variant(self, set_naturals: int, run_naturals: int, exact: bool) -> Search:
        """The same hand searched under other natural-card minimums or opening sizes (R11's
        settings), without counting it again."""
        other = object.__new__(Search)
        other.count, other.rank_total, other.mask = self.count, self.rank_total, self.mask
        other.texts, other.jokers, other.size = self.texts, self.jokers, self.size
        other.sets, other.runs, other.whole = self.sets, self.runs, self.whole
        other.set_naturals, other.run_naturals, other.exact = set_naturals, run_naturals, exact
        other._base = None
        other._sets_alone = _UNSET
        return other

    @property
    def base_marginals(self):
        """The set marginals with every natural free (see `_marginals`), worked out once."""
        if self._base is None:
            self._base = self._marginals(range(1, 14), None)
        return self._base

    # ----- sets (R4: 3 cards of one rank, at least set_naturals of them natural) ----------------

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

    def cheapest_sets(self, used, touched):
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

    def _set_costs(self, used):
        """(rank, [(j, jokers for j sets of that rank)]) for every rank that can make a set."""
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
        return options

    def _all_set_choices(self, used, budget):
        """Every k (rank -> number of sets) whose joker cost fits the budget."""
        options = self._set_costs(used)
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

    # ----- runs (R4: 4+ cards in a row of one suit, at least run_naturals natural) --------------

    def _run_naturals_ok(self, runs, ks) -> bool:
        """The min-cut test: every subset T of runs can get run_naturals * |T| naturals."""
        rn = self.run_naturals
        count = self.count
        sn = self.set_naturals
        for subset in SUBSETS[len(runs)]:
            merged: dict[int, int] = {}
            for index in subset:
                for key, cells in runs[index].cells:
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

    def fit(self, runs):
        """Sets k for these runs (rounds 1-6), or None if they cannot all be made."""
        cells: dict[int, int] = {}
        for run in runs:
            for key, number in run.cells:
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
        if not self.sets:
            return {} if self._run_naturals_ok(runs, {}) else None
        return self._sets_beside(runs, used, self.jokers - run_jokers)

    def _sets_beside(self, runs, used, budget):
        """The sets k that fit beside these runs (whose cells take `used[r]` naturals) within the
        joker budget, with every run keeping its natural minimum; None if no k does."""
        touched = [rank for rank in range(1, 14) if used[rank]]
        cheapest = self.cheapest_sets(used, set(touched))
        if cheapest is None or cheapest[0] > budget:
            return None
        ks = cheapest[1]
        if self._run_naturals_ok(runs, ks):
            return ks
        if not self._run_naturals_ok(runs, {}):
            return None
        for ks in self._all_set_choices(used, budget):
            if self._run_naturals_ok(runs, ks):
                return ks
        return None

    def candidates(self) -> list[Run]:
        """Runs worth trying in rounds 1-6, fewest jokers first (see the module's docstring)."""
        # Short runs of naturals first: the arrangement shown spends few jokers.
        found = sorted(self._windows())
        cells = CELLS
        return [
            Run(suit, lo, hi, cells[(suit, lo, hi)], need, overlap)
            for need, _, suit, lo, hi, overlap in found
        ]

    def _windows(self):
        """(jokers needed at the least, length, suit, lo, hi, needs_overlap) of each run worth
        trying (see the module's docstring), in no useful order."""
        jokers = self.jokers
        rn = self.run_naturals
        longest = self.size - 1 - MIN_SET * self.sets - MIN_RUN * (self.runs - 1)
        if self.exact:
            longest = min(longest, MIN_RUN)
        else:
            longest = min(longest, HIGH_ACE, max(MIN_RUN, jokers + rn))
        for suit in range(4):
            bits = self.mask[suit]
            present = bits.bit_count()  # an ace counts twice: this only overestimates
            if present < rn or present + jokers < MIN_RUN:
                continue
            for length in range(MIN_RUN, longest + 1):
                for lo in range(1, HIGH_ACE + 2 - length):
                    hi = lo + length - 1
                    present = (bits & INTERVAL_MASK[(lo, hi)]).bit_count()
                    if length - present > jokers or present < rn:
                        continue
                    needs_overlap = False
                    if length > MIN_RUN:
                        lo_nat = bits >> lo & 1
                        hi_nat = bits >> hi & 1
                        if not (lo_nat and hi_nat and rn >= 2):
                            if self.runs < 2 or not (lo_nat or hi_nat):
                                continue
                            needs_overlap = True
                    if length == HIGH_ACE and self._naturals_within(suit) < rn:
                        continue
                    yield length - present, length, suit, lo, hi, needs_overlap

    def _naturals_within(self, suit) -> int:
        """The naturals an A..A run of the suit can hold (its ace twice, if held twice)."""
        count = self.count
        return sum(min(count[key], number) for key, number in CELLS[(suit, 1, HIGH_ACE)])

    # ----- the contract ------------------------------------------------------------------------

    def solve_partial(self):
        """Rounds 1-6: ((runs, ks), None) for an opening, or (None, the `Refusal`)."""
        refusal = self._before_runs()
        if refusal is not None:
            return None, refusal
        if not self.runs:
            return ([], self._sets_alone[1]), None
        candidates = self.candidates()
        if not candidates:
            return None, Refusal.RUNS
        if self.runs == 1:
            found = self._one_run(candidates)
        else:
            set_floor = self._sets_alone[0] if self.sets else 0  # what the sets need at the least
            found = self._two_runs(candidates, self.jokers - set_floor)
        return (found, None) if found is not None else (None, Refusal.JOINT)

    def early_refusal(self) -> Refusal | None:
        """What refuses the hand before any run is fitted beside the sets: too few cards or
        naturals, the sets even with every natural to themselves, or no run at all (R4, R5)."""
        refusal = self._before_runs()
        if refusal is None and self.runs and next(self._windows(), None) is None:
            return Refusal.RUNS
        return refusal

    def _before_runs(self) -> Refusal | None:
        """Too few cards or naturals, or no sets even with every natural to themselves."""
        refusal = self._too_few()
        if refusal is not None or not self.sets:
            return refusal
        if self._sets_alone is _UNSET:
            self._sets_alone = self.cheapest_sets([0] * 14, set())
        if self._sets_alone is None or self._sets_alone[0] > self.jokers:
            return Refusal.SETS
        return None

    def _too_few(self) -> Refusal | None:
        """Too few cards for the contract plus a discard (R5), or too few naturals (R4)."""
        if self.size < MIN_SET * self.sets + MIN_RUN * self.runs + 1:
            return Refusal.SIZE
        if self.size - self.jokers < self.set_naturals * self.sets + self.run_naturals * self.runs:
            return Refusal.NATURALS
        return None

    def _one_run(self, candidates):
        """The first run that fits beside the sets, as (runs, ks), or None."""
        for run in candidates:
            ks = self.fit((run,))
            if ks is not None:
                return [run], ks
        return None

    def _two_runs(self, candidates, budget):
        """Two runs that fit together beside the sets, never touching (R5), as (runs, ks).

        Each must fit alone (adding a run never lowers the jokers needed). Two runs need at least
        the jokers each needs alone, plus the sets' own (`budget` is what is left after those):
        candidates come sorted by that need, so a pair over the budget ends the inner (or outer)
        loop. Two different runs first (the same one twice needs duplicates or jokers).
        """
        alone = [run for run in candidates if self.fit((run,)) is not None]
        for i, first in enumerate(alone):
            limit = budget - first.need
            if first.need > limit:
                break
            seconds = []
            for second in alone[i + 1 :]:
                if second.need > limit:
                    break
                seconds.append(second)
            seconds.append(first)
            for second in seconds:
                if first.touches(second):
                    continue
                if (first.needs_overlap or second.needs_overlap) and not first.overlaps_at_end(
                    second
                ):
                    continue
                ks = self.fit((first, second))
                if ks is not None:
                    return [first, second], ks
        return None
