"""The club's nights and leagues in the score book's export (from format 3): out and back in
exactly, exports of format 2 (from before them) and format 3 (from before the saved rule sets,
merges and paper sheets' records) still read as they meant, and an import into a database that
holds nights or leagues already refused whole, every clash named, nothing written."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.games import importer, transfer
from scorekeeper.games.models import Game, SheetImport
from scorekeeper.league import service as leagues
from scorekeeper.league.models import League, LeagueNight, LeagueScoringChange
from scorekeeper.nights.models import Night, NightPlayer, NightTable
from scorekeeper.platform.database import db
from scorekeeper.rulesets.models import SavedRuleSet
from scorekeeper.season.models import PlayerMerge
from tests.league.helpers import night, post
from tests.support.config import TEST_CONFIG

# The module's tests share a fixture: one process makes it, once.
pytestmark = pytest.mark.xdist_group("book-transfer")

# An export the app wrote before nights and leagues were in it (format 2): a night's table
# played to its end; the night and a league counting it were in that database, not in the file.
FORMAT_2 = Path(__file__).parent / "exports" / "format-2-with-a-night.json"
# An export the app wrote before the saved rule sets, merges and paper sheets' records were in
# it (format 3): a night's table (Annie's) ended early and a league counting it, and a game
# from a paper sheet (Ann's); that database also held a saved rule set, Annie merged into Ann and
# the sheet's record, which the file did not carry.
FORMAT_3 = Path(__file__).parent / "exports" / "format-3-with-a-night-and-a-league.json"
MODELS = (Game, Night, NightPlayer, NightTable, League, LeagueNight, LeagueScoringChange)
RECORDS = (SavedRuleSet, PlayerMerge, SheetImport)
# The sections format 4 added.
SINCE_4 = ("rule_sets", "merges", "sheets")


def new_app(tmp_path, make_database, name):
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=make_database(name))
    return create_app(config, instance_path=str(tmp_path / f"{name}-instance"))


def fill(app) -> None:
    """Two drawn nights (one table finished, one not started; pinned members, a late arrival), an
    open night with players checked in, a league by places whose scoring changed twice and one
    normalised, both counting the drawn nights, and a game outside any night."""
    client = app.test_client()
    first = night(
        client,
        "2026-11-05",
        [["Ann", "Bob", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"]],
        {1: [("Ann", {"Bob": 10, "Cat": 20, "Dan": 20})]},
        rules="family",
    )
    late = post(client, f"/api/nights/{first['id']}/late", {"name": "Ivy"})
    assert late.status_code == 201, late.json
    second = night(
        client,
        "2026-11-12",
        [["Ann", "Bob", "Eve", "Fay"]],
        {1: [("Bob", {"Ann": 15, "Eve": 5, "Fay": 10})]},
    )
    made = post(client, "/api/nights", {"rules": "family", "held_on": "2026-11-19"})
    checked = post(
        client,
        f"/api/nights/{made.json['id']}/players",
        {"players": [{"name": "Zoë", "table": 2}, {"name": "José"}]},
    )
    assert checked.status_code == 201, checked.json
    client.post("/api/games", json={"players": ["Kim", "Lee", "Max", "Ned"]})
    nights = [first["id"], second["id"]]
    for name, scoring in (("Thursday", "places"), ("Thursday normalised", "normalised")):
        body = {"name": name, "scoring": scoring, "nights": nights}
        assert post(client, "/api/league", body).status_code == 201
    with app.app_context():
        league = leagues.get_league(1, for_update=True)
        leagues.change_scoring(league, "normalised")
        leagues.change_scoring(league, "places", [5, 3, 1])
        db.session.commit()


def export_text(app) -> str:
    with app.app_context():
        return transfer.dumps(transfer.export_games())


def import_data(app, data) -> int:
    with app.app_context():
        return importer.import_games(data)


def counts(app, models=MODELS) -> list[int]:
    with app.app_context():
        return [
            db.session.scalar(db.select(db.func.count()).select_from(model)) for model in models
        ]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, module_database):
    app = new_app(tmp_path_factory.mktemp("book"), module_database, "book")
    fill(app)
    return export_text(app)


@pytest.fixture
def document(exported):
    return json.loads(exported)


@pytest.fixture
def empty(tmp_path, migrated_database):
    return new_app(tmp_path, migrated_database, "empty")


def test_the_export_holds_the_nights_and_leagues(document):
    assert document["format_version"] == 4
    first, second, open_night = document["nights"]
    assert [first["state"], second["state"], open_night["state"]] == ["drawn", "drawn", "open"]
    assert first["held_on"] == "2026-11-05" and first["rules"]["name"] == "Family"
    assert [table["number"] for table in first["tables"]] == [1, 2]
    games = {game["id"] for game in document["games"]}
    assert {table["game_id"] for table in first["tables"]} <= games
    seated = {player["name"]: player for player in first["players"]}
    assert seated["Ann"]["pinned_table"] == 1 and seated["Ann"]["table_number"] == 1
    assert seated["Ivy"]["late"] is True and seated["Ivy"]["table_number"] == 2
    assert open_night["tables"] == [] and open_night["drawn_at"] is None
    assert [(p["name"], p["pinned_table"]) for p in open_night["players"]] == [
        ("Zoë", 2),
        ("José", None),
    ]
    places, normalised = document["leagues"]
    assert places["scoring"] == "places" and places["points"] == [5, 3, 1]
    assert [link["night_id"] for link in places["nights"]] == [first["id"], second["id"]]
    assert [
        (c["before_scoring"], c["before_points"], c["after_scoring"], c["after_points"])
        for c in places["changes"]
    ] == [("places", [4, 3, 2, 1], "normalised", []), ("normalised", [], "places", [5, 3, 1])]
    assert normalised["points"] == [] and normalised["changes"] == []


def test_export_import_export_is_identical(exported, empty):
    assert import_data(empty, json.loads(exported)) == 4
    assert export_text(empty) == exported
    assert counts(empty)[1:] == [3, 15, 3, 2, 4, 2]


def test_the_imported_league_reads_as_before(tmp_path, migrated_database, exported, empty):
    source = new_app(tmp_path, migrated_database, "again")
    fill(source)
    import_data(empty, json.loads(export_text(source)))
    old, new = source.test_client(), empty.test_client()
    for path in ("/api/league/1", "/api/league/2", "/api/nights/1", "/api/nights/3"):
        assert new.get(path).get_json() == old.get(path).get_json(), path
    # New nights and leagues follow the imported ids.
    made = post(new, "/api/nights", {"rules": "liverpool"})
    assert made.json["id"] == 4


def test_a_format_2_export_still_imports_with_its_old_meaning(empty):
    old = json.loads(FORMAT_2.read_text(encoding="utf-8"))
    assert old["format_version"] == 2 and "nights" not in old
    assert import_data(empty, old) == 1
    again = json.loads(export_text(empty))
    assert again["format_version"] == 4
    # The games as they were, and no night or league: the file held none.
    assert again["games"] == old["games"]
    assert again["nights"] == [] and again["leagues"] == []
    assert [again[name] for name in SINCE_4] == [[], [], []]
    game = empty.test_client().get("/api/games/1").get_json()
    assert game["finished"] and game["players"] == [p["name"] for p in old["games"][0]["players"]]


def test_a_format_3_export_still_imports_with_its_old_meaning(empty):
    """Its games, night and league as they were, and no saved rule set, merge or paper sheet's
    record: the file held none, so Annie and Ann are two players again."""
    old = json.loads(FORMAT_3.read_text(encoding="utf-8"))
    assert old["format_version"] == 3 and not set(SINCE_4) & old.keys()
    assert [game["from_sheet"] for game in old["games"]] == [False, True]
    assert import_data(empty, old) == 2
    again = json.loads(export_text(empty))
    assert again["format_version"] == 4
    assert {key: again[key] for key in ("games", "nights", "leagues")} == {
        key: old[key] for key in ("games", "nights", "leagues")
    }
    assert [again[name] for name in SINCE_4] == [[], [], []]
    assert counts(empty, RECORDS) == [0, 0, 0]
    players = empty.test_client().get("/api/players").get_json()["players"]
    assert {"Ann", "Annie"} <= {player["name"] for player in players}


@pytest.mark.parametrize("name", SINCE_4)
def test_a_format_3_export_holding_a_later_section_is_refused(empty, name):
    old = json.loads(FORMAT_3.read_text(encoding="utf-8"))
    old[name] = []
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(empty, old)
    said = f"the document.{name} is not in a document of version 3: make it version 4"
    assert said in str(refused.value)
    assert counts(empty) == [0] * len(MODELS)


def as_version(version: int):
    """The document made a document of `version`, without the sections added after it."""

    def change(document):
        for name in SINCE_4:
            del document[name]
        document["format_version"] = version

    return change


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (as_version(2), "the document.nights is not in a document of version 2"),
        (lambda d: d.pop("leagues"), "the document.leagues is missing"),
        (lambda d: as_version(3)(d) or d.pop("nights"), "the document.nights is missing"),
        (
            lambda d: d["nights"][0]["tables"][0].update(game_id=99),
            "nights[0].tables[0].game_id names game 99, which the document does not hold",
        ),
        (
            lambda d: d["nights"][1]["tables"][0].update(game_id=1),
            "nights[1].tables[0].game_id names game 1, the game of table 1 of night 1 already",
        ),
        (lambda d: d["nights"][1].update(id=1), "nights[1].id repeats night 1"),
        (lambda d: d["nights"][0].update(held_on="5.11.2026"), "nights[0].held_on must be a date"),
        (
            lambda d: d["nights"][2].update(state="drawn"),
            "nights[2].drawn_at must be set exactly when the night is drawn",
        ),
        (
            lambda d: d["nights"][0]["players"][1].update(name_key="ann"),
            "nights[0].players[1].name_key repeats a player checked in already",
        ),
        (
            lambda d: d["nights"][0]["players"][0].update(table_number=3),
            "nights[0].players[0].table_number must be a table of the night",
        ),
        (lambda d: d["nights"][0]["rules"].update(deals=[]), "nights[0].rules is not a rule set"),
        (
            lambda d: d["leagues"][0]["nights"][0].update(night_id=7),
            "leagues[0].nights[0].night_id names night 7, which the document does not hold",
        ),
        (
            lambda d: d["leagues"][0]["nights"][1].update(night_id=1),
            "leagues[0].nights[1].night_id repeats night 1",
        ),
        (
            lambda d: d["leagues"][0].update(points=[1, 3]),
            "leagues[0].points[1] a place is never worth more than the one above it",
        ),
        (
            lambda d: d["leagues"][1].update(points=[1]),
            "leagues[1].points must be empty",
        ),
        (
            lambda d: d["leagues"][0].update(points=[6, 3, 1]),
            "leagues[0].changes[1].after_scoring must be the league's scoring",
        ),
        (
            lambda d: d["leagues"][0]["changes"][1].update(
                before_scoring="places", before_points=[4, 3, 2, 1]
            ),
            "leagues[0].changes[1].before_scoring must be the scoring the change before left",
        ),
        (lambda d: d["leagues"][1].update(name="thursday"), "leagues[1].name repeats the league"),
        (lambda d: d["leagues"][1].update(name=" Cup"), "leagues[1].name must be written 'Cup'"),
    ],
)
def test_a_broken_section_is_refused_whole(empty, document, change, problem):
    broken = copy.deepcopy(document)
    change(broken)
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(empty, broken)
    assert problem in str(refused.value)
    assert "nothing was imported" in str(refused.value)
    assert counts(empty) == [0] * len(MODELS)


def test_an_import_into_a_database_with_nights_names_every_clash_and_writes_nothing(
    tmp_path, migrated_database, document
):
    """Refused, not merged: ids are kept (a league names its nights, a table its game by them),
    so a night or league already here would be another's under the same id."""
    busy = new_app(tmp_path, migrated_database, "busy")
    client = busy.test_client()
    night(client, "2026-10-01", [["Ann", "Bob", "Cat", "Dan"]], {})
    assert post(client, "/api/league", {"name": "THURSDAY", "scoring": "places"}).status_code == 201
    before = counts(busy)
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(busy, document)
    said = str(refused.value)
    assert "game 1 already exists in this database" in said
    assert "night 1 already exists in this database" in said
    assert "league 1 already exists in this database" in said
    assert "a league called THURSDAY is already in this database" in said
    assert said.endswith("nothing was imported (import into an empty database)")
    assert counts(busy) == before


def test_importing_the_same_file_twice_writes_once(empty, document):
    import_data(empty, document)
    before = counts(empty)
    with pytest.raises(importer.ImportRefused) as refused:
        import_data(empty, document)
    assert "nights 1, 2, 3 already exist" in str(refused.value)
    assert "leagues 1, 2 already exist" in str(refused.value)
    assert counts(empty) == before


def test_a_games_download_carries_no_night(tmp_path, migrated_database):
    app = new_app(tmp_path, migrated_database, "download")
    client = app.test_client()
    drawn = night(client, "2026-11-05", [["Ann", "Bob", "Cat", "Dan"]], {})
    game = drawn["tables"][0]["game"]
    data = client.get(f"/games/{game}/export.json").get_json()
    assert data["format_version"] == 4 and data["nights"] == [] and data["leagues"] == []
    assert [data[name] for name in SINCE_4] == [[], [], []]
