"""Merging two players the table wrote two ways ("Annie" is "Ann"), and undoing it.

A merge writes one row (`models.PlayerMerge`) and changes no game: every seat keeps the name it
was played under, and the season reads the merged player's seats as the player they joined
(`models.identities`). So an undo gives back exactly the figures from before.

Refused, with every problem named: a name nobody played under, a player merged with themself
(or with a player they already are, which would make a cycle), two players who sat in the
same game, who are two people, and a merged player's seats counted apart beside the player they
joined (a game seating both after the merge), merged once already.

No edit key is asked for: a game's edit key guards its scores against other devices, and a
merge changes no game's score or seat; players belong to the table, not to one game, and an
undo is on the player's page for anyone at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from ..games import errors, ledger
from ..games.models import utcnow
from ..platform import database
from ..platform.database import db
from ..platform.writeonce import Scope
from . import players
from .models import PlayerMerge, identities, resolve

# A merge of two players, or its undo: "player merge 2", or "new player merge".
WRITES = Scope("player merge", "merge_id")

# The advisory lock merges take on PostgreSQL, so two tablets merging at once cannot make a
# cycle between them (SQLite's writers queue for the whole database already); the migrations
# hold 7217001.
MERGE_LOCK = 7217002
SHOWN_GAMES = 5


class MergeRefused(errors.ScorebookError):
    """A merge that cannot be made; its message names every problem of its `proposal`."""

    def __init__(self, proposal: Proposal):
        super().__init__("; ".join(proposal.problems))
        self.proposal = proposal


@dataclass(frozen=True)
class Proposal:
    """What merging `source` into `target` would do, or why it cannot be done."""

    source: players.PlayerRecord | None
    target: players.PlayerRecord | None
    problems: tuple[str, ...]

    @property
    def games_after(self) -> int:
        """The finished games of the player after the merge (no game is both players')."""
        return (self.source.games if self.source else 0) + (self.target.games if self.target else 0)


def propose(from_name: str, into_name: str, season: players.Season | None = None) -> Proposal:
    """The two players a merge names, and every problem with merging them: in `season` (the
    kept one, for the page that shows a merge before it is made), else in the seats of the
    players the names may find as this transaction reads them (`players.named`), as a merge
    itself is judged."""
    identity = season.identity if season is not None else identities()
    found = (
        season.players if season is not None else players.named((from_name, into_name), identity)
    )
    source = _named(found, from_name)
    target = _named(found, into_name)
    problems = [
        problem
        for name, record, role in ((from_name, source, "merge"), (into_name, target, "join"))
        if (problem := _missing(name, record, role))
    ]
    if source and target:
        problems.extend(_apart(source, target, from_name, into_name))
    if source and source.key in identity:
        problems.append(_merged_already(source, found, identity[source.key]))
    return Proposal(source, target, tuple(problems))


def _merged_already(
    source: players.PlayerRecord, found: dict[str, list[players.Sitting]], joined: str
) -> str:
    """The player `source` is seats kept apart from the player they were merged into, in games
    both sat in: merged once already, so merging them again waits for that merge's undo."""
    sittings = found.get(joined)
    other = players.shown_name(joined, sittings) if sittings else joined
    return _(
        "%(one)s is merged into %(other)s already (in a game both sat in, they count apart): "
        "undo that merge first",
        one=source.name,
        other=other,
    )


def _named(found: dict[str, list[players.Sitting]], name: str) -> players.PlayerRecord | None:
    alike = players.player_key(name) if name else ""
    if not alike:
        return None
    key = players._key_named(found, name, alike)
    sittings = found.get(key)
    if not sittings:
        return None
    return players.PlayerRecord(key, players.shown_name(key, sittings), tuple(sittings))


def _missing(name: str, record: players.PlayerRecord | None, role: str) -> str | None:
    if not name.strip():
        return _("say which player to merge") if role == "merge" else _("say which player to join")
    if record is None:
        return _("nobody called %(name)s has played here", name=repr(name))
    return None


def _apart(
    source: players.PlayerRecord, target: players.PlayerRecord, from_name: str, into_name: str
) -> list[str]:
    if source.key == target.key:
        named = {"one": repr(from_name), "other": repr(into_name), "player": target.name}
        return [
            _(
                "%(one)s and %(other)s are already one player, %(player)s: a player is never "
                "merged into themself",
                **named,
            )
            if from_name == into_name
            else _("%(one)s and %(other)s are already one player, %(player)s", **named)
        ]
    shared = sorted({s.game_id for s in source.sittings} & {s.game_id for s in target.sittings})
    if not shared:
        return []
    games = ", ".join(str(game_id) for game_id in shared[:SHOWN_GAMES])
    if len(shared) > SHOWN_GAMES:
        games = _("%(games)s and %(more)s more", games=games, more=len(shared) - SHOWN_GAMES)
    return [
        ngettext(
            "%(one)s and %(other)s both sat in game %(games)s: they are two people, never merged",
            "%(one)s and %(other)s both sat in games %(games)s: they are two people, never merged",
            len(shared),
            one=source.name,
            other=target.name,
            games=games,
        )
    ]


def merge(from_name: str, into_name: str) -> tuple[PlayerMerge, Proposal]:
    """Merge the player called `from_name` into the one called `into_name` (flushed, for
    `write_once` to commit), judged on the games as they are; the merge and what it did, or
    `MergeRefused` naming every problem."""
    _lock()
    proposal = propose(from_name, into_name)
    if proposal.problems:
        raise MergeRefused(proposal)
    assert proposal.source and proposal.target
    row = PlayerMerge(
        from_key=proposal.source.key,
        into_key=proposal.target.key,
        from_name=proposal.source.name,
        into_name=proposal.target.name,
    )
    db.session.add(row)
    try:
        db.session.flush()
    except IntegrityError:
        raise errors.Conflict(
            _(
                "%(name)s was merged meanwhile on another device: nothing was changed",
                name=proposal.source.name,
            )
        ) from None
    return row, proposal


def undo(merge_id: int) -> PlayerMerge:
    """Undo a merge: the two players are counted apart again, as before it."""
    _lock()
    row = get(merge_id)
    if not row.in_force:
        raise errors.Conflict(
            _(
                "the merge of %(one)s into %(other)s is undone already",
                one=row.from_name,
                other=row.into_name,
            )
        )
    row.undone_at = utcnow()
    db.session.flush()
    return row


def get(merge_id: int) -> PlayerMerge:
    row = db.session.get(PlayerMerge, merge_id) if merge_id in database.id_range() else None
    if row is None:
        raise errors.Missing(_("merge %(merge)s does not exist", merge=merge_id))
    return row


def every() -> list[PlayerMerge]:
    """Every merge the table made, undone ones too, newest first."""
    return list(db.session.scalars(db.select(PlayerMerge).order_by(PlayerMerge.id.desc())))


def into(key: str) -> list[PlayerMerge]:
    """The merges in force that made other players this one (directly or along a chain),
    oldest first: what this player's page offers to undo."""
    rows = list(
        db.session.scalars(
            db.select(PlayerMerge).where(PlayerMerge.undone_at.is_(None)).order_by(PlayerMerge.id)
        )
    )
    now = resolve({row.from_key: row.into_key for row in rows})
    return [row for row in rows if now.get(row.from_key) == key]


def as_json(row: PlayerMerge) -> dict:
    return {
        "id": row.id,
        "from": row.from_name,
        "into": row.into_name,
        "merged_at": ledger._when(row.merged_at),
        "undone_at": ledger._when(row.undone_at),
    }


def _lock() -> None:
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": MERGE_LOCK})
