"""A round opened to phones, and each seat's hand sent from a phone.

Nothing here is the score: a hand a phone sends is a proposal the tablet's round form is
filled with; the round is stored by the score book's own write when the scorekeeper saves it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..games.models import Game, utcnow
from ..platform.database import db

CARDS_MAX = 400  # as a round score's `leftovers`


class RoundOpening(db.Model):
    """Round `number` of a game, opened to phones under `code` until the round is saved in the
    ledger or the tablet closes it.

    `history_mark` is how many history entries the round had when it was opened: once the
    round is recorded and then undone (an entry more), the opening is over even though the
    round is again the one to play.
    """

    __tablename__ = "round_openings"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    code: Mapped[str] = mapped_column(String(8))
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    history_mark: Mapped[int] = mapped_column(default=0)

    game: Mapped[Game] = relationship()
    hands: Mapped[list[PhoneHand]] = relationship(
        back_populates="opening", order_by="PhoneHand.seat", cascade="all, delete-orphan"
    )

    __table_args__ = (
        # No two rounds open at once under one code (a stale one is closed before its code is
        # given again, see `service.open_round`).
        Index(
            "ix_round_openings_open_code",
            "code",
            unique=True,
            sqlite_where=text("closed_at IS NULL"),
            postgresql_where=text("closed_at IS NULL"),
        ),
        Index("ix_round_openings_game", "game_id", "number"),
    )


class PhoneHand(db.Model):
    """One seat of an opened round: the phone holding it (its token's hash) and the hand it sent.

    `token_hash` is None once the tablet released the seat; a hand sent stays until another
    phone sends one. `kind` is None until a hand is sent, then "cards", "points", "out" or
    "one_turn" (out, having gone down in the same turn: R12.3).
    """

    __tablename__ = "phone_hands"

    id: Mapped[int] = mapped_column(primary_key=True)
    opening_id: Mapped[int] = mapped_column(ForeignKey("round_openings.id", ondelete="CASCADE"))
    seat: Mapped[int]
    token_hash: Mapped[str | None] = mapped_column(String(64))
    claimed_at: Mapped[datetime | None]
    kind: Mapped[str | None] = mapped_column(String(8))
    # The cards in the score book's notation (R1), "" unless `kind` is "cards".
    cards: Mapped[str] = mapped_column(String(CARDS_MAX), default="")
    points: Mapped[int | None]
    penalty: Mapped[int | None]
    sent_at: Mapped[datetime | None]
    # How many sends changed the hand: a repeat of the same send changes nothing.
    sends: Mapped[int] = mapped_column(default=0)

    opening: Mapped[RoundOpening] = relationship(back_populates="hands")

    __table_args__ = (UniqueConstraint("opening_id", "seat", name="phone_hands_seat"),)
