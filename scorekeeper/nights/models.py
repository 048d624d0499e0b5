"""A club night: its rule set, the players checked in and the tables drawn, each table a game.

A night is drawn once: its state moves from `open` to `drawn` in one conditional update
(`service.draw`), and its tables are unique by number within it, so two draws at once, in one
process or two, leave one draw.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..games.models import KEY_MAX, NAME_MAX, Game
from ..platform.database import db, utcnow
from ..rules.ruleset import RuleSet

OPEN = "open"
DRAWN = "drawn"
STATES = (OPEN, DRAWN)
# A picker's value naming the rules (`shanghai`, `ruleset:3`) and a rule set's name, as kept.
CHOICE_MAX = 80
RULES_NAME_MAX = 80


class Night(db.Model):
    """One evening of a club: the rule set every table plays, the players checked in, the seed
    its draw used (shown, so a dispute about fairness can replay it) and its tables."""

    __tablename__ = "nights"

    id: Mapped[int] = mapped_column(primary_key=True)
    held_on: Mapped[date]
    # The rules as the organiser picked them (a preset's key, `ruleset:<id>`), their name, and
    # their whole document as the night plays them (a saved rule set changed later changes no
    # night already set up, as with games).
    rules_choice: Mapped[str] = mapped_column(String(CHOICE_MAX))
    rules_name: Mapped[str] = mapped_column(String(RULES_NAME_MAX))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[str] = mapped_column(String(8), default=OPEN)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    drawn_at: Mapped[datetime | None]
    # Repeated pairs (over the last nights) of the draw made.
    repeats: Mapped[int | None]

    players: Mapped[list[NightPlayer]] = relationship(
        back_populates="night", order_by="NightPlayer.id", cascade="all, delete-orphan"
    )
    tables: Mapped[list[NightTable]] = relationship(
        back_populates="night", order_by="NightTable.number", cascade="all, delete-orphan"
    )

    __table_args__ = (
        CheckConstraint("state IN ('open', 'drawn')", name="night_state"),
        Index("ix_nights_newest", "held_on", "id"),
    )

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet.parse(self.rules)

    @property
    def drawn(self) -> bool:
        return self.state == DRAWN


class NightPlayer(db.Model):
    """A player checked in to a night, by name as the season knows them; `pinned_table` is the
    table they must sit at (a member's fixed seat), `table_number` the one they sit at once drawn."""

    __tablename__ = "night_players"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    name_key: Mapped[str] = mapped_column(String(KEY_MAX))
    pinned_table: Mapped[int | None]
    table_number: Mapped[int | None]
    checked_in_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Checked in after the draw, and seated at a table that had not started.
    late: Mapped[bool] = mapped_column(default=False, server_default=false())

    night: Mapped[Night] = relationship(back_populates="players")

    __table_args__ = (
        UniqueConstraint("night_id", "name_key", name="night_players_once"),
        CheckConstraint("pinned_table >= 1", name="night_pinned_table"),
    )


class NightTable(db.Model):
    """A table of a drawn night: its number (from 1) and the game made for it."""

    __tablename__ = "night_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    number: Mapped[int]
    # None once the game is deleted from the score book; the table stays in the night.
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    drawn_at: Mapped[datetime] = mapped_column(default=utcnow)

    night: Mapped[Night] = relationship(back_populates="tables")
    game: Mapped[Game | None] = relationship()

    __table_args__ = (
        # A night's tables are drawn once: a second draw's table 1 cannot be stored.
        UniqueConstraint("night_id", "number", name="night_tables_once"),
        UniqueConstraint("game_id", name="night_tables_game"),
        CheckConstraint("number >= 1", name="night_table_number"),
    )
