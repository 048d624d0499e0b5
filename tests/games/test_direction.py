"""A table that plays to the right (R12.3 `direction: right`, R12.1 point 2): every seat the
score book names follows, through the API, the game page, play again, a paper sheet, the
export and the rule editor; the seats are still listed clockwise, as the players sit."""

from __future__ import annotations

import json

from scorekeeper.games import importer, papersheets, transfer
from scorekeeper.rules.ruleset import LIVERPOOL, RuleSet
from tests.support.book import new_game, play_rounds, record, start_edited
from tests.support.browserform import changed, fields_of
from tests.support.names import NAMES
from tests.support.saved import save_ruleset

# Liverpool's rules with play to the right: Ann, Bob, Cat, Dan sit clockwise.
SANTIAGO = {"version": 2, "name": "Santiago", "direction": "right"}


def test_the_deal_passes_to_the_right_and_the_cutter_sits_on_the_dealers_left(client):
    game = new_game(client, NAMES, SANTIAGO, "Bob")
    seen = []
    for _ in range(7):
        state = client.get(f"/api/games/{game.id}").get_json()
        seen.append((state["dealer"], state["cutter"], state["first_player"]))
        played = record(client, game, state["first_player"])
        assert (played["dealer"], played["cutter"]) == seen[-1][:2]
    assert seen == [
        ("Bob", "Cat", "Ann"),
        ("Ann", "Bob", "Dan"),
        ("Dan", "Ann", "Cat"),
        ("Cat", "Dan", "Bob"),
        ("Bob", "Cat", "Ann"),
        ("Ann", "Bob", "Dan"),
        ("Dan", "Ann", "Cat"),
    ]
    state = client.get(f"/api/games/{game.id}").get_json()
    assert state["players"] == NAMES  # still clockwise, as they sit
    assert state["rules"]["direction"] == "right" and state["rules"]["version"] == 2


def test_an_exact_cut_is_the_cutters_on_the_dealers_left(client):
    game = new_game(client, NAMES, SANTIAGO, "Ann")
    played = record(client, game, "Dan", cut_exact=True)
    assert played["cutter"] == "Bob"  # on Ann's left
    state = client.get(f"/api/games/{game.id}").get_json()
    assert state["totals"] == {"Ann": 5, "Bob": 5 - 50, "Cat": 5, "Dan": 0}


def test_play_again_passes_the_first_deal_to_the_right(client):
    game = new_game(client, NAMES, SANTIAGO, "Bob")
    play_rounds(client, game)
    again = client.post(f"/api/games/{game.id}/rematch", headers=game.headers).get_json()
    assert again["first_dealer"] == "Ann"
    assert again["rules"]["direction"] == "right"
    wrapped = new_game(client, NAMES, SANTIAGO, "Ann")
    play_rounds(client, wrapped)
    again = client.post(f"/api/games/{wrapped.id}/rematch", headers=wrapped.headers).get_json()
    assert again["first_dealer"] == "Dan"


def test_the_game_page_names_the_seats_and_reads_the_rule_out(client):
    game = new_game(client, NAMES, SANTIAGO, "Bob")
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert 'class="dealer">Bob<' in page
    assert 'class="cutter">Cat<' in page
    assert 'class="first-player">Ann<' in page
    reference = client.get(f"/rules/reference?game={game.id}").get_data(as_text=True)
    assert "go to the right: the cutter sits on the dealer&#39;s left" in reference


def test_a_paper_sheet_under_rules_to_the_right_finds_the_dealer_the_right_way(app):
    rules = RuleSet.parse(SANTIAGO)
    # Round 3's −35 is Cat's. To the right Cat cuts for Bob's deal (Bob on her right), so
    # Dan dealt round 1 (Dan, Cat, Bob); to the left she would cut for Dan's, and Bob dealt.
    raw = (
        "game,2019-12-24,,Ann,Bob,Cat,Dan\nround,1,,25,0,40,15\nround,2,,20,0,30,60\n"
        "round,3,,20,0,-35,60\n"
    )
    with app.app_context():
        found = papersheets.read_sheet(raw, rules)
        assert papersheets.read_sheet(raw, LIVERPOOL).games[0].game.first_dealer == 1
    assert found.problems == []
    assert found.games[0].game.first_dealer == 3
    assert found.games[0].notes[0] == "Dan dealt round 1, as the exact cut of round 3 shows"
    # Named dealers must pass to the right: Ann, then Dan.
    named = "game,2019-12-24,Ann,Ann,Bob,Cat,Dan\nround,1,,25,0,40,15\nround,2,Bob,20,0,30,60\n"
    with app.app_context():
        found = papersheets.read_sheet(named, rules)
    assert [str(problem) for problem in found.problems] == [
        "row 3, column C: Dan deals round 2 when Ann deals round 1: the deal passes right (R12.3)"
    ]


def test_export_and_import_keep_the_direction(app, client, tmp_path, fresh_database):
    from scorekeeper import create_app
    from tests.support.config import TEST_CONFIG

    game = new_game(client, NAMES, SANTIAGO, "Bob")
    play_rounds(client, game, 3)
    with app.app_context():
        document = json.loads(transfer.dumps(transfer.export_games()))
    other = create_app(
        dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=fresh_database("other")),
        instance_path=str(tmp_path / "other"),
    )
    with other.app_context():
        assert importer.import_games(document) == 1
        assert json.loads(transfer.dumps(transfer.export_games()))["games"] == document["games"]
    listed = other.test_client().get("/api/games").get_json()["games"]
    state = other.test_client().get(f"/api/games/{listed[0]['id']}").get_json()
    assert state["rules"]["direction"] == "right"


def test_a_game_started_to_the_right_on_the_page_seats_the_cutter_on_the_left(client):
    _, location = start_edited(client, name="Santiago", direction="right")
    page = client.get(location).get_data(as_text=True)
    assert 'class="dealer">Ann<' in page and 'class="cutter">Bob<' in page


def test_the_check_and_a_saved_rule_set_keep_the_direction(client):
    fields = fields_of(client.get("/games/new").get_data(as_text=True))
    answer = client.post("/rulesets/check", data=changed(fields, direction="right")).get_json()
    assert answer["problems"] == {}
    saved = save_ruleset(client, SANTIAGO)
    assert saved["rules"]["direction"] == "right"
    shown = client.get(f"/rulesets/{saved['id']}").get_data(as_text=True)
    assert "go to the right" in shown
