"""Database models: the score book of each game, its rounds and the record of every correction."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..platform.database import db, utcnow
from ..rules.ruleset import MOST_DEALS, MOST_PLAYERS, RuleSet

NAME_MAX = 24
# A name's look-alike key (`names.name_key`) is at most this long: a longer one is kept hashed.
KEY_MAX = 72


@lru_cache(maxsize=64)
def _parsed(document: str) -> RuleSet:
    """A stored rule set document, read (a `RuleSet` is frozen, so games may share one)."""
    return RuleSet.parse(document)


def localtime(moment: datetime | None, pattern: str = "%a %d %b, %H:%M") -> str:
    """A stored UTC time in the clock of the machine serving the table."""
    if moment is None:
        return ""
    try:
        return moment.replace(tzinfo=UTC).astimezone().strftime(pattern)
    except (OverflowError, ValueError, OSError):
        # Near year 1 or 9999 the local clock's offset falls outside what a date holds.
        return moment.strftime(pattern) + " UTC"


class Game(db.Model):
    """One evening's game: its own rule set (R11), the seats and who dealt first (R2).

    The game keeps its whole rule set document, not a preset's name: a preset changed in a later
    release never changes a game already played.
    """

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The rule set's whole document (`RuleSet.to_json`), as it was when the game was created.
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_dealer: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # sha256 of the game's edit key (see keys.py); None for a game made before keys existed.
    key_hash: Mapped[str | None] = mapped_column(String(255))
    # Set when the game is tidied away from the lists; it stays reachable by its link.
    archived_at: Mapped[datetime | None]
    # The last round played when the table ended the game before its last deal (its leaders
    # win); None for a game played to its last deal or still under way.
    ended_after: Mapped[int | None]
    # When this table first played again from this game: an early end is then no longer taken
    # back, since the new game started from this one's result.
    played_again_at: Mapped[datetime | None]
    # Brought in from an old paper score sheet (`papersheets`): finished, every hand counted in
    # points, its times the sheet's date.
    from_sheet: Mapped[bool] = mapped_column(default=False, server_default=false())

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )
    history: Mapped[list[RoundChange]] = relationship(
        back_populates="game", order_by="RoundChange.id", cascade="all, delete-orphan"
    )
    renames: Mapped[list[Rename]] = relationship(
        back_populates="game", order_by="Rename.id", cascade="all, delete-orphan"
    )

    __table_args__ = (
        CheckConstraint("first_dealer >= 0", name="first_dealer_is_a_seat"),
        CheckConstraint("ended_after >= 1", name="ended_after_a_round"),
        # The games list pages through ongoing games, then finished ones, each newest first.
        Index("ix_games_ongoing", "archived_at", "finished_at", "created_at", "id"),
        Index("ix_games_newest", "archived_at", "created_at", "id"),
    )

    @property
    def rule_set(self) -> RuleSet:
        """The game's rules, read from its document once per loaded game (and once per distinct
        document while the process runs: most games share a preset's)."""
        cached = self.__dict__.get("_rule_set")
        if cached is None or cached[0] is not self.rules:
            text = json.dumps(self.rules, sort_keys=True, separators=(",", ":"))
            cached = (self.rules, _parsed(text))
            self.__dict__["_rule_set"] = cached
        return cached[1]

    @rule_set.setter
    def rule_set(self, rules: RuleSet) -> None:
        self.rules = rules.to_json()
        self.__dict__["_rule_set"] = (self.rules, rules)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def ended_early(self) -> bool:
        return self.ended_after is not None

    @property
    def archived(self) -> bool:
        return self.archived_at is not None

    @property
    def names(self) -> list[str]:
        """Player names in clockwise seat order."""
        return [player.name for player in self.players]

    def __repr__(self) -> str:
        return f"<Game {self.id} {self.rules.get('name') if self.rules else None} {self.names}>"


class Player(db.Model):
    """A seat at the table; seats are 0-based and clockwise (R2)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    # The name reduced to how it looks (`names.name_key`), so "Ann", "ann", "Ánn" and "Аnn"
    # (Cyrillic А) cannot share a table.
    name_key: Mapped[str] = mapped_column(String(KEY_MAX))

    game: Mapped[Game] = relationship(back_populates="players")

    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        UniqueConstraint("game_id", "name_key"),
        # A player's seats across games, found by key or as written (a merge is judged on the
        # two players' seats alone: `season.players.named`).
        Index("ix_players_name_key", "name_key"),
        Index("ix_players_name", "name"),
        # No rule set seats more than R11 allows (8).
        CheckConstraint(f"seat >= 0 AND seat < {MOST_PLAYERS}", name="seat_in_range"),
    )


class Round(db.Model):
    """A recorded round: who dealt and cut, the exact cut, who went out and whether they went
    down and out in one turn (R2, R9, R10, R12.3)."""

    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    dealer: Mapped[int]
    cutter: Mapped[int]
    cut_exact: Mapped[bool] = mapped_column(default=False)
    # None: nobody went out, the stock ran out (R9).
    out: Mapped[int | None]
    # The player out went down and out in the same turn: they score the rules'
    # `out_in_one_turn_bonus` instead of 0 (R12.3).
    out_in_one_turn: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Incremented by every correction; never reused for a round number, even after an undo.
    # SQLAlchemy adds `WHERE version = <as loaded>` to every UPDATE and DELETE of the row.
    version: Mapped[int] = mapped_column(default=1)
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow)
    corrected_at: Mapped[datetime | None]

    game: Mapped[Game] = relationship(back_populates="rounds")
    scores: Mapped[list[RoundScore]] = relationship(
        back_populates="round", order_by="RoundScore.seat", cascade="all, delete-orphan"
    )

    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        # The most deals any rule set has (R11); the game's own rules refuse any beyond its last.
        CheckConstraint(f"number BETWEEN 1 AND {MOST_DEALS}", name="round_number_1_to_12"),
    )
    # The score book sets each version itself (a re-recorded round continues from the undone one).
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class RoundScore(db.Model):
    """One player's line in one round: cards left, their penalty, the cut bonus, the sum (R10)."""

    __tablename__ = "round_scores"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    seat: Mapped[int]
    # Canonical card text (R1), "" for the player who went out.
    leftovers: Mapped[str] = mapped_column(String(400), default="")
    penalty: Mapped[int]
    bonus: Mapped[int] = mapped_column(default=0)
    score: Mapped[int]
    # The table counted this hand itself: `penalty` is the points they gave, `leftovers` is "".
    counted: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The discards this player bought in this deal (R8, R11); None for a round stored before
    # buys were counted, which the limits read as none.
    buys: Mapped[int | None]

    round: Mapped[Round] = relationship(back_populates="scores")

    __table_args__ = (UniqueConstraint("round_id", "seat"),)


class RoundChange(db.Model):
    """A correction or undo, kept with the round as it was before and after."""

    __tablename__ = "round_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_number: Mapped[int]
    action: Mapped[str] = mapped_column(String(16))  # "corrected" or "undone"
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    before: Mapped[dict[str, Any]] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="history")

    __table_args__ = (Index("ix_round_changes_game", "game_id"),)


class Rename(db.Model):
    """A seat's name changed during or after the game (a misspelt name put right): the history
    keeps what the seat was called before, so "Bob (was Bbo)" can be said."""

    __tablename__ = "renames"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int]
    before: Mapped[str] = mapped_column(String(NAME_MAX))
    after: Mapped[str] = mapped_column(String(NAME_MAX))
    renamed_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="renames")

    __table_args__ = (Index("ix_renames_game", "game_id"),)


class SheetImport(db.Model):
    """A game brought in from a paper sheet, by the fingerprint of what the sheet says of it
    (its date, its seats, every round's scores: `papersheets.fingerprint`). The fingerprint is
    unique, so a game is stored once however many imports of its sheet race each other; a game
    imported twice before this table existed keeps its rows, only its first copy holds one."""

    __tablename__ = "sheet_imports"

    id: Mapped[int] = mapped_column(primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
