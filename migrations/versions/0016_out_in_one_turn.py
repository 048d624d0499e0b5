"""Whether a round's player out went down and out in one turn, for rules that give a bonus for it.

Revision ID: 0016_out_in_one_turn
Revises: 0015_stamps
Create Date: 2026-12-05

Upgrade: a new column, `rounds.out_in_one_turn` (false unless the player out went down and out
in the same turn, R12.3). Every existing row is kept as it is, the column false: no rule set
played before this revision gave a bonus for it.

Downgrade: the column is dropped; the rounds keep everything else.
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_out_in_one_turn"
down_revision = "0015_stamps"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(
            sa.Column("out_in_one_turn", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("out_in_one_turn")
