"""A player can be renamed in a game, and a game ended after any round.

Revision ID: 0008_renames_and_early_ends
Revises: 0007_name_keys_as_played
Create Date: 2026-12-03

Upgrade: a `renames` table keeps each seat's former names; `games.ended_after` is the last
round of a game the table ended early, `games.played_again_at` when a new game was first made
from it. Every game and player stays as it was: no game is ended early, none was played again,
nobody was renamed.

Downgrade: the table and both columns are dropped; a game ended early then reads as finished
(its `finished_at` stays) and its renamed seats keep their new names.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_renames_and_early_ends"
down_revision = "0007_name_keys_as_played"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("ended_after", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("played_again_at", sa.DateTime(), nullable=True))
        batch_op.create_check_constraint("ended_after_a_round", "ended_after >= 1")
    op.create_table(
        "renames",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("before", sa.String(24), nullable=False),
        sa.Column("after", sa.String(24), nullable=False),
        sa.Column("renamed_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_renames_game", "renames", ["game_id"])


def downgrade():
    op.drop_index("ix_renames_game", table_name="renames")
    op.drop_table("renames")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_constraint("ended_after_a_round", type_="check")
        batch_op.drop_column("played_again_at")
        batch_op.drop_column("ended_after")
