"""Rounds opened to phones, and the hands each phone sends.

Revision ID: 0009_phone_hands
Revises: 0008_renames_and_early_ends
Create Date: 2026-12-03

Upgrade: two new tables, `round_openings` (a round opened to phones under a short code) and
`phone_hands` (each seat's phone, kept as its token's hash, and the hand it sent). No existing
row changes.

Downgrade: both tables are dropped: hands sent by phone to a round not yet saved are lost (a
saved round is in `rounds` and stays).
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_phone_hands"
down_revision = "0008_renames_and_early_ends"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "round_openings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("opened_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("history_mark", sa.Integer(), nullable=False),
    )
    op.create_index(
        "ix_round_openings_open_code",
        "round_openings",
        ["code"],
        unique=True,
        sqlite_where=sa.text("closed_at IS NULL"),
        postgresql_where=sa.text("closed_at IS NULL"),
    )
    op.create_index("ix_round_openings_game", "round_openings", ["game_id", "number"])
    op.create_table(
        "phone_hands",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "opening_id",
            sa.Integer(),
            sa.ForeignKey("round_openings.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed_at", sa.DateTime(), nullable=True),
        sa.Column("kind", sa.String(8), nullable=True),
        sa.Column("cards", sa.String(400), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("penalty", sa.Integer(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("sends", sa.Integer(), nullable=False),
        sa.UniqueConstraint("opening_id", "seat", name="phone_hands_seat"),
    )


def downgrade():
    op.drop_table("phone_hands")
    op.drop_index("ix_round_openings_game", table_name="round_openings")
    op.drop_index("ix_round_openings_open_code", table_name="round_openings")
    op.drop_table("round_openings")
