"""The score book's JSON API: games and their rounds, players named by name everywhere, and the
table's saved rule sets."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import g, jsonify, request, url_for
from flask_babel import gettext as _

from ..platform import limits, organisers, writeonce
from ..platform.http import ApiError, blueprint, field, json_body
from ..platform.language import say
from ..platform.organisers import organiser_required
from ..rules import RulesError, RuleSetError
from ..rules.scoring import one_turn_problem
from ..rulesets import choice as rulechoice
from ..rulesets import service as rulesets
from . import errors, gamelist, keys, ledger, names, service
from .models import Game
from .roundvalues import RoundEntry

bp = blueprint("api", __name__)


ledger.answer_errors(bp)


@bp.get("/games")
def list_games():
    """A page of games in brief: ongoing first, then finished, each newest first."""
    page, per_page, archived = gamelist.paging_from(request.args)
    listing = gamelist.game_page(page, per_page, archived=archived)
    return jsonify(
        games=[gamelist.brief_json(book) for book in listing.books],
        page=listing.page,
        per_page=listing.per_page,
        total=listing.total,
    )


@bp.post("/games")
@writeonce.write_once(scope=keys.GAMES)
@limits.limited(limits.NEW_GAMES)
def create_game():
    """`{"players": [...], "rules"?: preset name or document, "first_dealer"?: name}` → 201
    with the game. `"profile"` is the older name of `"rules"` and takes a preset's name; a rule
    set that cannot be used is 400 with every problem named (`"problems"`, R11).

    A repeat of the same `Idempotency-Key` gets the same game without `"key"`: the server keeps
    only the key's hash, so the first answer is the only one that holds it.
    """
    data = json_body()
    players = field(data, "players", list)
    if not all(isinstance(name, str) for name in players):
        raise ApiError(_("'players' must be a list of names, each one text"))
    first_dealer = field(data, "first_dealer", str, required=False)
    chosen = _chosen_asked(data)
    rules = chosen.rules if chosen is not None else _rules_asked(data)
    answer = _new_game(*service.create_game(players, rules, first_dealer))
    if chosen is not None and chosen.saved is not None:
        rulesets.mark_used(chosen.saved)
    return answer


def _rules_asked(data: dict[str, Any]) -> Any:
    """`"rules"` (a preset's name or a document), or the older `"profile"` (a preset's name)."""
    if "rules" in data and "profile" in data:
        raise ApiError(_("give the rules once: 'rules' (a preset's name or a document), not both"))
    if "profile" in data:
        return field(data, "profile", str, required=False)
    return data.get("rules")  # anything else is refused by the rules' reader, every problem named


def _chosen_asked(data: dict[str, Any]) -> rulechoice.Chosen | None:
    """The rules `"ruleset"` names, or `"rules"` as a page's picker would name them
    (`ruleset:<id>`, `code:<share code>`, `game:<id>`, a preset's key); None for any other
    request, whose rules the rules' reader reads. A damaged share code is refused naming the
    problem, a saved rule set that is not there under the field that names it."""
    saved = _saved_asked(data)
    value = data.get("rules")
    if saved is not None or "profile" in data or not isinstance(value, str):
        return saved
    try:
        return rulechoice.named(value)
    except errors.NoSuchRuleSet as error:
        raise _no_saved(error, "rules") from None
    except RuleSetError as error:
        raise errors.RulesRefused(str(error), error.problems) from None


def _no_saved(error: errors.NoSuchRuleSet, name: str) -> errors.FieldRefused:
    return errors.FieldRefused(
        _("%(problem)s: GET /api/rulesets lists the saved ones", problem=error.message), name
    )


def _saved_asked(data: dict[str, Any]) -> rulechoice.Chosen | None:
    """The saved rule set `"ruleset"` names (by id), whose document the game copies; None when
    the request gives none. With `"rules"` or `"profile"` as well it is refused: one set of
    rules, said once."""
    ruleset_id = field(data, "ruleset", int, required=False)
    if ruleset_id is None:
        return None
    if "rules" in data or "profile" in data:
        raise ApiError(
            _("give the rules once: 'ruleset' (a saved rule set's id) or 'rules', not both")
        )
    try:
        return rulechoice.saved(ruleset_id)
    except errors.NoSuchRuleSet as error:
        raise _no_saved(error, "ruleset") from None


def _new_game(game: Game, key: str):
    """201 with the new game, and the only answer that ever holds its key (every change to the
    game needs it; a repeat of the request gets the same game without it)."""
    location = url_for("api.get_game", game_id=game.id)
    body = {**ledger.game_json(game), keys.ANSWER_FIELD: key}
    return jsonify(body), 201, {"Location": location}


@bp.get("/games/<int:game_id>")
def get_game(game_id: int):
    """The whole game: seats, the next round's setup, rounds, totals and winners."""
    return jsonify(ledger.game_json(ledger.get_game(game_id)))


@bp.post("/games/<int:game_id>/rounds")
@keys.editor_required(scores=False)
@writeonce.write_once(scope=keys.GAMES)
def record_round(game_id: int):
    """Record the next round → 201; `"number"` (optional) → 409 if another device recorded it."""
    game = g.game
    data = json_body()
    number = field(data, "number", int, required=False)
    if ledger.next_round(game) is None and number is None:
        raise service.finished(game)
    location = url_for("api.get_game", game_id=game.id)
    entry = _round_entry(game, data)
    with _named_by_place(game, entry):
        played = service.record_round(game, entry, number)
    return jsonify(ledger.round_json(game, played)), 201, {"Location": location}


@bp.put("/games/<int:game_id>/rounds/<int:number>")
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def correct_round(game_id: int, number: int):
    """Correct a round at the `"version"` the caller saw → 200; stale → 409 with the round now."""
    game = g.game
    service.find_round(game, number)
    data = json_body()
    if data.get("version") is None:
        raise ApiError(
            _(
                "'version' is missing: send the version of round %(number)s you are correcting "
                "(from GET), so a change made meanwhile on another device is never overwritten",
                number=number,
            )
        )
    version = field(data, "version", int)
    entry = _round_entry(game, data)
    with _named_by_place(game, entry):
        played = service.correct_round(game, number, entry, version)
    return jsonify(ledger.round_json(game, played))


@bp.delete("/games/<int:game_id>/rounds/<int:number>")
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def undo_round(game_id: int, number: int):
    """Remove the latest round → 200 with the game; earlier or stale (`version`) 409, missing 404."""
    game = g.game
    service.undo_round(game, number, _undo_version())
    return jsonify(ledger.game_json(game))


def _undo_version() -> int | None:
    """The optional `version` of a DELETE: in a JSON body, or as `?version=` in the address."""
    if request.is_json and request.get_data(cache=True):
        version = field(json_body(), "version", int, required=False)
        if version is not None:
            return version
    text = request.args.get("version")
    if text is None:
        return None
    if not re.fullmatch(r"-?[0-9]{1,12}", text):
        raise ApiError(_("'version' must be a whole number, not %(text)s", text=repr(text[:20])))
    return int(text)


def _round_entry(game: Game, data: dict[str, Any]) -> RoundEntry:
    """Read `{"cut_exact"?, "out", "out_in_one_turn"?, "leftovers": {name: text or [cards]},
    "points"?: {name: n}}` into seats; a body with fields that cannot be read is refused naming
    every one of them, and
    what can be judged of its hands before the player out is known (`service.check_hands`)."""
    places: dict[str, str] = {}

    def read(place: str, reading: Callable[[], Any], default: Any = None) -> Any:
        try:
            return reading()
        except (RulesError, errors.ScorebookError, ApiError) as error:
            places[place] = getattr(error, "message", None) or str(error)
            return default

    cut_exact = read(
        "cut_exact", lambda: field(data, "cut_exact", bool, required=False, default=False), False
    )
    if "out" not in data:
        places["out"] = (
            "'out' is missing: give the name of the player who went out, or null when nobody did"
        )
    out_name = read("out", lambda: field(data, "out", str, required=False))
    out = None if out_name is None else read("out", lambda: names.seat_of(game, out_name))
    leftovers = read(
        "leftovers",
        lambda: field(data, "leftovers", dict, required="points" not in data, default={}),
        {},
    )
    by_seat: dict[int, str | list[str]] = {}
    for name, cards in leftovers.items():
        place = f"leftovers.{name}"
        seat = read(place, lambda name=name: names.seat_of(game, name))
        is_list = isinstance(cards, list) and all(isinstance(card, str) for card in cards)
        if seat in by_seat:
            places[place] = _("the cards of %(name)s are given twice", name=game.names[seat])
        elif not (is_list or isinstance(cards, str)):
            places[place] = _(
                'the cards of %(name)s must be text like "A♠ K♦ 4♥" or a list of cards',
                name=repr(name),
            )
        elif seat is not None:
            by_seat[seat] = cards
    points: dict[int, int] = {}
    given = read("points", lambda: field(data, "points", dict, required=False, default={}), {})
    for name, value in given.items():
        place = f"points.{name}"
        seat = read(place, lambda name=name: names.seat_of(game, name))
        if seat is not None and (seat in by_seat or seat in points):
            places[place] = _(
                "%(name)s is given twice: a hand is either in 'leftovers' or in 'points', not both",
                name=game.names[seat],
            )
        elif isinstance(value, bool) or not isinstance(value, int):
            places[place] = _(
                "the points of %(name)s must be a whole number, not %(value)s",
                name=repr(name),
                value=repr(value),
            )
        elif seat is not None:
            points[seat] = value
    bought = read("buys", lambda: _buys(game, data))
    one_turn = read("out_in_one_turn", lambda: _one_turn(game, data, out, "out" in places))
    entry = RoundEntry.typed(
        out, by_seat, points, cut_exact=cut_exact, buys=bought, out_in_one_turn=bool(one_turn)
    )
    if places:
        said = list(places.values())
        try:
            service.check_hands(game, entry)
        except errors.ScorebookError as error:
            said.append(error.message)
            _add_places(places, game, entry, error.problems)
        raise errors.RoundRefused("; ".join(said), places)
    return entry


@contextmanager
def _named_by_place(game: Game, entry: RoundEntry) -> Iterator[None]:
    """The score book's refusal of the round's hands, each problem also named by its place."""
    try:
        yield
    except errors.ScorebookError as error:
        wrong_buys = getattr(error, "buys", None)
        if type(error) is not errors.ScorebookError and wrong_buys is None:
            raise
        places: dict[str, str] = {}
        _add_places(places, game, entry, error.problems)
        for seat, text in (wrong_buys or {}).items():
            places[f"buys.{game.names[seat]}"] = text
        raise errors.RoundRefused(error.message, places) from None


def _add_places(places: dict[str, str], game: Game, entry: RoundEntry, problems: dict) -> None:
    """Name each of the score book's problems by the place the request gave the hand in; one
    that several hands share, at each of them, naming them all."""
    for where, text in problems.items():
        seats = where if isinstance(where, tuple) else (where,)
        said = service.problem_line(game.names, where, text) if isinstance(where, tuple) else text
        for seat in seats:
            if seat is None or not 0 <= seat < len(game.names):
                place = "round"
            else:
                kind = "points" if seat in entry.counted else "leftovers"
                place = f"{kind}.{game.names[seat]}"
            places[place] = f"{places[place]}; {said}" if place in places else said


def _one_turn(game: Game, data: dict[str, Any], out: int | None, out_refused: bool) -> bool:
    """The optional `"out_in_one_turn"`: true or false, and true only when someone went out
    under rules with a bonus for it (R12.3); else `ApiError` naming why."""
    one_turn = field(data, "out_in_one_turn", bool, required=False, default=False)
    problem = one_turn_problem(out, ledger.rules_of(game)) if one_turn and not out_refused else None
    if problem is not None:
        raise ApiError(say(problem, sentence=False))
    return bool(one_turn)


def _buys(game: Game, data: dict[str, Any]) -> dict[int, Any] | None:
    """The optional `"buys": {name: n}`, each player's buys this deal, by seat (None when not
    given); every name that is no player's refused at once (the counts: `buys.problems`)."""
    given = field(data, "buys", dict, required=False)
    if given is None:
        return None
    by_seat: dict[int, Any] = {}
    refused: list[str] = []
    for name, count in given.items():
        try:
            seat = names.seat_of(game, name)
        except errors.ScorebookError as error:
            refused.append(error.message)
            continue
        if seat in by_seat:
            refused.append(f"the buys of {game.names[seat]} are given twice")
        by_seat[seat] = count
    if refused:
        raise ApiError("'buys': " + "; ".join(refused))
    return by_seat


# --- The table's corrections to the game: renames, an early end ------------------------------


@bp.post("/games/<int:game_id>/renames")
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def rename_players(game_id: int):
    """`{"renames": {"Bbo": "Bob"}}` → 200 with the game; every problem named in one 400, a
    player renamed meanwhile (named by a former name) 409."""
    renames = field(json_body(), "renames", dict)
    if not renames:
        raise ApiError(_("'renames' is empty: give each player's name now and their new name"))
    service.rename_by_name(g.game, renames)
    return jsonify(ledger.game_json(g.game))


@bp.route("/games/<int:game_id>/end", methods=["POST", "DELETE"])
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def end_game(game_id: int):
    """POST `{"after": 5}`: end the game after its last recorded round (the leaders win) → 200
    with the game, 409 if round 5 is not the last one now; DELETE: take the early end back
    (409 once the table played again from it)."""
    if request.method == "POST":
        service.end_early(g.game, field(json_body(), "after", int))
    else:
        service.resume_game(g.game)
    return jsonify(ledger.game_json(g.game))


# --- The season: play again, tidy the list -------------------------------------------------


@bp.post("/games/<int:game_id>/rematch")
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
@limits.limited(limits.NEW_GAMES)
def rematch(game_id: int):
    """Play again with this table → 201 with the new game and its own key; unfinished → 409."""
    return _new_game(*service.rematch(g.game))


@bp.route("/games/<int:game_id>/archive", methods=["POST", "DELETE"])
@organiser_required
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def archive_game(game_id: int):
    """POST: hide the game from both lists (its link still opens it); DELETE: bring it back
    into them. Either → 200 with the game in brief."""
    tidy = gamelist.archive if request.method == "POST" else gamelist.restore
    return jsonify(gamelist.brief_json(ledger.book(tidy(g.game))))


@bp.delete("/games/<int:game_id>")
@organiser_required
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def delete_game(game_id: int):
    """Delete a game with no recorded round → 204; one with rounds → 409 (archive it instead).

    A repeat of the same `Idempotency-Key` is answered 204 again, the game being gone.
    """
    gamelist.delete(g.game)
    return "", 204


# --- The table's saved rule sets (R11) -------------------------------------------------------

RULESET_FIELDS = ("name", "rules")


@bp.get("/rulesets")
def list_rulesets():
    """Every saved rule set, the one a game last started from (or last changed) first."""
    return jsonify(rulesets=[rulesets.as_json(row) for row in rulesets.saved()])


@bp.post("/rulesets")
@writeonce.write_once(scope=rulesets.WRITES)
@limits.limited(limits.IMPORTS)
def create_ruleset():
    """`{"rules": preset name or document, "name"?: "Smith family"}` → 201 with the saved rule
    set and its `Location`; the name defaults to the document's. A rule set that cannot be used
    is 400 with every problem named (`problems`, as for a game); a taken name is 409."""
    data = _ruleset_body()
    if data.get("rules") is None:
        raise ApiError(_("'rules' is missing: a preset's name or a rule set document"))
    name = field(data, "name", str, required=False)
    refused: list[errors.RulesRefused] = []
    try:
        rules = service.read_rules(data["rules"])
    except errors.RulesRefused as error:
        refused.append(error)
    if name is not None:  # named in the same answer as the document's problems
        try:
            rulesets.check_name(name)
        except errors.NameRefused as error:
            refused.append(error)
        except errors.Conflict:
            if not refused:
                raise  # a taken name is 409 once the rules themselves can be used
    if refused:
        raise errors.RulesRefused.together(refused)
    row = rulesets.save(rules, name)
    location = url_for("api.get_ruleset", ruleset_id=row.id)
    return jsonify(rulesets.as_json(row)), 201, {"Location": location}


@bp.get("/rulesets/<int:ruleset_id>")
def get_ruleset(ruleset_id: int):
    """One saved rule set, its whole document under `rules`."""
    return jsonify(rulesets.as_json(rulesets.get(ruleset_id)))


@bp.put("/rulesets/<int:ruleset_id>")
@writeonce.write_once(scope=rulesets.WRITES)
def change_ruleset(ruleset_id: int):
    """`{"name"?: new name, "rules"?: preset name or document}` (one or both) → 200. The saved
    rule set keeps its name unless `"name"` is given (a document's own name is not a rename);
    games already played from it keep their own copies."""
    data = _ruleset_body()
    if all(data.get(name) is None for name in RULESET_FIELDS):
        raise ApiError(_("send 'name' (to rename it), 'rules' (to change them), or both"))
    name = field(data, "name", str, required=False)
    if name is not None and name != rulesets.get(ruleset_id).name:
        organisers.require()  # a rename is an organiser's; changing the rules is anyone's
    rules = None if data.get("rules") is None else service.read_rules(data["rules"])
    return jsonify(rulesets.as_json(rulesets.change(ruleset_id, rules=rules, name=name)))


@bp.delete("/rulesets/<int:ruleset_id>")
@organiser_required
@writeonce.write_once(scope=rulesets.WRITES)
def delete_ruleset(ruleset_id: int):
    """Forget a saved rule set → 204 (a repeat of the same `Idempotency-Key` → 204 again); the
    games started from it keep their own copies."""
    rulesets.delete(ruleset_id)
    return "", 204


def _ruleset_body() -> dict[str, Any]:
    """The request's object; a field the rule sets do not know is refused, never ignored."""
    data = json_body()
    unknown = sorted(set(data) - set(RULESET_FIELDS))
    if unknown:
        raise ApiError(
            _(
                "unknown field %(fields)s: a saved rule set takes 'rules' (a preset's name or a "
                "document) and 'name'",
                fields=", ".join(map(repr, unknown)),
            )
        )
    return data
