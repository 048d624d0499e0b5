"""Export and import: every game out to JSON and back in, exactly, all of it or none of it, with
what else the table recorded (its saved rule sets, the players it merged, its paper sheets)."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from flask_babel import gettext

from scorekeeper import create_app
from scorekeeper.games import importer, transfer
from scorekeeper.games.models import Game, Player, Round, RoundChange, RoundScore, SheetImport
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import PRESETS
from scorekeeper.rulesets.models import SavedRuleSet
from scorekeeper.season.models import PlayerMerge
from tests.support.book import new_game
from tests.support.config import TEST_CONFIG
from tests.support.names import NAMES
from tests.support.saved import SMITH, save_ruleset, smith_document
from tests.support.sheets import import_sheet

# The module's tests share a fixture: one process makes it, once.
pytestmark = pytest.mark.xdist_group("transfer")

ROOT = Path(__file__).resolve().parents[2]
# Every table an import writes: the games' own, then the saved rule sets, merges and sheets'.
MODELS = (Game, Player, Round, RoundScore, RoundChange, SavedRuleSet, PlayerMerge, SheetImport)
NOTHING = [0] * len(MODELS)


def new_app(tmp_path, make_database, name):
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=make_database(name))
    return create_app(config, instance_path=str(tmp_path / f"{name}-instance"))


def api_game(client, players, profile=None, first_dealer=None):
    game = new_game(client, players, profile, first_dealer)
    return game.id, game.headers


def post_round(client, game_id, key, out, **cards):
    response = client.post(
        f"/api/games/{game_id}/rounds", json={"out": out, "leftovers": cards}, headers=key
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def merge(client, source, into) -> int:
    answer = client.post("/api/players/merges", json={"from": source, "into": into})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["merge"]["id"]


def fill(app):
    """A finished game with corrections, an undo and a no-winner round; an ongoing 8-player game;
    an empty game; a game from before edit keys; a game from a paper sheet; the Smith family's
    saved rule set; and two merges, one undone and one in force."""
    client = app.test_client()
    finished, key = api_game(client, NAMES, first_dealer="Bob")
    post_round(client, finished, key, "Cat", Ann="A♠ K♦", Bob="7 7", Dan="JK")
    post_round(client, finished, key, None, Ann="2", Bob="3", Cat="4", Dan="5")  # nobody out
    post_round(client, finished, key, "Ann", Bob="Q", Cat="J", Dan="10")
    client.put(
        f"/api/games/{finished}/rounds/1",
        json={"out": "Dan", "cut_exact": True, "leftovers": {"Ann": "9", "Bob": "8", "Cat": "7"}}
        | {"version": 1},
        headers=key,
    )
    client.delete(f"/api/games/{finished}/rounds/3", headers=key)
    for out in ("Bob", "Cat", "Dan", "Ann", "Bob"):
        post_round(client, finished, key, out, **{n: "6" for n in NAMES if n != out})
    client.put(
        f"/api/games/{finished}/rounds/2",
        json={"out": None, "leftovers": {n: "K" for n in NAMES}, "version": 1},
        headers=key,
    )
    family = ["Zoë", "👩‍👧 Mum", "José", "Łukasz", "E5", "F6", "G7", "H8"]
    ongoing, key = api_game(client, family, profile="family", first_dealer="José")
    post_round(client, ongoing, key, "José", **{n: "A" for n in family if n != "José"})
    api_game(client, ["Eve", "Fay", "Gus"], profile="online")
    legacy, _ = api_game(client, NAMES)
    with app.app_context():
        db.session.get(Game, legacy).key_hash = None
        db.session.commit()
        assert db.session.get(Game, finished).finished_at is not None
    assert import_sheet(app) == [5]
    save_ruleset(client)
    undone = merge(client, "Gus", "E5")
    assert client.delete(f"/api/players/merges/{undone}").status_code == 200
    merge(client, "Fay", "Zoë")
    return finished


def export_text(app) -> str:
    with app.app_context():
        return transfer.dumps(transfer.export_games())


def import_data(app, data) -> int:
    with app.app_context():
        return importer.import_games(data)


def table_counts(app) -> list[int]:
    with app.app_context():
        return [
            db.session.scalar(db.select(db.func.count()).select_from(model)) for model in MODELS
        ]


@pytest.fixture
def source(tmp_path, migrated_database):
    app = new_app(tmp_path, migrated_database, "source")
    fill(app)
    return app


@pytest.fixture(scope="module")
def exported(tmp_path_factory, module_database):
    """The export of `fill`, made once for the module: each test gets its own copy."""
    app = new_app(tmp_path_factory.mktemp("exported"), module_database, "source")
    fill(app)
    return export_text(app)


@pytest.fixture
def document(exported):
    return json.loads(exported)


@pytest.fixture
def empty(tmp_path, migrated_database):
    return new_app(tmp_path, migrated_database, "empty")


# --- Round trip -------------------------------------------------------------------------------


def test_export_holds_everything(document):
    assert document["format"] == "liverpool-scorekeeper/games"
    assert document["format_version"] == 4
    assert len(document["games"]) == 5
    assert [game["rules"] for game in document["games"]] == [
        PRESETS[name].to_json()
        for name in ("liverpool", "family", "online", "liverpool", "liverpool")
    ]
    finished = document["games"][0]
    assert finished["finished_at"] is not None
    assert [r["number"] for r in finished["rounds"]] == list(range(1, 8))
    assert [r["version"] for r in finished["rounds"]][:3] == [2, 2, 2]  # 3: recorded again
    assert finished["rounds"][1]["out"] is None
    assert [c["action"] for c in finished["history"]] == ["corrected", "undone", "corrected"]
    assert len(finished["key_hash"]) == 64
    assert document["games"][3]["key_hash"] is None
    assert document["games"][1]["players"][1] == {"seat": 1, "name": "👩‍👧 Mum"}
    assert all(t.endswith("Z") for t in (finished["created_at"], finished["finished_at"]))


def test_export_holds_what_else_the_table_recorded(document):
    """The saved rule set, both merges (the undone one too) and the paper sheet's record."""
    (saved,) = document["rule_sets"]
    assert saved["id"] == 1 and saved["name"] == SMITH and saved["rules"] == smith_document()
    assert saved["used_at"] is None and saved["created_at"].endswith("Z")
    undone, in_force = document["merges"]
    assert (undone["from_name"], undone["into_name"], undone["from_key"]) == ("Gus", "E5", "gus")
    assert undone["undone_at"] >= undone["merged_at"]
    assert (in_force["from_name"], in_force["into_name"], in_force["undone_at"]) == (
        "Fay",
        "Zoë",
        None,
    )
    (sheet,) = document["sheets"]
    assert sheet["game_id"] == 5 and document["games"][4]["from_sheet"] is True
    assert re.fullmatch(r"[0-9a-f]{64}", sheet["fingerprint"])


def test_export_import_export_is_identical(source, empty):
    first = export_text(source)
    assert import_data(empty, json.loads(first)) == 5
    assert export_text(empty) == first
    assert table_counts(empty) == table_counts(source)
    assert table_counts(empty)[-3:] == [1, 2, 1]


def shown(response) -> str:
    """A game page as a person sees it: without the tag its script compares (a digest of the
    game's stamp in this database)."""
    return re.sub(r'data-tag="[0-9a-f]+"', 'data-tag=""', response.get_data(as_text=True))


def test_imported_games_read_and_work_as_before(source, empty):
    document = json.loads(export_text(source))
    import_data(empty, document)
    old, new = source.test_client(), empty.test_client()
    for game in document["games"]:
        path = f"/api/games/{game['id']}"
        assert new.get(path).get_json() == old.get(path).get_json()
        page = f"/games/{game['id']}"
        assert shown(new.get(page)) == shown(old.get(page))
    assert new.get("/api/games").get_json() == old.get("/api/games").get_json()


def test_edit_keys_survive_the_move(tmp_path, migrated_database):
    source = new_app(tmp_path, migrated_database, "keys-source")
    client = source.test_client()
    game_id, key = api_game(client, NAMES)
    target = new_app(tmp_path, migrated_database, "keys-target")
    with source.app_context():
        document = transfer.export_games()
    import_data(target, document)
    moved = target.test_client()
    path = f"/api/games/{game_id}/rounds"
    body = {"out": "Ann", "leftovers": {"Bob": "2", "Cat": "3", "Dan": "4"}}
    assert moved.post(path, json=body).status_code == 401
    assert moved.post(path, json=body, headers={"X-Game-Key": "wrong"}).status_code == 403
    assert moved.post(path, json=body, headers=key).status_code == 201
    # New games in the target continue after the imported ids.
    assert api_game(moved, ["Eve", "Fay", "Gus", "Hal"])[0] == game_id + 1


def test_an_empty_database_exports_no_games(empty):
    document = json.loads(export_text(empty))
    assert document["games"] == []
    assert import_data(empty, document) == 0


def test_rules_saved_under_a_name_a_later_release_gave_a_preset_are_kept(empty, document):
    """A table saved its rules as "Carioca" before the preset of that name existed (R12): the
    database keeps them, so its export must bring them back, never refuse the whole backup."""
    _renamed(0, "Carioca")(document)
    import_data(empty, document)
    with empty.app_context():
        (kept,) = db.session.scalars(db.select(SavedRuleSet))
        assert (kept.name, kept.rule_set.name) == ("Carioca", "Carioca")
    assert json.loads(export_text(empty))["rule_sets"] == document["rule_sets"]
    # A name given now is still refused (`rulesets.service.written_name`).
    answer = empty.test_client().post("/api/rulesets", json={"rules": smith_document("Carioca")})
    assert answer.status_code == 400 and "preset" in answer.get_json()["error"]


# --- Refusals: nothing is imported ------------------------------------------------------------


def test_a_clash_refuses_the_whole_import(empty, document):
    client = empty.test_client()
    for _ in range(3):
        api_game(client, NAMES)  # ids 1, 2, 3: games 1, 2 and 3 of the document clash
    before = table_counts(empty)
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(empty, document)
    assert "games 1, 2, 3 already exist in this database" in str(refused.value)
    assert "nothing was imported" in str(refused.value)
    assert table_counts(empty) == before


def test_importing_the_same_file_twice_is_refused(empty, document):
    import_data(empty, document)
    before = table_counts(empty)
    with pytest.raises(importer.ImportRefused):
        import_data(empty, document)
    assert table_counts(empty) == before


def test_a_saved_rule_set_merge_or_sheet_already_here_refuses_the_import(empty, document):
    """With no game of the document here, the table's own records still clash: a rule set of
    the same id or look-alike name, a merge of the same id or one in force of the same player,
    a paper sheet imported already. Every one is named, and nothing is written."""
    client = empty.test_client()
    save_ruleset(client, smith_document("SMITH family"))
    api_game(client, ["Fay", "Bob", "Cat", "Dan"])
    api_game(client, ["Zoë", "Eve", "Gus", "Hal"])
    merge(client, "Fay", "Zoë")
    assert import_sheet(empty) == [3]
    document = copy.deepcopy(document)
    document["games"] = document["games"][4:]  # the sheet's game alone: id 5, not taken here
    for name in ("rule_sets", "merges"):
        for row in document[name]:
            row["id"] += 1  # ids 2 and 3, not taken here either
    before = table_counts(empty)
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(empty, document)
    said = str(refused.value)
    assert "already exists in this database" not in said  # no id clashes
    assert "game 5 came from a paper sheet already imported into this database" in said
    assert "a saved rule set called SMITH family is already in this database" in said
    assert "a merge in force of Fay is already in this database" in said
    assert said.endswith("nothing was imported (import into an empty database)")
    assert table_counts(empty) == before
    document["rule_sets"][0]["id"] = document["merges"][1]["id"] = 1
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(empty, document)
    assert "saved rule set 1 already exists in this database" in str(refused.value)
    assert "merge 1 already exists in this database" in str(refused.value)
    assert table_counts(empty) == before


def _set(path, value):
    def change(doc):
        target = doc
        for part in path[:-1]:
            target = target[part]
        if value is DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value

    return change


def _both(*changes):
    def change(doc):
        for each in changes:
            each(doc)

    return change


def _again(section, **changes):
    """The section's first object written again after the last, with these changes."""

    def change(doc):
        doc[section].append(copy.deepcopy(doc[section][0]) | changes)

    return change


def _renamed(index, name):
    """The saved rule set and its document both renamed, as the app renames one."""

    def change(doc):
        doc["rule_sets"][index]["name"] = name
        doc["rule_sets"][index]["rules"]["name"] = name

    return change


DELETE = object()
G = ("games", 0)
R = (*G, "rounds", 0)
H = (*G, "history", 0)
S = ("rule_sets", 0)
M = ("merges", 0)
P = ("sheets", 0)

BROKEN = [
    (_set(("format",), "other"), "is not a score book export"),
    (_set(("format_version",), 5), "this app reads versions 1, 2, 3 and 4"),
    (_set(("format_version",), True), "this app reads versions 1, 2, 3 and 4"),
    (_set(("format_version",), 3), "the document.sheets is not in a document of version 3"),
    (_set(("rule_sets",), DELETE), "the document.rule_sets is missing"),
    (_set(("merges",), DELETE), "the document.merges is missing"),
    (_set(("sheets",), DELETE), "the document.sheets is missing"),
    (_set(("games",), {}), "games must be a list"),
    (_set(("extra",), 1), "unknown field extra"),
    (_set((*G, "id"), 0), "games[0].id must be from 1"),
    (_set((*G, "id"), "1"), "games[0].id must be a whole number"),
    (_set((*G, "id"), True), "games[0].id must be a whole number"),
    (_set((*G, "id"), 2), "games[1].id repeats game 2"),
    (_set((*G, "rules"), "liverpool"), "games[0].rules must be a rule set document"),
    (_set((*G, "rules", "values", "JK"), 500), "games[0].rules is not a rule set that can be used"),
    (_set((*G, "rules", "shuffle"), True), "shuffle: is not a setting"),
    (
        _set((*G, "rules", "players"), {"min": 5, "max": 8}),
        "4 players: Liverpool rules are for 5 to",
    ),
    (_set((*G, "profile"), "liverpool"), "unknown field profile"),
    (_set((*G, "players", 3), DELETE), "3 players"),
    (_set((*G, "players", 1, "name"), "ann"), "already at the table"),
    (_set((*G, "players", 1, "name"), " Bob"), "must be written 'Bob'"),
    (_set((*G, "players", 1, "name"), "B" * 30), "at most 24"),
    (_set((*G, "players", 1, "seat"), 2), "must be 1: seats are listed in order"),
    (_set((*G, "players", 1, "seat"), 1.0), "must be 1: seats are listed in order"),
    (_set((*G, "players", 1, "seat"), True), "must be 1: seats are listed in order"),
    (_set((*R, "scores", 1, "seat"), 1.0), "must be 1: one line per seat"),
    (
        _set((*G, "archived_at"), "2000-01-01T00:00:00.000000Z"),
        "archived_at (game 1) is before the game was created",
    ),
    (_set((*G, "players", 1, "wins"), 2), "unknown field wins"),
    (_set((*G, "first_dealer"), 4), "first_dealer must be from 0 to 3"),
    (_set((*G, "key_hash"), "abc"), "key_hash must be null or a sha256"),
    (_set((*G, "key_hash"), "A" * 64), "key_hash must be null or a sha256"),
    (_set((*G, "created_at"), "2025-01-31T20:15:00"), "must be a UTC time"),
    (_set((*G, "created_at"), "yesterdayZ"), "is not a time"),
    (_set((*G, "created_at"), "2025-01-31T20:15:00+01:00Z"), "marked only with Z"),
    (_set((*G, "finished_at"), None), "finished_at must be set exactly when all 7"),
    (_set((*G, "rounds", 6), DELETE), "finished_at must be set exactly when all 7"),
    (_set((*G, "rounds", 2, "number"), 5), "must be rounds 1, 2, 3"),
    (_set((*R, "number"), 13), "number must be from 1 to 12"),
    (_set((*R, "dealer"), -1), "dealer must be from 0 to 3"),
    (_set((*R, "out"), 4), "out must be from 0 to 3"),
    (_set((*R, "cut_exact"), 1), "cut_exact must be true or false"),
    (_set((*R, "version"), 0), "version must be from 1"),
    (_set((*R, "version"), 10**30), "version must be from 1"),
    (_set((*R, "scores", 0, "score"), 999), "must be penalty + bonus"),
    (_set((*R, "scores", 0, "penalty"), 1.5), "penalty must be a whole number"),
    (_set((*R, "scores", 0, "leftovers"), "X9"), "holds cards the app cannot read"),
    (_set((*R, "scores", 0, "leftovers"), 7), "leftovers must be text"),
    (_set((*R, "scores", 3), DELETE), "one line for each of the 4 players"),
    (_set((*R, "scores", 1, "seat"), 3), "must be 1: one line per seat"),
    (_set((*R, "recorded_at"), None), "recorded_at must be a UTC time"),
    (_set((*H, "action"), "deleted"), "must be 'corrected' or 'undone'"),
    (_set((*G, "history", 1, "after"), {}), "must be null for an undone round"),
    (_set((*H, "before", "leftovers"), ["2"]), "one entry for each of the 4 players"),
    (_set((*H, "before", "scores", 0), "ten"), "must be a whole number"),
    (_set((*H, "before", "version"), DELETE), "lacks version"),
    (_set((*H, "after"), None), "must be an object"),
    (_set((*H, "round_number"), 13), "round_number must be from 1 to 12"),
    (_set((*H, "round_number"), 9), "names round 9, and liverpool rules have rounds 1 to 7"),
    # The saved rule sets
    (_set(("rule_sets",), {}), "rule_sets must be a list"),
    (_set((*S, "id"), 0), "rule_sets[0].id must be from 1"),
    (_set((*S, "shared"), True), "rule_sets[0] has unknown field shared"),
    (_set((*S, "name"), 7), "rule_sets[0].name must be text"),
    (_set((*S, "name"), "S" * 41), "rule_sets[0].name is longer than 40 characters"),
    (_set((*S, "name"), " Smith  family"), "rule_sets[0].name must be written 'Smith family'"),
    (_set((*S, "name"), ""), "rule_sets[0].name give your table's rules a name"),
    (_set((*S, "name"), "Smith\u202efamily"), "'Smith\\u202efamily' holds a character that"),
    (_set((*S, "rules"), "smith"), "rule_sets[0].rules must be a rule set document"),
    (_set((*S, "rules", "values", "JK"), 500), "rule_sets[0].rules is not a rule set that can"),
    (
        _set((*S, "rules", "name"), "Jones"),
        "rule_sets[0].rules.name must be 'Smith family', the saved rule set's name",
    ),
    (_set((*S, "created_at"), "2025-01-31"), "rule_sets[0].created_at must be a UTC time"),
    (_set((*S, "updated_at"), None), "rule_sets[0].updated_at must be a UTC time"),
    (_set((*S, "used_at"), "yesterdayZ"), "rule_sets[0].used_at is not a time"),
    (_set((*S, "rules"), DELETE), "rule_sets[0] lacks rules"),
    (
        _both(_again("rule_sets", id=2), _renamed(1, "smith Family")),
        "rule_sets[1].name repeats the saved rule set called Smith family",
    ),
    (
        _both(_again("rule_sets"), _renamed(1, "Jones")),
        "rule_sets[1].id repeats saved rule set 1",
    ),
    # The merges
    (_set(("merges",), "none"), "merges must be a list"),
    (_set((*M, "id"), -1), "merges[0].id must be from 1"),
    (_set((*M, "from_key"), ""), "merges[0].from_key must not be empty"),
    (_set((*M, "into_key"), ""), "merges[0].into_key must not be empty"),
    (_set((*M, "into_key"), "gus"), "merges[0].into_key must be another player's than from_key"),
    (_set((*M, "from_key"), "k" * 73), "merges[0].from_key is longer than 72 characters"),
    (_set((*M, "from_name"), " Gus"), "merges[0].from_name must be written 'Gus'"),
    (_set((*M, "into_name"), " "), "merges[0].into_name must not be empty"),
    (_set((*M, "into_name"), "E\x075"), "merges[0].into_name 'E\\x075' holds a control"),
    (_set((*M, "from_name"), "G" * 25), "merges[0].from_name is longer than 24 characters"),
    (_set((*M, "merged_at"), None), "merges[0].merged_at must be a UTC time"),
    (_set((*M, "undone_at"), "2025-01-31T20:15:00"), "merges[0].undone_at must be a UTC time"),
    (_set((*M, "undone_at"), DELETE), "merges[0] lacks undone_at"),
    (_set(("merges", 1, "id"), 1), "merges[1].id repeats merge 1"),
    (
        _both(_set((*M, "undone_at"), None), _again("merges", id=3)),
        "merges[2].from_key repeats a merge in force of this player",
    ),
    # The paper sheets' records
    (_set(("sheets",), {}), "sheets must be a list"),
    (_set((*P, "id"), 1), "sheets[0] has unknown field id"),
    (_set((*P, "game_id"), 9), "sheets[0].game_id names game 9, which the document does not hold"),
    (
        _set((*P, "game_id"), 1),
        "sheets[0].game_id names game 1, which was not brought in from a paper sheet",
    ),
    (_set((*P, "game_id"), "5"), "sheets[0].game_id must be a whole number"),
    (_set((*P, "fingerprint"), "abc"), "sheets[0].fingerprint must be a sha256 hash"),
    (_set((*P, "fingerprint"), "A" * 64), "sheets[0].fingerprint must be a sha256 hash"),
    (_set((*P, "fingerprint"), None), "sheets[0].fingerprint must be a sha256 hash"),
    (_again("sheets"), "sheets[1].game_id repeats game 5: a game has one sheet's record"),
    (
        _both(_set((*G, "from_sheet"), True), _again("sheets", game_id=1)),
        "sheets[1].fingerprint repeats the fingerprint of game 5",
    ),
]


@pytest.mark.parametrize(("change", "problem"), BROKEN)
def test_a_broken_document_is_refused_whole(empty, document, change, problem):
    broken = copy.deepcopy(document)
    change(broken)
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(empty, broken)
    assert problem in str(refused.value)
    assert "nothing was imported" in str(refused.value)
    assert table_counts(empty) == NOTHING


@pytest.mark.parametrize("data", [None, [], "games", 7, {"format": "liverpool-scorekeeper/games"}])
def test_not_a_document_at_all(empty, data):
    with pytest.raises(importer.ImportRefused):
        import_data(empty, data)


def test_random_damage_is_refused_or_imported_never_a_crash(tmp_path, migrated_database, document):
    """Hundreds of seeded small changes: each is imported or refused cleanly, none is half-stored."""
    rng = random.Random(7)
    replacements = [None, 0, -1, 1, 2**70, "", "x", True, [], {}, 1.5, "2025-01-01T00:00:00Z"]
    places = list(_places(document))
    app = new_app(tmp_path, migrated_database, "fuzz")
    for _ in range(400):
        damaged = copy.deepcopy(document)
        path = rng.choice(places)
        _set(path, rng.choice(replacements + [DELETE]))(damaged)
        try:
            count = import_data(app, damaged)
        except importer.ImportRefused:
            assert table_counts(app) == NOTHING
            continue
        assert count == 5
        with app.app_context():
            for game in damaged["games"]:  # whatever was taken reads back on every page
                client = app.test_client()
                assert client.get(f"/games/{game['id']}").status_code == 200
                assert client.get(f"/api/games/{game['id']}").status_code == 200
            for model in (SheetImport, PlayerMerge, SavedRuleSet):
                db.session.execute(db.delete(model))
            db.session.execute(db.delete(RoundChange))
            db.session.execute(db.delete(RoundScore))
            db.session.execute(db.delete(Round))
            db.session.execute(db.delete(Player))
            db.session.execute(db.delete(Game))
            db.session.commit()


def _places(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index)
            yield from _places(item, (*path, index))


# --- The commands -----------------------------------------------------------------------------


def test_export_and_import_commands_with_files(tmp_path, source, empty):
    target = tmp_path / "book.json"
    result = source.test_cli_runner().invoke(args=["export", str(target)])
    assert result.exit_code == 0, result.output
    assert "Exported 5 games" in result.output
    assert target.read_text(encoding="utf-8") == export_text(source)
    again = source.test_cli_runner().invoke(args=["export", str(target)])
    assert again.exit_code != 0
    assert "already exists" in again.output
    forced = source.test_cli_runner().invoke(args=["export", str(target), "--force"])
    assert forced.exit_code == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".book.json")] == []

    result = empty.test_cli_runner().invoke(args=["import", str(target)])
    assert result.exit_code == 0, result.output
    assert "Imported 5 games: 1, 2, 3, 4, 5" in result.output
    assert export_text(empty) == target.read_text(encoding="utf-8")
    clash = empty.test_cli_runner().invoke(args=["import", str(target)])
    assert clash.exit_code == 1
    assert "games 1, 2, 3, 4, 5 already exist in this database" in clash.output
    assert "nothing was imported (import into an empty database)" in clash.output


def test_export_and_import_commands_through_dash(source, empty):
    exported = source.test_cli_runner().invoke(args=["export", "-"])
    assert exported.exit_code == 0
    assert exported.stdout == export_text(source)
    imported = empty.test_cli_runner().invoke(args=["import", "-"], input=exported.stdout)
    assert imported.exit_code == 0, imported.output
    assert export_text(empty) == exported.stdout


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{oops", "is not JSON"),
        ("[" * 100_000, "nested too deeply"),
        ('{"format": "x", "format_version": 1, "games": []}', "not a score book export"),
        (b"\xff\xfe".decode("latin-1"), "not JSON"),
    ],
)
def test_import_command_refusals(tmp_path, empty, content, problem):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="latin-1" if content.startswith("\xff") else "utf-8")
    result = empty.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert problem in result.output or "cannot read" in result.output
    assert table_counts(empty) == NOTHING


def test_import_of_a_missing_file(tmp_path, empty):
    result = empty.test_cli_runner().invoke(args=["import", str(tmp_path / "none.json")])
    assert result.exit_code == 1
    assert "cannot read" in result.output


def test_the_commands_from_a_shell(tmp_path, fresh_database, source):
    """`flask --app scorekeeper export -` and `import -`, as a person types them."""
    with source.app_context():
        expected = transfer.dumps(transfer.export_games())
    env = {
        **os.environ,
        "DATABASE_URL": fresh_database("shell"),
        "SECRET_KEY": "transfer-test",
    }
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    imported = subprocess.run(
        [*flask, "import", "-"], input=expected, env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert imported.returncode == 0, imported.stderr
    exported = subprocess.run(
        [*flask, "export", "-"], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert exported.returncode == 0, exported.stderr
    assert exported.stdout == expected


# --- The engine scores every import again ----------------------------------------------------


def _line(number: int, seat: int, leftovers: str | None = None, **values):
    """Change one player's line of round `number`, keeping score = penalty + bonus."""

    def change(doc):
        line = doc["games"][0]["rounds"][number - 1]["scores"][seat]
        if leftovers is not None:
            line["leftovers"] = leftovers
        line.update(values)
        line["score"] = line["penalty"] + line["bonus"]

    return change


RESCORED = [
    (_line(2, 0, "K", penalty=999), "rounds[1].scores[0].penalty (game 1, round 2) must be 10"),
    (_line(1, 3, "5", penalty=5), "(game 1, round 1) is refused by the rules"),
    (_line(2, 0, " ".join(["JK"] * 12), penalty=180), "is refused by the rules"),
    (_line(2, 0, bonus=-5000), "rounds[1].scores[0].bonus (game 1, round 2) must be 0"),
    (_set((*R, "dealer"), 2), "rounds[0].dealer (game 1, round 1) must be 1 (Bob)"),
    (_set((*R, "cutter"), 1), "rounds[0].cutter (game 1, round 1) must be 0 (Ann)"),
    (_set((*R, "cut_exact"), False), "bonus (game 1, round 1) must be 0"),
    (_set((*G, "rounds", 3, "out"), 0), "(game 1, round 4) is refused by the rules"),
    (_set((*G, "finished_at"), "2000-01-01T00:00:00.000000Z"), "after the game finished"),
    (
        _both(
            _set((*G, "created_at"), "2199-01-01T00:00:00.000000Z"),
            _set((*G, "finished_at"), "2198-01-01T00:00:00.000000Z"),
        ),
        "before the game was created",
    ),
    (_set((*G, "created_at"), "0001-01-01T00:00:00.000000Z"), "must be a time from 1970 to 2200"),
    (_set((*G, "created_at"), "2300-01-01T00:00:00.000000Z"), "must be a time from 1970 to 2200"),
    (_set((*R, "corrected_at"), "2000-01-01T00:00:00.000000Z"), "before the round was recorded"),
    (_set((*G, "rounds", 3, "corrected_at"), "2199-01-01T00:00:00.000000Z"), "last entry"),
    (_set((*H, "after", "penalties", 0), 11), "history[0].after.penalties[0] (game 1, round 1)"),
    (_set((*H, "before", "version"), 2), "history[0].before.version (game 1, round 1) must be 1"),
    (_set((*H, "after", "version"), 3), "must be 2: a correction adds one"),
    (_set((*G, "history", 2, "round_number"), 1), "history[2].before.version (game 1, round 1)"),
    (
        _both(
            _set((*G, "history", 2, "round_number"), 1),
            _set((*G, "history", 2, "before", "version"), 2),
        ),
        "is not the round as the entry before left it",
    ),
    (_set((*R, "version"), 3), "not the round as its last correction in the history"),
    (_set((*G, "rounds", 3, "version"), 2), "rounds[3].version (game 1, round 4) must be 1"),
    (_set((*G, "rounds", 2, "version"), 1), "rounds[2].version (game 1, round 3) must be 2"),
    (_set((*H, "before", "out"), 0), "(game 1, round 1) is refused by the rules"),
    (_set((*R, "version"), 10**4000), "must be from 1 to 1000000000, not a number of 4001 digits"),
]


def test_the_unchanged_export_passes_the_engine(empty, document):
    assert import_data(empty, document) == 5


@pytest.mark.parametrize(("change", "problem"), RESCORED)
def test_an_import_the_engine_disagrees_with_is_refused_whole(empty, document, change, problem):
    test_a_broken_document_is_refused_whole(empty, document, change, problem)


def test_a_number_of_thousands_of_digits_is_a_clean_refusal(tmp_path, empty, exported):
    path = tmp_path / "huge.json"
    path.write_text(exported.replace('"first_dealer": 1', '"first_dealer": ' + "9" * 5000, 1))
    result = empty.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert "number too big" in result.output and "nothing was imported" in result.output
    assert "Traceback" not in result.output
    assert table_counts(empty) == NOTHING


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Tokyo", "Pacific/Kiritimati"])
def test_any_stored_time_shows_in_any_time_zone(app, zone, monkeypatch):
    import time
    from datetime import datetime

    from scorekeeper.games.models import localtime

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        for moment in (datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59), datetime(2026, 12, 1)):
            assert localtime(moment)
        client = app.test_client()
        game = new_game(client, profile=None)
        with app.app_context():
            db.session.get(Game, game.id).created_at = datetime(1, 1, 1)
            db.session.commit()
        assert client.get("/games/").status_code == 200
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_refusal_is_said_in_the_readers_language(app):
    """The document is the same in every language; what is wrong with it is said in the
    reader's (a command's: the default language)."""
    with app.test_request_context(headers={"Accept-Language": "fi"}):
        with pytest.raises(importer.ImportRefused) as refused:
            importer.check_document({"format": "x", "format_version": 2, "games": "none"})
        assert str(refused.value) == gettext(
            "%(place)s %(problem)s: nothing was imported",
            place=gettext("the document") + ".format",
            problem=gettext(
                "must be %(format)s: this is not a score book export",
                format=repr(transfer.FORMAT),
            ),
        )
        with pytest.raises(importer.ImportRefused) as refused:
            importer.check_document({"format": transfer.FORMAT, "format_version": 2, "games": {}})
        assert "pitää olla lista" in str(refused.value)  # the engine's words, in Finnish
    with app.app_context(), pytest.raises(importer.ImportRefused) as refused:
        importer.check_document({"format": transfer.FORMAT, "format_version": 2, "games": {}})
    assert str(refused.value) == "games must be a list: nothing was imported"
