"""Writes happen once: the write_once table; player name keys compare how names look.

Revision ID: 0002_write_once
Revises: 0001_baseline
Create Date: 2026-12-01

`players.name_key` changes meaning: it was the name case-folded, and is now the name reduced to
how it looks (case, accents and look-alike letters of other scripts folded, see
`scorekeeper.names.name_key`). The upgrade recomputes it for every player. Two seats of one game
that were accepted before but now share a key (say "Ann" and "Аnn" with a Cyrillic А) keep
their names; the later seat's key gets "#<seat>" so the game stays as it was. The downgrade
puts back the case-folded names.
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_write_once"
down_revision = "0001_baseline"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "write_once",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("location", sa.String(length=400), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("sealed_key", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("scope", "key_hash", name="write_once_key"),
    )
    op.create_index("ix_write_once_created", "write_once", ["created_at"], unique=False)
    from scorekeeper.games.names import name_key

    _rekey(lambda name: name_key(name))


def downgrade():
    _rekey(lambda name: name.casefold())
    op.drop_index("ix_write_once_created", table_name="write_once")
    op.drop_table("write_once")


def _rekey(key_of) -> None:
    """Give every player the key `key_of` makes; a seat whose key is taken gets "#<seat>" added
    (`names.seat_keys`)."""
    from scorekeeper.platform import database
    from scorekeeper.games.names import seat_keys

    database.rekey_players(op.get_bind(), lambda names: seat_keys(names, key_of))
