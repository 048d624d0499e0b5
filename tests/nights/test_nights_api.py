"""The club nights' JSON API: set a night up, check in, draw, late arrivals; every problem named
at once; every write once under its Idempotency-Key; a night drawn once."""

from __future__ import annotations

import pytest

from scorekeeper.nights import service
from scorekeeper.platform.database import db

ELEVEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit"]


def post(client, path, body=None, key=None, **headers):
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(path, json=body if body is not None else {}, headers=headers)


def new_night(client, players=ELEVEN, rules="shanghai"):
    answer = post(client, "/api/nights", {"rules": rules, "held_on": "2026-12-03"})
    assert answer.status_code == 201, answer.json
    night = answer.json
    if players:
        checked = post(client, f"/api/nights/{night['id']}/players", {"players": players})
        assert checked.status_code == 201, checked.json
        night = checked.json
    return night


def test_a_night_is_set_up_checked_in_and_drawn_into_games(client):
    night = new_night(client)
    assert night["state"] == "open" and night["rules"]["name"] == "Shanghai"
    assert night["held_on"] == "2026-12-03"
    assert [p["name"] for p in night["players"]] == ELEVEN
    assert isinstance(night["seed"], int)
    drawn = post(client, f"/api/nights/{night['id']}/draw", key="draw-1")
    assert drawn.status_code == 201, drawn.json
    body = drawn.json
    assert body["state"] == "drawn"
    assert [len(t["players"]) for t in body["tables"]] == [4, 4, 3]
    assert sorted(n for t in body["tables"] for n in t["players"]) == sorted(ELEVEN)
    assert {p["table"] for p in body["players"]} == {1, 2, 3}
    # Each table is a game of its own, with its own key, handed over this once.
    assert set(body["keys"]) == {str(t["game"]) for t in body["tables"]}
    for table in body["tables"]:
        game = client.get(table["links"]["game"]).json
        assert game["players"] == table["players"]
        assert game["rules"]["name"] == "Shanghai"
        key = body["keys"][str(table["game"])]
        first = game["players"][0]
        leftovers = {p: "5" for p in table["players"] if p != first}
        recorded = client.post(
            f"/api/games/{table['game']}/rounds",
            json={"out": first, "leftovers": leftovers},
            headers={"X-Game-Key": key},
        )
        assert recorded.status_code == 201, recorded.json
    listed = client.get("/api/nights").json["nights"]
    assert [(n["id"], n["state"], n["tables"]) for n in listed] == [(night["id"], "drawn", 3)]


def test_the_seed_replays_the_draw_and_the_first_dealers(app, client):
    night = new_night(client)
    body = post(client, f"/api/nights/{night['id']}/draw").json
    with app.app_context():
        from scorekeeper.nights import draw

        again = draw.draw(ELEVEN, 3, 8, seed=body["seed"], history=[])
        assert [list(t) for t in again.tables] == [t["players"] for t in body["tables"]]
        for table in body["tables"]:
            game = client.get(table["links"]["game"]).json
            seats = len(table["players"])
            dealer = service.first_dealer(body["seed"], table["number"], seats)
            assert game["first_dealer"] == table["players"][dealer]


def test_a_repeated_draw_with_the_same_key_draws_once(client):
    night = new_night(client)
    path = f"/api/nights/{night['id']}/draw"
    first = post(client, path, key="same-key")
    again = post(client, path, key="same-key")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "keys" in first.json and "keys" not in again.json
    assert again.json["tables"] == first.json["tables"]
    games = client.get("/api/games").json["total"]
    assert games == 3


def test_a_second_draw_is_refused(client):
    night = new_night(client)
    path = f"/api/nights/{night['id']}/draw"
    assert post(client, path, key="one").status_code == 201
    second = post(client, path, key="two")
    assert second.status_code == 409
    assert second.json["code"] == "drawn"
    assert "drawn already" in second.json["error"]
    assert client.get("/api/games").json["total"] == 3


def test_an_impossible_draw_is_refused_with_its_code(client):
    night = new_night(client, ELEVEN[:5], rules="liverpool")
    answer = post(client, f"/api/nights/{night['id']}/draw")
    assert answer.status_code == 409
    assert answer.json["code"] == "no_fit"
    assert "tables of 4 to 4" in answer.json["error"]
    few = new_night(client, ELEVEN[:2], rules="shanghai")
    answer = post(client, f"/api/nights/{few['id']}/draw")
    assert answer.status_code == 409 and answer.json["code"] == "too_few"
    assert client.get(f"/api/nights/{few['id']}").json["state"] == "open"


def test_every_problem_of_a_new_night_is_named_at_once(client):
    answer = post(
        client, "/api/nights", {"rules": "poker", "held_on": "Thursday", "players": ["Ann", 7]}
    )
    assert answer.status_code == 400
    assert set(answer.json["problems"]) == {"rules", "held_on", "players[1]"}
    assert client.get("/api/nights").json["nights"] == []


def test_every_problem_of_a_check_in_is_named_at_once_and_none_is_stored(client):
    night = new_night(client, ["Ann"])
    answer = post(
        client,
        f"/api/nights/{night['id']}/players",
        {"players": ["ann", "Bob", "BOB", "", "x" * 30, {"name": "Cat", "table": 0}]},
    )
    assert answer.status_code == 400
    assert set(answer.json["problems"]) == {
        "players[0]",
        "players[2]",
        "players[3]",
        "players[4]",
        "players[5]",
    }
    assert "Ann is already checked in" in answer.json["problems"]["players[0]"]
    assert "Bob is named twice" in answer.json["problems"]["players[2]"]
    names = [p["name"] for p in client.get(f"/api/nights/{night['id']}").json["players"]]
    assert names == ["Ann"]


def test_names_are_checked_in_as_the_season_knows_them(client, book):
    book.new_game(["Ann", "Bob", "Cat", "Dan"])
    night = new_night(client, ["ann", "  bob ", "Zed"])
    assert [p["name"] for p in night["players"]] == ["Ann", "Bob", "Zed"]


def test_pinned_members_sit_at_their_table(client):
    night = new_night(client, [*ELEVEN[:10], {"name": "Kit", "table": 3}])
    assert (
        post(client, f"/api/nights/{night['id']}/pins", {"name": "Ann", "table": 2}).status_code
        == 200
    )
    body = post(client, f"/api/nights/{night['id']}/draw").json
    tables = {t["number"]: t["players"] for t in body["tables"]}
    assert "Kit" in tables[3] and "Ann" in tables[2]


def test_check_out_before_the_draw_and_not_after(client):
    night = new_night(client, ELEVEN[:8])
    out = client.delete(f"/api/nights/{night['id']}/players/Hal")
    assert out.status_code == 200
    assert [p["name"] for p in out.json["players"]] == ELEVEN[:7]
    post(client, f"/api/nights/{night['id']}/draw")
    after = client.delete(f"/api/nights/{night['id']}/players/Ann")
    assert after.status_code == 409 and after.json["code"] == "drawn"


def test_a_late_arrival_joins_the_smallest_table_not_started(client):
    night = new_night(client)
    body = post(client, f"/api/nights/{night['id']}/draw").json
    late = post(client, f"/api/nights/{night['id']}/late", {"name": "Lou"})
    assert late.status_code == 201, late.json
    assert late.json["seated"]["table"] == 3  # the table of 3
    game = client.get(f"/api/games/{late.json['seated']['game']}").json
    assert game["players"][-1] == "Lou"
    # Table 1 starts; the next late arrival goes to table 2 (4 players, not started).
    table1 = body["tables"][0]
    key = body["keys"][str(table1["game"])]
    leftovers = {p: "5" for p in table1["players"][1:]}
    client.post(
        f"/api/games/{table1['game']}/rounds",
        json={"out": table1["players"][0], "leftovers": leftovers},
        headers={"X-Game-Key": key},
    )
    nextone = post(client, f"/api/nights/{night['id']}/late", {"name": "Max"})
    assert nextone.json["seated"]["table"] == 2
    again = post(client, f"/api/nights/{night['id']}/late", {"name": "max"})
    assert again.status_code == 400 and "already checked in" in again.json["error"]


def test_a_late_arrival_is_refused_when_every_table_has_started_or_is_full(client):
    night = new_night(client, ELEVEN[:4], rules="liverpool")
    body = post(client, f"/api/nights/{night['id']}/draw").json
    full = post(client, f"/api/nights/{night['id']}/late", {"name": "Lou"})
    assert full.status_code == 409 and full.json["code"] == "no_table"
    assert "seats 4 already" in full.json["error"]
    table = body["tables"][0]
    client.post(
        f"/api/games/{table['game']}/rounds",
        json={"out": table["players"][0], "leftovers": {p: "5" for p in table["players"][1:]}},
        headers={"X-Game-Key": body["keys"][str(table["game"])]},
    )
    started = post(client, f"/api/nights/{night['id']}/late", {"name": "Lou"})
    assert started.status_code == 409 and "every table has started" in started.json["error"]


def test_a_late_arrival_before_the_draw_is_refused(client):
    night = new_night(client, ELEVEN[:4])
    answer = post(client, f"/api/nights/{night['id']}/late", {"name": "Lou"})
    assert answer.status_code == 409 and answer.json["code"] == "not_drawn"


def test_the_draw_spreads_pairs_over_the_last_nights(app, client):
    first = new_night(client)
    post(client, f"/api/nights/{first['id']}/draw")
    second = new_night(client)
    with app.app_context():
        night = service.get_night(second["id"])
        history = service.history(night)
        assert len(history) == 1 and sorted(map(len, history[0])) == [3, 4, 4]
        db.session.rollback()


@pytest.mark.parametrize("missing", ["/api/nights/999", "/api/nights/999/draw"])
def test_an_unknown_night_is_404(client, missing):
    answer = client.get(missing) if missing.endswith("999") else post(client, missing)
    assert answer.status_code == 404
    assert "night 999 does not exist" in answer.json["error"]


def test_a_tables_game_deleted_from_the_score_book_leaves_the_table(client):
    night = new_night(client)
    body = post(client, f"/api/nights/{night['id']}/draw").json
    table = body["tables"][0]
    deleted = client.delete(
        f"/api/games/{table['game']}", headers={"X-Game-Key": body["keys"][str(table["game"])]}
    )
    assert deleted.status_code in (200, 204), deleted.json
    read = client.get(f"/api/nights/{night['id']}").json
    assert read["tables"][0] == {
        "number": 1,
        "game": None,
        "players": [],
        "started": False,
        "links": None,
    }
    page = client.get(f"/nights/{night['id']}").get_data(as_text=True)
    assert "This table's game was deleted." in page


def test_a_new_night_whose_players_are_refused_is_not_stored(client):
    answer = post(client, "/api/nights", {"rules": "shanghai", "players": ["Ann", "ANN"]}, key="n1")
    assert answer.status_code == 400
    assert answer.json["code"] == "names"
    assert answer.json["problems"] == {"players[1]": "Ann is named twice"}
    assert client.get("/api/nights").json["nights"] == []


def test_a_late_arrival_moves_the_tables_game_page_on(client):
    night = new_night(client)
    body = post(client, f"/api/nights/{night['id']}/draw").json
    game_id = body["tables"][2]["game"]
    before = client.get(f"/games/{game_id}/state").json["tag"]
    assert post(client, f"/api/nights/{night['id']}/late", {"name": "Lou"}).status_code == 201
    after = client.get(f"/games/{game_id}/state").json["tag"]
    assert after != before
    assert "Lou" in client.get(f"/games/{game_id}").get_data(as_text=True)
