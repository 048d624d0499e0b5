"""Each player's buys in each deal, for rules that limit buying ("three buys a game").

Revision ID: 0013_round_buys
Revises: 0012_player_merges
Create Date: 2026-12-03

Upgrade: a new nullable column, `round_scores.buys` (the discards the player bought in that
deal). Every existing row is kept as it is, its `buys` null: a round recorded before buys were
counted, which the buy limits read as no buys.

Downgrade: the column is dropped; the rounds keep everything else.
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_round_buys"
down_revision = "0012_player_merges"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("round_scores") as batch:
        batch.add_column(sa.Column("buys", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("round_scores") as batch:
        batch.drop_column("buys")
