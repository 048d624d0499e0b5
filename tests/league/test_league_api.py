"""The league's JSON API: two leagues scoring the same nights (by places and normalised) give
the tables worked out by hand; ties shared or parted by deals won as the rules say; a player's
nights; a night's summary; every problem named at once; every write once."""

from __future__ import annotations

from tests.league.helpers import night, post, two_nights


def league(client, name, scoring, nights, points=None, key=None):
    body = {"name": name, "scoring": scoring, "nights": nights}
    if points is not None:
        body["points"] = points
    made = post(client, "/api/league", body, key=key)
    assert made.status_code == 201, made.json
    return made.json


def rows(body):
    return [
        (row["place"], row["name"], row["nights"], row["score"], row["wins"])
        for row in body["table"]
    ]


def test_two_leagues_score_the_same_nights_as_worked_out_by_hand(client):
    a, b, c = two_nights(client)
    nights = [a["id"], b["id"], c["id"]]
    places = league(client, "Thursday points", "places", nights)
    assert places["points"] == [4, 3, 2, 1]
    # Night A, table 1: Ann 0, Bob 10, Cat 20, Dan 20: 4, 3, 2, 2 (Cat and Dan share 3rd).
    # Night A, table 2: Eve 0, Fay 5, Gus 5, Hal 50: 4, 3, 3 (shared 2nd), 1 (4th).
    # Night B: Ann 20, Bob 25, Eve 40, Fay 15: Fay 4, Ann 3, Bob 2, Eve 1. Night C in play.
    assert rows(places) == [
        (1, "Ann", 2, 7, 1),
        (1, "Fay", 2, 7, 1),
        (3, "Bob", 2, 5, 0),
        (3, "Eve", 2, 5, 1),
        (5, "Gus", 1, 3, 0),
        (6, "Cat", 1, 2, 0),
        (6, "Dan", 1, 2, 0),
        (8, "Hal", 1, 1, 0),
    ]
    assert places["ties"] == "share" and places["in_play"] == 1
    normalised = league(client, "Thursday normalised", "normalised", nights)
    assert normalised["points"] == []
    # (total - table mean) / deals: A1 mean 12.5 → Ann -12.5, Bob -2.5, Cat 7.5, Dan 7.5;
    # A2 mean 15 → Eve -15, Fay -10, Gus -10, Hal 35; B mean 25 over 2 deals → Ann -2.5,
    # Bob 0, Eve 7.5, Fay -5. The mean over each player's nights, lowest first.
    assert rows(normalised) == [
        (1, "Gus", 1, -10, 0),
        (2, "Ann", 2, -7.5, 1),
        (2, "Fay", 2, -7.5, 1),
        (4, "Eve", 2, -3.75, 1),
        (5, "Bob", 2, -1.25, 0),
        (6, "Cat", 1, 7.5, 0),
        (6, "Dan", 1, 7.5, 0),
        (8, "Hal", 1, 35, 0),
    ]
    listed = client.get("/api/league").json["leagues"]
    assert [(item["name"], item["scoring"], item["nights"]) for item in listed] == [
        ("Thursday normalised", "normalised", nights),
        ("Thursday points", "places", nights),
    ]


def test_a_players_nights_show_each_table_place_total_and_score(client):
    a, b, c = two_nights(client)
    made = league(client, "Points", "places", [a["id"], b["id"], c["id"]], points=[5, 3, 1])
    ann = client.get(f"/api/league/{made['id']}/players/ann").json
    assert ann["name"] == "Ann" and ann["place"] == 1 and ann["score"] == 8
    assert [
        (n["held_on"], n["table"], n["place"], n["total"], n["score"]) for n in ann["nights"]
    ] == [
        ("2026-11-05", 1, 1, 0, 5),
        ("2026-11-12", 1, 2, 20, 3),
    ]
    hal = client.get(f"/api/league/{made['id']}/players/Hal").json
    # Night A's 4th place is past the list (5, 3, 1): 0; night C is in play.
    assert [(n["finished"], n["place"], n["total"], n["score"]) for n in hal["nights"]] == [
        (True, 4, 50, 0),
        (False, None, 5, None),
    ]


def test_ties_are_parted_by_deals_won_when_every_nights_rules_say_so(client):
    four = [["Ann", "Bob", "Cat", "Dan"]]
    first = night(
        client,
        "2026-10-01",
        four,
        {
            1: [
                ("Ann", {"Bob": 10, "Cat": 20, "Dan": 30}),
                ("Ann", {"Bob": 10, "Cat": 20, "Dan": 30}),
            ]
        },
        rules="carioca",
    )
    second = night(
        client,
        "2026-10-08",
        four,
        {
            1: [
                ("Bob", {"Ann": 50, "Cat": 20, "Dan": 20}),
                ("Dan", {"Ann": 50, "Bob": 5, "Cat": 20}),
            ]
        },
        rules="carioca",
    )
    # Points 4 for 1st alone: Ann 4 (won night 1, out twice), Bob 4 (won night 2, out once),
    # Cat and Dan 0; Dan went out once, Cat never.
    made = league(client, "Carioca cup", "places", [first["id"], second["id"]], points=[4])
    assert made["ties"] == "deals_won"
    assert [(r["place"], r["name"], r["score"], r["deals_won"]) for r in made["table"]] == [
        (1, "Ann", 4, 2),
        (2, "Bob", 4, 1),
        (3, "Dan", 0, 1),
        (4, "Cat", 0, 0),
    ]
    # A Liverpool night (ties shared) among them: level players share their place.
    third = night(client, "2026-10-15", four, {1: [("Cat", {"Ann": 10, "Bob": 10, "Dan": 10})]})
    added = post(client, f"/api/league/{made['id']}/nights", {"night": third["id"]})
    assert added.status_code == 201, added.json
    assert added.json["ties"] == "mixed"
    assert [(r["place"], r["name"], r["score"]) for r in added.json["table"]] == [
        (1, "Ann", 4),
        (1, "Bob", 4),
        (1, "Cat", 4),
        (4, "Dan", 0),
    ]


def test_a_nights_summary_names_each_tables_winners_and_the_best_round(client):
    a, _b, c = two_nights(client)
    summary = client.get(f"/api/league/nights/{a['id']}/summary").json
    assert [(t["number"], t["winners"], t["finished"]) for t in summary["tables"]] == [
        (1, ["Ann"], True),
        (2, ["Eve"], True),
    ]
    # Eve left Fay, Gus and Hal 60 points; Ann left Bob, Cat and Dan 50.
    assert summary["best_round"] == [{"name": "Eve", "table": 2, "round": 1, "others": 60}]
    playing = client.get(f"/api/league/nights/{c['id']}/summary").json
    assert playing["tables"][0]["finished"] is False
    assert playing["tables"][0]["leaders"] == ["Cat"] and playing["tables"][0]["winners"] == []


def test_bad_input_names_every_problem_at_once(client):
    league(client, "Taken", "places", [])
    refused = post(
        client,
        "/api/league",
        {"name": "TAKEN", "scoring": "places", "points": [3, 4, "x"], "nights": [999], "colour": 1},
    )
    assert refused.status_code == 400
    problems = refused.json["problems"]
    assert set(problems) == {"name", "points[1]", "points[2]", "nights[0]", "colour"}
    assert problems["name"] == "there is already a league called Taken"
    assert problems["nights[0]"] == "night 999 does not exist"
    assert refused.json["error"].startswith("5 problems: ")
    refused = post(client, "/api/league", {"name": " ", "scoring": "best", "points": [1]})
    assert set(refused.json["problems"]) == {"name", "scoring"}
    refused = post(client, "/api/league", {"name": "N", "scoring": "normalised", "points": [1]})
    assert refused.json["problems"] == {"points": "only a league scored by places gives points"}
    assert [item["name"] for item in client.get("/api/league").json["leagues"]] == ["Taken"]


def test_every_write_happens_once_and_a_night_counts_once(client):
    a, b, _c = two_nights(client)
    first = post(client, "/api/league", {"name": "Once", "scoring": "places"}, key="league-1")
    again = post(client, "/api/league", {"name": "Once", "scoring": "places"}, key="league-1")
    assert first.status_code == again.status_code == 201 and first.json == again.json
    league_id = first.json["id"]
    path = f"/api/league/{league_id}/nights"
    added = post(client, path, {"night": a["id"]}, key="add-a")
    repeat = post(client, path, {"night": a["id"]}, key="add-a")
    assert added.status_code == repeat.status_code == 201 and added.json == repeat.json
    twice = post(client, path, {"night": a["id"]}, key="add-a-again")
    assert twice.status_code == 409 and twice.json["code"] == "counted"
    assert post(client, path, {"night": "b"}).json["problems"] == {
        "night": "'night' must be a night's id"
    }
    removed = client.delete(f"{path}/{a['id']}", headers={"Idempotency-Key": "remove-a"})
    replayed = client.delete(f"{path}/{a['id']}", headers={"Idempotency-Key": "remove-a"})
    assert removed.status_code == replayed.status_code == 200
    assert removed.json["nights"] == [] and replayed.json == removed.json
    assert client.delete(f"{path}/{a['id']}").status_code == 404
    assert client.get("/api/league/999").status_code == 404
