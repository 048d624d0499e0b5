"""The season's stamp: one row that changes with anything the season shows.

Revision ID: 0011_season_stamp
Revises: 0010_paper_sheets
Create Date: 2026-12-03

Upgrade: a `season_stamp` table with its one row (a new random generation, no change counted
yet). Every game, round and player stays as it was; each process computes the season afresh
once it reads the new stamp.

Downgrade: the table is dropped; nothing else depended on it.
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0011_season_stamp"
down_revision = "0010_paper_sheets"
branch_labels = None
depends_on = None


def upgrade():
    stamp = op.create_table(
        "season_stamp",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("generation", sa.String(32), nullable=False),
        sa.Column("changes", sa.BigInteger(), nullable=False),
    )
    op.bulk_insert(stamp, [{"id": 1, "generation": secrets.token_hex(16), "changes": 0}])


def downgrade():
    op.drop_table("season_stamp")
