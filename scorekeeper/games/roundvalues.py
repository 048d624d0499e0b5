"""A round at each stage, one frozen value per stage, and the one check of a hand.

A round is typed (`Hand` per seat, in a `RoundEntry`), scored by the engine (`ScoredRound`),
stored (`models.Round`, its lines `models.RoundScore`) and kept in the history
(`RoundSnapshot`). The round form, the phones, the JSON API, an import and a paper sheet all
build these values, and every hand they take passes `check_hand`, which refuses it with a coded
`HandRefused` (the same code and words on every path).

The history stores a round's entry and its scores as plain JSON, one list per field with one
entry per seat (`RoundSnapshot`, the one owner of the shape of `RoundChange.before/after`).
Every database and every export holds that shape, key for key, so it stays as it is: `to_dict`
writes exactly what was always written (`counted` only when a hand was counted in points, so a
round entered by cards reads as it always has), and `from_dict` reads any of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from flask_babel import gettext as _

from ..rules import RulesError, format_cards
from ..rules.cards import Card, sort_key
from ..rules.ruleset import RuleSet
from ..rules.scoring import RoundResult, hand_penalty, most_points, parse_leftovers, points_problem
from ..rules.seating import RoundSetup
from .errors import HandRefused
from .models import Round

# What a hand can be typed as: the cards left in it, the points the table counted, or that its
# player went out.
KINDS = ("cards", "points", "out")


@dataclass(frozen=True)
class Hand:
    """A hand as typed, wherever it is typed (the round form, a phone, the API, an import, a
    paper sheet): the cards left in it (text, or a list of cards), or the points the table
    counted for it, or that its player went out."""

    kind: str
    cards: str | Sequence[str] = ""
    points: Any = None
    # With kind "out": the player went down and out in one turn (R12.3 `out_in_one_turn_bonus`).
    one_turn: bool = False


@dataclass(frozen=True)
class CheckedHand:
    """A hand as `check_hand` reads it: its cards (none when counted in points or out), their
    text in order, the points typed for a counted hand, and the penalty it scores (R10)."""

    kind: str
    cards: tuple[Card, ...]
    text: str
    points: int | None
    penalty: int


def read_cards(cards: str | Sequence[str]) -> tuple[Card, ...]:
    """The cards of a hand typed by its cards, or `HandRefused` (`not_card`) naming the first
    that is no card (R1): the part of `check_hand` that needs no rules."""
    try:
        return parse_leftovers(cards)
    except RulesError as error:
        raise HandRefused(HandRefused.NOT_CARD, error.text) from None


def check_hand(
    hand: Hand,
    rules: RuleSet,
    players: int,
    *,
    went_out: bool = False,
    alone: bool = False,
) -> CheckedHand:
    """The one check of a hand, or `HandRefused` with its code: cards that cannot be read
    (`not_card`), points that cannot be (`points`, R10), a kind that is none of `KINDS`.

    `alone`: the hand is judged without the round's other hands (a phone's), so it must also
    hold a card (`no_cards`) and no more copies of one than the packs hold (`over`, R1); in a
    round those are judged across its hands, where the player out is known."""
    if hand.kind == "out":
        return CheckedHand("out", (), "", None, 0)
    if hand.kind == "points":
        problem = points_problem(hand.points, went_out, most_points(rules, players), rules)
        if problem is not None:
            raise HandRefused(HandRefused.POINTS, problem)
        return CheckedHand("points", (), "", hand.points, hand.points)
    if hand.kind != "cards":
        raise HandRefused(
            HandRefused.KIND, _("send the cards left in hand, their points, or that you went out")
        )
    cards = read_cards(hand.cards)
    if alone and not cards:
        raise HandRefused(
            HandRefused.NO_CARDS,
            _("no cards given: enter every card left in your hand, or say you went out (R10)"),
        )
    if alone:
        try:
            rules.check_copies(cards, players)
        except RulesError as error:
            raise HandRefused(HandRefused.OVER, error.text) from None
    text = format_cards(sorted(cards, key=sort_key))
    return CheckedHand("cards", cards, text, None, hand_penalty(cards, rules))


@dataclass(frozen=True)
class RoundEntry:
    """What the table reports after a round: who went out, the cut, and each seat's `Hand`
    (by its cards or, for a hand the table counted itself, its points)."""

    out: int | None
    hands: Mapping[int, Hand] = field(default_factory=dict)
    cut_exact: bool = False
    # Each seat's buys this deal (a seat left out: none); None: not given, so a correction
    # keeps the round's own.
    buys: Mapping[int, Any] | None = None
    # The player out went down and out in the same turn (R12.3 `out_in_one_turn_bonus`).
    out_in_one_turn: bool = False

    @classmethod
    def typed(
        cls,
        out: int | None,
        leftovers: Mapping[int, str | Sequence[str]] | None = None,
        points: Mapping[int, Any] | None = None,
        *,
        cut_exact: bool = False,
        buys: Mapping[int, Any] | None = None,
        out_in_one_turn: bool = False,
    ) -> RoundEntry:
        """The entry of the cards left per seat and the points of the hands counted."""
        hands = {seat: Hand("cards", cards=cards) for seat, cards in (leftovers or {}).items()}
        hands |= {seat: Hand("points", points=value) for seat, value in (points or {}).items()}
        return cls(
            out=out, hands=hands, cut_exact=cut_exact, buys=buys, out_in_one_turn=out_in_one_turn
        )

    @property
    def counted(self) -> dict[int, Any]:
        """The points of each hand the table counted itself, by seat."""
        return {seat: hand.points for seat, hand in self.hands.items() if hand.kind == "points"}


@dataclass(frozen=True)
class ScoredRound:
    """A round scored by the engine but not yet stored."""

    setup: RoundSetup
    result: RoundResult
    leftovers: tuple[str, ...]
    counted: tuple[bool, ...]
    buys: tuple[int | None, ...]


@dataclass(frozen=True)
class RoundSnapshot:
    """Who went out, the exact cut, and each seat's cards, penalty, cut bonus and score; and
    whether the player out went down and out in one turn (their score then holds the bonus)."""

    out: int | None
    cut_exact: bool
    leftovers: tuple[str, ...]
    penalties: tuple[int, ...]
    bonus: tuple[int, ...]
    scores: tuple[int, ...]
    version: int
    # One per seat: the table counted this hand itself (its penalty is the points they gave).
    counted: tuple[bool, ...] = ()
    # One per seat: the discards bought in the deal (R8, R11); a round stored before buys were
    # counted holds none.
    buys: tuple[int, ...] = ()
    # The player out went down and out in one turn (R12.3); a round stored before the bonus
    # was played holds false.
    out_in_one_turn: bool = False

    # Each per-seat list and the column of a round's score line (`RoundScore`) that holds it:
    # the history says `penalties[1]` where the ledger says `scores[1].penalty`.
    LINES: ClassVar[Mapping[str, str]] = {
        "leftovers": "leftovers",
        "penalties": "penalty",
        "bonus": "bonus",
        "scores": "score",
        "counted": "counted",
        "buys": "buys",
    }
    # Left out of the stored shape unless a hand was counted (rounds stored before points entry),
    # a discard bought (rounds stored before buys were counted) or the player out went down and
    # out in one turn (rounds stored before that bonus was played).
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"counted", "buys", "out_in_one_turn"})
    # What a correction compares: when these are the same, nothing is stored.
    ENTRY: ClassVar[tuple[str, ...]] = (
        "out",
        "cut_exact",
        "leftovers",
        "scores",
        "counted",
        "buys",
        "out_in_one_turn",
    )

    def __post_init__(self) -> None:
        # An empty `counted` and one all false say the same: no hand was counted.
        if not any(self.counted):
            object.__setattr__(self, "counted", (False,) * len(self.scores))
        # Unknown buys (null) read as none, and no list as none for every seat.
        buys = tuple(count or 0 for count in self.buys) or (0,) * len(self.scores)
        object.__setattr__(self, "buys", buys)

    @classmethod
    def shape(cls) -> tuple[str, ...]:
        """Every key of the stored shape, in the order it is written."""
        return tuple(item.name for item in fields(cls))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundSnapshot:
        """The snapshot a history entry (or an export's `before`/`after`) holds.

        `KeyError` or `ValueError` for anything else: what is stored was checked when written.
        """
        keys = cls.shape()
        unknown = sorted(set(data) - set(keys))
        if unknown:
            raise ValueError(f"a round snapshot has no {', '.join(unknown)}")
        values = {key: data[key] for key in keys if key in data or key not in cls.OPTIONAL}
        return cls(**{key: _frozen(value) for key, value in values.items()})

    @classmethod
    def of_round(cls, played: Round) -> RoundSnapshot:
        """A stored round as it is now."""
        lines = {
            key: tuple(getattr(line, column) for line in played.scores)
            for key, column in cls.LINES.items()
        }
        return cls(
            out=played.out,
            cut_exact=played.cut_exact,
            version=played.version,
            out_in_one_turn=played.out_in_one_turn,
            **lines,
        )

    @classmethod
    def of_scored(cls, entry: RoundEntry, scored: ScoredRound, version: int) -> RoundSnapshot:
        """A round as the engine scored the table's entry, as it will be stored at `version`."""
        return cls(
            out=entry.out,
            cut_exact=entry.cut_exact,
            leftovers=tuple(scored.leftovers),
            penalties=tuple(scored.result.penalties),
            bonus=tuple(scored.result.bonus),
            scores=tuple(scored.result.scores),
            version=version,
            counted=tuple(scored.counted),
            buys=tuple(scored.buys),
            out_in_one_turn=entry.out_in_one_turn,
        )

    def to_dict(self) -> dict[str, Any]:
        """The stored shape, keys in the order they were always written."""
        data: dict[str, Any] = {}
        for key in self.shape():
            value = getattr(self, key)
            if key in self.OPTIONAL and not _any(value):
                continue
            data[key] = list(value) if isinstance(value, tuple) else value
        return data

    def __repr__(self) -> str:
        return f"RoundSnapshot.from_dict({self.to_dict()!r})"

    @property
    def out_bonus(self) -> tuple[int, ...]:
        """Each seat's bonus for going down and out in one turn: what its score holds beyond
        its penalty and cut bonus (the player out's, when the round says so; else 0)."""
        return tuple(
            score - penalty - bonus
            for score, penalty, bonus in zip(self.scores, self.penalties, self.bonus, strict=True)
        )

    @property
    def counted_seats(self) -> list[int]:
        """The seats whose hand is held as points counted at the table, not as cards."""
        return [seat for seat, hand in enumerate(self.counted) if hand]

    def same_entry(self, other: RoundSnapshot) -> bool:
        """Whether the two hold the same entry, whatever their versions."""
        return all(getattr(self, key) == getattr(other, key) for key in self.ENTRY)


def _any(value: Any) -> bool:
    """Whether a per-seat list holds anything true, or a flag is set."""
    return any(value) if isinstance(value, tuple) else bool(value)


def _frozen(value: Any) -> Any:
    """A JSON list as a tuple, so a snapshot cannot change under whoever holds it."""
    return tuple(value) if isinstance(value, list) else value
