"""A game from a paper sheet is stored once.

Revision ID: 0014_sheet_imports
Revises: 0013_round_buys
Create Date: 2026-12-03

Upgrade: a new table, `sheet_imports`: the fingerprint of what a paper sheet says of a game (its
date, its seats' names, every round's scores), unique, and the game it made. Every game
already brought in from a sheet gets its fingerprint, computed here as the score book computes
it; when one was stored twice (two imports of the same sheet), only its first copy gets it and
the other keeps its rows, without one. No existing row changes.

Downgrade: the table is dropped; the games stay as they are.
"""

import hashlib
import json

import sqlalchemy as sa
from alembic import op

revision = "0014_sheet_imports"
down_revision = "0013_round_buys"
branch_labels = None
depends_on = None

games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("finished_at", sa.DateTime),
    sa.column("from_sheet", sa.Boolean),
)
players = sa.table(
    "players", sa.column("game_id", sa.Integer), sa.column("seat", sa.Integer), sa.column("name")
)
rounds = sa.table(
    "rounds", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer), sa.column("number")
)
scores = sa.table(
    "round_scores",
    sa.column("round_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("score", sa.Integer),
)


def fingerprint(finished_at, names, round_scores) -> str:
    """`papersheets.fingerprint` as it is at this revision: sha256 of the date to the minute,
    the names in seat order and each round's scores in seat order, as compact JSON."""
    said = [finished_at.strftime("%Y-%m-%d %H:%M"), names, round_scores]
    text = json.dumps(said, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def upgrade():
    imports = op.create_table(
        "sheet_imports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False, unique=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
    )
    connection = op.get_bind()
    made = connection.execute(
        sa.select(games.c.id, games.c.finished_at)
        .where(games.c.from_sheet.is_(True), games.c.finished_at.is_not(None))
        .order_by(games.c.id)
    ).all()
    taken: set[str] = set()
    rows = []
    for game_id, finished_at in made:
        names = connection.scalars(
            sa.select(players.c.name).where(players.c.game_id == game_id).order_by(players.c.seat)
        ).all()
        lines = connection.execute(
            sa.select(rounds.c.number, scores.c.score)
            .join(scores, scores.c.round_id == rounds.c.id)
            .where(rounds.c.game_id == game_id)
            .order_by(rounds.c.number, scores.c.seat)
        ).all()
        by_round: dict[int, list[int]] = {}
        for number, score in lines:
            by_round.setdefault(number, []).append(score)
        key = fingerprint(finished_at, list(names), list(by_round.values()))
        if key not in taken:
            taken.add(key)
            rows.append({"fingerprint": key, "game_id": game_id})
    if rows:
        op.bulk_insert(imports, rows)


def downgrade():
    op.drop_table("sheet_imports")
