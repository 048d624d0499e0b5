"""Saved rule sets: a table keeps its own rules under a name, to start games with and share.

Revision ID: 0006_saved_rule_sets
Revises: 0005_game_rules
Create Date: 2026-12-02

Upgrade: a new table, empty; every game is left as it was (each keeps its own copy of its rules).
The players' name keys are recomputed: case alone no longer makes two names (a capital I was
read as an l, so "IVAN" and "Ivan" had keys of their own and were two players on /players). Two
seats of one game that now share a key keep their names; the later seat's key gets "#<seat>",
so the game stays as it was.

Downgrade: the table is dropped. The older schema has no place for a saved rule set, so while
any is saved the downgrade is refused, naming them, and nothing is changed: export them first
(`flask --app scorekeeper rules export NAME FILE`) and delete them. Games never depended on a
saved rule set (each copied its document), so none is touched either way. The players' keys stay
as the upgrade made them: the older code reads them the same way.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_saved_rule_sets"
down_revision = "0005_game_rules"
branch_labels = None
depends_on = None

saved = sa.table("saved_rule_sets", sa.column("id", sa.Integer()), sa.column("name", sa.String()))


def upgrade():
    op.create_table(
        "saved_rule_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("name_key", sa.String(length=72), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key", name="saved_rule_sets_name_key"),
    )
    _rekey_players()


def _rekey_players() -> None:
    """Every player's key as `names.name_key` makes it now (one definition: a seat whose key its
    game already has gets "#<seat>", `names.seat_keys`)."""
    from scorekeeper.platform import database
    from scorekeeper.games.names import seat_keys

    database.rekey_players(op.get_bind(), seat_keys)


def downgrade():
    names = op.get_bind().execute(sa.select(saved.c.name).order_by(saved.c.id)).scalars().all()
    if names:
        listed = ", ".join(repr(name) for name in names)
        raise RuntimeError(
            "cannot downgrade below 0006_saved_rule_sets: the older schema has no saved rule "
            f"sets, and these are saved: {listed}. Nothing was changed; export each one first "
            "(flask --app scorekeeper rules export NAME FILE), then delete it."
        )
    op.drop_table("saved_rule_sets")
