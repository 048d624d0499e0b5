"""A club's nights: the rule set a night plays, the players checked in, the tables drawn.

Revision ID: 0017_nights
Revises: 0016_out_in_one_turn
Create Date: 2026-12-05

Upgrade: three new tables, `nights`, `night_players` and `night_tables`. Nothing else changes:
every game, round and player stays as it was. A night's tables are unique by number, and each
game is one night's table at most.

Downgrade: the three tables are dropped with the nights in them; the games their draws made stay
in the score book as games of their own.
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_nights"
down_revision = "0016_out_in_one_turn"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "nights",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("held_on", sa.Date(), nullable=False),
        sa.Column("rules_choice", sa.String(80), nullable=False),
        sa.Column("rules_name", sa.String(80), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("drawn_at", sa.DateTime(), nullable=True),
        sa.Column("repeats", sa.Integer(), nullable=True),
        sa.CheckConstraint("state IN ('open', 'drawn')", name="night_state"),
    )
    op.create_index("ix_nights_newest", "nights", ["held_on", "id"])
    op.create_table(
        "night_players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "night_id", sa.Integer(), sa.ForeignKey("nights.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(72), nullable=False),
        sa.Column("pinned_table", sa.Integer(), nullable=True),
        sa.Column("table_number", sa.Integer(), nullable=True),
        sa.Column("checked_in_at", sa.DateTime(), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("night_id", "name_key", name="night_players_once"),
        sa.CheckConstraint("pinned_table >= 1", name="night_pinned_table"),
    )
    op.create_table(
        "night_tables",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "night_id", sa.Integer(), sa.ForeignKey("nights.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("drawn_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("night_id", "number", name="night_tables_once"),
        sa.UniqueConstraint("game_id", name="night_tables_game"),
        sa.CheckConstraint("number >= 1", name="night_table_number"),
    )


def downgrade():
    op.drop_table("night_tables")
    op.drop_table("night_players")
    op.drop_index("ix_nights_newest", table_name="nights")
    op.drop_table("nights")
