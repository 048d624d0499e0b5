"""A round as the history keeps it: the one owner of the shape of `RoundChange.before/after`.

The history stores a round's entry and its scores as plain JSON, one list per field with one
entry per seat. Every database and every export holds that shape, key for key, so it stays as
it is: `to_dict` writes exactly what was always written (`counted` only when a hand was counted
in points, so a round entered by cards reads as it always has), and `from_dict` reads any of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol

from ..rules.scoring import RoundResult
from .models import Round


class Entry(Protocol):
    """What `of_scored` reads of the table's entry (`service.RoundEntry`, which imports this)."""

    @property
    def out(self) -> int | None: ...
    @property
    def cut_exact(self) -> bool: ...


class Scored(Protocol):
    """What `of_scored` reads of the engine's scoring (`service.ScoredRound`)."""

    @property
    def result(self) -> RoundResult: ...
    @property
    def leftovers(self) -> tuple[str, ...]: ...
    @property
    def counted(self) -> tuple[bool, ...]: ...
    @property
    def buys(self) -> tuple[int | None, ...]: ...


@dataclass(frozen=True)
class RoundSnapshot:
    """Who went out, the exact cut, and each seat's cards, penalty, cut bonus and score."""

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
    # Left out of the stored shape unless a hand was counted (rounds stored before points entry)
    # or a discard bought (rounds stored before buys were counted).
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"counted", "buys"})
    # What a correction compares: when these are the same, nothing is stored.
    ENTRY: ClassVar[tuple[str, ...]] = (
        "out",
        "cut_exact",
        "leftovers",
        "scores",
        "counted",
        "buys",
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
        return cls(out=played.out, cut_exact=played.cut_exact, version=played.version, **lines)

    @classmethod
    def of_scored(cls, entry: Entry, scored: Scored, version: int) -> RoundSnapshot:
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
        )

    def to_dict(self) -> dict[str, Any]:
        """The stored shape, keys in the order they were always written."""
        data: dict[str, Any] = {}
        for key in self.shape():
            value = getattr(self, key)
            if key in self.OPTIONAL and not any(value):
                continue
            data[key] = list(value) if isinstance(value, tuple) else value
        return data

    def __repr__(self) -> str:
        return f"RoundSnapshot.from_dict({self.to_dict()!r})"

    @property
    def counted_seats(self) -> list[int]:
        """The seats whose hand is held as points counted at the table, not as cards."""
        return [seat for seat, hand in enumerate(self.counted) if hand]

    def same_entry(self, other: RoundSnapshot) -> bool:
        """Whether the two hold the same entry, whatever their versions."""
        return all(getattr(self, key) == getattr(other, key) for key in self.ENTRY)


def _frozen(value: Any) -> Any:
    """A JSON list as a tuple, so a snapshot cannot change under whoever holds it."""
    return tuple(value) if isinstance(value, list) else value
