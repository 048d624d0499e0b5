"""Each game keeps its own rule set: the whole document, not a preset's name.

Revision ID: 0005_game_rules
Revises: 0004_points_entry
Create Date: 2026-12-02

Upgrade: every game gets the document of the preset its `profile` named, from the frozen
copies below (the presets as they were when this revision was written: a preset changed in a
later release must never change an old game, so the app's presets are never imported here);
then `profile` is dropped. A round may be numbered 1 to 12, the most deals a rule set may have
(R11); the game's own rules refuse any round past its last deal.

Downgrade: `profile` is written back as the key of the preset whose frozen document equals the
game's (`liverpool` for a table's own rules), and the 1–7 check returns. A database holding a
round past 7 cannot go back to a schema of seven rounds: the downgrade is refused, naming the
games, and nothing is changed.

The players' name keys are unchanged: `/players` groups by the same computed `name_key` that
keeps look-alikes apart at one table, so nothing stored needs migrating for that.
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0005_game_rules"
down_revision = "0004_points_entry"
branch_labels = None
depends_on = None

DEFAULT = "liverpool"
# R11's presets as the app wrote their documents on the day of this revision, frozen.
_DOCUMENTS = {
    "liverpool": '{"version":1,"name":"Liverpool","players":{"min":4,"max":4},"packs":[{"up_to":8,"packs":2}],"jokers":{"fixed":3,"per_pack":0},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":true,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":-50,"layoff_on_opening_turn":false,"go_out_by_layoff":false,"joker_swap":"runs","swap_on_opening_turn":false,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
    "contract": '{"version":1,"name":"Contract","players":{"min":4,"max":4},"packs":[{"up_to":8,"packs":2}],"jokers":{"fixed":3,"per_pack":0},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":true,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":0,"layoff_on_opening_turn":false,"go_out_by_layoff":false,"joker_swap":"runs","swap_on_opening_turn":false,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
    "online": '{"version":1,"name":"Online","players":{"min":3,"max":8},"packs":[{"up_to":5,"packs":2},{"up_to":8,"packs":3}],"jokers":{"fixed":2,"per_pack":0},"deals":[{"cards":7,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":14,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":false,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":25},"wild_deuces":false,"naturals":{"set":1,"run":1,"wild_at_most_natural":false},"cut_bonus":0,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"runs","swap_on_opening_turn":true,"freed_joker":"hand","buying":{"allowed":false,"per_deal":null,"per_game":null,"penalty_cards":1}}',
    "family": '{"version":1,"name":"Family","players":{"min":3,"max":8},"packs":[{"up_to":4,"packs":2},{"up_to":8,"packs":3}],"jokers":{"fixed":0,"per_pack":2},"deals":[{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":10,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"set","size":3},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":12,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":true}],"exact_sizes":false,"values":{"A":15,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"J":10,"Q":10,"K":10,"JK":15},"wild_deuces":false,"naturals":{"set":2,"run":3,"wild_at_most_natural":false},"cut_bonus":-50,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"runs","swap_on_opening_turn":true,"freed_joker":"lay_off","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
    "shanghai": '{"version":1,"name":"Shanghai","players":{"min":3,"max":8},"packs":[{"up_to":4,"packs":2},{"up_to":6,"packs":3},{"up_to":8,"packs":4}],"jokers":{"fixed":0,"per_pack":1},"deals":[{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":7}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":5}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":4},{"kind":"run","size":4},{"kind":"run","size":4}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"run","size":10}],"whole_hand":false},{"cards":11,"contract":[{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"set","size":3},{"kind":"run","size":5}],"whole_hand":false},{"cards":11,"contract":[{"kind":"run","size":5},{"kind":"run","size":5},{"kind":"run","size":5}],"whole_hand":false}],"exact_sizes":false,"values":{"A":15,"2":20,"3":5,"4":5,"5":5,"6":5,"7":5,"8":5,"9":5,"10":10,"J":10,"Q":10,"K":10,"JK":20},"wild_deuces":true,"naturals":{"set":1,"run":1,"wild_at_most_natural":true},"cut_bonus":0,"layoff_on_opening_turn":true,"go_out_by_layoff":true,"joker_swap":"any","swap_on_opening_turn":false,"freed_joker":"hand","buying":{"allowed":true,"per_deal":null,"per_game":null,"penalty_cards":1}}',
}
FROZEN = {key: json.loads(text) for key, text in _DOCUMENTS.items()}

games = sa.table(
    "games",
    sa.column("id", sa.Integer()),
    sa.column("profile", sa.String(20)),
    sa.column("rules", sa.JSON()),
)
rounds = sa.table("rounds", sa.column("game_id", sa.Integer()), sa.column("number", sa.Integer()))


def upgrade():
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("rules", sa.JSON(), nullable=True))
    for key, document in FROZEN.items():
        op.execute(games.update().where(games.c.profile == key).values(rules=document))
    # A name no release ever wrote: the default rules, as the app read it.
    op.execute(games.update().where(games.c.rules.is_(None)).values(rules=FROZEN[DEFAULT]))
    with op.batch_alter_table("games") as batch_op:
        batch_op.alter_column("rules", existing_type=sa.JSON(), nullable=False)
        batch_op.drop_column("profile")
    with op.batch_alter_table("rounds") as batch_op:
        batch_op.drop_constraint("round_number_1_to_7", type_="check")
        batch_op.create_check_constraint("round_number_1_to_12", "number BETWEEN 1 AND 12")


def downgrade():
    connection = op.get_bind()
    beyond = connection.execute(
        sa.select(rounds.c.game_id, sa.func.max(rounds.c.number))
        .where(rounds.c.number > 7)
        .group_by(rounds.c.game_id)
        .order_by(rounds.c.game_id)
    ).all()
    if beyond:
        listed = ", ".join(f"game {game} (round {number})" for game, number in beyond)
        raise RuntimeError(
            "cannot downgrade below 0005_game_rules: the older schema holds rounds 1 to 7 only, "
            f"and these games have rounds past 7: {listed}. Nothing was changed; export the "
            "games first (flask --app scorekeeper export) to keep them."
        )
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("profile", sa.String(20), nullable=True))
    for game_id, document in connection.execute(sa.select(games.c.id, games.c.rules)).all():
        op.execute(games.update().where(games.c.id == game_id).values(profile=preset_key(document)))
    with op.batch_alter_table("games") as batch_op:
        batch_op.alter_column("profile", existing_type=sa.String(20), nullable=False)
        batch_op.drop_column("rules")
    with op.batch_alter_table("rounds") as batch_op:
        batch_op.drop_constraint("round_number_1_to_12", type_="check")
        batch_op.create_check_constraint("round_number_1_to_7", "number BETWEEN 1 AND 7")


def preset_key(document) -> str:
    """The key of the frozen preset this document is, else the default rules' key."""
    if isinstance(document, str):  # a driver that hands JSON back as text
        document = json.loads(document)
    return next((key for key, frozen in FROZEN.items() if frozen == document), DEFAULT)
