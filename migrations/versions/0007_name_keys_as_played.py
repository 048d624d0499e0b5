"""Names kept from before the name rules are found by the names a table types for them today.

Revision ID: 0007_name_keys_as_played
Revises: 0006_saved_rule_sets
Create Date: 2026-12-03

Upgrade: every player's key is recomputed (`names.name_key`), which now reads a name as the app
writes it (NFKC) and without the characters that show nothing: a seat kept as "Ｂｏｂ" (full-width
letters), "ﬁona" (a ligature) or "Tab\u200bby" (a zero-width space) from before the name rules has
the key of "Bob", "fiona" and "Tabby", so the API, playing again and /players find it by those
names. The names themselves are kept exactly as they were played; keys of names written under
today's rules do not change. Two seats of one game that now share a key keep their names; the
later seat's key gets "#<seat>", as in 0002.

Downgrade: nothing to undo; the older code reads the keys the same way.
"""

from alembic import op

revision = "0007_name_keys_as_played"
down_revision = "0006_saved_rule_sets"
branch_labels = None
depends_on = None


def upgrade():
    from scorekeeper.platform import database
    from scorekeeper.games.names import seat_keys

    database.rekey_players(op.get_bind(), seat_keys)


def downgrade():
    pass
