"""A club night's writes: set a night up, check players in and out, pin members to a table, draw
the tables (each becomes a game through the score book's own service) and seat a late arrival.

The pages and the JSON API both call these functions. A write is flushed here, never committed:
the route that asked for it commits it with its answer (`writeonce.write_once`). Every write to
a night locks the night's row first (PostgreSQL; SQLite's writers already queue), and the draw
moves the night from `open` to `drawn` in one conditional update: two draws at once, in one
process or two, make one draw, and the other is refused.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from datetime import date

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.exc import IntegrityError

from ..games import ledger, newgame
from ..games import service as games
from ..games.errors import Conflict, Missing, Refused
from ..games.models import Game, Player
from ..games.names import clean_name, name_key, written_problem
from ..platform import database
from ..platform.database import db, utcnow
from ..rulesets.choice import Chosen
from ..season.models import identities
from . import draw as drawing
from .models import DRAWN, OPEN, Night, NightPlayer, NightTable

# The nights whose tables a draw spreads pairings over (the newest first).
WINDOW = 5
# At most this many tables a player can be pinned to (far past any club's room).
MOST_TABLES = 50
# At most this many names checked in by one request.
MOST_NAMES = 200


class NightRefused(Refused):
    """A request a night cannot take: `code` says which check refused it, `fields` names every
    problem by where the request gives it (`players[2]`, `table`)."""


class NoSuchNight(Missing):
    def __init__(self, night_id: int):
        super().__init__(_("night %(night)s does not exist", night=night_id))
        self.night_id = night_id


# --- Reading a night -------------------------------------------------------------------------


def get_night(night_id: int, *, for_update: bool = False) -> Night:
    """The night, or `NoSuchNight`; its row locked for a write (`for_update`)."""
    return database.row_by_id(Night, night_id, NoSuchNight, for_update)


def nights(limit: int = 100) -> list[Night]:
    """The nights, the newest first."""
    return list(
        db.session.scalars(
            db.select(Night).order_by(Night.held_on.desc(), Night.id.desc()).limit(limit)
        )
    )


def season_names(limit: int = 80) -> list[str]:
    """The season's players as a check-in offers them, most recent game first, each once as
    last written (a merged player under the name they were merged into)."""
    merged = identities()
    latest = newgame.names_by_key(limit * 10, seats=limit * 10)
    shown: dict[str, str] = {}
    for key, name in latest.items():
        final = merged.get(key, key)
        shown.setdefault(final, latest.get(final, name))
    return list(shown.values())[:limit]


def as_season_knows(names: Sequence[str]) -> list[tuple[str, str]]:
    """Each name (cleaned) as the season knows its player, with its key: "ann" is "Ann" when Ann
    played, "Annie" is "Ann" once merged into her; a new name stays as written."""
    merged = identities()
    keys = [merged.get(name_key(name), name_key(name)) for name in names]
    written: dict[str, str] = {}
    if keys:
        rows = db.session.execute(
            db.select(Player.name, Player.name_key)
            .join(Game, Game.id == Player.game_id)
            .where(Player.name_key.in_(set(keys)))
            .order_by(Game.created_at.desc(), Game.id.desc())
        )
        for name, key in rows:
            written.setdefault(key, name)
    return [(written.get(key, name), key) for name, key in zip(names, keys, strict=True)]


# --- Setting a night up ----------------------------------------------------------------------


def create_night(chosen: Chosen, held_on: date | None = None) -> Night:
    """A new night under the rules chosen, with a seed of its own for its draw."""
    rules = chosen.rules
    night = Night(
        held_on=held_on or utcnow().date(),
        rules_choice=chosen.value[:80],
        rules_name=rules.name[:80],
        rules=rules.to_json(),
        seed=secrets.randbelow(2**31),
        state=OPEN,
    )
    db.session.add(night)
    db.session.flush()
    return night


def check_in(night: Night, entries: Sequence[tuple[str, int | None]]) -> list[NightPlayer]:
    """Check players in: each (name, pinned table or None). Every problem of the request is
    named at once (`NightRefused.fields`, by `players[<index>]`), and nothing is stored."""
    if night.drawn:
        raise NightRefused(
            _("the night is drawn: a player who comes now is a late arrival"),
            "drawn",
            status=409,
        )
    if not entries:
        raise NightRefused(_("name at least one player to check in"), "no_names")
    if len(entries) > MOST_NAMES:
        raise NightRefused(
            _("at most %(most)s names at once", most=MOST_NAMES), "too_many", status=400
        )
    problems: dict[str, str] = {}
    cleaned = [clean_name(text) for text, _table in entries]
    known = as_season_knows([name or "?" for name in cleaned])
    here = {player.name_key: player.name for player in night.players}
    seen: dict[str, str] = {}
    for index, (name, (shown, key)) in enumerate(zip(cleaned, known, strict=True)):
        problem = _name_problem(name, shown, key, here, seen)
        if problem is None:
            problem = _table_problem(entries[index][1])
        if problem is not None:
            problems[f"players[{index}]"] = problem
        seen.setdefault(key, shown)
    if problems:
        raise _refused(problems)
    added = [
        NightPlayer(name=shown, name_key=key, pinned_table=table)
        for (shown, key), (_text, table) in zip(known, entries, strict=True)
    ]
    night.players.extend(added)
    _flush_players()
    return added


def _name_problem(
    name: str, shown: str, key: str, here: Mapping[str, str], seen: Mapping[str, str]
) -> str | None:
    if not name:
        return _("the name is empty")
    if (problem := written_problem(name)) is not None:
        return problem
    if key in here:
        return _("%(name)s is already checked in", name=here[key])
    if key in seen:
        return _("%(name)s is named twice", name=seen[key])
    return None


def _table_problem(table: int | None) -> str | None:
    if table is not None and not 1 <= table <= MOST_TABLES:
        return _("a table is numbered from 1 to %(most)s", most=MOST_TABLES)
    return None


def _refused(problems: Mapping[str, str]) -> NightRefused:
    return NightRefused.every(problems, "names")


def _flush_players() -> None:
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(
            _("a player was checked in meanwhile on another device: nothing was stored, try again")
        ) from None


def _checked_in(night: Night, name: str) -> NightPlayer:
    key = as_season_knows([clean_name(name)])[0][1]
    for player in night.players:
        if player.name_key == key:
            return player
    raise NightRefused(
        _("%(name)s is not checked in", name=clean_name(name)), "not_checked_in", {"name": name}
    )


def check_out(night: Night, name: str) -> None:
    """A player who leaves before the draw."""
    if night.drawn:
        raise NightRefused(
            _("the night is drawn: a player leaving now leaves their table's game"),
            "drawn",
            status=409,
        )
    night.players.remove(_checked_in(night, name))
    db.session.flush()


def pin(night: Night, name: str, table: int | None) -> NightPlayer:
    """Pin a checked-in member to a table (from 1), or unpin them (None), before the draw."""
    if night.drawn:
        raise NightRefused(_("the night is drawn: its tables are set"), "drawn", status=409)
    if (problem := _table_problem(table)) is not None:
        raise NightRefused(problem, "table", {"table": problem})
    player = _checked_in(night, name)
    player.pinned_table = table
    db.session.flush()
    return player


# --- The draw --------------------------------------------------------------------------------


def history(night: Night, window: int = WINDOW) -> list[list[list[str]]]:
    """The tables of the club's last drawn nights before this one, the newest first: each table
    the names its game seats (late arrivals too)."""
    before = db.session.scalars(
        db.select(Night)
        .where(Night.state == DRAWN, Night.id != night.id)
        .order_by(Night.held_on.desc(), Night.id.desc())
        .limit(window)
    )
    return [
        [table.game.names if table.game is not None else [] for table in earlier.tables]
        for earlier in before
    ]


def first_dealer(seed: int, number: int, seats: int) -> int:
    """The first dealer of a table, drawn from the night's seed (R2): the same seed draws the
    same dealers."""
    return random.Random(f"{seed}:{number}").randrange(seats)


def draw(night: Night) -> dict[int, str]:
    """Draw the night's tables (balanced sizes within the rule set's range, pinned members at
    their table, pairings of the last nights spread) and make each table a game with its own
    edit key, seated in drawn order; the keys, by game id (never stored).

    Refused (409) when the night is drawn already, by this request's twin or another organiser
    (the conditional update below is the one step that decides), and with the draw's code when
    no draw can be made."""
    if night.drawn:
        raise already_drawn(night)
    rules = night.rule_set
    players = [player.name for player in night.players]
    pinned = {p.name: p.pinned_table for p in night.players if p.pinned_table is not None}
    try:
        made = drawing.draw(
            players,
            rules.min_players,
            rules.max_players,
            pinned=pinned,
            history=history(night),
            seed=night.seed,
            window=WINDOW,
        )
    except drawing.DrawError as error:
        raise draw_refused(night, len(players), error) from None
    moved = db.session.execute(
        db.update(Night)
        .where(Night.id == night.id, Night.state == OPEN)
        .values(state=DRAWN, drawn_at=utcnow(), repeats=made.repeats)
        .execution_options(synchronize_session="fetch")
    )
    if moved.rowcount != 1:
        raise already_drawn(night)
    return _seat_tables(night, made)


def _seat_tables(night: Night, made: drawing.Draw) -> dict[int, str]:
    rules = night.rule_set
    by_name = {player.name: player for player in night.players}
    keys: dict[int, str] = {}
    for number, seated in enumerate(made.tables, start=1):
        dealer = first_dealer(night.seed, number, len(seated))
        game, key = games.create_game(list(seated), rules, dealer)
        keys[game.id] = key
        night.tables.append(NightTable(number=number, game=game))
        for name in seated:
            by_name[name].table_number = number
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise already_drawn(night) from None
    return keys


def already_drawn(night: Night) -> NightRefused:
    return NightRefused(
        _("night %(night)s is drawn already: its tables stand", night=night.id),
        "drawn",
        status=409,
    )


# The draw's refusals as the night says them (docs/nights.md): too few players, no split of the
# table sizes, or pins the tables cannot hold. The draw's other codes are the service's own
# mistakes (a range, a name twice), never a table's.
REFUSALS = {
    drawing.Problem.TOO_FEW_PLAYERS: "too_few",
    drawing.Problem.NO_SPLIT: "no_fit",
    drawing.Problem.PINNED_NOT_PLAYING: "pinned",
    drawing.Problem.PINNED_TABLE: "pinned",
    drawing.Problem.TABLE_FULL: "pinned",
}


def draw_refused(night: Night, count: int, error: drawing.DrawError) -> NightRefused:
    """The draw's refusal in the table's words, by its code."""
    rules = night.rule_set
    least, most = rules.min_players, rules.max_players
    code = REFUSALS.get(error.code)
    if code is None:
        raise error
    if code == "pinned":
        message = _("the pinned players do not fit the tables this draw makes: unpin one")
    elif count < least:
        message = ngettext(
            "%(num)s player is checked in: %(rules)s needs at least %(least)s at a table",
            "%(num)s players are checked in: %(rules)s needs at least %(least)s at a table",
            count,
            rules=rules.name,
            least=least,
        )
    else:
        message = ngettext(
            "%(num)s player cannot be split into tables of %(least)s to %(most)s",
            "%(num)s players cannot be split into tables of %(least)s to %(most)s",
            count,
            least=least,
            most=most,
        )
    return NightRefused(message, code, status=409)


# --- Late arrivals ---------------------------------------------------------------------------


def late_arrival(night: Night, text: str) -> NightPlayer:
    """Seat a player who comes after the draw at the smallest table whose game has not started
    (no round recorded) and is below the rule set's most players (the lowest number first
    between tables alike); refused, saying why, when no table can take them."""
    if not night.drawn:
        raise NightRefused(
            _("the night is not drawn yet: check the player in"), "not_drawn", status=409
        )
    name = clean_name(text)
    ((shown, key),) = as_season_knows([name or "?"])
    problem = _name_problem(name, shown, key, {p.name_key: p.name for p in night.players}, {})
    if problem is not None:
        raise NightRefused(problem, "name", {"name": problem})
    most = night.rule_set.max_players
    open_tables = [
        table
        for table in night.tables
        if table.game is not None and not table.game.rounds and not table.game.finished
    ]
    free = [table for table in open_tables if len(table.game.players) < most]
    if not free:
        raise no_table(shown, bool(open_tables), most)
    table = min(free, key=lambda table: (len(table.game.players), table.number))
    game = ledger.get_game(table.game_id, for_update=True)
    games.add_seat(game, shown)
    player = NightPlayer(name=shown, name_key=key, table_number=table.number, late=True)
    night.players.append(player)
    _flush_players()
    return player


def no_table(name: str, any_open: bool, most: int) -> NightRefused:
    if any_open:
        message = ngettext(
            "no table can take %(name)s: every table that has not started seats %(num)s already",
            "no table can take %(name)s: every table that has not started seats %(num)s already",
            most,
            name=name,
        )
    else:
        message = _("no table can take %(name)s: every table has started", name=name)
    return NightRefused(message, "no_table", status=409)
