"""The games list a page at a time, games to resume, and tidying games away.

Ongoing games come first, then finished ones, each newest first. Each part is read through its
own index (see `Game.__table_args__`), so a page costs the same with 100 games as with 20,000.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext

from ..platform.database import db
from . import errors, keys, ledger
from .models import Game, utcnow

PER_PAGE = 25
PER_PAGE_MAX = 100
# At most this many of the games a tablet holds keys for are looked at for "Resume".
RESUME_MAX = 50
# What a page's statements read of each game before loading the page's games whole.
LISTED = (Game.id, Game.finished_at, Game.created_at)


@dataclass(frozen=True)
class GamePage:
    """One page of the games list: its games in order, and where it sits among all pages."""

    books: list[ledger.Book]
    page: int
    per_page: int
    total: int
    archived: bool

    @property
    def ongoing(self) -> list[ledger.Book]:
        return [book for book in self.books if not book.game.finished]

    @property
    def finished(self) -> list[ledger.Book]:
        return [book for book in self.books if book.game.finished]

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def has_next(self) -> bool:
        return self.page < self.pages


def check_paging(page: int, per_page: int) -> None:
    """`ScorebookError` for a page or a page size out of range."""
    if page < 1:
        raise errors.ScorebookError(_("'page' must be 1 or more, not %(page)s", page=page))
    if not 1 <= per_page <= PER_PAGE_MAX:
        raise errors.ScorebookError(
            _(
                "'per_page' must be from 1 to %(most)s, not %(given)s",
                most=PER_PAGE_MAX,
                given=per_page,
            )
        )


def paging_from(args: Mapping[str, str], per_page: int = PER_PAGE) -> tuple[int, int, bool]:
    """`page`, `per_page` and `archived` from a query string, or `ScorebookError` naming the bad
    one; page and page size are checked by `check_paging`."""
    numbers = []
    for name, default in (("page", 1), ("per_page", per_page)):
        text = args.get(name, "")
        if text == "":
            numbers.append(default)
        elif re.fullmatch(r"[0-9]{1,9}", text.strip()):
            numbers.append(int(text))
        else:
            raise errors.ScorebookError(
                _(
                    "'%(name)s' must be a whole number, not %(given)s",
                    name=name,
                    given=repr(text[:20]),
                )
            )
    archived = args.get("archived", "") not in ("", "0", "false", "no")
    check_paging(*numbers)
    return numbers[0], numbers[1], archived


def _listed(archived: bool):
    return Game.archived_at.is_not(None) if archived else Game.archived_at.is_(None)


def _newest_first(statement):
    return statement.order_by(Game.created_at.desc(), Game.id.desc())


def game_page(page: int = 1, per_page: int = PER_PAGE, *, archived: bool = False) -> GamePage:
    """Page `page` of the games (archived ones instead with `archived`), ongoing ones first."""
    check_paging(page, per_page)
    listed = _listed(archived)
    ongoing_now = Game.finished_at.is_(None)
    total, ongoing = db.session.execute(
        db.select(db.func.count(), db.func.count().filter(ongoing_now)).where(listed)
    ).one()
    ongoing = ongoing or 0
    start = (page - 1) * per_page
    parts = []
    if start < ongoing:
        parts.append(
            _newest_first(db.select(*LISTED).where(listed, ongoing_now))
            .offset(start)
            .limit(per_page)
        )
    if start + per_page > ongoing:
        skip = max(0, start - ongoing)
        parts.append(
            _newest_first(db.select(*LISTED).where(listed, Game.finished_at.is_not(None)))
            .offset(skip)
            .limit(per_page - max(0, ongoing - start))
        )
    if len(parts) == 1:
        ids = [game_id for game_id, _, _ in db.session.execute(parts[0])]
    else:
        # One statement for a page holding the last ongoing games and the first finished ones.
        both = db.union_all(*(db.select(part.subquery()) for part in parts)).subquery()
        rows = db.session.execute(db.select(both.c.id, both.c.finished_at, both.c.created_at))
        # Newest first (by creation, then id), then ongoing before finished: a stable sort keeps
        # the first order within each group, for any stored time.
        newest = sorted(rows, key=lambda row: (row[2], row[0]), reverse=True)
        ids = [game_id for game_id, _, _ in sorted(newest, key=lambda row: row[1] is not None)]
    return GamePage(
        [ledger.book(game) for game in ledger.games_of(ids)], page, per_page, total or 0, archived
    )


def brief_json(book: ledger.Book) -> dict:
    """A game in brief, as the API's list gives it."""
    game = book.game
    return {
        "id": game.id,
        "rules_name": book.rules.name,
        "profile": book.rules.preset,
        "players": book.names,
        "round": book.next_round,
        "last_round": book.last_round,
        "finished": game.finished,
        "ended_after": game.ended_after,
        "totals": dict(zip(book.names, book.totals, strict=True)),
        "winners": book.winner_names,
        "created_at": ledger._when(game.created_at),
        "archived_at": ledger._when(game.archived_at),
    }


def resumable(keys_held: Mapping[int, str]) -> list[ledger.Book]:
    """Ongoing, unarchived games this browser holds the edit key of (`keys.held`), newest first:
    of the games with the highest ids, at most `RESUME_MAX` looked at."""
    held = dict(sorted(keys_held.items(), reverse=True)[:RESUME_MAX])
    if not held:
        return []
    ids = list(
        db.session.scalars(
            _newest_first(
                db.select(Game.id).where(
                    Game.id.in_(held), Game.finished_at.is_(None), Game.archived_at.is_(None)
                )
            )
        )
    )
    return [
        ledger.book(game)
        for game in ledger.games_of(ids)
        if keys.matches(game.key_hash, held.get(game.id))
    ]


# The three below change the game in the session; the route that asked commits (`write_once`).


def archive(game: Game) -> Game:
    """Hide the game from the lists; it stays reachable by its link. Archiving twice is one."""
    if game.archived_at is None:
        game.archived_at = utcnow()
        db.session.flush()
    return game


def restore(game: Game) -> Game:
    """Bring an archived game back into the lists."""
    if game.archived_at is not None:
        game.archived_at = None
        db.session.flush()
    return game


def delete(game: Game) -> None:
    """Delete a game in which no round is recorded; `Conflict` when one is."""
    if game.rounds:
        count = len(game.rounds)
        raise errors.Conflict(
            ngettext(
                "game %(game)s has %(num)s recorded round: a game with scores is archived, not "
                "deleted",
                "game %(game)s has %(num)s recorded rounds: a game with scores is archived, not "
                "deleted",
                count,
                game=game.id,
            )
        )
    db.session.delete(game)
    db.session.flush()
