"""Every database an earlier release made upgrades to one whose export imports unchanged.

Games are written into a database at each earlier revision's schema (and into the file a release
made before migrations existed) as that schema stores them, with names the name rules now refuse:
not as the app writes them today ("Ｂｏｂ", "ﬁona"), holding an invisible character
("Tab\u200bby"), and two seats that look alike ("Ann" and "Аnn", a Cyrillic А). After the upgrade
the names are kept as played, the export imports into an empty database, and that database
exports the same bytes; the API finds each player by any spelling that names it today, and the
table can play again.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import flask_migrate
import pytest
from sqlalchemy import MetaData

from scorekeeper.games import buys, transfer
from scorekeeper.games.models import Game
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from scorekeeper.season import players as season
from tests.support.apps import app_on
from tests.support.book import new_game, play_rounds, record

LEGACY = Path(__file__).parents[1] / "database" / "legacy-v0.sqlite"
# Every revision a release shipped before this one's, oldest first.
EARLIER = (
    "0001_baseline",
    "0002_write_once",
    "0003_archive",
    "0004_points_entry",
    "0005_game_rules",
    "0006_saved_rule_sets",
    "0007_name_keys_as_played",
    "0008_renames_and_early_ends",
    "0009_phone_hands",
    "0010_paper_sheets",
    "0011_season_stamp",
    "0012_player_merges",
    "0013_round_buys",
    "0014_sheet_imports",
    "0015_stamps",
)
PLACES = ["P0", "P1", "P2", "P3"]
# The names each game was played under, by the reference game it copies.
WIDE = ["Ｂｏｂ", "ﬁona", "Tab\u200bby", "Ann"]
ALIKE = ["Ann", "Аnn", "Cy", "Di"]
TABLES = ("games", "players", "rounds", "round_scores", "round_changes")


@pytest.fixture(scope="module")
def reference(module_database, tmp_path_factory) -> dict:
    """The export of games played at today's schema: one finished, one under way with a
    correction, one archived. Their rows are what the older databases are given."""
    app = app_on(module_database("reference"), tmp_path_factory.mktemp("reference"))
    with app.app_context():
        database.upgrade()
    client = app.test_client()
    finished = new_game(client, PLACES)
    play_rounds(client, finished)
    going = new_game(client, PLACES)
    record(client, going, "P1", {"P0": "K", "P2": "Q 5", "P3": "A"})
    record(client, going, "P2", {"P0": "7", "P1": "J", "P3": "Q"}, cut_exact=True)
    changed = client.put(
        f"/api/games/{going.id}/rounds/1",
        json={"out": "P3", "leftovers": {"P0": "K", "P1": "9", "P2": "Q 5"}, "version": 1},
        headers=going.headers,
    )
    assert changed.status_code == 200, changed.get_json()
    archived = new_game(client, PLACES)
    # A buy counted (0013): the reference's lines carry buys, an older schema's do not.
    bought = client.post(
        f"/api/games/{archived.id}/rounds",
        json={"out": "P0", "leftovers": {"P1": "5", "P2": "5", "P3": "5"}, "buys": {"P2": 1}},
        headers=archived.headers,
    )
    assert bought.status_code == 201, bought.get_json()
    assert client.post(f"/api/games/{archived.id}/archive", headers=archived.headers).status_code
    with app.app_context():
        return transfer.export_games()


def write_games(app, document: dict, names: dict[int, list[str]], first_id: int) -> None:
    """Store the document's games as the database's own schema keeps them, ids from `first_id`,
    each game seated with `names[index]`; the keys are those the first releases made."""
    with app.app_context(), db.engine.begin() as connection:
        tables = MetaData()
        tables.reflect(connection, only=TABLES)
        columns = {name: set(table.columns.keys()) for name, table in tables.tables.items()}

        def insert(name: str, row: dict) -> None:
            kept = {k: v for k, v in row.items() if k in columns[name]}
            connection.execute(tables.tables[name].insert().values(**kept))

        round_id = 1000 * first_id
        for index, game in enumerate(document["games"]):
            game_id = first_id + index
            insert(
                "games",
                {
                    "id": game_id,
                    "profile": "liverpool",
                    "rules": game["rules"],
                    "first_dealer": game["first_dealer"],
                    "created_at": time(game["created_at"]),
                    "finished_at": time(game["finished_at"]),
                    "archived_at": time(game.get("archived_at")),
                    "key_hash": game["key_hash"],
                },
            )
            seated = names[index]
            folded = [name.casefold() for name in seated]
            for seat, name in enumerate(seated):
                key = folded[seat] if folded.index(folded[seat]) == seat else f"{folded[seat]}#"
                insert("players", {"game_id": game_id, "seat": seat, "name": name, "name_key": key})
            for played in game["rounds"]:
                round_id += 1
                insert(
                    "rounds",
                    {
                        **{k: v for k, v in played.items() if k != "scores"},
                        "id": round_id,
                        "game_id": game_id,
                        "recorded_at": time(played["recorded_at"]),
                        "corrected_at": time(played["corrected_at"]),
                    },
                )
                for line in played["scores"]:
                    insert("round_scores", {**line, "round_id": round_id})
            for change in game["history"]:
                insert(
                    "round_changes",
                    {**change, "game_id": game_id, "changed_at": time(change["changed_at"])},
                )
        if connection.dialect.name == "postgresql":  # as if the app had made the rows
            for name in TABLES:
                connection.execute(
                    db.text(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), max(id))"
                        f" FROM {name} HAVING max(id) IS NOT NULL"
                    )
                )


def time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text.removesuffix("Z"))


def earlier_database(start: str, make_url, tmp_path) -> object:
    """An app on a database an earlier release made (at revision `start`, or the file of a
    release before migrations), holding the reference games under the refused names."""
    if start == "legacy":
        path = tmp_path / "legacy.sqlite"
        shutil.copy(LEGACY, path)
        app = app_on(f"sqlite:///{path}", tmp_path, "legacy")
    else:
        app = app_on(make_url(f"at-{start[:4]}"), tmp_path, start[:4])
        with app.app_context():
            database.upgrade(start)
    return app


def played(document: dict) -> dict[int, list[str]]:
    """The names each reference game is seated with: the last one's look alike."""
    count = len(document["games"])
    return {index: ALIKE if index == count - 1 else WIDE for index in range(count)}


def exported(app, tmp_path, name: str) -> bytes:
    """What `flask --app scorekeeper export` writes; on PostgreSQL `backup` writes the same."""
    target = tmp_path / f"{name}.json"
    result = app.test_cli_runner().invoke(args=["export", str(target)])
    assert result.exit_code == 0, result.output
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        backup = tmp_path / f"{name}-backup.json"
        result = app.test_cli_runner().invoke(args=["backup", str(backup)])
        assert result.exit_code == 0, result.output
        assert backup.read_bytes() == target.read_bytes()
    return target.read_bytes()


STARTS = [pytest.param("legacy", marks=pytest.mark.sqlite_only), *EARLIER]


@pytest.mark.parametrize("start", STARTS)
def test_an_upgraded_database_exports_what_import_takes_back_byte_for_byte(
    start, reference, fresh_database, tmp_path
):
    old = earlier_database(start, fresh_database, tmp_path)
    first_id = 10  # past the legacy file's three games
    write_games(old, reference, played(reference), first_id)
    with old.app_context():
        database.upgrade()
    first = exported(old, tmp_path, "first")
    games = json.loads(first)["games"]
    ours = [game for game in games if game["id"] >= first_id]
    assert [[p["name"] for p in game["players"]] for game in ours] == [WIDE, WIDE, ALIKE]

    again = app_on(fresh_database("again"), tmp_path, "again")
    with again.app_context():
        database.upgrade()
    result = again.test_cli_runner().invoke(args=["import", str(tmp_path / "first.json")])
    assert result.exit_code == 0, result.output
    assert exported(again, tmp_path, "second") == first


@pytest.fixture
def upgraded(reference, fresh_database, tmp_path):
    """A client of a database made at the first revision, upgraded, holding the games."""
    old = earlier_database(EARLIER[0], fresh_database, tmp_path)
    write_games(old, reference, played(reference), 1)
    with old.app_context():
        database.upgrade()
    return old


def edit_key(app, game_id: int) -> dict[str, str]:
    made = app.test_cli_runner().invoke(args=["game-key", str(game_id)])
    assert made.exit_code == 0, made.output
    return {"X-Game-Key": made.output.split("key=")[1].split()[0]}


@pytest.mark.parametrize("spelling", ["Ｂｏｂ", "Bob", "bob", "BOB"])
def test_the_api_finds_a_name_kept_from_before_by_any_spelling_of_it_today(upgraded, spelling):
    client = upgraded.test_client()
    headers = edit_key(upgraded, 2)  # under way, seated as WIDE
    before = client.get("/api/games/2").get_json()
    number = before["round"]
    body = {"out": spelling, "leftovers": {"fiona": "K", "Tabby": "Q", "ann": "5"}}
    answer = client.post("/api/games/2/rounds", json={**body, "number": number}, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    game = client.get("/api/games/2").get_json()
    assert game["totals"]["ﬁona"] == before["totals"]["ﬁona"] + 10
    assert game["rounds"][-1]["out"] == "Ｂｏｂ"


def test_look_alike_seats_kept_from_before_are_each_found_as_written(upgraded):
    client = upgraded.test_client()
    headers = edit_key(upgraded, 3)  # archived, under way, seated as ALIKE
    before = client.get("/api/games/3").get_json()
    body = {"out": "Аnn", "leftovers": {"Ann": "K", "Cy": "Q", "Di": "5"}, "number": 2}
    answer = client.post("/api/games/3/rounds", json=body, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    after = client.get("/api/games/3").get_json()
    assert after["rounds"][-1]["out"] == "Аnn"
    assert after["totals"]["Ann"] == before["totals"]["Ann"] + 10


@pytest.mark.parametrize("game_id", [1, 3])
def test_playing_again_carries_the_names_as_they_were_played(upgraded, game_id):
    client = upgraded.test_client()
    if game_id == 3:  # finish the look-alike game first
        headers = edit_key(upgraded, 3)
        game = client.get("/api/games/3").get_json()
        for number in range(game["round"], game["last_round"] + 1):
            body = {"out": "Cy", "leftovers": {"Ann": "K", "Аnn": "Q", "Di": "5"}}
            answer = client.post("/api/games/3/rounds", json=body, headers=headers)
            assert answer.status_code == 201, (number, answer.get_json())
    answer = client.post(f"/api/games/{game_id}/rematch", headers=edit_key(upgraded, game_id))
    assert answer.status_code == 201, answer.get_json()
    names = WIDE if game_id == 1 else ALIKE
    assert answer.get_json()["players"] == names


def test_each_look_alike_kept_from_before_has_a_player_page(upgraded):
    with upgraded.app_context():
        cyrillic, latin = season.find_player("Аnn"), season.find_player("Ann")
        assert (cyrillic.name, [s.game_id for s in cyrillic.sittings]) == ("Аnn", [3])
        assert (latin.name, [s.game_id for s in latin.sittings]) == ("Ann", [1, 2, 3])
        assert season.find_player("Bob").name == "Ｂｏｂ"


def test_rounds_kept_from_before_buys_were_counted_read_as_no_buys(
    reference, fresh_database, tmp_path
):
    """A database at the revision before buys: every round kept, each player's buys unknown
    (null), which the limits and the game's JSON read as none bought."""
    old = earlier_database("0012_player_merges", fresh_database, tmp_path)
    write_games(old, reference, played(reference), 10)
    with old.app_context():
        database.upgrade()
        rows = db.session.execute(db.text("SELECT buys FROM round_scores")).scalars().all()
        games = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        assert len(rows) == sum(len(r["scores"]) for g in reference["games"] for r in g["rounds"])
        assert set(rows) == {None}
        assert [buys.used(game) for game in games] == [[0, 0, 0, 0]] * len(games)
        assert all(
            line["buys"] is None
            for game in transfer.export_games()["games"]
            for played in game["rounds"]
            for line in played["scores"]
        )


def test_rounds_kept_from_before_the_one_turn_bonus_read_as_not_down_and_out_in_one_turn(
    reference, fresh_database, tmp_path
):
    """A database at the revision before `rounds.out_in_one_turn`: every round kept, none gone
    down and out in one turn; down again, the column goes and every round stays."""
    old = earlier_database("0015_stamps", fresh_database, tmp_path)
    write_games(old, reference, played(reference), 10)
    count = sum(len(game["rounds"]) for game in reference["games"])
    with old.app_context():
        database.upgrade()
        marks = db.session.execute(db.text("SELECT out_in_one_turn FROM rounds")).scalars().all()
        assert len(marks) == count and not any(marks)
        exported_rounds = [r for g in transfer.export_games()["games"] for r in g["rounds"]]
        assert [r["out_in_one_turn"] for r in exported_rounds] == [False] * count
        db.session.remove()
    with old.app_context():
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision="0015_stamps")
        columns = {c["name"] for c in db.inspect(db.engine).get_columns("rounds")}
        assert "out_in_one_turn" not in columns
        kept = db.session.execute(db.text("SELECT count(*) FROM rounds")).scalar()
        assert kept == count
        db.session.remove()
        database.upgrade()
        assert db.session.execute(db.text("SELECT count(*) FROM rounds")).scalar() == count
