"""A slow, deliberately simple search for R5 openings: the oracle the fast solver is tested against.

Nothing clever here: every meld that can be cut from the hand is listed by brute force (every
sub-multiset of one rank plus any number of jokers for a set, of one suit plus jokers for a run),
every way of reading a run is listed by trying every start position, and every combination of
the contract's melds is tried. No lemma of the solver is used (sets of 3+ and runs of 4+ really
are tried at every size the profile allows).

`validate_opening` is an independent check of an arrangement as the solver reports it.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from scorekeeper.rules.cards import SUIT_SYMBOLS, Card, rank_name
from scorekeeper.rules.contracts import contract
from scorekeeper.rules.profiles import get_profile

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


def meld_candidates(hand: Counter, round_number: int, profile):
    """Every (kind, cards Counter, readings) that is a legal meld of the opening on its own."""
    exact = profile.exact_opening and round_number != 7
    jokers = hand[JOKER]
    sets, runs = [], []
    for rank in range(1, 14):
        of_rank = Counter({k: c for k, c in hand.items() if k != JOKER and k[0] == rank})
        for naturals in sub_multisets(of_rank):
            natural_count = sum(naturals.values())
            for j in range(jokers + 1):
                size = natural_count + j
                if (size == 3 if exact else size >= 3) and natural_count >= profile.set_naturals:
                    cards = Counter(naturals)
                    if j:
                        cards[JOKER] = j
                    sets.append(("set", cards, [None]))
    for suit in "SHDC":
        of_suit = Counter({k: c for k, c in hand.items() if k != JOKER and k[1] == suit})
        for naturals in sub_multisets(of_suit):
            natural_list = list(naturals.elements())
            if len(natural_list) < profile.run_naturals:
                continue
            for j in range(jokers + 1):
                size = len(natural_list) + j
                if not (size == 4 if exact else size >= 4):
                    continue
                readings = [(suit, lo, hi) for lo, hi in run_readings(natural_list, j)]
                if readings:
                    cards = Counter(naturals)
                    if j:
                        cards[JOKER] = j
                    runs.append(("run", cards, readings))
    return sets, runs


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


def exhaustive_opening(hand, round_number: int, profile=None):
    """One legal opening as a list of (kind, Counter of cards, reading) or None if none exists."""
    profile = get_profile(profile)
    deal = contract(round_number)
    cards = Counter(card_type(card) for card in hand)
    total = sum(cards.values())
    sets, runs = meld_candidates(cards, round_number, profile)
    slots = [("run", runs)] * deal.runs + [("set", sets)] * deal.sets
    chosen: list = []

    def finish():
        used = sum(sum(meld[1].values()) for meld in chosen)
        left = total - used
        if deal.whole_hand and left != 0:
            return None
        if not deal.whole_hand and left < 1:
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


def validate_opening(hand, round_number: int, profile, details) -> list[str]:
    """What is wrong with the arrangement in `details` (empty when it is a legal opening)."""
    profile = get_profile(profile)
    deal = contract(round_number)
    exact = profile.exact_opening and not deal.whole_hand
    melds, readings, kinds, left = (
        details["melds"],
        details["readings"],
        details["kinds"],
        details["left"],
    )
    if not (len(melds) == len(readings) == len(kinds)):
        return ["melds, readings and kinds differ in length"]
    problems = _contract_problems(hand, deal, melds, kinds, left)
    intervals = []
    for meld, reading, kind in zip(melds, readings, kinds, strict=True):
        found, interval = _meld_problems(meld, reading, kind, profile, exact)
        problems.extend(found)
        if interval is not None:
            intervals.append(interval)
    for i in range(len(intervals)):
        for j in range(i + 1, len(intervals)):
            if contiguous(intervals[i], intervals[j]):
                problems.append(f"contiguous runs {intervals[i]} and {intervals[j]}")
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
        problems.append("round 7 must use the whole hand")
    if not deal.whole_hand and not left:
        problems.append("no card left for the discard")
    return problems


def _meld_problems(meld, reading, kind, profile, exact) -> tuple[list[str], tuple | None]:
    """One meld against its reading: (its problems, its run's (suit, lo, hi) when it is one)."""
    if len(meld) != len(reading):
        return ["a reading differs in length from its meld"], None
    problems = []
    naturals = [text for text in meld if text != JOKER]
    for text, read in zip(meld, reading, strict=True):
        if text != JOKER and text != read:
            problems.append(f"natural {text} read as {read}")
    least, needed = (3, profile.set_naturals) if kind == "set" else (4, profile.run_naturals)
    if (len(meld) != least) if exact else (len(meld) < least):
        problems.append(f"{kind} of wrong size: {meld}")
    if len(naturals) < needed:
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
