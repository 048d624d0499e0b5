"""A league's changes of scoring: what it was, what it became, and when.

Revision ID: 0020_league_scoring_changes
Revises: 0019_backups
Create Date: 2026-12-05

Upgrade: one new table, `league_scoring_changes`. Nothing else changes: every league keeps its
scoring, its points and its nights (a league set up before it has no change).

Downgrade: the table is dropped with the changes in it; each league keeps the scoring it has now.
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_league_scoring_changes"
down_revision = "0019_backups"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "league_scoring_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "league_id",
            sa.Integer(),
            sa.ForeignKey("leagues.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("before_scoring", sa.String(12), nullable=False),
        sa.Column("before_points", sa.JSON(), nullable=False),
        sa.Column("after_scoring", sa.String(12), nullable=False),
        sa.Column("after_points", sa.JSON(), nullable=False),
        sa.Column("changed_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "before_scoring IN ('places', 'normalised') AND after_scoring IN ('places', "
            "'normalised')",
            name="league_scoring_change_scorings",
        ),
    )


def downgrade():
    op.drop_table("league_scoring_changes")
