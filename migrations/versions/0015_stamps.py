"""Pages are kept under stamps, one per thing a page shows: the season and each game.

Revision ID: 0015_stamps
Revises: 0014_sheet_imports
Create Date: 2026-12-04

Upgrade: a `stamps` table takes the place of `season_stamp`. Its rows are the database's own
stamp (a new random generation), the season's (the generation and count `season_stamp` held,
kept) and, from now on, each game's, made by the game's first change. Every game, round and
player stays as it was; each process works the pages out again once it reads the new stamps.

Downgrade: `season_stamp` is made again with the season's row, and `stamps` is dropped.
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0015_stamps"
down_revision = "0014_sheet_imports"
branch_labels = None
depends_on = None

SEASON_ROW = 1
season_stamp = sa.table(
    "season_stamp",
    sa.column("id", sa.Integer),
    sa.column("generation", sa.String),
    sa.column("changes", sa.BigInteger),
)


def upgrade():
    stamps = op.create_table(
        "stamps",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("generation", sa.String(32), nullable=False),
        sa.Column("changes", sa.BigInteger(), nullable=False),
    )
    rows = [{"name": "database", "generation": secrets.token_hex(16), "changes": 0}]
    season = op.get_bind().execute(sa.select(season_stamp.c.generation, season_stamp.c.changes))
    rows += [
        {"name": "season", "generation": generation, "changes": changes}
        for generation, changes in season
    ]
    op.bulk_insert(stamps, rows)
    op.drop_table("season_stamp")


def downgrade():
    stamps = sa.table(
        "stamps",
        sa.column("name", sa.String),
        sa.column("generation", sa.String),
        sa.column("changes", sa.BigInteger),
    )
    season = op.get_bind().execute(
        sa.select(stamps.c.generation, stamps.c.changes).where(stamps.c.name == "season")
    ).first()
    made = op.create_table(
        "season_stamp",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("generation", sa.String(32), nullable=False),
        sa.Column("changes", sa.BigInteger(), nullable=False),
    )
    generation, changes = season if season is not None else (secrets.token_hex(16), 0)
    op.bulk_insert(made, [{"id": SEASON_ROW, "generation": generation, "changes": changes}])
    op.drop_table("stamps")
