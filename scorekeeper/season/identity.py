"""Who is who across games: each merged player's key, and the key of the player they are now
(`models.PlayerMerge`, the merges in force), read in one statement."""

from __future__ import annotations

from ..platform.extensions import db
from .models import PlayerMerge


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
