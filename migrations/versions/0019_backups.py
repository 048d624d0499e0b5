"""The backups taken: when the last one was, for /healthz and every process.

Revision ID: 0019_backups
Revises: 0018_league
Create Date: 2026-12-05

Upgrade: a new table, `backups`, empty (no backup before it is known). Nothing else changes.

Downgrade: the table is dropped; every game, night and league stays.
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_backups"
down_revision = "0018_league"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "backups",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("taken_at", sa.DateTime(), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
    )
    op.create_index("ix_backups_taken_at", "backups", ["taken_at"])


def downgrade():
    op.drop_index("ix_backups_taken_at", table_name="backups")
    op.drop_table("backups")
