"""Each player's buys, counted per deal with the round, for rules that limit buying (R8, R11):
"three buys a game" remembered by the score book, through the API, the round form, the game
page, the referee's buy question, corrections, undo and the export."""

from __future__ import annotations

import re

from scorekeeper.games import buys, importer, ledger, transfer
from scorekeeper.games.models import Game
from scorekeeper.platform.database import db
from tests.referee.house_rules import SMITH
from tests.support.book import new_game

LEFTOVERS = {"Bob": "5", "Cat": "5", "Dan": "5"}


def smith_game(client):
    return new_game(client, rules=SMITH.to_json())


def send_round(client, game, bought=None, **extra):
    body = {"out": "Ann", "leftovers": LEFTOVERS, **extra}
    if bought is not None:
        body["buys"] = bought
    return client.post(f"/api/games/{game.id}/rounds", json=body, headers=game.headers)


def game_json(client, game):
    return client.get(f"/api/games/{game.id}").get_json()


# --- The limits, as the score book checks them ------------------------------------------------


def test_the_limits_are_the_rules_own(app):
    assert buys.limits(SMITH) == {"game": 3}
    from scorekeeper.rules.ruleset import PRESETS

    assert buys.limits(PRESETS["liverpool"]) == {}
    assert buys.limits(PRESETS["online"]) == {}
    assert buys.allowed(SMITH) == "Smith family rules allow 3 buys a game"


def test_a_games_buys_are_counted_and_what_is_left_is_shown(client):
    game = smith_game(client)
    assert send_round(client, game, {"Ann": 1, "Bob": 2}).status_code == 201
    assert send_round(client, game, {"bob": 1, "Cat": 0}).status_code == 201
    answer = game_json(client, game)
    assert answer["buys"] == {
        "per_deal": None,
        "per_game": 3,
        "used": {"Ann": 1, "Bob": 3, "Cat": 0, "Dan": 0},
        "left": {"Ann": 2, "Bob": 0, "Cat": 3, "Dan": 3},
        "unknown_rounds": [],
    }
    assert answer["rounds"][0]["buys"] == {"Ann": 1, "Bob": 2, "Cat": 0, "Dan": 0}
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Buys left: Ann 2 · Bob 0 · Cat 3 · Dan 3" in page


def test_a_round_beyond_the_limit_or_badly_counted_is_refused_naming_every_problem(client):
    game = smith_game(client)
    assert send_round(client, game, {"Bob": 2}).status_code == 201
    refused = send_round(client, game, {"Ann": "two", "Bob": 2, "Cat": -1, "Dan": 4})
    assert refused.status_code == 400
    error = refused.get_json()["error"]
    assert "Ann's buys: the buys must be a whole number, not 'two'" in error
    assert "Bob's buys: 4 buys this game with this deal's 2: Smith family rules allow 3 a game" in (
        error
    )
    assert "Cat's buys: the buys must be 0 to 99, not -1" in error
    assert "Dan's buys: 4 buys this game with this deal's 4" in error
    unknown = send_round(client, game, {"Zed": 1, "Yan": 1})
    assert unknown.status_code == 400
    assert "'Zed'" in unknown.get_json()["error"] and "'Yan'" in unknown.get_json()["error"]
    assert send_round(client, game, []).status_code == 400
    assert len(game_json(client, game)["rounds"]) == 1  # nothing refused was stored


def test_the_deal_limit_counts_one_deal(client):
    document = SMITH.to_json()
    document["buying"].update(per_deal=1, per_game=None)
    game = new_game(client, rules=document)
    assert send_round(client, game, {"Ann": 1, "Bob": 1}).status_code == 201
    assert send_round(client, game, {"Ann": 1}).status_code == 201
    refused = send_round(client, game, {"Ann": 2})
    assert (
        "Ann's buys: 2 buys this deal: Smith family rules allow 1 a deal"
        in (refused.get_json()["error"])
    )
    assert game_json(client, game)["buys"]["left"] is None


def test_rules_without_buying_refuse_a_buy(client):
    game = new_game(client, rules="online")
    refused = send_round(client, game, {"Ann": 1})
    assert refused.status_code == 400
    assert "Ann's buys: online rules have no buying, so no buys" in refused.get_json()["error"]
    assert game_json(client, game)["buys"] is None
    assert send_round(client, game, {"Ann": 0}).status_code == 201


def test_a_correction_and_an_undo_keep_the_counts_consistent(client):
    game = smith_game(client)
    send_round(client, game, {"Ann": 2})
    send_round(client, game, {"Ann": 1})
    corrected = client.put(
        f"/api/games/{game.id}/rounds/1",
        json={"out": "Ann", "leftovers": LEFTOVERS, "buys": {"Ann": 0, "Bob": 1}, "version": 1},
        headers=game.headers,
    )
    assert corrected.status_code == 200, corrected.get_json()
    assert game_json(client, game)["buys"]["used"] == {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0}
    # A correction that leaves the buys out keeps the round's own.
    again = client.put(
        f"/api/games/{game.id}/rounds/1",
        json={"out": "Ann", "leftovers": {**LEFTOVERS, "Dan": "6"}, "version": 2},
        headers=game.headers,
    )
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["buys"] == {"Ann": 0, "Bob": 1, "Cat": 0, "Dan": 0}
    # A correction that would go past the limit with the other rounds is refused.
    over = client.put(
        f"/api/games/{game.id}/rounds/1",
        json={"out": "Ann", "leftovers": LEFTOVERS, "buys": {"Ann": 3}, "version": 3},
        headers=game.headers,
    )
    assert over.status_code == 400
    assert "Ann's buys: 4 buys this game with this deal's 3" in over.get_json()["error"]
    undone = client.delete(f"/api/games/{game.id}/rounds/2", headers=game.headers)
    assert undone.status_code == 200
    assert undone.get_json()["buys"]["used"] == {"Ann": 0, "Bob": 1, "Cat": 0, "Dan": 0}
    with client.application.app_context():
        stored = db.session.get(Game, game.id)
        changes = [
            (c.action, c.before.get("buys"), (c.after or {}).get("buys")) for c in stored.history
        ]
    assert changes[0] == ("corrected", [2, 0, 0, 0], [0, 1, 0, 0])
    assert changes[-1] == ("undone", [1, 0, 0, 0], None)


# --- The round form and the game page ---------------------------------------------------------


def test_the_round_form_asks_the_buys_only_where_the_rules_limit_them(client):
    plain = new_game(client)
    client.get(f"/games/{plain.id}/join?key={plain.key}")
    assert 'id="buys"' not in client.get(f"/games/{plain.id}/rounds/new").get_data(as_text=True)
    game = smith_game(client)
    client.get(f"/games/{game.id}/join?key={game.key}")
    form = client.get(f"/games/{game.id}/rounds/new").get_data(as_text=True)
    buys_part = form.split('id="buys"')[1].split("</fieldset>")[0]
    assert "Smith family rules allow 3 buys a game; left before this deal: Ann 3 · Bob 3" in (
        buys_part
    )
    assert len(re.findall(r'<input[^>]*name="buys-\d"', buys_part)) == 4
    assert 'aria-label="Bob\'s buys this deal"' in buys_part
    data = {"out": "0", "cards_1": "5", "cards_2": "5", "cards_3": "5", "buys-1": "2"}
    saved = client.post(f"/games/{game.id}/rounds/new", data=data)
    assert saved.status_code == 302, saved.get_data(as_text=True)
    assert game_json(client, game)["buys"]["used"] == {"Ann": 0, "Bob": 2, "Cat": 0, "Dan": 0}
    refused = client.post(
        f"/games/{game.id}/rounds/new", data={**data, "buys-1": "2", "buys-2": "x", "cards_3": "Zq"}
    )
    page = refused.get_data(as_text=True)
    assert refused.status_code == 200
    assert "Bob&#39;s buys: 4 buys this game with this deal&#39;s 2" in page
    assert "Cat&#39;s buys: the buys must be a whole number, not &#39;x&#39;" in page
    assert re.search(r'aria-invalid="true"[^>]*name="buys-1"', page) or re.search(
        r'name="buys-1"[^>]*aria-invalid="true"', page
    )
    assert 'value="x"' in page  # what was typed is kept
    # A correction opens with the round's buys.
    edit = client.get(f"/games/{game.id}/rounds/1/edit").get_data(as_text=True)
    assert re.search(r'name="buys-1"[^>]*value="2"|value="2"[^>]*name="buys-1"', edit)


def test_the_buy_question_from_a_game_reads_the_buys_so_far(client):
    game = smith_game(client)
    send_round(client, game, {"Bob": 3, "Cat": 1})
    page = client.get(f"/rules?q=buy&game={game.id}").get_data(as_text=True)
    counts = dict(re.findall(r'id="game_buys(\d)"[^>]*value="(\d*)"', page))
    assert counts == {"1": "0", "2": "3", "3": "1", "4": "0"}
    # The JSON question about the game needs no count either: Bob has had his three.
    answer = client.post(
        "/api/rules/buy", json={"game": game.id, "active": 1, "requests": [2, 3]}
    ).get_json()
    assert answer["buyer_name"] == "Cat", answer
    assert "Bob has bought 3 times this game" in answer["reason"]


# --- Export and import --------------------------------------------------------------------------


def test_an_export_keeps_the_buys_and_an_old_export_reads_as_unknown(client, app):
    game = smith_game(client)
    send_round(client, game, {"Bob": 1})
    corrected = client.put(
        f"/api/games/{game.id}/rounds/1",
        json={"out": "Ann", "leftovers": LEFTOVERS, "buys": {"Bob": 2}, "version": 1},
        headers=game.headers,
    )
    assert corrected.status_code == 200
    with app.app_context():
        document = transfer.export_games()
    lines = document["games"][0]["rounds"][0]["scores"]
    assert [line["buys"] for line in lines] == [0, 2, 0, 0]
    change = document["games"][0]["history"][0]
    assert (change["before"]["buys"], change["after"]["buys"]) == ([0, 1, 0, 0], [0, 2, 0, 0])
    # The new export imports whole (as another game), and exports the same again.
    again = {**document, "games": [dict(document["games"][0], id=game.id + 50)]}
    with app.app_context():
        assert importer.import_games(again) == 1
        copied = transfer.export_document([db.session.get(Game, game.id + 50)])
    assert copied["games"][0] == again["games"][0]
    old = {**document}
    old["games"] = [dict(document["games"][0], id=game.id + 100)]
    old["games"][0]["rounds"] = [
        {
            **played,
            "scores": [{k: v for k, v in line.items() if k != "buys"} for line in played["scores"]],
        }
        for played in old["games"][0]["rounds"]
    ]
    # Made before buys were counted: none in its history either.
    old["games"][0]["history"] = [
        {**change, "before": strip(change["before"]), "after": strip(change["after"])}
        for change in old["games"][0]["history"]
    ]
    with app.app_context():
        assert importer.import_games(old) == 1
        imported = db.session.get(Game, game.id + 100)
        assert [line.buys for line in imported.rounds[0].scores] == [None] * 4
        assert buys.used(imported) == [0, 0, 0, 0]
        assert ledger.game_json(imported)["buys"]["unknown_rounds"] == [1]


def strip(snapshot):
    return {key: value for key, value in snapshot.items() if key != "buys"}
