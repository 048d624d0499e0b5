"""A club's league: its name, how it scores a night's tables (`places` or `normalised`) and the
nights that count for it, each added by an organiser (a night may count for several leagues: the
same nights by places and normalised, or a season's league and a cup).

An organiser may change a league's scoring after it is set up: the league keeps every change
(`LeagueScoringChange`: the scoring before and after, and when), and its table, worked out from
its nights whenever it is read, follows the scoring of the day."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..games.models import KEY_MAX
from ..nights.models import Night
from ..platform.database import db, utcnow

# Points per place at a table: the place's points, the player level on a place sharing it.
PLACES = "places"
# Each player's total at their table less the table's mean total, per deal the table played.
NORMALISED = "normalised"
SCORINGS = (PLACES, NORMALISED)
# A league's points for 1st, 2nd, … when none are given; a place past the list scores 0.
DEFAULT_POINTS = (4, 3, 2, 1)
NAME_MAX = 60


class League(db.Model):
    """A league: its name (unique as it looks, like a player's), its scoring, and for `places`
    the points of each place at a table (1st first)."""

    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    name_key: Mapped[str] = mapped_column(String(KEY_MAX))
    scoring: Mapped[str] = mapped_column(String(12))
    # The points of 1st, 2nd, … (`places`); empty for `normalised`.
    points: Mapped[list[int]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    nights: Mapped[list[LeagueNight]] = relationship(
        back_populates="league", order_by="LeagueNight.id", cascade="all, delete-orphan"
    )
    changes: Mapped[list[LeagueScoringChange]] = relationship(
        back_populates="league", order_by="LeagueScoringChange.id", cascade="all, delete-orphan"
    )

    __table_args__ = (
        UniqueConstraint("name_key", name="leagues_name_once"),
        CheckConstraint("scoring IN ('places', 'normalised')", name="league_scoring"),
    )


class LeagueNight(db.Model):
    """A night that counts for a league: added by an organiser, once per league."""

    __tablename__ = "league_nights"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    night_id: Mapped[int] = mapped_column(ForeignKey("nights.id", ondelete="CASCADE"))
    added_at: Mapped[datetime] = mapped_column(default=utcnow)

    league: Mapped[League] = relationship(back_populates="nights")
    night: Mapped[Night] = relationship()

    __table_args__ = (UniqueConstraint("league_id", "night_id", name="league_nights_once"),)


class LeagueScoringChange(db.Model):
    """A change of a league's scoring by an organiser: the scoring and points it had, the ones it
    was given, and when. The newest is the league's scoring now."""

    __tablename__ = "league_scoring_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    before_scoring: Mapped[str] = mapped_column(String(12))
    before_points: Mapped[list[int]] = mapped_column(JSON)
    after_scoring: Mapped[str] = mapped_column(String(12))
    after_points: Mapped[list[int]] = mapped_column(JSON)
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)

    league: Mapped[League] = relationship(back_populates="changes")

    __table_args__ = (
        CheckConstraint(
            "before_scoring IN ('places', 'normalised') AND after_scoring IN ('places', "
            "'normalised')",
            name="league_scoring_change_scorings",
        ),
    )
