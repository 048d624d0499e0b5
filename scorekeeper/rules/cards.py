"""R1 Cards and notation: parsing the players' notation and writing the canonical one.

Ranks are numbers: 1 is the ace, 11 J, 12 Q, 13 K. Suits are the letters S H D C. A joker is a
`Card` with `joker=True`; its rank and suit, when present, are the position it was declared to
stand for (`JK=7♠` in a run, `JK=7` in a set). A 2 may carry a declaration too (`2♠=7♥`): it is
read everywhere, and a meld accepts it only where the rule set makes deuces wild (R11); the 2's
own rank and suit stay its `rank` and `suit`, the place it stands for is `as_rank` / `as_suit`.
A natural card with no suit (`7`) is a rank-only card, accepted only where the suit does not
matter (leftover cards, scored by rank alone).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import CardError, CopyLimitError, SizeError
from .words import Code, Message, message

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS = frozenset("HD")
RANKS = tuple(range(1, 14))
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}

# The most cards any one input may hold: a hand after many purchases, a long run, a whole round
# of leftovers. Larger input is refused before any work is done.
MAX_CARDS = 40

_SUIT_INPUT = {
    "S": "S",
    "♠": "S",
    "♤": "S",
    "H": "H",
    "♥": "H",
    "♡": "H",
    "D": "D",
    "♦": "D",
    "♢": "D",
    "C": "C",
    "♣": "C",
    "♧": "C",
}
_RANK_INPUT = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_RANK_INPUT.update({str(n): n for n in range(2, 11)})
_JOKERS = {"JK", "JKR", "JOKER", "*", "🃏"}
# A joker's declaration: `JK=7♠` stands for the 7♠.
_DECLARES = "="
# Left out of a token before it is read: the emoji variation selectors a keyboard adds to a suit.
_IGNORED = ("\ufe0f", "\ufe0e")
_SEPARATORS = re.compile(r"[\s,;]+")
_BRACKETS = re.compile(r"[\[\](){}<>]")


class Notation(Code):
    """What a card's text gets wrong (R1), and how many copies of a card a game holds."""

    BRACKETS = "card.brackets"
    EMPTY = "card.empty"
    DECLARES_ONLY = "card.declares_only"
    NO_SUIT = "card.no_suit"
    NOT_TEXT = "card.not_text"
    TOO_MANY = "card.too_many"
    DECLARES_NOTHING = "card.declares_nothing"
    JOKER_AS_JOKER = "card.joker_as_joker"
    DEUCE_AS_JOKER = "card.deuce_as_joker"
    DECLARES_TWICE = "card.declares_twice"
    DECLARES_NO_CARD = "card.declares_no_card"
    JOKER_DECLARATION = "card.joker_declaration"
    DEUCE_DECLARATION = "card.deuce_declaration"
    OVER_EXACT = "card.over_exact"
    OVER_RANK = "card.over_rank"
    NO_JOKERS = "card.no_jokers"
    OVER_JOKERS = "card.over_jokers"


_NATURAL = re.compile(r"^(10|[2-9AJQKT])([SHDC♠♥♦♣♤♡♢♧]?)$")


def _declaration_problem(declared: str, wild: str = "JK") -> Message:
    """Why `JK=…` (or `2♠=…`) declares no card: a declaration is never dropped or guessed (R1)."""
    joker = wild == "JK"
    if not declared:
        what = message(Notation.DECLARES_NOTHING)
    elif declared in _JOKERS:
        what = message(Notation.JOKER_AS_JOKER if joker else Notation.DEUCE_AS_JOKER)
    elif "=" in declared:
        what = message(Notation.DECLARES_TWICE)
    else:
        what = message(Notation.DECLARES_NO_CARD, declared=declared)
    code = Notation.JOKER_DECLARATION if joker else Notation.DEUCE_DECLARATION
    return message(code, what=what, wild=wild)


def rank_name(rank: int) -> str:
    """`A`, `2` … `10`, `J`, `Q`, `K`."""
    return RANK_NAMES.get(rank, str(rank))


def _clean(token: str) -> str:
    """Upper-case, without the emoji variation selectors a keyboard adds to a suit symbol."""
    for mark in _IGNORED:
        token = token.replace(mark, "")
    return token.strip().upper()


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card: a natural (rank and suit), a rank-only card, or a joker."""

    rank: int | None
    suit: str | None
    joker: bool = False
    # A declared 2 (`2♠=7♥`): the rank and suit it stands for (0 and "" when not declared).
    as_rank: int = 0
    as_suit: str = ""

    @classmethod
    def parse(cls, token: str, *, position: int = 1, rank_only: bool = False) -> Card:
        """Read one token of R1 notation; `rank_only` also accepts a rank with no suit."""
        text = _clean(token)
        if not text:
            raise CardError(token, position, message(Notation.EMPTY))
        head, equals, declared = text.partition(_DECLARES)
        if head in _JOKERS:
            if not equals:
                return cls(None, None, True)
            match = _NATURAL.match(declared)
            if not match:
                raise CardError(token, position, _declaration_problem(declared))
            stood_for = cls.parse(declared, position=position, rank_only=True)
            return cls(stood_for.rank, stood_for.suit, True)
        match = _NATURAL.match(head if equals else text)
        if not match:
            bracketed = _BRACKETS.search(text)
            if equals:
                raise CardError(token, position, message(Notation.DECLARES_ONLY))
            raise CardError(token, position, message(Notation.BRACKETS) if bracketed else None)
        rank = _RANK_INPUT[match.group(1)]
        suit = _SUIT_INPUT.get(match.group(2)) if match.group(2) else None
        if suit is None and not rank_only:
            raise CardError(token, position, message(Notation.NO_SUIT, rank=rank_name(rank)))
        if not equals:
            return cls(rank, suit, False)
        if rank != 2:
            raise CardError(token, position, message(Notation.DECLARES_ONLY))
        if not _NATURAL.match(declared):
            raise CardError(
                token, position, _declaration_problem(declared, Card(rank, suit).face())
            )
        stood_for = cls.parse(declared, position=position, rank_only=True)
        return cls(rank, suit, False, stood_for.rank, stood_for.suit or "")

    @property
    def natural(self) -> bool:
        return not self.joker

    @property
    def declared(self) -> bool:
        """True for a joker whose position was given (`JK=7♠`, `JK=7`), or a declared 2."""
        return (self.joker and self.rank is not None) or self.as_rank != 0

    @property
    def stands_for(self) -> Card | None:
        """The place a declared wild card stands for, as a card (`7♠`) or a rank (`7`)."""
        if self.as_rank:
            return Card(self.as_rank, self.as_suit or None)
        if self.joker and self.rank is not None:
            return Card(self.rank, self.suit)
        return None

    @property
    def physical(self) -> Card:
        """The card itself, without any declaration: `2♠` for `2♠=7♥`, `JK` for `JK=7♠`."""
        if self.joker:
            return JOKER
        return Card(self.rank, self.suit) if self.as_rank else self

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    def face(self) -> str:
        """The card or position it shows, without the joker mark: `7♠`, `7`, or `JK`."""
        if self.rank is None:
            return "JK"
        return rank_name(self.rank) + (SUIT_SYMBOLS[self.suit] if self.suit else "")

    def __str__(self) -> str:
        if self.joker:
            return "JK" if self.rank is None else f"JK={self.face()}"
        if self.as_rank:
            return f"{self.face()}={self.stands_for.face()}"
        return self.face()

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(None, None, True)


def declared_as(card: Card, stood_for: Card) -> Card:
    """A wild card declared as the place it stands for: `JK=7♠`, `JK=7`, `2♥=7♠`."""
    if card.joker:
        return Card(stood_for.rank, stood_for.suit, True)
    return Card(card.rank, card.suit, False, stood_for.rank or 0, stood_for.suit or "")


def declared_text(played: str, shown: str) -> str:
    """A card as played (`JK`, `2♥`, `7♠`) beside what it shows in its meld (`7♠`): the natural
    card itself where they are the same, else the wild card declared (`JK=7♠`, `2♥=7♠`)."""
    card = _read(played, 1, False)
    if not card.declared and card.face() == shown:
        return played
    return str(declared_as(card.physical, _read(shown, 1, True)))


def parse_cards(
    text: str | Iterable[str], *, rank_only: bool = False, limit: int = MAX_CARDS
) -> tuple[Card, ...]:
    """Read a list of cards: one string separated by spaces or commas, or a list of strings."""
    if isinstance(text, str):
        tokens = [t for t in _SEPARATORS.split(text) if t]
    else:
        tokens = []
        for item in text:
            if not isinstance(item, str):
                raise CardError(repr(item), len(tokens) + 1, message(Notation.NOT_TEXT))
            tokens.extend(t for t in _SEPARATORS.split(item) if t)
    if len(tokens) > limit:
        raise SizeError(message(Notation.TOO_MANY, cards=len(tokens), limit=limit))
    return tuple(_read(token, index, rank_only) for index, token in enumerate(tokens, start=1))


def _read(token: str, position: int, rank_only: bool) -> Card:
    """One token as a card (`Card.parse`), read once: a card is the same value wherever it is
    written, and every hand is written in the same few dozen tokens. Only a refusal names the
    token's place (`position`), and a refusal is never kept."""
    key = (token, rank_only)
    card = _READ.get(key)
    if card is None:
        card = Card.parse(token, position=position, rank_only=rank_only)
        if len(_READ) < READ_MOST:
            _READ[key] = card
    return card


# The tokens read so far, by their text and whether a rank alone was allowed; bounded, for text
# typed in every way a keyboard allows.
READ_MOST = 4096
_READ: dict[tuple[str, bool], Card] = {}


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of a list of cards, in the order given."""
    return " ".join(str(card) for card in cards)


def sort_key(card: Card) -> tuple[int, int, int]:
    """Order for display: naturals by rank (ace low) then suit, rank-only cards, jokers last."""
    if card.joker:
        return (2, 0, 0)
    suit_order = SUITS.index(card.suit) if card.suit else len(SUITS)
    return (0 if card.suit else 1, card.rank or 0, suit_order)


def check_copies(cards: Iterable[Card], packs: int, jokers: int) -> None:
    """Raise `CopyLimitError` when the cards need more copies than `packs` packs and `jokers` hold.

    Rank-only cards count against their rank (4 suits × packs), exact cards against the packs.
    """
    over = over_copies(cards, packs, jokers)
    if over:
        raise CopyLimitError(over[0][1])


def over_copies(cards: Iterable[Card], packs: int, jokers: int) -> list[tuple[str, Message]]:
    """Every kind of card held more often than `packs` packs and `jokers` hold, as `(kind,
    message)`: the jokers first (`JK`), then each exact card (`7♠`), then each rank (`7`: its
    cards with a suit and without); `copy_kind` says which cards a kind counts."""
    exact: Counter[tuple[int, str]] = Counter()
    by_rank: Counter[int] = Counter()
    joker_count = 0
    for card in cards:
        if card.joker:
            joker_count += 1
            continue
        by_rank[card.rank] += 1
        if card.suit:
            exact[(card.rank, card.suit)] += 1
    over: list[tuple[str, Message]] = []
    if joker_count > jokers:
        over.append(("JK", _too_many_jokers(joker_count, jokers, packs)))
    for (rank, suit), count in sorted(exact.items()):
        if count > packs:
            card = Card(rank, suit)
            said = message(Notation.OVER_EXACT, count=count, card=str(card), packs=packs)
            over.append((str(card), said))
    for rank, count in sorted(by_rank.items()):
        if count > 4 * packs:
            said = message(
                Notation.OVER_RANK, count=count, rank=rank_name(rank), packs=packs, held=4 * packs
            )
            over.append((rank_name(rank), said))
    return over


def _too_many_jokers(count: int, jokers: int, packs: int) -> Message:
    """`1 joker, but this game is played without jokers`; `4 jokers, but this game has only 3
    (2 packs)`."""
    if not jokers:
        return message(Notation.NO_JOKERS, jokers=count)
    return message(Notation.OVER_JOKERS, jokers=count, held=jokers, packs=packs)


def copy_kind(kind: str, card: Card) -> bool:
    """Whether `card` counts against a kind `over_copies` names (`JK`, `7♠` or the rank `7`)."""
    if card.joker:
        return kind == "JK"
    return kind in (card.face(), rank_name(card.rank))


def notation() -> dict[str, object]:
    """R1 as data, for a client that reads and writes cards the way this module does (the tap
    card pad): the ranks and suits in order with their names, which suits are red, the joker's
    spelling, every spelling read as a rank, a suit or a joker, the declaration mark and what
    separates cards. Everything is plain JSON."""
    return {
        "ranks": [rank_name(rank) for rank in RANKS],
        "suits": [
            {"symbol": SUIT_SYMBOLS[suit], "name": SUIT_NAMES[suit], "red": suit in RED_SUITS}
            for suit in SUITS
        ],
        "joker": str(JOKER),
        "read_rank": {typed: rank_name(rank) for typed, rank in _RANK_INPUT.items()},
        "read_suit": {typed: SUIT_SYMBOLS[suit] for typed, suit in _SUIT_INPUT.items()},
        "read_joker": sorted(_JOKERS),
        "declares": _DECLARES,
        "ignored": list(_IGNORED),
        "separators": _SEPARATORS.pattern,
    }
