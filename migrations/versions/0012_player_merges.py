"""Players the table merged: "Annie" is "Ann".

Revision ID: 0012_player_merges
Revises: 0011_season_stamp
Create Date: 2026-12-03

Upgrade: a new table, `player_merges` (the merged player's key, the key it joins, the names shown
then, when it was merged and undone), with at most one merge in force per merged player. No
existing row changes: every game keeps its seats and names as played.

Downgrade: the table is dropped: the merged players are counted apart again; no game changes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_player_merges"
down_revision = "0011_season_stamp"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player_merges",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("from_key", sa.String(72), nullable=False),
        sa.Column("into_key", sa.String(72), nullable=False),
        sa.Column("from_name", sa.String(24), nullable=False),
        sa.Column("into_name", sa.String(24), nullable=False),
        sa.Column("merged_at", sa.DateTime(), nullable=False),
        sa.Column("undone_at", sa.DateTime(), nullable=True),
    )
    op.create_index(
        "ix_player_merges_in_force",
        "player_merges",
        ["from_key"],
        unique=True,
        sqlite_where=sa.text("undone_at IS NULL"),
        postgresql_where=sa.text("undone_at IS NULL"),
    )


def downgrade():
    op.drop_index("ix_player_merges_in_force", table_name="player_merges")
    op.drop_table("player_merges")
