"""R5 Opening search: the opening found, made of the hand's own cards.

The search works on counts; only the arrangement it returns is realised as cards. A small
max-flow places naturals in run cells (each run's natural minimum first, R4, then as many as
possible), the sets take the remaining naturals of their rank, and jokers fill every other place.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, rank_name
from ..melds import HIGH_ACE, MIN_SET, rank_at
from .search import SUIT_INDEX, Run, Search, face, slot


class _Flow:
    """A tiny max-flow (BFS augmenting paths) for placing naturals in run cells."""

    def __init__(self):
        self.residual: dict[object, dict[object, int]] = {}

    def add(self, source, target, capacity):
        self.residual.setdefault(source, {})
        self.residual.setdefault(target, {})
        self.residual[source][target] = self.residual[source].get(target, 0) + capacity
        self.residual[target].setdefault(source, 0)

    def _path(self, source, sink):
        """The edges of one augmenting path from source to sink (BFS), or None."""
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
            return None
        path = []
        node = sink
        while parent[node] is not None:
            path.append((parent[node], node))
            node = parent[node]
        return path

    def run(self, source, sink):
        while (path := self._path(source, sink)) is not None:
            push = min(self.residual[u][v] for u, v in path)
            for u, v in path:
                self.residual[u][v] -= push
                self.residual[v][u] += push


def _place_naturals(search: Search, runs: Sequence[Run], ks) -> list[dict[int, int]]:
    """How many naturals of each (suit, rank) slot each run takes: minimums first, then most."""
    flow = _Flow()
    ranks_in_runs = {key & 15 for run in runs for key, _ in run.cells}
    capacity = {}
    for rank in ranks_in_runs:
        cap = search.rank_total[rank] - search.set_naturals * ks.get(rank, 0)
        flow.add("source", ("rank", rank), cap)
    slots = {key for run in runs for key, _ in run.cells}
    for key in slots:
        flow.add(("rank", key & 15), ("slot", key), search.count[key])
    for index, run in enumerate(runs):
        for key, cells in run.cells:
            capacity[(key, index)] = cells
            flow.add(("slot", key), ("run", index), cells)
        flow.add(("run", index), "sink", search.run_naturals)
    flow.run("source", "sink")
    for index in range(len(runs)):
        flow.add(("run", index), "sink", HIGH_ACE)
    flow.run("source", "sink")
    return [
        {
            key: capacity[(key, index)] - flow.residual[("slot", key)][("run", index)]
            for key, _ in run.cells
        }
        for index, run in enumerate(runs)
    ]


class _Hand:
    """The hand's cards handed out to melds: by (suit, rank) slot, earliest copy first."""

    def __init__(self, cards: Sequence[Card], texts: list[str]):
        self.cards = cards
        self.texts = texts
        self.pools: dict[int, list[int]] = {}
        self.jokers: list[int] = []
        for index, card in enumerate(cards):
            if card.joker:
                self.jokers.append(index)
            else:
                self.pools.setdefault(self.slot_of(index), []).append(index)
        for pool in self.pools.values():
            pool.reverse()  # pop() hands out the earliest copy first
        self.jokers.reverse()
        self.used: set[int] = set()

    def slot_of(self, index: int) -> int:
        card = self.cards[index]
        return slot(SUIT_INDEX[card.suit], card.rank)

    def natural(self, key: int) -> str:
        """The earliest copy left of a natural, as text."""
        index = self.pools[key].pop()
        self.used.add(index)
        return self.texts[index]

    def joker(self) -> str:
        self.used.add(self.jokers.pop())
        return "JK"

    def left(self) -> list[str]:
        return [text for i, text in enumerate(self.texts) if i not in self.used]

    def run(self, run: Run, per_slot: dict[int, int]):
        """A run's cards and their reading (each joker as the card it stands for)."""
        left_for = dict(per_slot)
        meld, reading = [], []
        for position in range(run.lo, run.hi + 1):
            key = slot(run.suit, rank_at(position))
            if left_for.get(key, 0) > 0:
                left_for[key] -= 1
                meld.append(self.natural(key))
            else:
                meld.append(self.joker())
            reading.append(face(run.suit, position))
        return meld, reading

    def sets(self, rank: int, sets: int, set_naturals: int):
        """`sets` sets of a rank: each its natural minimum first, then naturals to 3 cards, then
        jokers; as (meld, reading) with a joker read as the rank alone (R4)."""

        def by_suit(i: int) -> tuple[int, int]:
            return SUIT_INDEX[self.cards[i].suit], i

        available = []
        for suit in range(4):
            available.extend(self.pools.get(slot(suit, rank), ()))
        available.sort(key=by_suit)
        groups: list[list[int]] = [[] for _ in range(sets)]
        for group in groups:
            for _ in range(set_naturals):
                group.append(available.pop(0))
        for group in groups:
            while len(group) < MIN_SET and available:
                group.append(available.pop(0))
        laid = []
        for group in groups:
            for index in group:
                self.used.add(index)
                self.pools[self.slot_of(index)].remove(index)
            group.sort(key=by_suit)
            meld = [self.texts[i] for i in group]
            reading = list(meld)
            while len(meld) < MIN_SET:
                meld.append(self.joker())
                reading.append(rank_name(rank))
            laid.append((meld, reading))
        return laid


def realise(cards: Sequence[Card], search: Search, runs: Sequence[Run], ks):
    """The melds as physical cards: (melds, readings, kinds, left) in canonical text, sets first,
    runs low to high."""
    hand = _Hand(cards, search.texts)
    taken = _place_naturals(search, runs, ks) if runs else []
    run_melds = sorted(
        (
            ((run.suit, run.lo, run.hi), *hand.run(run, per_slot))
            for run, per_slot in zip(runs, taken, strict=True)
        ),
        key=lambda laid: laid[0],
    )
    set_melds = [
        laid for rank in sorted(ks) for laid in hand.sets(rank, ks[rank], search.set_naturals)
    ]
    melds = [meld for meld, _ in set_melds] + [meld for _, meld, _ in run_melds]
    readings = [reading for _, reading in set_melds] + [reading for _, _, reading in run_melds]
    kinds = ["set"] * len(set_melds) + ["run"] * len(run_melds)
    return melds, readings, kinds, hand.left()
