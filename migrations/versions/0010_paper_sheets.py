"""A game can come from an old paper score sheet.

Revision ID: 0010_paper_sheets
Revises: 0009_phone_hands
Create Date: 2026-12-03

Upgrade: `games.from_sheet` is true for a finished game brought in from a paper score sheet
(its rounds counted in points, its date the sheet's); every game already stored was played on
the tablet, so every row gets false and stays as it was.

Downgrade: the column is dropped; a game from a paper sheet then reads as a game played with
every hand counted in points.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_paper_sheets"
down_revision = "0009_phone_hands"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(
            sa.Column("from_sheet", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("from_sheet")
