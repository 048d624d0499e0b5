"""The database lasts: migrations, pre-migration databases, ids, sequences, proxies, engines."""

from __future__ import annotations

import http.client
import io
import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import flask_migrate
import pytest
import qrcode
import qrcode.image.svg
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from scorekeeper.games import importer, transfer
from scorekeeper.games.names import name_key
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import PRESETS
from tests.support.apps import app_on
from tests.support.book import new_game, record
from tests.support.config import ENGINE, TEST_DATABASE_URL, read_past_the_app
from tests.support.names import NAMES
from tests.support.server import ROOT, Server, request

LEGACY = Path(__file__).parents[1] / "database" / "legacy-v0.sqlite"
TABLES = {"games", "players", "rounds", "round_scores", "round_changes"}


def differences(app) -> list:
    """What Alembic finds between the database and the models (empty when they agree)."""
    with app.app_context(), db.engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), db.metadata)


def app_tables(app) -> set[str]:
    with app.app_context():
        return set(db.inspect(db.engine).get_table_names()) & TABLES


def revisions(app) -> list:
    """Every revision, newest first."""
    with app.app_context():
        config = app.extensions["migrate"].migrate.get_config(str(database.MIGRATIONS))
        return list(ScriptDirectory.from_config(config).walk_revisions())


# --- Migrations ------------------------------------------------------------------------------


def test_upgrade_from_empty_gives_exactly_the_models(fresh_database, tmp_path):
    app = app_on(fresh_database("empty"), tmp_path)
    assert app_tables(app) == set()
    with app.app_context():
        assert database.current_revision() is None
        assert database.upgrade() == database.head_revision()
    assert app_tables(app) == TABLES
    assert differences(app) == []


def test_every_revision_downgrades_and_upgrades_again(fresh_database, tmp_path):
    app = app_on(fresh_database("steps"), tmp_path)
    with app.app_context():
        database.upgrade()
        for revision in revisions(app):
            target = revision.down_revision or "base"
            flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision=target)
            assert database.current_revision() == revision.down_revision
        assert set(db.inspect(db.engine).get_table_names()) <= {"alembic_version"}
        assert database.upgrade() == database.head_revision()
    assert differences(app) == []


def test_the_served_app_never_creates_tables_by_itself(fresh_database, tmp_path):
    app = app_on(fresh_database("untouched"), tmp_path, TESTING=False)
    assert app_tables(app) == set()


def test_init_db_says_which_revision(fresh_database, tmp_path):
    runner = app_on(fresh_database("init"), tmp_path).test_cli_runner()
    first = runner.invoke(args=["init-db"])
    assert first.exit_code == 0, first.output
    with runner.app.app_context():
        head = database.head_revision()  # the newest migration, whichever that is
    assert head != "0001_baseline"
    assert f"Database ready at revision {head} (created)" in first.output
    again = runner.invoke(args=["init-db"])
    assert f"revision {head} (already there)" in again.output
    upgrade = runner.invoke(args=["db", "upgrade"])
    assert upgrade.exit_code == 0, upgrade.output
    with runner.app.app_context():
        assert database.current_revision() == head


def test_commands_refuse_a_database_that_is_not_upgraded(fresh_database, tmp_path):
    runner = app_on(fresh_database("bare"), tmp_path).test_cli_runner()
    for args in (["export", "-"], ["game-key", "1"], ["backup", str(tmp_path / "copy")]):
        result = runner.invoke(args=args)
        assert result.exit_code != 0, args
        assert "the database is empty" in result.output
        assert "flask --app scorekeeper init-db" in result.output
    assert not (tmp_path / "copy").exists()


# --- A database made before migrations ----------------------------------------------------


def every_row(path: Path) -> dict[str, list[dict]]:
    """Every row of the score book's tables, each as {column: value}, in id order."""
    connection = sqlite3.connect(path)
    connection.row_factory = sqlite3.Row
    try:
        return {
            table: [dict(row) for row in connection.execute(f"SELECT * FROM {table} ORDER BY id")]
            for table in sorted(TABLES)
        }
    finally:
        connection.close()


@pytest.mark.sqlite_only("the database file was made by SQLite")
def test_a_database_made_before_migrations_is_adopted_with_every_row(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(LEGACY, path)
    before = every_row(path)
    assert [len(before[table]) for table in sorted(TABLES)] == [3, 14, 3, 32, 8]
    app = app_on(f"sqlite:///{path}", tmp_path)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "made before migrations, stamped at 0001_baseline" in result.output
    after = every_row(path)
    # Every row is kept: the players' name keys are recomputed (0002_write_once), each game's
    # profile becomes its rule set's document (0005_game_rules), and the columns later
    # migrations add start empty (archived_at) or false (counted).
    assert [row["name_key"] for row in after["players"]] == [
        name_key(row["name"]) for row in before["players"]
    ]
    assert [PRESETS[row["profile"]].to_json() for row in before["games"]] == [
        json.loads(row["rules"]) for row in after["games"]
    ]
    assert [row["profile"] for row in before["games"]] == ["liverpool", "liverpool", "family"]
    changed = {"players": {"name_key"}, "games": {"profile", "rules"}}
    for table in TABLES:
        assert len(after[table]) == len(before[table])
        for old, new in zip(before[table], after[table], strict=True):
            skip = changed.get(table, set())
            assert {k: v for k, v in old.items() if k not in skip} == {
                k: v for k, v in new.items() if k in old and k not in skip
            }
            assert {v for k, v in new.items() if k not in old and k not in skip} <= {None, 0}
    assert ("Zoë", "zoë") in [(row["name"], row["name_key"]) for row in before["players"]]
    assert ("Zoë", "zoe") in [(row["name"], row["name_key"]) for row in after["players"]]
    assert differences(app) == []
    with app.app_context():
        assert database.current_revision() == database.head_revision()

    client = app.test_client()
    games = {game["id"]: game for game in client.get("/api/games").get_json()["games"]}
    assert games[1]["finished"] and games[1]["winners"] == ["Ann"]
    assert games[1]["totals"] == {"Ann": 9, "Bob": 77, "Zoë": 98, "Dan": 79}
    assert games[2]["round"] == 2 and games[3]["round"] == 1
    page = client.get("/games/1").get_data(as_text=True)
    assert "round 3 corrected" in page and "round 7 undone" in page

    # The old games go on: a new key for game 2, and its next round is recorded.
    made = app.test_cli_runner().invoke(args=["game-key", "2"])
    key = made.output.split("key=")[1].split()[0]
    answer = client.post(
        "/api/games/2/rounds",
        json={"out": "Fay", "leftovers": {"Eve": "K", "Gus": "Q", "Hu": "J"}, "number": 2},
        headers={"X-Game-Key": key},
    )
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["version"] == 2  # past the undone round 2's version 1


# --- Each game's own rule set (0005_game_rules) -----------------------------------------------

OLD_PROFILES = ("liverpool", "contract", "online", "family")


def seed_at_0004(app) -> None:
    """A database at 0004 holding a game under each old profile, each with two rounds and their
    scores, as that schema stored them."""
    insert = {
        "games": "INSERT INTO games (id, profile, first_dealer, created_at, finished_at)"
        " VALUES (:id, :profile, 0, '2026-11-01 20:00:00', NULL)",
        "players": "INSERT INTO players (game_id, seat, name, name_key) VALUES (:g, :s, :n, :k)",
        "rounds": "INSERT INTO rounds (id, game_id, number, dealer, cutter, cut_exact, out,"
        " version, recorded_at) VALUES (:id, :g, :n, 0, 3, false, 0, 1, '2026-11-01 20:10:00')",
        "round_scores": "INSERT INTO round_scores (round_id, seat, leftovers, penalty, bonus,"
        " score, counted) VALUES (:r, :s, :cards, :p, 0, :p, false)",
    }
    with app.app_context():
        database.upgrade("0004_points_entry")
        run = db.session.execute
        for game_id, profile in enumerate(OLD_PROFILES, start=1):
            run(db.text(insert["games"]), {"id": game_id, "profile": profile})
            for seat, name in enumerate(NAMES):
                run(
                    db.text(insert["players"]),
                    {"g": game_id, "s": seat, "n": name, "k": name_key(name)},
                )
            for number in (1, 2):
                round_id = game_id * 10 + number
                run(db.text(insert["rounds"]), {"id": round_id, "g": game_id, "n": number})
                for seat in range(4):
                    cards, points = ("", 0) if seat == 0 else ("K", 10)
                    run(
                        db.text(insert["round_scores"]),
                        {"r": round_id, "s": seat, "cards": cards, "p": points},
                    )
        db.session.commit()
        db.session.remove()


def stored_rows(app) -> dict[str, list[dict]]:
    """Every row of the score book's tables by id, each as {column: value} (JSON decoded)."""
    with app.app_context(), db.engine.connect() as connection:
        rows = {}
        for table in sorted(TABLES):
            found = connection.execute(db.text(f"SELECT * FROM {table} ORDER BY id")).mappings()
            rows[table] = [dict(row) for row in found]
    for row in rows["games"]:
        if isinstance(row.get("rules"), str):
            row["rules"] = json.loads(row["rules"])
    return rows


def without(rows: dict[str, list[dict]], *columns: str) -> dict[str, list[dict]]:
    return {
        t: [{k: v for k, v in row.items() if k not in columns} for row in r]
        for t, r in rows.items()
    }


def test_the_upgrade_gives_every_game_its_profiles_document_keeping_every_row(
    fresh_database, tmp_path
):
    app = app_on(fresh_database("rules-up"), tmp_path)
    seed_at_0004(app)
    before = stored_rows(app)
    with app.app_context():
        assert database.upgrade() == database.head_revision()
    after = stored_rows(app)
    assert [row["rules"] for row in after["games"]] == [
        PRESETS[profile].to_json() for profile in OLD_PROFILES
    ]
    # 0008's columns (the early end, playing again) start empty in every game.
    assert all(g["ended_after"] is None and g["played_again_at"] is None for g in after["games"])
    # 0011's mark of a game from a paper sheet is off in every game played on the tablet.
    assert all(not g["from_sheet"] for g in after["games"])
    # 0013's buys are unknown (null) in every round kept.
    assert all(line["buys"] is None for line in after["round_scores"])
    # 0016's mark of going down and out in one turn is off in every round kept.
    assert all(not played["out_in_one_turn"] for played in after["rounds"])
    later = without(
        after, "ended_after", "played_again_at", "from_sheet", "buys", "out_in_one_turn"
    )
    assert without(before, "profile") == without(later, "rules")
    assert [len(after[table]) for table in sorted(TABLES)] == [4, 16, 0, 32, 8]
    assert differences(app) == []
    client = app.test_client()
    games = client.get("/api/games").get_json()["games"]
    assert sorted((g["id"], g["profile"], g["round"]) for g in games) == [
        (game_id, profile, 3) for game_id, profile in enumerate(OLD_PROFILES, start=1)
    ]
    assert client.get("/api/games/3").get_json()["rules"]["values"]["JK"] == 25  # online


def test_rounds_up_to_12_fit_after_the_upgrade_and_not_beyond(fresh_database, tmp_path):
    app = app_on(fresh_database("rules-check"), tmp_path)
    seed_at_0004(app)
    statement = db.text(
        "INSERT INTO rounds (game_id, number, dealer, cutter, cut_exact, out, version,"
        " recorded_at) VALUES (1, :n, 0, 3, false, 0, 1, '2026-11-01 21:00:00')"
    )
    with app.app_context():
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(statement, {"n": 10})
        database.upgrade()
        with db.engine.begin() as connection:
            connection.execute(statement, {"n": 12})
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(statement, {"n": 13})


def test_the_downgrade_writes_back_each_presets_name_keeping_every_row(fresh_database, tmp_path):
    app = app_on(fresh_database("rules-down"), tmp_path)
    seed_at_0004(app)
    at_0004 = stored_rows(app)
    with app.app_context():
        database.upgrade()
        own = PRESETS["family"].to_json() | {"name": "Smith family", "cut_bonus": -20}
        db.session.execute(
            db.text("UPDATE games SET rules = :rules WHERE id = 4"), {"rules": json.dumps(own)}
        )
        db.session.commit()
        db.session.remove()
        flask_migrate.downgrade(directory=str(database.MIGRATIONS), revision="0004_points_entry")
        assert database.current_revision() == "0004_points_entry"
    back = stored_rows(app)
    # A table's own rules are no preset: the older schema names the default rules for it.
    assert [row["profile"] for row in back["games"]] == [
        "liverpool",
        "contract",
        "online",
        "liverpool",
    ]
    assert without(back, "profile") == without(at_0004, "profile")
    with app.app_context():
        database.upgrade()
    assert stored_rows(app)["games"][1]["rules"] == PRESETS["contract"].to_json()


def test_the_downgrade_is_refused_while_a_game_has_a_round_past_7(fresh_database, tmp_path, caplog):
    app = app_on(fresh_database("rules-refused"), tmp_path)
    seed_at_0004(app)
    with app.app_context():
        database.upgrade()
        with db.engine.begin() as connection:
            for number in range(3, 9):
                connection.execute(
                    db.text(
                        "INSERT INTO rounds (game_id, number, dealer, cutter, cut_exact, out,"
                        " version, recorded_at) VALUES (2, :n, 0, 3, false, 0, 1,"
                        " '2026-11-01 21:00:00')"
                    ),
                    {"n": number},
                )
    before = stored_rows(app)
    with app.app_context():
        with pytest.raises(SystemExit):  # the refusal, as `flask db downgrade` reports it
            flask_migrate.downgrade(
                directory=str(database.MIGRATIONS), revision="0004_points_entry"
            )
        assert database.current_revision() == database.head_revision()
    assert "cannot downgrade below 0005_game_rules" in caplog.text
    assert "game 2 (round 8)" in caplog.text and "Nothing was changed" in caplog.text
    assert stored_rows(app) == before


# --- Ids ------------------------------------------------------------------------------------


def game_with_rounds(client) -> tuple[int, str]:
    game = new_game(client, profile=None)
    record(client, game, "Bob")
    return game.id, game.key


def test_import_moves_the_ids_past_the_imported_games(app, fresh_database, tmp_path):
    client = app.test_client()
    for _ in range(3):
        game_with_rounds(client)
    with app.app_context():
        exported = transfer.dumps(transfer.export_games())
    (tmp_path / "games.json").write_text(exported)

    target = app_on(fresh_database("target"), tmp_path, "target")
    result = target.test_cli_runner().invoke(args=["import", str(tmp_path / "games.json")])
    assert result.exit_code == 0, result.output
    assert "Imported 3 games: 1, 2, 3" in result.output
    other = target.test_client()
    assert [game_with_rounds(other)[0] for _ in range(2)] == [4, 5]
    with target.app_context():
        again = transfer.export_games()
    assert [game["id"] for game in again["games"]] == [1, 2, 3, 4, 5]


def test_the_highest_id_the_import_allows_is_stored(app, fresh_database, tmp_path):
    """The import says ids go up to the largest the database holds; that one is taken too."""
    game_with_rounds(app.test_client())
    with app.app_context():
        data = transfer.export_games()
        top = database.id_range()[-1]
    data["games"][0]["id"] = top + 1
    target = app_on(fresh_database("target"), tmp_path, "target")
    with target.app_context(), pytest.raises(importer.ImportRefused, match=f"to {top},"):
        importer.import_games(data)
    data["games"][0]["id"] = top
    (tmp_path / "games.json").write_text(transfer.dumps(data))
    result = target.test_cli_runner().invoke(args=["import", str(tmp_path / "games.json")])
    assert result.exit_code == 0, result.output
    assert f"Imported 1 game: {top}" in result.output
    answer = target.test_client().get(f"/api/games/{top}")
    assert answer.status_code == 200 and answer.get_json()["round"] == 2
    # PostgreSQL numbers no game past its top one, and says so; SQLite finds a free number.
    made = target.test_client().post("/api/games", json={"players": ["Ann", "Bob", "Cy", "Di"]})
    if top == 2**31 - 1:
        assert made.status_code == 409
        assert f"game {top}, the highest number this database holds" in made.get_json()["error"]
    else:
        assert made.status_code == 201, made.get_json()


OUT_OF_RANGE = [2**31, 2**63 - 1, 2**63, 10**30]
PAGES = [
    ("GET", "/games/{id}"),
    ("GET", "/games/{id}/join?key=x"),
    ("GET", "/games/{id}/edit-link.svg"),
    ("GET", "/games/{id}/rounds/new"),
    ("POST", "/games/{id}/rounds/new"),
    ("GET", "/games/{id}/rounds/1/edit"),
    ("POST", "/games/{id}/rounds/1/edit"),
    ("GET", "/games/{id}/rounds/1/undo"),
    ("POST", "/games/{id}/rounds/1/undo"),
]
API = [
    ("GET", "/api/games/{id}"),
    ("POST", "/api/games/{id}/rounds"),
    ("PUT", "/api/games/{id}/rounds/1"),
    ("DELETE", "/api/games/{id}/rounds/1"),
]


@pytest.mark.parametrize("game_id", OUT_OF_RANGE)
def test_ids_outside_the_database_are_404_on_every_route(client, game_id):
    # Past SQLite's 64-bit and PostgreSQL's 32-bit ids, or a valid id that names no game.
    for method, path in PAGES + API:
        response = client.open(path.format(id=game_id), method=method, json={"version": 1})
        assert response.status_code == 404, (method, path, response.status_code)
        if path.startswith("/api/"):
            assert "does not exist" in response.get_json()["error"]


def test_an_unknown_game_is_404_before_any_key_check(client):
    for method, path in API[1:]:
        response = client.open(path.format(id=424242), method=method, json={"version": 1})
        assert response.status_code == 404
        assert response.get_json() == {"error": "game 424242 does not exist"}


def test_database_url_spellings():
    assert database.database_url("postgres://u:p@db/scores") == "postgresql+psycopg://u:p@db/scores"
    assert database.database_url("postgresql://db/scores") == "postgresql+psycopg://db/scores"
    assert database.database_url("postgresql+psycopg://db/x") == "postgresql+psycopg://db/x"
    assert database.database_url("sqlite:///x.sqlite") == "sqlite:///x.sqlite"


# --- Memory ---------------------------------------------------------------------------------

# A book of 100 finished games, written into the file as bench/season.py writes them, and its
# games list shown eight times, in a process of its own: a crash takes the process with it.
GAMES_LIST_AGAIN = """
import sys
from pathlib import Path

from bench.season import seed
from tests.support.apps import app_on

url, folder = sys.argv[1], Path(sys.argv[2])
seed(url.removeprefix("sqlite:///"), 100)
client = app_on(url, folder).test_client()
print(sum(client.get("/games/").status_code == 200 for _ in range(8)))
"""


@pytest.mark.sqlite_only("the games are written into the SQLite file directly")
def test_the_games_list_is_shown_again_and_again_in_a_book_of_100_games(
    migrated_database, tmp_path
):
    """On CPython 3.11 the process crashed on the second or third showing, before each row's
    state had its own attribute dict from the start (`database.settle_state`)."""
    shown = subprocess.run(
        [sys.executable, "-c", GAMES_LIST_AGAIN, migrated_database(), str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (shown.returncode, shown.stdout.strip()) == (0, "8"), shown.stderr[-2000:]


# --- Connections ----------------------------------------------------------------------------


@pytest.mark.skipif(ENGINE != "postgresql", reason="PostgreSQL's sessions: the PostgreSQL run")
def test_a_stopping_app_ends_its_sessions_on_the_database(app_with):
    """What a served app does as it stops (`serve`): the sessions its pool keeps open on
    PostgreSQL end then, not when the process exits (SQLite's side of it: test_serve.py)."""
    app = app_with(SQLALCHEMY_ENGINE_OPTIONS={})  # the served pool, not the tests' NullPool
    with app.app_context():
        assert db.session.scalar(text("SELECT 1")) == 1
        db.session.remove()
        name = db.engine.url.database
    assert sessions_on(name) == 1  # kept in the pool for the next request
    database.close_connections(app)
    assert sessions_on(name) == 0


def sessions_on(name: str) -> int:
    """The sessions other connections hold on database `name`, as PostgreSQL counts them."""
    return read_past_the_app(
        TEST_DATABASE_URL,
        "SELECT count(*) FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()",
        name=name,
    )


# --- Behind a reverse proxy ---------------------------------------------------------------


HTTPS_PROXY = {
    "X-Forwarded-For": "192.0.2.7",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "scores.club.example",
}


def cookies_after_joining(client, headers) -> list[str]:
    """The Set-Cookie lines of opening a game's edit link through the proxy."""
    game = new_game(client, profile=None)
    response = client.get(f"/games/{game.id}/join?key={game.key}", headers=headers)
    assert response.status_code == 303
    return response.headers.getlist("Set-Cookie")


def test_forwarded_headers_are_ignored_without_trusted_proxies(app):
    lines = cookies_after_joining(app.test_client(), HTTPS_PROXY)
    assert lines and not any("Secure" in line for line in lines)


def test_a_trusted_https_proxy_makes_every_cookie_secure(fresh_database, tmp_path):
    app = app_on(fresh_database("proxy"), tmp_path, UPGRADE_ON_START=True, TRUSTED_PROXIES=1)
    lines = cookies_after_joining(app.test_client(), HTTPS_PROXY)
    names = {line.split("=")[0] for line in lines}
    assert {"session", "game_keys"} <= names  # the plain names behind the proxy
    assert all("; Secure" in line for line in lines), lines
    plain = cookies_after_joining(app.test_client(), {**HTTPS_PROXY, "X-Forwarded-Proto": "http"})
    assert plain and not any("Secure" in line for line in plain)


def qr_of(link: str) -> bytes:
    """The edit-link QR code the app draws for `link`, drawn here the same way."""
    image = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue()


def test_edit_link_codes_use_the_scheme_and_host_the_tablet_used(fresh_database, tmp_path):
    app = app_on(fresh_database("links"), tmp_path, UPGRADE_ON_START=True, TRUSTED_PROXIES="1")
    client = app.test_client()
    game = new_game(client, profile=None)
    game_id, key = game.id, game.key
    client.get(f"/games/{game_id}/join?key={key}", headers=HTTPS_PROXY)
    code = client.get(f"/games/{game_id}/edit-link.svg", headers=HTTPS_PROXY).data
    assert code == qr_of(f"https://scores.club.example/games/{game_id}/join?key={key}")
    direct = client.get(f"/games/{game_id}/edit-link.svg").data
    assert direct == qr_of(f"http://localhost/games/{game_id}/join?key={key}")
    page = client.get(f"/games/{game_id}", headers=HTTPS_PROXY).get_data(as_text=True)
    assert f'href="/games/{game_id}/join?key={key}"' in page  # relative: the same host


def test_trusted_proxies_must_be_a_count(fresh_database, tmp_path):
    with pytest.raises(ValueError, match="TRUSTED_PROXIES must be a whole number"):
        app_on(fresh_database("count"), tmp_path, TRUSTED_PROXIES="yes")


@pytest.mark.slow
@pytest.mark.parametrize("trusted", [None, "1"])
def test_the_real_server_honours_trusted_proxies(fresh_database, tmp_path, trusted):
    server = Server(
        fresh_database("served"),
        tmp_path / "server.log",
        env={"TRUSTED_PROXIES": trusted} if trusted else {},
    )
    server.start()
    try:
        status, data = request(server.port, "POST", "/api/games", {"players": NAMES})
        assert status == 201
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request(
            "GET", f"/games/{data['id']}/join?key={data['key']}", headers=HTTPS_PROXY
        )
        response = connection.getresponse()
        lines = response.headers.get_all("Set-Cookie")
        connection.close()
    finally:
        server.stop()
    assert response.status == 303 and lines
    assert all(("; Secure" in line) == bool(trusted) for line in lines), lines
