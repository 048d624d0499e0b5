"""Going down and out in one turn in the score book (R12.3 `out_in_one_turn_bonus`, R12.2 point
5): under rules with a bonus for it the round form asks, the round keeps it, the player out
scores the bonus on its own ledger line; the API takes and gives `out_in_one_turn`, refusing it
where the rules give nothing; corrections, undo, exports, the detailed CSV and paper sheets
carry it."""

from __future__ import annotations

import csv
import io
import json

import pytest

from scorekeeper.games import importer, papersheets, transfer
from scorekeeper.games.errors import ImportRefused
from scorekeeper.games.models import Game
from scorekeeper.platform import database
from scorekeeper.platform.database import db
from scorekeeper.rules.ruleset import RuleSet
from tests.support.apps import app_on
from tests.support.book import new_game, record_page, round_form, start, start_edited
from tests.support.browserform import changed, fields_of
from tests.support.names import NAMES

# Liverpool's rules with continental's bonus: going down and out in one turn scores −10.
SANTIAGO = {"version": 2, "name": "Santiago", "out_in_one_turn_bonus": -10}
LEFT = {"Ann": "5", "Bob": "K", "Dan": "7"}


def api_round(client, game, **fields):
    body = {"out": "Cat", "leftovers": LEFT, **fields}
    return client.post(game.rounds_path, json=body, headers=game.write_headers)


@pytest.fixture
def game(client):
    return new_game(client, NAMES, SANTIAGO, "Ann")


def test_the_api_records_it_and_the_player_out_scores_the_bonus(client, game):
    answer = api_round(client, game, out_in_one_turn=True)
    assert answer.status_code == 201, answer.get_json()
    played = answer.get_json()
    assert played["out_in_one_turn"] is True
    assert played["scores"] == {"Ann": 5, "Bob": 10, "Cat": -10, "Dan": 7}
    assert played["penalties"]["Cat"] == 0 and played["bonus"]["Cat"] == 0
    state = client.get(f"/api/games/{game.id}").get_json()
    assert state["totals"]["Cat"] == -10 and state["out_in_one_turn_bonus"] == -10
    assert state["rounds"][0]["out_in_one_turn"] is True


def test_left_out_it_is_false_and_the_player_out_scores_0(client, game):
    played = api_round(client, game).get_json()
    assert played["out_in_one_turn"] is False and played["scores"]["Cat"] == 0


@pytest.mark.parametrize("value", ["yes", 1, 0, [True]])
def test_the_api_refuses_anything_but_true_or_false_naming_the_field(client, game, value):
    answer = api_round(client, game, out_in_one_turn=value, leftovers={"Ann": "Q9"})
    assert answer.status_code == 400
    refused = answer.get_json()
    assert "out_in_one_turn" in refused["problems"]
    assert "leftovers.Ann" in refused["problems"]  # every problem at once
    assert "out_in_one_turn" in refused["error"] or "bool" in refused["error"].lower()


def test_the_api_refuses_it_where_the_rules_give_nothing_for_it(client):
    liverpool = new_game(client, NAMES, "liverpool", "Ann")
    answer = api_round(client, liverpool, out_in_one_turn=True)
    assert answer.status_code == 400
    refused = answer.get_json()
    said = "liverpool rules give nothing for going down and out in one turn (R12.3)"
    assert refused["problems"] == {"out_in_one_turn": said}
    assert said in refused["error"]
    assert client.get(f"/api/games/{liverpool.id}").get_json()["rounds"] == []


def test_nobody_out_cannot_have_gone_down_and_out(client, game):
    answer = client.post(
        game.rounds_path,
        json={"out": None, "leftovers": {n: "5" for n in NAMES}, "out_in_one_turn": True},
        headers=game.write_headers,
    )
    assert answer.status_code == 400
    assert answer.get_json()["problems"] == {
        "out_in_one_turn": "nobody went out, so nobody went down and out in one turn (R12.3)"
    }


def test_a_correction_takes_it_back_and_the_history_says_so(client, game):
    api_round(client, game, out_in_one_turn=True)
    url = f"{game.rounds_path}/1"
    corrected = client.put(
        url, json={"out": "Cat", "leftovers": LEFT, "version": 1}, headers=game.write_headers
    )
    assert corrected.status_code == 200, corrected.get_json()
    assert corrected.get_json()["scores"]["Cat"] == 0
    assert corrected.get_json()["out_in_one_turn"] is False
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Cat: out = 0, down and out in one turn −10 = −10 → out = 0" in page
    again = client.put(
        url,
        json={"out": "Cat", "leftovers": LEFT, "version": 2, "out_in_one_turn": True},
        headers=game.write_headers,
    )
    assert again.get_json()["scores"]["Cat"] == -10 and again.get_json()["version"] == 3


def test_undo_keeps_it_in_the_history(client, app, game):
    api_round(client, game, out_in_one_turn=True)
    undone = client.delete(f"{game.rounds_path}/1", headers=game.write_headers)
    assert undone.status_code == 200
    with app.app_context():
        document = transfer.export_games()
    (change,) = document["games"][0]["history"]
    assert change["action"] == "undone" and change["before"]["out_in_one_turn"] is True
    assert change["before"]["scores"] == [5, 10, -10, 7]


def start_santiago(client) -> int:
    game_id, _ = start_edited(client, name="Santiago", out_in_one_turn_bonus="-10")
    return game_id


def test_the_round_form_asks_only_under_rules_with_the_bonus(client):
    game_id = start_santiago(client)
    form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    assert 'name="out_in_one_turn"' in form
    assert "Went down and out in one turn (−10)" in form
    plain = new_game(client, NAMES, "liverpool")
    form = client.get(f"/games/{plain.id}/rounds/new").get_data(as_text=True)
    assert 'name="out_in_one_turn"' not in form
    assert "down and out in one turn" not in form


def test_the_round_form_records_it_and_the_ledger_shows_its_line(client, app):
    game_id = start_santiago(client)
    data = round_form("Cat", Ann="5", Bob="K", Dan="7") | {"out_in_one_turn": "y"}
    answer = client.post(f"/games/{game_id}/rounds/new", data=data)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["rounds"][0]["out_in_one_turn"] is True
    assert state["totals"] == {"Ann": 5, "Bob": 10, "Cat": -10, "Dan": 7}
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'class="badge one-turn"' in page and "one turn −10" in page
    # The correction form comes filled in with it, and saving it unticked takes it back.
    fields = fields_of(client.get(f"/games/{game_id}/rounds/1/edit").get_data(as_text=True))
    assert ("out_in_one_turn", "y") in fields
    unticked = changed(fields, out_in_one_turn=None)
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=unticked).status_code == 302
    played = client.get(f"/api/games/{game_id}").get_json()["rounds"][0]
    assert (played["out_in_one_turn"], played["scores"]["Cat"], played["version"]) == (False, 0, 2)


def test_the_form_refuses_it_with_nobody_out_naming_the_problem(client):
    game_id = start_santiago(client)
    data = round_form(None, **{n: "5" for n in NAMES}) | {"out_in_one_turn": "y"}
    answer = client.post(f"/games/{game_id}/rounds/new", data=data)
    assert answer.status_code == 200
    assert "nobody went down and out in one turn" in answer.get_data(as_text=True)
    assert client.get(f"/api/games/{game_id}").get_json()["rounds"] == []


def test_a_tick_on_a_form_of_rules_without_the_bonus_is_not_read(client):
    plain = start(client)
    data = round_form("Cat", Ann="5", Bob="K", Dan="7") | {"out_in_one_turn": "y"}
    assert client.post(f"/games/{plain}/rounds/new", data=data).status_code == 302
    played = client.get(f"/api/games/{plain}").get_json()["rounds"][0]
    assert played["out_in_one_turn"] is False and played["scores"]["Cat"] == 0


def test_the_detailed_csv_has_its_column(client, game):
    api_round(client, game, out_in_one_turn=True)
    text = client.get(f"/games/{game.id}/rounds.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    column = rows[0].index("Down and out in one turn")
    assert rows[0][column - 1] == "Cut bonus"
    assert {row[1]: row[column] for row in rows[1:]} == {
        "Ann": "0",
        "Bob": "0",
        "Cat": "-10",
        "Dan": "0",
    }


def test_export_and_import_keep_it_and_an_old_export_reads_as_false(
    client, app, game, fresh_database, tmp_path
):
    api_round(client, game, out_in_one_turn=True)
    with app.app_context():
        document = transfer.export_games()
    assert document["games"][0]["rounds"][0]["out_in_one_turn"] is True
    other = app_on(fresh_database("other"), tmp_path)
    with other.app_context():
        database.upgrade()
        assert importer.import_games(json.loads(json.dumps(document))) == 1
        again = transfer.export_games()
    assert transfer.dumps(again) == transfer.dumps(document)

    plain = new_game(client, NAMES, SANTIAGO, "Ann")
    api_round(client, plain)
    with app.app_context():
        old = transfer.export_document([db.session.get(Game, plain.id)])
    del old["games"][0]["rounds"][0]["out_in_one_turn"]  # as an export before the bonus
    older = app_on(fresh_database("older"), tmp_path / "older")
    with older.app_context():
        database.upgrade()
        assert importer.import_games(old) == 1
        (kept,) = transfer.export_games()["games"]
    assert kept["rounds"][0]["out_in_one_turn"] is False


def test_an_import_whose_score_disagrees_with_the_bonus_is_refused(client, app, game):
    api_round(client, game, out_in_one_turn=True)
    with app.app_context():
        document = transfer.export_games()
    played = document["games"][0]["rounds"][0]
    played["scores"][2]["score"] = -20
    with app.app_context(), pytest.raises(ImportRefused) as refused:
        importer.import_games(document)
    assert "scores[2].score" in str(refused.value) and "-10" in str(refused.value)


def test_a_paper_sheet_reads_the_bonus_as_down_and_out_in_one_turn(app):
    raw = "game,2019-12-24,Ann,Ann,Bob,Cat,Dan\nround,1,,5,10,-10,7\n"
    with app.app_context():
        sheet = papersheets.read_sheet(raw, RuleSet.parse(SANTIAGO))
        assert sheet.problems == []
        (played,) = sheet.games[0].game.rounds
        assert (played.out, played.out_in_one_turn) == (2, True)
        assert [line.score for line in played.scores] == [5, 10, -10, 7]
        refused = papersheets.read_sheet(raw, RuleSet.parse("liverpool"))
        assert refused.problems  # liverpool has no such bonus: −10 is no score of Cat's


def test_record_page_helper_still_records_plain_rounds(client):
    game_id = start_santiago(client)
    record_page(client, game_id)
    played = client.get(f"/api/games/{game_id}").get_json()["rounds"][0]
    assert played["out_in_one_turn"] is False
