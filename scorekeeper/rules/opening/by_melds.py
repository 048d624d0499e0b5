"""R5 Opening search under R12's meld settings, meld by meld: an ace that wraps (`ace: wrap`), wild
cards spaced in a run (`wild_spacing`), a cap on wild cards in a meld of the opening (`wild_max`,
the deal's or the rule set's) and runs whose suits are free (`any_suit_run`).

The counting searches (search.py, whole_hand.py, general.py) are built on runs that never turn
the corner and on wild cards that go anywhere; a deal under any of these settings is searched
here instead, by laying its melds one at a time, and every opening found is judged again by the
laid opening's own check (laid.py's `opening_readings`) before it is given. The search is exact:

* Each meld of the contract, runs first (their places are fewest), is cut from the cards left in
  every way its kind allows: a set from some of one rank's naturals (which suits is a choice:
  the others stay for runs) and wild cards; a run at every place its length may start (round the
  ace where it wraps, R12.3), each place holding a natural of its rank (of its suit, or of any
  suit where suits are free) or a wild card. Every legal meld of the opening is one of these.
* The settings prune as the meld is cut: no more wild cards than the deal's cap, none closer to
  the last wild card than `wild_spacing`, each kind's natural-card minimum (R11), and wild cards
  never outnumbering natural ones where the rules say so. A set's rank is not taken twice where
  `distinct_set_ranks` says so, and a run does not touch another of its suit (R5).
* Wild cards: a joker does all that a wild 2 does, so jokers are spent first; where deuces are
  wild, a 2 spent as a wild card is chosen by suit (the 2 of another suit may be a run's own).
* The melds of one kind and size are cut in one order (each at or after the last one's in the
  order of their ranks, suits, places and cards), so no opening is tried twice over in another
  order. Outside a whole-hand deal a meld is laid at its size where the rules say
  `exact_sizes`, else at its size or longer, and a card is kept for the discard; in a
  whole-hand deal every card is laid.
* Outside a whole-hand deal, where a run needs one natural card and wild cards may outnumber
  natural ones, only the melds' own sizes are cut: any opening with a longer meld is one at the
  meld's size too, the cards past it kept in hand. A set keeps its naturals (all but the wild
  cards past its size, or the naturals alone where they fill it: each set's minimum is within
  its size, or sets are cut longer); a run keeps the places of its size round one of its
  naturals. Both keep fewer wild cards, as spaced as before, and touch no run they did not.
* Where the contract is runs of one suit each, outside a whole-hand deal and where no 2 is
  wild, a run's place whose natural is left takes it (an ace, low or high, may take a wild card
  instead): no other meld can hold that card, as another run of the suit there would touch this
  one, so an opening with a wild card there is one with the natural there too, the wild card
  kept in hand (fewer wild cards, as spaced as before).
* The sets come last, every run laid: where no 2 is wild, the suits of a set's naturals change
  nothing after it, so one choice of them is cut, and the sets of one need are ordered by rank
  and number of naturals alone.
* Counts before sets: the sets come last, and each needs a rank holding its natural minimum and
  its size less the wild cards it may take; with fewer such ranks than sets left (different
  ranks where `distinct_set_ranks` says so), no set is cut.
* A budget of steps (each place a run may start at, each place of it filled, each choice of a
  set's naturals or of the 2s spent wild, each meld tried, the cards dealt out and the readings
  the laid check looks at): past it `OutOfSteps` is raised, never an answer the search has not
  finished.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate

from ..cards import Card
from ..contracts import Contract
from ..melds import ANY_SUIT_RUN, RUN, SET, Reading, most_run, rank_at, run_lows
from ..ruleset import Ace, MeldKind, RuleSet
from .general import OutOfSteps
from .laid import opening_readings, runs_touch

JOKER = "JK"
ACE = 1
# The settings whose pruning the search notes, by the names the solver relaxes them by: the
# deal's cap on wild cards, their spacing, and sets of different ranks.
UNCAPPED, UNSPACED, DISTINCT = "uncapped", "unspaced", "distinct"
# What a step here costs in the solver's budget (`SOLVE_STEPS`, counted in general.py's steps):
# a meld cut is up to eight of general.py's steps of CPU (bench/solver.py, "meld by meld").
STEP_COST = 8
_SUITS = ("S", "H", "D", "C")
# The ranks of a run's places by its first place and length (round the ace past 14).
_PLACES = {
    (low, size): tuple(rank_at(position) for position in range(low, low + size))
    for low in range(1, 15)
    for size in range(1, 15)
}
# The ranks of the run positions 1 to 27 (round the ace twice over); how many of a suit's places
# up to each position hold a natural is counted along them, and a run's naturals are two of those
# counts apart.
_RANKS_AT = tuple(rank_at(position) for position in range(1, 28))


def needs_melds(deal: Contract, rules: RuleSet) -> bool:
    """Whether the deal is searched here: under an ace that wraps, spaced or capped wild cards,
    or a run of any suits (R12.3)."""
    return (
        rules.ace is Ace.WRAP
        or bool(rules.wild_spacing)
        or deal.wild_max is not None
        or bool(deal.any_suit_runs)
    )


@dataclass(frozen=True)
class _Cut:
    """One meld cut from the cards left: what it takes, and what later melds must respect (a
    set's rank, a run's suit and places)."""

    kind: str
    taken: tuple[tuple[object, int], ...]
    rank: int = 0
    suit: str | None = None
    low: int = 0
    high: int = 0
    # A set whose suits do not matter: cut in the order of its rank and count of naturals alone.
    naturals: int | None = None

    @cached_property
    def order(self) -> tuple:
        """Where the cut stands among the cuts of one need: the melds of one kind and size are
        cut in this order, so no opening is tried again in another."""
        if self.naturals is not None:
            return (self.rank, "", 0, 0, self.naturals)
        taken = tuple(sorted((str(key), count) for key, count in self.taken))
        return (self.rank, self.suit or "", self.low, self.high, taken)


class _Search:
    def __init__(self, cards: list[Card], deal: Contract, rules: RuleSet, steps: int | None):
        self.deal, self.rules = deal, rules
        self.left = Counter(_key(card) for card in cards)
        self.steps = steps
        self.cap = deal.wild_max
        self.exact = rules.exact_sizes and not deal.whole_hand
        # Whether a run's place takes the natural left for it, never a wild card (see above).
        self.naturals_first = not (
            deal.whole_hand
            or rules.wild_deuces
            or any(need.kind is not MeldKind.RUN for need in deal.needs)
        )
        # Whether a meld longer than its size has one of its size inside it (see above).
        self.shortest = not (
            deal.whole_hand or rules.naturals.wild_at_most_natural or rules.naturals.run > 1
        )
        order = {MeldKind.RUN: 0, MeldKind.ANY_SUIT_RUN: 1, MeldKind.SET: 2}
        self.needs = sorted(deal.needs, key=lambda need: (order[need.kind], -need.size))
        self.wrap = rules.ace is Ace.WRAP
        self.chosen: list[_Cut] = []
        # The settings that ruled out a meld or an opening somewhere in the search (by the name
        # the solver relaxes each by): one that never did would not change its answer.
        self.pruned: set[str] = set()

    # --- the walk ---------------------------------------------------------------------------

    def walk(self, index: int, start: tuple = ()) -> Iterator[list[_Cut]]:
        """Every way to cut the needs from `index` on, each as the melds cut."""
        if index == len(self.needs):
            left = sum(self.left.values())
            if (left == 0) if self.deal.whole_hand else (left >= 1):
                yield list(self.chosen)
            return
        need = self.needs[index]
        if need.kind is MeldKind.SET and not self._sets_left(index):
            return
        later = sum(other.size for other in self.needs[index + 1 :])
        room = sum(self.left.values()) - later - (0 if self.deal.whole_hand else 1)
        if room < need.size:
            return
        same = index + 1 < len(self.needs) and self.needs[index + 1] == need
        for cut in self._cuts(need, room, start):
            if cut.order < start:
                continue
            self.step(len(self.chosen) + 1)
            if not self._fits(cut):
                continue
            self._take(cut, -1)
            self.chosen.append(cut)
            yield from self.walk(index + 1, cut.order if same else ())
            self.chosen.pop()
            self._take(cut, 1)

    def step(self, steps: int = 1) -> None:
        """Spend steps of the budget; `OutOfSteps` past it."""
        if self.steps is not None:
            self.steps -= steps
            if self.steps < 0:
                raise OutOfSteps

    def _sets_left(self, index: int) -> bool:
        """Whether the sets still to cut (the last needs) can each have a rank: each holds at
        least its natural minimum, and its size less the wild cards it may take, of one rank;
        where the rules keep them apart, each of a rank no set has yet."""
        sets = sorted((need.size for need in self.needs[index:]), reverse=True)
        wilds = self._capped(self._wild_cards())
        totals: Counter = Counter()
        for key, count in self.left.items():
            if key != JOKER:
                totals[key[0]] += count
        least = [max(self.rules.naturals.set, 1, size - wilds) for size in sets]
        # Sets of any ranks: as many as the ranks hold of the smallest.
        room = sum(count // least[-1] for count in totals.values()) >= len(least)
        if not self.rules.distinct_set_ranks:
            return room
        taken = {cut.rank for cut in self.chosen if cut.kind == SET}
        counts = sorted((n for rank, n in totals.items() if rank not in taken), reverse=True)
        apart = len(counts) >= len(least) and all(
            count >= need for count, need in zip(counts, least, strict=False)
        )
        if room and not apart:
            self.pruned.add(DISTINCT)
        return apart

    def _take(self, cut: _Cut, sign: int) -> None:
        for key, count in cut.taken:
            self.left[key] += sign * count
            if not self.left[key]:
                del self.left[key]

    def _fits(self, cut: _Cut) -> bool:
        """R5 and R12.3 across melds: a run touches no other of its suit, a set's rank is not
        taken twice where the rules keep them apart."""
        distinct = self.rules.distinct_set_ranks
        for other in self.chosen:
            if cut.kind == SET == other.kind and distinct and cut.rank == other.rank:
                self.pruned.add(DISTINCT)
                return False
            if cut.kind == RUN == other.kind and cut.suit == other.suit:
                touch = runs_touch(cut.low, cut.high, other.low, other.high, self.wrap)
                if touch:
                    return False
        return True

    # --- the melds one need may be cut as ----------------------------------------------------

    def _sizes(self, need, room: int) -> range:
        if self.exact or (self.shortest and self.rules.naturals.set <= need.size):
            return range(need.size, need.size + 1)
        most = room if need.kind is MeldKind.SET else min(room, most_run(self.rules))
        return range(need.size, most + 1)

    def _cuts(self, need, room: int, start: tuple = ()) -> list[_Cut]:
        """The melds the need may be cut as; a run's only from the suit and first place of
        `start` on (the order the walk keeps, see `_Cut.order`)."""
        if need.kind is MeldKind.SET:
            return [cut for size in self._sizes(need, room) for cut in self._sets(size)]
        held = self._held()
        cuts = []
        for suit in (None,) if need.kind is MeldKind.ANY_SUIT_RUN else _SUITS:
            if start and (suit or "") < start[1]:
                continue
            first = start[2] if start and (suit or "") == start[1] else 0
            cuts += self._suit_runs(need, room, suit, held[suit], first)
        return cuts

    def _suit_runs(self, need, room: int, suit: str | None, held: set[int], first: int):
        """The runs of one suit (or of any, `suit` None) the need may be cut as, from the place
        `first` on: each place and length whose naturals held and wild cards fill it."""
        wilds = self._capped(self._wild_cards())
        least = self.rules.naturals.run
        ranks = [rank in held for rank in range(1, 14)]
        # A run holds each rank once, the ace at most twice (A 2 … K A).
        most = sum(ranks) + ranks[0]
        if most < least:
            return []
        before = [0, *accumulate(ranks[rank - 1] for rank in _RANKS_AT)]
        cuts = []
        for size in self._sizes(need, room):
            if size > most + wilds:
                break
            lows = run_lows(size, self.rules)
            self.step(len(lows))
            for low in lows[max(first - 1, 0) :]:
                # The naturals of the run's places: those held before its end less those
                # held before its first place.
                naturals = before[low + size - 1] - before[low - 1]
                if naturals + wilds >= size and naturals >= least:
                    cuts += self._runs(suit, low, _PLACES[low, size], wilds)
        return cuts

    def _held(self) -> dict[str | None, set[int]]:
        """The ranks of the naturals left, by suit, and of any suit (under None)."""
        held: dict[str | None, set[int]] = {suit: set() for suit in (None, *_SUITS)}
        for key, count in self.left.items():
            if key != JOKER and count:
                held[key[1]].add(key[0])
                held[None].add(key[0])
        return held

    def _sets(self, size: int) -> Iterator[_Cut]:
        rules = self.rules
        # The sets are cut last, every run laid: where no 2 is wild, which suits a set's
        # naturals are of changes nothing after it, so one choice of them is enough.
        free = not rules.wild_deuces
        for rank in range(1, 14):
            held = [(suit, self.left[(rank, suit)]) for suit in _SUITS if self.left[(rank, suit)]]
            total = sum(count for _, count in held)
            for naturals in range(max(rules.naturals.set, 1), min(total, size) + 1):
                wild = size - naturals
                if not self._wild_ok(wild, naturals):
                    continue
                for picked in _pick(held, naturals):
                    self.step()
                    taken = [((rank, suit), count) for suit, count in picked]
                    for spent in self._wilds(wild, Counter(dict(taken))):
                        yield _Cut(
                            SET,
                            tuple(taken) + spent,
                            rank=rank,
                            naturals=naturals if free else None,
                        )
                    if free:
                        break

    def _runs(self, suit: str | None, low: int, places, wilds: int) -> Iterator[_Cut]:
        size = len(places)
        kind = ANY_SUIT_RUN if suit is None else RUN
        for picks in self._places(places, suit, 0, [], -1, Counter(), wilds):
            naturals = sum(pick is not None for pick in picks)
            wild = size - naturals
            if naturals < self.rules.naturals.run or not self._wild_ok(wild, naturals):
                continue
            taken = Counter(pick for pick in picks if pick is not None)
            for spent in self._wilds(wild, taken):
                yield _Cut(
                    kind, tuple(taken.items()) + spent, suit=suit, low=low, high=low + size - 1
                )

    def _places(self, places, suit, index, picks, last_wild, used: Counter, wilds: int):
        """Each way to fill the run's places from `index`: a natural of the place's rank (of the
        run's suit, or of any), or one of the `wilds` wild cards left, spaced from the last one
        (R12.3)."""
        self.step()
        if index == len(places):
            yield list(picks)
            return
        rank = places[index]
        natural = False
        for key in [(rank, suit)] if suit else [(rank, s) for s in _SUITS]:
            if self.left[key] > used[key]:
                natural = True
                used[key] += 1
                picks.append(key)
                yield from self._places(places, suit, index + 1, picks, last_wild, used, wilds)
                picks.pop()
                used[key] -= 1
        if natural and self.naturals_first and rank != ACE:
            return
        spaced = last_wild < 0 or index - last_wild - 1 >= self.rules.wild_spacing
        if wilds and not spaced:
            self.pruned.add(UNSPACED)
        if wilds and spaced:
            picks.append(None)
            yield from self._places(places, suit, index + 1, picks, index, used, wilds - 1)
            picks.pop()

    def _wild_cards(self) -> int:
        """The wild cards left: jokers, and 2s where deuces are wild."""
        twos = sum(self.left[(2, suit)] for suit in _SUITS) if self.rules.wild_deuces else 0
        return self.left[JOKER] + twos

    def _capped(self, wilds: int) -> int:
        """The wild cards a meld may take of those left: at most the deal's cap."""
        if self.cap is None or wilds <= self.cap:
            return wilds
        self.pruned.add(UNCAPPED)
        return self.cap

    def _wild_ok(self, wild: int, naturals: int) -> bool:
        if self.cap is not None and wild > self.cap:
            self.pruned.add(UNCAPPED)
            return False
        return not (self.rules.naturals.wild_at_most_natural and wild > naturals)

    def _wilds(self, wild: int, taken: Counter) -> Iterator[tuple[tuple[object, int], ...]]:
        """The wild cards a meld spends: jokers first, then 2s by suit where deuces are wild."""
        jokers = min(wild, self.left[JOKER])
        rest = wild - jokers
        spent = ((JOKER, jokers),) if jokers else ()
        if not rest:
            yield spent
            return
        if not self.rules.wild_deuces:
            return
        twos = [(suit, self.left[(2, suit)] - taken[(2, suit)]) for suit in _SUITS]
        for picked in _pick([(suit, count) for suit, count in twos if count > 0], rest):
            self.step()
            yield spent + tuple(((2, suit), count) for suit, count in picked)


def _key(card: Card) -> object:
    return JOKER if card.joker else (card.rank, card.suit)


def _pick(held: list[tuple[str, int]], count: int) -> Iterator[list[tuple[str, int]]]:
    """Each way to take `count` cards from the suits held (suit, copies)."""
    if count == 0:
        yield []
        return
    if not held:
        return
    (suit, copies), rest = held[0], held[1:]
    for taken in range(min(copies, count), -1, -1):
        for others in _pick(rest, count - taken):
            yield ([(suit, taken)] if taken else []) + others


def solve_by_melds(
    cards: list[Card],
    deal: Contract,
    rules: RuleSet,
    steps: int | None = None,
    pruned: set[str] | None = None,
):
    """(the melds as cards, their readings) of one opening, the fewest wild 2s played, or None
    (exact); `OutOfSteps` past `steps` melds cut. With None, `pruned` is given the settings that
    ruled something out (`UNCAPPED`, `UNSPACED`, `DISTINCT`: the search with the others
    relaxed is this one again, so it finds no opening either)."""
    search = _Search(cards, deal, rules, steps)
    for cuts in search.walk(0):
        melds = _deal_out(cards, cuts)
        search.step(len(cards))
        readings = opening_readings(melds, deal, rules, search.step)
        if readings is not None:
            return melds, readings
        # The laid check refused it: on any of the settings, for all the search knows.
        search.pruned.update((UNCAPPED, UNSPACED, DISTINCT))
    if pruned is not None:
        pruned.update(search.pruned)
    return None


def _deal_out(cards: list[Card], cuts: list[_Cut]) -> list[tuple[Card, ...]]:
    """The hand's own cards for each meld cut."""
    pool: dict[object, list[Card]] = {}
    for card in cards:
        pool.setdefault(JOKER if card.joker else (card.rank, card.suit), []).append(card)
    return [
        tuple(pool[key].pop() for key, count in cut.taken for _ in range(count)) for cut in cuts
    ]


def found_details(cards: list[Card], melds, readings: list[Reading]):
    """(melds, readings, kinds, wild deuces, left) as the solver gives them: sets first, then
    runs low to high; the melds as the hand's cards in their places."""
    order = sorted(range(len(readings)), key=lambda i: (readings[i].kind != SET, readings[i].low))
    chosen = [readings[i] for i in order]
    left = list(cards)
    for meld in melds:
        for card in meld:
            left.remove(card)
    return (
        [[str(slot) for slot in reading.slots] for reading in chosen],
        [reading.faces() for reading in chosen],
        [reading.kind for reading in chosen],
        [reading.wild_deuces() for reading in chosen],
        [str(card) for card in left],
    )
