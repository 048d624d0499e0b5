"""A club's leagues: a league's scoring and the nights that count for it.

Revision ID: 0018_league
Revises: 0017_nights
Create Date: 2026-12-05

Upgrade: two new tables, `leagues` and `league_nights`. Nothing else changes: every game, night
and player stays as it was. A league's name is unique as it looks; a night counts once for a
league (and may count for several leagues).

Downgrade: the two tables are dropped with the leagues in them; the nights and their games stay.
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_league"
down_revision = "0017_nights"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("name_key", sa.String(72), nullable=False),
        sa.Column("scoring", sa.String(12), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("name_key", name="leagues_name_once"),
        sa.CheckConstraint("scoring IN ('places', 'normalised')", name="league_scoring"),
    )
    op.create_table(
        "league_nights",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "league_id",
            sa.Integer(),
            sa.ForeignKey("leagues.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "night_id", sa.Integer(), sa.ForeignKey("nights.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("league_id", "night_id", name="league_nights_once"),
    )


def downgrade():
    op.drop_table("league_nights")
    op.drop_table("leagues")
