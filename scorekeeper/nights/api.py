"""The club nights' JSON API: list and read nights, set one up, check players in and out, pin
members, draw the tables and seat a late arrival. Every write is write-once (`Idempotency-Key`).

Reads are on `bp`; the organiser's set-up writes on `setup_bp`, so one guard
(`setup_bp.before_request(...)`) keeps them to organisers.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import jsonify, url_for
from flask_babel import gettext as _

from ..games import errors, ledger
from ..games import service as games
from ..platform import limits, organisers, writeonce
from ..platform.http import blueprint, json_body
from ..rules import RuleSetError
from ..rulesets import choice as rulechoice
from . import reading, service
from .service import NightRefused

bp = blueprint("nights_api", __name__)
setup_bp = blueprint("nights_setup_api", __name__)
# Setting a night up is an organiser's, where the club has organisers (ORGANISER_PASSWORD).
setup_bp.before_request(organisers.require)
# A write to a night: "night 3", or "new night"; a draw's answer hands the tables' keys over once.
NIGHTS = writeonce.Scope("night", "night_id", secrets=("keys",))
KEYS_FIELD = "keys"

for _blueprint in (bp, setup_bp):
    ledger.answer_errors(_blueprint)


def _night_refused(error: NightRefused):
    body: dict[str, Any] = {"error": error.message, "code": error.code}
    if error.fields:
        body["problems"] = error.fields
    return jsonify(body), error.status


for _blueprint in (bp, setup_bp):
    _blueprint.register_error_handler(NightRefused, _night_refused)


@bp.get("/nights")
def list_nights():
    """The nights, the newest first, in brief."""
    return jsonify(nights=[reading.brief_json(night) for night in service.nights()])


@bp.get("/nights/<int:night_id>")
def get_night(night_id: int):
    """The whole night: rules, seed, players and tables with their games and links."""
    return jsonify(reading.night_json(service.get_night(night_id)))


def _created(night, status: int = 201, **extra: Any):
    location = url_for("nights_api.get_night", night_id=night.id)
    return jsonify({**reading.night_json(night), **extra}), status, {"Location": location}


@setup_bp.post("/nights")
@writeonce.write_once(scope=NIGHTS)
def create_night():
    """`{"rules"?: a preset's key, "ruleset:<id>" or a document, "ruleset"?: id, "held_on"?:
    "YYYY-MM-DD", "players"?: [names]}` → 201 with the night; every problem named at once."""
    data = json_body()
    problems: dict[str, str] = {}
    chosen = _chosen(data, problems)
    held_on = _held_on(data, problems)
    entries = _entries(data, problems, required=False)
    if problems:
        raise _bad(problems)
    night = service.create_night(chosen, held_on)
    if entries:
        service.check_in(night, entries)
    return _created(night)


def _bad(problems: dict[str, str]) -> NightRefused:
    return NightRefused(
        "; ".join(f"{where}: {text}" for where, text in problems.items()), "invalid", problems
    )


def _chosen(data: dict[str, Any], problems: dict[str, str]) -> rulechoice.Chosen:
    """The rules asked for (liverpool when none), or a problem named under its field."""
    value, saved = data.get("rules"), data.get("ruleset")
    if value is not None and saved is not None:
        problems["ruleset"] = _("give the rules once: 'rules' or 'ruleset', not both")
        return rulechoice.DEFAULT
    try:
        if saved is not None:
            if not isinstance(saved, int) or isinstance(saved, bool):
                problems["ruleset"] = _("'ruleset' must be a saved rule set's id")
                return rulechoice.DEFAULT
            return rulechoice.saved(saved)
        if isinstance(value, str):
            chosen = rulechoice.named(value)
            if chosen is None:
                problems["rules"] = _("there are no rules called %(given)s", given=repr(value[:40]))
                return rulechoice.DEFAULT
            return chosen
        if value is None:
            return rulechoice.DEFAULT
        rules = games.read_rules(value)
        return rulechoice.Chosen(rules, "document")
    except errors.NoSuchRuleSet as missing:
        problems["ruleset" if saved is not None else "rules"] = missing.message
    except errors.RulesRefused as refused:
        problems.update(refused.rule_problems)
    except errors.NoSuchGame as missing:
        problems["rules"] = missing.message
    except RuleSetError as damaged:
        problems["rules"] = str(damaged)
    return rulechoice.DEFAULT


def _held_on(data: dict[str, Any], problems: dict[str, str]) -> date | None:
    value = data.get("held_on")
    if value is None:
        return None
    if isinstance(value, str) and _is_date(value):
        return date.fromisoformat(value)
    problems["held_on"] = _("'held_on' must be a date written YYYY-MM-DD")
    return None


def _is_date(value: str) -> bool:
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return len(value) == 10


def _entries(
    data: dict[str, Any], problems: dict[str, str], *, required: bool = True
) -> list[tuple[str, int | None]]:
    """`"players"`: names, each text or `{"name": text, "table"?: number}` (a pinned table)."""
    given = data.get("players")
    if given is None and not required:
        return []
    if not isinstance(given, list) or (required and not given):
        problems["players"] = _("'players' must be a list of names")
        return []
    entries: list[tuple[str, int | None]] = []
    for index, item in enumerate(given):
        where = f"players[{index}]"
        name, table = (item, None) if isinstance(item, str) else _pinned(item)
        if not isinstance(name, str):
            problems[where] = _('each player is a name, or {"name": ..., "table": ...}')
            continue
        if table is not None and (not isinstance(table, int) or isinstance(table, bool)):
            problems[where] = _("a table is a whole number")
            continue
        entries.append((name, table))
    return entries


def _pinned(item: Any) -> tuple[Any, Any]:
    if not isinstance(item, dict) or set(item) - {"name", "table"}:
        return None, None
    return item.get("name"), item.get("table")


@setup_bp.post("/nights/<int:night_id>/players")
@writeonce.write_once(scope=NIGHTS)
def check_in(night_id: int):
    """`{"players": [names, or {"name", "table"}]}` → 201 with the night: every name at once,
    or 400 naming every problem (`problems` by `players[<index>]`) and storing none."""
    data = json_body()
    problems: dict[str, str] = {}
    entries = _entries(data, problems)
    night = service.get_night(night_id, for_update=True)
    if problems:
        raise _bad(problems)
    service.check_in(night, entries)
    return _created(night)


@setup_bp.delete("/nights/<int:night_id>/players/<path:name>")
@writeonce.write_once(scope=NIGHTS)
def check_out(night_id: int, name: str):
    """A player leaving before the draw → 200 with the night."""
    night = service.get_night(night_id, for_update=True)
    service.check_out(night, name)
    return _created(night, 200)


@setup_bp.post("/nights/<int:night_id>/pins")
@writeonce.write_once(scope=NIGHTS)
def pin(night_id: int):
    """`{"name": text, "table": number or null}` → 200 with the night."""
    data = json_body()
    problems: dict[str, str] = {}
    name, table = data.get("name"), data.get("table")
    if not isinstance(name, str):
        problems["name"] = _("'name' must be a checked-in player's name")
    if table is not None and (not isinstance(table, int) or isinstance(table, bool)):
        problems["table"] = _("a table is a whole number")
    night = service.get_night(night_id, for_update=True)
    if problems:
        raise _bad(problems)
    service.pin(night, name, table)
    return _created(night, 200)


@setup_bp.post("/nights/<int:night_id>/draw")
@writeonce.write_once(scope=NIGHTS)
@limits.limited(limits.NEW_GAMES)  # each table is a new game
def draw(night_id: int):
    """Draw the tables → 201 with the night and, this once, each table's edit key (`"keys"`,
    by game id); drawn already → 409; no draw possible → 409 with its `code`."""
    night = service.get_night(night_id, for_update=True)
    keys = service.draw(night)
    return _created(night, **{KEYS_FIELD: {str(game): key for game, key in keys.items()}})


@setup_bp.post("/nights/<int:night_id>/late")
@writeonce.write_once(scope=NIGHTS)
def late_arrival(night_id: int):
    """`{"name": text}` → 201 with the night and where they sit (`"seated"`); 409 when no table
    can take them, saying why."""
    data = json_body()
    name = data.get("name")
    if not isinstance(name, str):
        raise _bad({"name": _("'name' must be the player's name")})
    night = service.get_night(night_id, for_update=True)
    player = service.late_arrival(night, name)
    table = next(t for t in night.tables if t.number == player.table_number)
    seated = {"name": player.name, "table": table.number, "game": table.game_id}
    return _created(night, seated=seated)
