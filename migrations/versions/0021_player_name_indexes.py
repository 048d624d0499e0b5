"""The seats found by a player's key or name: two indexes.

Revision ID: 0021_player_name_indexes
Revises: 0020_league_scoring_changes
Create Date: 2026-12-07

Upgrade: two indexes on `players`, by `name_key` and by `name`, so a merge is judged on the two
players' own seats instead of every seat of the season. No row changes.

Downgrade: the indexes are dropped; no row changes.
"""

from alembic import op

revision = "0021_player_name_indexes"
down_revision = "0020_league_scoring_changes"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_players_name_key", "players", ["name_key"])
    op.create_index("ix_players_name", "players", ["name"])


def downgrade():
    op.drop_index("ix_players_name", table_name="players")
    op.drop_index("ix_players_name_key", table_name="players")
