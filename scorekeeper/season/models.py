"""The season's own table: which players the table said are one person, and who is who now.

A merge names two players by their keys (`players.player_key`), never a seat: every game keeps
its seats and names as played, and the season reads a merged player's seats as the player they
joined (`identities`: each merged key and the key of the player they are now, the merges in
force read in one statement). An undone merge stays, with when it was undone, so the table's
history of who was said to be whom is kept.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from ..games.models import KEY_MAX, NAME_MAX, utcnow
from ..platform.database import db


class PlayerMerge(db.Model):
    """The player known by `from_key` is the player known by `into_key`, from `merged_at` until
    `undone_at`. The names are as the players were shown when they were merged."""

    __tablename__ = "player_merges"

    id: Mapped[int] = mapped_column(primary_key=True)
    from_key: Mapped[str] = mapped_column(String(KEY_MAX))
    into_key: Mapped[str] = mapped_column(String(KEY_MAX))
    from_name: Mapped[str] = mapped_column(String(NAME_MAX))
    into_name: Mapped[str] = mapped_column(String(NAME_MAX))
    merged_at: Mapped[datetime] = mapped_column(default=utcnow)
    undone_at: Mapped[datetime | None]

    __table_args__ = (
        # A player joins one other at a time: a second merge of the same player, from another
        # tablet at the same moment, fails here rather than making the player two people's.
        Index(
            "ix_player_merges_in_force",
            "from_key",
            unique=True,
            sqlite_where=text("undone_at IS NULL"),
            postgresql_where=text("undone_at IS NULL"),
        ),
    )

    @property
    def in_force(self) -> bool:
        return self.undone_at is None


def identities() -> dict[str, str]:
    """Each merged player's key -> the key of the player they are now, in one statement.

    Chains resolve to their end ("annie" into "ann", then "ann" into "anne": both are "anne").
    A merge is refused when it would make a cycle (`merges.merge`); should one be stored anyway
    (two tablets at once on a database without the merge lock), its players become the one
    with the least key, so the season is still read the same way every time."""
    links = db.session.execute(
        db.select(PlayerMerge.from_key, PlayerMerge.into_key).where(PlayerMerge.undone_at.is_(None))
    )
    return resolve(dict(links.all()))


def resolve(links: dict[str, str]) -> dict[str, str]:
    """Each key merged (`links`: merged key -> the key it joined) -> the key at its chain's end."""
    resolved = {}
    for start in links:
        path, key = [start], start
        while key in links:
            key = links[key]
            if key in path:
                key = min(path[path.index(key) :])
                break
            path.append(key)
        resolved[start] = key
    return resolved
