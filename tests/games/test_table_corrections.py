"""What a family puts right after the game started: a misspelt name, a game ended early, and
the detailed sheet of every round (API and pages, on both engines)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from scorekeeper import create_app
from scorekeeper.games import importer, transfer
from scorekeeper.games.errors import ImportRefused
from scorekeeper.platform.database import db
from tests.support.book import new_game, play_rounds, record, record_page, start
from tests.support.config import TEST_CONFIG

MISSPELT = ["Ann", "Bbo", "Cat", "Dan"]


def text(response) -> str:
    return response.get_data(as_text=True)


def game_of(client, game):
    return client.get(f"/api/games/{game.id}").get_json()


def rename(client, game, renames, **options):
    return client.post(
        f"/api/games/{game.id}/renames", json={"renames": renames}, headers=game.headers, **options
    )


# --- Renaming a player ------------------------------------------------------------------------


def test_a_misspelt_player_is_renamed_and_keeps_every_round(client):
    game = new_game(client, MISSPELT)
    record(client, game, "Cat", {"Ann": "K", "Bbo": "7 7", "Dan": "JK"})
    answer = rename(client, game, {"Bbo": "Bob"})
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    assert data["players"] == ["Ann", "Bob", "Cat", "Dan"]
    assert data["totals"]["Bob"] == 14
    assert data["rounds"][0]["scores"]["Bob"] == 14
    assert data["former_names"] == {"Bob": ["Bbo"]}
    # The history keeps the old name; the ledger says who the seat was.
    page = text(client.get(f"/games/{game.id}"))
    assert "Bob (was Bbo)" in page
    assert "Bbo → Bob" in page and "a player renamed" in page


def test_players_follow_the_new_name(client):
    game = new_game(client, MISSPELT)
    play_rounds(client, game)
    assert rename(client, game, {"Bbo": "Bob"}).status_code == 200
    names = [player["name"] for player in client.get("/api/players").get_json()["players"]]
    assert "Bob" in names and "Bbo" not in names
    assert client.get("/players/Bob").status_code == 200
    assert client.get("/players/Bbo").status_code == 404


def test_a_rename_names_every_problem_at_once(client):
    game = new_game(client, MISSPELT)
    answer = rename(client, game, {"Bbo": "ánn", "Zed": "Zoe", "Cat": "", "Dan": 5})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert "unknown player 'Zed'" in error
    assert "new name of Dan must be text" in error
    assert "looks like 'Ann'" in error
    assert "Cat: the new name is empty" in error
    assert game_of(client, game)["players"] == MISSPELT


def test_a_rename_follows_the_name_rules_of_a_new_game(client):
    game = new_game(client, MISSPELT)
    for bad in ("B\u202eob", "x" * 25, "\u200b"):
        assert rename(client, game, {"Bbo": bad}).status_code == 400
    assert rename(client, game, {"Bbo": "  Bob   Jr "}).get_json()["players"][1] == "Bob Jr"


def test_two_players_swap_names_in_one_rename(client):
    game = new_game(client, MISSPELT)
    answer = rename(client, game, {"Ann": "Cat", "Cat": "Ann"})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["players"] == ["Cat", "Bbo", "Ann", "Dan"]


def test_a_player_renamed_meanwhile_is_a_conflict(client):
    game = new_game(client, MISSPELT)
    assert rename(client, game, {"Bbo": "Bob"}).status_code == 200
    late = rename(client, game, {"Bbo": "Rob"})
    assert late.status_code == 409
    assert "Bbo was renamed Bob meanwhile" in late.get_json()["error"]


def test_a_rename_needs_the_edit_key(client):
    game = new_game(client, MISSPELT)
    answer = client.post(f"/api/games/{game.id}/renames", json={"renames": {"Bbo": "Bob"}})
    assert answer.status_code == 401
    assert client.get(f"/games/{game.id}/rename").status_code == 403
    assert client.post(f"/games/{game.id}/rename", data={"names-1": "Bob"}).status_code == 403
    assert game_of(client, game)["players"] == MISSPELT


def test_the_rename_page_keeps_what_was_typed_and_names_every_problem(client):
    game_id = start(client, MISSPELT)
    page = text(client.get(f"/games/{game_id}/rename"))
    assert 'value="Bbo"' in page
    data = {f"names-{seat}": name for seat, name in enumerate(MISSPELT)}
    data |= {f"seen-{seat}": name for seat, name in enumerate(MISSPELT)}
    refused = client.post(f"/games/{game_id}/rename", data=data | {"names-1": "ann", "names-3": ""})
    assert refused.status_code == 200
    page = text(refused)
    assert 'value="ann"' in page  # nothing typed is lost
    assert page.count('aria-invalid="true"') == 2
    assert "looks like &#39;Ann&#39;" in page and "the new name is empty" in page
    saved = client.post(f"/games/{game_id}/rename", data=data | {"names-1": "Bob"})
    assert saved.status_code == 303
    shown = text(client.get(saved.location))
    assert "Renamed: Bbo is now Bob" in shown and "Bob (was Bbo)" in shown


def test_the_rename_page_refuses_a_name_changed_meanwhile(client):
    game_id = start(client, MISSPELT)
    data = {f"names-{seat}": name for seat, name in enumerate(MISSPELT)}
    data |= {f"seen-{seat}": name for seat, name in enumerate(MISSPELT)}
    assert (
        client.post(f"/games/{game_id}/rename", data=data | {"names-1": "Bob"}).status_code == 303
    )
    stale = client.post(f"/games/{game_id}/rename", data=data | {"names-1": "Rob"})
    assert stale.status_code == 200
    assert "Bbo was renamed Bob meanwhile" in text(stale) and 'value="Rob"' in text(stale)


# --- Ending a game early ----------------------------------------------------------------------


def end(client, game, after):
    return client.post(f"/api/games/{game.id}/end", json={"after": after}, headers=game.headers)


def test_ending_after_round_2_makes_the_leader_the_winner(client):
    game = new_game(client)
    record(client, game, "Ann", {"Bob": "K", "Cat": "5", "Dan": "9"})
    record(client, game, "Cat", {"Ann": "K", "Bob": "2", "Dan": "9"})
    answer = end(client, game, 2)
    assert answer.status_code == 200, answer.get_json()
    data = answer.get_json()
    assert data["finished"] and data["ended_after"] == 2 and data["round"] is None
    assert data["winners"] == ["Cat"] == data["leaders"]
    assert record_refused(client, game).status_code == 409
    page = text(client.get(f"/games/{game.id}"))
    assert "Cat wins" in page and "ended early after round 2 of 7" in page
    listed = client.get("/api/games").get_json()["games"][0]
    assert listed["ended_after"] == 2 and listed["winners"] == ["Cat"]
    assert "ended early after round 2 of 7" in text(client.get("/games/"))
    players = {p["name"]: p for p in client.get("/api/players").get_json()["players"]}
    assert players["Cat"]["wins"] == 1 and players["Cat"]["ended_early"] == 1
    assert "ended early after round 2" in text(client.get("/players/Cat"))


def record_refused(client, game):
    return client.post(
        f"/api/games/{game.id}/rounds",
        json={"out": "Ann", "leftovers": {"Bob": "5", "Cat": "5", "Dan": "5"}},
        headers=game.headers,
    )


def test_a_tie_at_the_early_end_shares_the_win(client):
    game = new_game(client)
    record(client, game, "Ann", {"Bob": "5", "Cat": "K", "Dan": "K"})
    record(client, game, "Bob", {"Ann": "5", "Cat": "K", "Dan": "K"})
    assert end(client, game, 2).get_json()["winners"] == ["Ann", "Bob"]


def test_an_early_end_is_refused_without_a_round_stale_or_over(client):
    game = new_game(client)
    assert end(client, game, 1).status_code == 400
    assert end(client, game, 0).status_code == 400
    record(client, game, "Ann")
    stale = end(client, game, 2)
    assert (
        stale.status_code == 409 and "round 1 is the last one recorded" in stale.get_json()["error"]
    )
    assert (
        client.post(f"/api/games/{game.id}/end", json={}, headers=game.headers).status_code == 400
    )
    assert client.post(f"/api/games/{game.id}/end", json={"after": 1}).status_code == 401
    assert end(client, game, 1).status_code == 200
    assert end(client, game, 1).status_code == 409


def test_an_early_end_is_taken_back_until_the_table_plays_again(client):
    game = new_game(client)
    record(client, game, "Ann")
    assert end(client, game, 1).status_code == 200
    undo = client.delete(f"/api/games/{game.id}/rounds/1", headers=game.headers)
    assert undo.status_code == 409 and "take the early end back" in undo.get_json()["error"]
    back = client.delete(f"/api/games/{game.id}/end", headers=game.headers)
    assert back.status_code == 200
    assert not back.get_json()["finished"] and back.get_json()["ended_after"] is None
    record(client, game, "Bob")
    assert end(client, game, 2).status_code == 200
    again = client.post(f"/api/games/{game.id}/rematch", headers=game.headers)
    assert again.status_code == 201
    kept = client.delete(f"/api/games/{game.id}/end", headers=game.headers)
    assert kept.status_code == 409 and "played again" in kept.get_json()["error"]
    assert game_of(client, game)["ended_after"] == 2


def test_the_pages_end_a_game_early_and_take_it_back(client):
    game_id = start(client)
    record_page(client, game_id)
    record_page(client, game_id, out="Ann")
    show = text(client.get(f"/games/{game_id}"))
    assert "End after round 2" in show
    confirm = text(client.get(f"/games/{game_id}/end"))
    assert 'name="after" type="hidden" value="2"' in confirm and "wins" in confirm
    stale = client.post(f"/games/{game_id}/end", data={"after": "1"})
    assert stale.status_code == 200 and "round 2 is the last one recorded" in text(stale)
    ended = client.post(f"/games/{game_id}/end", data={"after": "2"})
    assert ended.status_code == 303
    show = text(client.get(ended.location))
    assert "ended early after round 2 of 7" in show and "Take back the early end" in show
    # The message names who won, not "the leaders".
    winners = client.get(f"/api/games/{game_id}").get_json()["winners"]
    said = " and ".join(winners) + (" wins" if len(winners) == 1 else " share the win")
    assert f"Game ended early after round 2 of 7: {said}." in show
    back = client.post(f"/games/{game_id}/resume", data={})
    assert back.status_code == 303
    assert "Record round 3" in text(client.get(back.location))


# --- Export and import carry both -----------------------------------------------------------


@pytest.fixture
def two_apps(tmp_path, fresh_database):
    def new_app(name):
        config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=fresh_database(name))
        return create_app(config, instance_path=str(tmp_path / f"{name}-instance"))

    return new_app("source"), new_app("copy")


def test_export_and_import_carry_renames_and_early_ends(two_apps):
    source, copy = two_apps
    client = source.test_client()
    ended = new_game(client, MISSPELT)
    record(client, ended, "Cat", {"Ann": "K", "Bbo": "7", "Dan": "JK"})
    assert rename(client, ended, {"Bbo": "Bob"}).status_code == 200
    assert rename(client, ended, {"Bob": "Rob", "Dan": "Don"}).status_code == 200
    assert end(client, ended, 1).status_code == 200
    assert client.post(f"/api/games/{ended.id}/rematch", headers=ended.headers).status_code == 201
    with source.app_context():
        exported = transfer.dumps(transfer.export_games())
    game = json.loads(exported)["games"][0]
    assert game["ended_after"] == 1 and game["played_again_at"] is not None
    assert [(r["seat"], r["before"], r["after"]) for r in game["renames"]] == [
        (1, "Bbo", "Bob"),
        (1, "Bob", "Rob"),
        (3, "Dan", "Don"),
    ]
    with copy.app_context():
        assert importer.import_games(json.loads(exported)) == 2
        assert transfer.dumps(transfer.export_games()) == exported
    shown = copy.test_client().get(f"/api/games/{ended.id}").get_json()
    assert shown["former_names"] == {"Rob": ["Bbo", "Bob"], "Don": ["Dan"]}


def test_an_export_made_before_renames_and_early_ends_is_read(two_apps):
    source, copy = two_apps
    client = source.test_client()
    play_rounds(client, new_game(client))
    with source.app_context():
        document = transfer.export_games()
    for game in document["games"]:
        for name in ("renames", "ended_after", "played_again_at"):
            del game[name]
    with copy.app_context():
        assert importer.import_games(document) == 1


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda g: g["renames"][0].update(after="Zed"), r"renames\[0\]\.after must be 'Bob'"),
        (lambda g: g.update(ended_after=2), r"ended_after must be the last round recorded \(1\)"),
        (lambda g: g.update(ended_after=None), r"finished_at must be set exactly when"),
    ],
)
def test_an_import_refuses_renames_or_an_end_that_do_not_add_up(two_apps, change, problem):
    source, copy = two_apps
    client = source.test_client()
    game = new_game(client, MISSPELT)
    record(client, game, "Cat")
    rename(client, game, {"Bbo": "Bob"})
    end(client, game, 1)
    with source.app_context():
        document = transfer.export_games()
    change(document["games"][0])
    with copy.app_context(), pytest.raises(ImportRefused, match=problem):
        importer.import_games(document)
        db.session.rollback()


# --- The detailed sheet ---------------------------------------------------------------------


def test_the_detailed_csv_has_a_row_per_player_and_round_matching_the_ledger(client):
    names = ["Ann", "=HYPERLINK(1)", "Cat", "Dan"]
    game = new_game(client, names)
    record(client, game, "Cat", {"Ann": "K Q", "=HYPERLINK(1)": "7 7", "Dan": "JK"})
    record(client, game, None, {name: "5" for name in names})
    record(client, game, "Ann", {"=HYPERLINK(1)": "2", "Cat": "3", "Dan": "4"}, cut_exact=True)
    correct = client.put(
        f"/api/games/{game.id}/rounds/3",
        json={"out": "Ann", "version": 1, "cut_exact": True, "leftovers": {"Cat": "3", "Dan": "4"}}
        | {"points": {"=HYPERLINK(1)": 30}},
        headers=game.headers,
    )
    assert correct.status_code == 200, correct.get_json()
    answer = client.get(f"/games/{game.id}/rounds.csv")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/csv")
    assert f"liverpool-game-{game.id}.rounds.csv" in answer.headers["Content-Disposition"]
    raw = text(answer)
    assert '"=HYPERLINK' not in raw  # never a formula
    rows = list(csv.reader(io.StringIO(raw)))
    header, lines = rows[0], rows[1:]
    assert header[:12] == [
        "Round",
        "Player",
        "Dealer",
        "Cutter",
        "Went out",
        "Cut bonus",
        "Down and out in one turn",
        "Cards left",
        "Counted",
        "Penalty",
        "Score",
        "Running total",
    ]
    data = game_of(client, game)
    assert len(lines) == 3 * 4
    running = dict.fromkeys(names, 0)
    for line, (played, name) in zip(
        lines, [(r, n) for r in data["rounds"] for n in names], strict=True
    ):
        shown = lambda who: "'" + who if who.startswith("=") else who  # noqa: E731
        running[name] += played["scores"][name]
        assert int(line[0]) == played["number"]
        assert line[1] == shown(name)
        assert line[2] == shown(played["dealer"]) and line[3] == shown(played["cutter"])
        assert line[4] == ("nobody" if played["out"] is None else shown(played["out"]))
        assert int(line[5]) == played["bonus"][name]
        assert int(line[6]) == 0  # liverpool gives nothing for going down and out in one turn
        assert line[7] == " ".join(played["leftovers"].get(name, []))
        assert line[8] == ("yes" if name in played["points"] else "no")
        assert int(line[9]) == played["penalties"][name]
        assert int(line[10]) == played["scores"][name]
        assert int(line[11]) == running[name]
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", line[12])
        assert re.fullmatch(r"\d{2}:\d{2}:\d{2}", line[13])
    assert running == data["totals"]
    assert any(line[5] != "0" for line in lines[8:])  # the exact cut of round 3
    assert lines[9][8] == "yes" and lines[9][9] == "30"


def test_the_game_page_links_the_detailed_csv(client):
    game_id = start(client)
    assert f"/games/{game_id}/rounds.csv" in text(client.get(f"/games/{game_id}"))
