"""A slow, deliberately simple search for R5 openings: the oracle the fast solver is tested against.

Nothing clever here: every meld that can be cut from the hand is listed by brute force (every
sub-multiset of one rank plus any number of jokers for a set, of one suit plus jokers for a run),
every way of reading a run is listed by trying every start position, and every combination of
the contract's melds is tried. No lemma of the solver is used (sets of 3+ and runs of 4+ really
are tried at every size the rules allow). Wild deuces: every way of playing the 2s (each as itself
or as a wild card) is tried, a wild 2 searched as a joker.

`validate_opening` is an independent check of an arrangement as the solver reports it.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from scorekeeper.rules.cards import SUIT_SYMBOLS, Card, rank_name
from scorekeeper.rules.contracts import contract
from scorekeeper.rules.ruleset import RuleSet

JOKER = "JK"


def card_type(card: Card):
    """A card as the search sees it: (rank, suit) for a natural, "JK" for any joker."""
    return JOKER if card.joker else (card.rank, card.suit)


def card_text(kind) -> str:
    return JOKER if kind == JOKER else rank_name(kind[0]) + SUIT_SYMBOLS[kind[1]]


def run_readings(naturals: list, jokers: int) -> list[tuple[int, int]]:
    """Every (lo, hi) a run of these cards can be read as: positions 1..14, ace at 1 or 14."""
    size = len(naturals) + jokers
    suits = {suit for _, suit in naturals}
    if size < 1 or len(suits) > 1:
        return []
    found = []
    for lo in range(1, 15):
        hi = lo + size - 1
        if hi > 14:
            break
        choices = [(1, 14) if rank == 1 else (rank,) for rank, _ in naturals]
        for positions in product(*choices):
            if len(set(positions)) == len(positions) and all(lo <= p <= hi for p in positions):
                found.append((lo, hi))
                break
    return found


def sub_multisets(counter: Counter):
    """Every sub-multiset of a Counter, as a Counter."""
    kinds = sorted(counter, key=str)
    for amounts in product(*(range(counter[kind] + 1) for kind in kinds)):
        yield Counter({kind: amount for kind, amount in zip(kinds, amounts, strict=True) if amount})


def _least_naturals(kind: str, size: int, rules) -> int:
    need = rules.naturals.of(kind)
    return max(need, (size + 1) // 2) if rules.naturals.wild_at_most_natural else need


def _size_ok(size: int, sizes: list[int], exact: bool) -> bool:
    return size in sizes if exact else bool(sizes) and size >= min(sizes)


def meld_candidates(hand: Counter, deal, rules):
    """Every (kind, cards Counter, readings) that is a legal meld of the opening on its own."""
    exact = rules.exact_sizes and not deal.whole_hand
    set_sizes, run_sizes = deal.sizes("set"), deal.sizes("run")
    jokers = hand[JOKER]
    sets, runs = [], []
    for rank in range(1, 14):
        of_rank = Counter({k: c for k, c in hand.items() if k != JOKER and k[0] == rank})
        for naturals in sub_multisets(of_rank):
            natural_count = sum(naturals.values())
            for j in range(jokers + 1):
                size = natural_count + j
                if _size_ok(size, set_sizes, exact) and natural_count >= _least_naturals(
                    "set", size, rules
                ):
                    cards = Counter(naturals)
                    if j:
                        cards[JOKER] = j
                    sets.append(("set", cards, [None]))
    for suit in "SHDC":
        of_suit = Counter({k: c for k, c in hand.items() if k != JOKER and k[1] == suit})
        for naturals in sub_multisets(of_suit):
            natural_list = list(naturals.elements())
            for j in range(jokers + 1):
                size = len(natural_list) + j
                if not _size_ok(size, run_sizes, exact):
                    continue
                if len(natural_list) < _least_naturals("run", size, rules):
                    continue
                readings = [(suit, lo, hi) for lo, hi in run_readings(natural_list, j)]
                if readings:
                    cards = Counter(naturals)
                    if j:
                        cards[JOKER] = j
                    runs.append(("run", cards, readings))
    return sets, runs


def _ranks_apart(chosen) -> bool:
    """The sets chosen are each of a rank no other set has (R12.3 `distinct_set_ranks`)."""
    ranks = [
        next((kind[0] for kind in meld[1] if kind != JOKER), None)
        for meld in chosen
        if meld[0] == "set"
    ]
    known = [rank for rank in ranks if rank is not None]
    return len(set(known)) == len(known)


def _matches_sizes(chosen, deal, exact: bool) -> bool:
    """The melds match the contract's melds one to one, each exactly (or at least) its size."""
    for kind in ("set", "run"):
        lengths = sorted(sum(meld[1].values()) for meld in chosen if meld[0] == kind)
        sizes = deal.sizes(kind)
        if exact and lengths != sizes:
            return False
        if any(length < size for length, size in zip(lengths, sizes, strict=True)):
            return False
    return True


def contiguous(a, b) -> bool:
    """Same suit and one run ends at p while the other starts at p + 1."""
    return a[0] == b[0] and (a[2] + 1 == b[1] or b[2] + 1 == a[1])


def readable_apart(runs) -> tuple | None:
    """A choice of one reading per run with no two same-suit runs contiguous, if any."""
    for choice in product(*(readings for _, _, readings in runs)):
        if all(
            not contiguous(choice[i], choice[j])
            for i in range(len(choice))
            for j in range(i + 1, len(choice))
        ):
            return choice
    return None


def deuce_views(cards: Counter, rules):
    """The hand with each way of playing its 2s: some 2s of each suit counted as jokers."""
    if not rules.wild_deuces:
        yield cards
        return
    deuces = [kind for kind in cards if kind != JOKER and kind[0] == 2]
    for wild in product(*(range(cards[kind] + 1) for kind in deuces)):
        view = Counter(cards)
        for kind, number in zip(deuces, wild, strict=True):
            view[kind] -= number
            view[JOKER] += number
        yield +view


def exhaustive_opening(hand, round_number: int, rules: RuleSet):
    """One legal opening as a list of (kind, Counter of cards, reading) or None if none exists."""
    for cards in deuce_views(Counter(card_type(card) for card in hand), rules):
        found = _exhaustive(cards, round_number, rules)
        if found is not None:
            return found
    return None


def _exhaustive(cards: Counter, round_number: int, rules):
    deal = contract(round_number, rules)
    exact = rules.exact_sizes and not deal.whole_hand
    total = sum(cards.values())
    sets, runs = meld_candidates(cards, deal, rules)
    slots = [("run", runs)] * deal.runs + [("set", sets)] * deal.sets
    chosen: list = []

    def finish():
        used = sum(sum(meld[1].values()) for meld in chosen)
        left = total - used
        if deal.whole_hand and left != 0:
            return None
        if not deal.whole_hand and left < 1:
            return None
        if not _matches_sizes(chosen, deal, exact):
            return None
        if rules.distinct_set_ranks and not _ranks_apart(chosen):
            return None
        run_melds = [meld for meld in chosen if meld[0] == "run"]
        choice = readable_apart(run_melds)
        if choice is None:
            return None
        readings = iter(choice)
        return [
            (kind, meld_cards, next(readings) if kind == "run" else None)
            for kind, meld_cards, _ in chosen
        ]

    def walk(slot: int, start: int, remaining: Counter):
        if slot == len(slots):
            return finish()
        kind, options = slots[slot]
        if slot and slots[slot - 1][0] != kind:
            start = 0
        for index in range(start, len(options)):
            meld = options[index]
            if any(remaining[k] < c for k, c in meld[1].items()):
                continue
            chosen.append(meld)
            found = walk(slot + 1, index, remaining - meld[1])
            chosen.pop()
            if found is not None:
                return found
        return None

    return walk(0, 0, cards)


# ----- an independent check of the solver's answer --------------------------------------------


def _parse_text(text: str):
    if text == JOKER:
        return JOKER
    for rank in range(1, 14):
        for suit, symbol in SUIT_SYMBOLS.items():
            if text == rank_name(rank) + symbol:
                return (rank, suit)
    raise AssertionError(f"not a canonical card: {text!r}")


def _reading_position_list(reading: list[str]):
    """Positions and suit of a run reading, or an error message."""
    parsed = [_parse_text(text) for text in reading]
    if any(p == JOKER for p in parsed):
        return None, "a run reading still shows a joker"
    suits = {suit for _, suit in parsed}
    if len(suits) != 1:
        return None, "a run reading mixes suits"
    first = parsed[0][0]
    lo = 1 if first == 1 else first
    positions = list(range(lo, lo + len(parsed)))
    if positions[-1] > 14:
        return None, "a run reading goes past the ace"
    for position, (rank, _) in zip(positions, parsed, strict=True):
        if rank != (1 if position == 14 else position):
            return None, f"a run reading is not consecutive: {reading}"
    return (suits.pop(), positions[0], positions[-1]), None


def validate_opening(hand, round_number: int, rules: RuleSet, details) -> list[str]:
    """What is wrong with the arrangement in `details` (empty when it is a legal opening)."""
    deal = contract(round_number, rules)
    exact = rules.exact_sizes and not deal.whole_hand
    melds, readings, kinds, left = (
        details["melds"],
        details["readings"],
        details["kinds"],
        details["left"],
    )
    if not (len(melds) == len(readings) == len(kinds)):
        return ["melds, readings and kinds differ in length"]
    problems = _contract_problems(hand, deal, melds, kinds, left)
    shaped = [
        (kind, Counter({i: 1 for i in range(len(meld))}))
        for meld, kind in zip(melds, kinds, strict=True)
    ]
    if not _matches_sizes(shaped, deal, exact):
        problems.append(f"meld sizes {[len(m) for m in melds]} do not match {deal}")
    intervals = []
    for meld, reading, kind in zip(melds, readings, kinds, strict=True):
        found, interval = _meld_problems(meld, reading, kind, rules)
        problems.extend(found)
        if interval is not None:
            intervals.append(interval)
    for i in range(len(intervals)):
        for j in range(i + 1, len(intervals)):
            if contiguous(intervals[i], intervals[j]):
                problems.append(f"contiguous runs {intervals[i]} and {intervals[j]}")
    if rules.distinct_set_ranks:
        ranks = [
            reading[0].rstrip("♠♥♦♣")
            for reading, kind in zip(readings, kinds, strict=True)
            if kind == "set"
        ]
        if len(set(ranks)) != len(ranks):
            problems.append(f"sets of one rank {ranks}")
    return problems


def _contract_problems(hand, deal, melds, kinds, left) -> list[str]:
    """The arrangement as a whole: the contract's kinds, exactly the hand's cards, the discard."""
    problems = []
    if kinds.count("set") != deal.sets or kinds.count("run") != deal.runs:
        problems.append(f"kinds {kinds} do not match the contract {deal}")
    laid = Counter()
    for meld in melds:
        laid.update(_parse_text(text) for text in meld)
    kept = Counter(_parse_text(text) for text in left)
    if laid + kept != Counter(card_type(card) for card in hand):
        problems.append("melds and left are not exactly the hand")
    if deal.whole_hand and left:
        problems.append("a whole-hand deal must use the whole hand")
    if not deal.whole_hand and not left:
        problems.append("no card left for the discard")
    return problems


def _is_wild(text: str, read: str, rules) -> bool:
    """A joker, or (wild deuces) a 2 read as anything but itself."""
    if text == JOKER:
        return True
    return rules.wild_deuces and text != read and _parse_text(text)[0] == 2


def _meld_problems(meld, reading, kind, rules) -> tuple[list[str], tuple | None]:
    """One meld against its reading: (its problems, its run's (suit, lo, hi) when it is one)."""
    if len(meld) != len(reading):
        return ["a reading differs in length from its meld"], None
    problems = []
    wild = 0
    for text, read in zip(meld, reading, strict=True):
        if _is_wild(text, read, rules):
            wild += 1
        elif text != read and not (kind == "set" and _rank_of_text(text) == _rank_of_text(read)):
            problems.append(f"natural {text} read as {read}")
    naturals = len(meld) - wild
    deuces = kind == "set" and rules.wild_deuces and _rank_of_text(reading[-1]) == 2
    if deuces and any(t != JOKER and t != r for t, r in zip(meld, reading, strict=True)):
        problems.append(f"a 2 read as wild in a set of 2s: {meld}")
    needed = _least_naturals(kind, len(meld), rules)
    if naturals < needed:
        problems.append(f"{kind} with too few naturals: {meld}")
    if kind == "set":
        if len({_rank_of_text(text) for text in reading}) != 1:
            problems.append(f"set of mixed ranks: {reading}")
        return problems, None
    interval, error = _reading_position_list(reading)
    if error:
        problems.append(error)
    return problems, interval


def _rank_of_text(text: str) -> int:
    for rank in range(1, 14):
        if text == rank_name(rank):
            return rank
    return _parse_text(text)[0]
