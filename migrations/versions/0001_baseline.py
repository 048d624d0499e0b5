"""Baseline: the score book's schema as databases made before migrations have it.

Revision ID: 0001_baseline
Revises:
Create Date: 2026-12-01

A database made by `create_all` (tables, no alembic_version) is stamped at this revision by
env.py and upgraded from here, keeping every row.
"""

import sqlalchemy as sa
from alembic import op

revision = "0001_baseline"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("profile", sa.String(length=20), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("key_hash", sa.String(length=255), nullable=True),
        sa.CheckConstraint("first_dealer >= 0", name="first_dealer_is_a_seat"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=72), nullable=False),
        sa.CheckConstraint("seat >= 0 AND seat < 8", name="seat_in_range"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat"),
        sa.UniqueConstraint("game_id", "name_key"),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("cutter", sa.Integer(), nullable=False),
        sa.Column("cut_exact", sa.Boolean(), nullable=False),
        sa.Column("out", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(), nullable=False),
        sa.Column("corrected_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint("number BETWEEN 1 AND 7", name="round_number_1_to_7"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number"),
    )
    op.create_table(
        "round_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=False),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_round_changes_game", "round_changes", ["game_id"], unique=False)
    op.create_table(
        "round_scores",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("leftovers", sa.String(length=400), nullable=False),
        sa.Column("penalty", sa.Integer(), nullable=False),
        sa.Column("bonus", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "seat"),
    )


def downgrade():
    op.drop_table("round_scores")
    op.drop_index("ix_round_changes_game", table_name="round_changes")
    op.drop_table("round_changes")
    op.drop_table("rounds")
    op.drop_table("players")
    op.drop_table("games")
