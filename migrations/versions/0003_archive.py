"""Archive: a game can be tidied away from the lists; indexes for paging the games list.

Revision ID: 0003_archive
Revises: 0002_write_once
Create Date: 2026-12-01

Every game stays as it was (`archived_at` starts empty for all of them).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_archive"
down_revision = "0002_write_once"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("archived_at", sa.DateTime(), nullable=True))
    op.create_index("ix_games_ongoing", "games", ["archived_at", "finished_at", "created_at", "id"])
    op.create_index("ix_games_newest", "games", ["archived_at", "created_at", "id"])


def downgrade():
    op.drop_index("ix_games_newest", table_name="games")
    op.drop_index("ix_games_ongoing", table_name="games")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("archived_at")
