"""Points entry: a hand can be recorded as the points the table counted, not as its cards.

Revision ID: 0004_points_entry
Revises: 0003_archive
Create Date: 2026-12-01

Every recorded hand stays as it was: `counted` starts false for all of them (they were entered
as cards).
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_points_entry"
down_revision = "0003_archive"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("round_scores") as batch_op:
        batch_op.add_column(
            sa.Column("counted", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table("round_scores") as batch_op:
        batch_op.drop_column("counted")
