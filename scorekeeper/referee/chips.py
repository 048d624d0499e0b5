"""A verdict's cards as the referee's pages show them: a plain card as itself, a wild card as the
card played and the place it stands for (`JK as J♦`, `2♠ wild as 7♥`), with the words a screen
reader says for it (`joker as jack of diamonds`).

The engine gives each card in R1 notation with every wild card declared (a verdict's `declared`:
`JK=J♦`, `2♠=7♥`); the words are this module's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Card
from ..rules.cards import SUIT_NAMES

RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
JOKER_WORD = "joker"
# Between a wild card and what it stands for: `JK as J♦`, `2♠ wild as 7♥`.
JOKER_AS = "as"
DEUCE_AS = "wild as"


def card_words(card: Card) -> str:
    """`jack of diamonds`, `7 of spades`, `jack` (a rank alone, as a set's joker stands for)."""
    rank = RANK_WORDS.get(card.rank, str(card.rank))
    return f"{rank} of {SUIT_NAMES[card.suit]}" if card.suit else rank


@dataclass(frozen=True)
class Chip:
    """One card of a verdict: `played` is the card itself (`7♠`, `JK`, `2♠`); a wild card also
    has the place it stands for (`stands_for`, `J♦` or `J`), `joining` words and `said`, how the
    whole chip reads aloud."""

    played: str
    played_red: bool
    stands_for: str = ""
    stands_red: bool = False
    joining: str = ""
    said: str = ""

    @property
    def wild(self) -> bool:
        return bool(self.stands_for)

    @property
    def joker(self) -> bool:
        return self.played == str(Card(None, None, True))

    @property
    def shown(self) -> str:
        """The chip's text: `7♠`, `JK as J♦`, `2♠ wild as 7♥`."""
        return " ".join(part for part in (self.played, self.joining, self.stands_for) if part)


def chip(token: str) -> Chip:
    """The chip of one card in R1 notation (`7♠`, `JK=J♦`, `2♠=7♥`, a rank alone: `7`)."""
    card = Card.parse(token, rank_only=True)
    stood = card.stands_for
    if stood is None:
        return Chip(card.face(), card.red)
    played = card.physical
    if played.joker:
        joining, said = JOKER_AS, f"{JOKER_WORD} {JOKER_AS} {card_words(stood)}"
    else:
        joining, said = DEUCE_AS, f"{card_words(played)} {DEUCE_AS} {card_words(stood)}"
    return Chip(played.face(), played.red, stood.face(), stood.red, joining, said)


def chips(tokens: list[str]) -> list[Chip]:
    """The chips of a meld, a reading or a hand, in order."""
    return [chip(token) for token in tokens]
