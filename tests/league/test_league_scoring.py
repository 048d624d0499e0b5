"""A league's scoring changed after it was set up, by an organiser, through the API and on the
pages: the table follows at once from the nights, the change lands once and is kept, and the
league's page tells when and how the scoring changed."""

from __future__ import annotations

import itertools

from tests.league.helpers import post, two_nights
from tests.support.organisers import PASSWORD, REFUSED, basic

_tokens = (f"scoring-{n:014d}" for n in itertools.count())


def token() -> str:
    return next(_tokens)


def rows(body):
    return [(row["place"], row["name"], row["score"]) for row in body["table"]]


def leagues_of(client):
    a, b, c = two_nights(client)
    nights = [a["id"], b["id"], c["id"]]
    places = post(client, "/api/league", {"name": "Points", "scoring": "places", "nights": nights})
    normalised = post(
        client, "/api/league", {"name": "Mean", "scoring": "normalised", "nights": nights}
    )
    return places.json, normalised.json


def test_the_table_follows_a_change_of_scoring_both_ways(client):
    places, normalised = leagues_of(client)
    path = f"/api/league/{places['id']}/scoring"
    changed = post(client, path, {"scoring": "normalised"})
    assert changed.status_code == 200, changed.json
    assert changed.json["scoring"] == "normalised" and changed.json["points"] == []
    assert rows(changed.json) == rows(normalised)
    [change] = changed.json["changes"]
    assert change["before"] == {"scoring": "places", "points": [4, 3, 2, 1]}
    assert change["after"] == {"scoring": "normalised", "points": []}
    assert change["changed_at"].endswith("Z")
    back = post(client, path, {"scoring": "places", "points": [10, 5]})
    assert back.status_code == 200, back.json
    # Night A, table 1: Ann 10, Bob 5, Cat and Dan 0; table 2: Eve 10, Fay and Gus 5 (shared
    # 2nd); night B: Fay 10, Ann 5.
    assert rows(back.json)[:3] == [(1, "Ann", 15), (1, "Fay", 15), (3, "Eve", 10)]
    assert [c["after"]["scoring"] for c in back.json["changes"]] == ["normalised", "places"]
    assert client.get(f"/api/league/{places['id']}").json == back.json


def test_every_problem_is_named_at_once_and_nothing_changes(client):
    places, _normalised = leagues_of(client)
    path = f"/api/league/{places['id']}/scoring"
    refused = post(client, path, {"scoring": "places", "points": [3, "x", 1001], "colour": "red"})
    assert refused.status_code == 400
    assert set(refused.json["problems"]) == {"colour", "points[1]", "points[2]"}
    assert "'colour' is not a field of a league's scoring" in refused.json["error"]
    refused = post(client, path, {"scoring": "stars"})
    assert refused.status_code == 400 and set(refused.json["problems"]) == {"scoring"}
    refused = post(client, path, {"scoring": "normalised", "points": [1]})
    assert refused.json["problems"] == {"points": "only a league scored by places gives points"}
    assert post(client, "/api/league/99/scoring", {"scoring": "places"}).status_code == 404
    league = client.get(f"/api/league/{places['id']}").json
    assert league["changes"] == [] and league["scoring"] == "places"


def test_a_double_tap_lands_once(client):
    places, _normalised = leagues_of(client)
    path = f"/api/league/{places['id']}/scoring"
    body = {"scoring": "places", "points": [5, 3, 1]}
    first = post(client, path, body, key="tap-1")
    again = post(client, path, body, key="tap-1")
    assert first.status_code == again.status_code == 200
    assert again.json == first.json
    # A second tap with a key of its own (or none) finds the league scored so already.
    other = post(client, path, body, key="tap-2")
    assert other.status_code == 409 and other.json["code"] == "unchanged"
    assert post(client, path, body).status_code == 409
    assert len(client.get(f"/api/league/{places['id']}").json["changes"]) == 1


def test_the_page_changes_the_scoring_and_the_league_tells_it(client):
    places, normalised = leagues_of(client)
    where = f"/league/{places['id']}/scoring"
    page = client.get(where).get_data(as_text=True)
    assert 'value="4, 3, 2, 1"' in page and '<option selected value="places">' in page
    changed = client.post(
        where, data={"scoring": "normalised", "points": "", "write_token": token()}
    )
    assert changed.status_code == 303, changed.get_data(as_text=True)
    shown = client.get(changed.location).get_data(as_text=True)
    assert "The scoring changed: the league table is worked out the new way." in shown
    assert "the scoring changed from points per place (4, 3, 2, 1) to totals against" in shown
    assert client.get(f"/api/league/{places['id']}").json["table"] == normalised["table"]


def test_the_page_keeps_what_was_typed_and_names_every_problem(client):
    places, _normalised = leagues_of(client)
    where = f"/league/{places['id']}/scoring"
    refused = client.post(
        where, data={"scoring": "places", "points": "3, 5, x", "write_token": token()}
    )
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert 'value="3, 5, x"' in page
    assert "a place is never worth more than the one above it" in page
    assert "a place&#39;s points are a whole number from 0 to 1000" in page
    same = client.post(
        where, data={"scoring": "places", "points": "4 3 2 1", "write_token": token()}
    )
    assert same.status_code == 409
    assert "the league is scored so already: nothing changed" in same.get_data(as_text=True)
    assert client.get(f"/api/league/{places['id']}").json["changes"] == []


def test_only_an_organiser_changes_the_scoring(club):
    made = post(club, "/api/league", {"name": "Club", "scoring": "places"}, **basic())
    league = made.get_json()["id"]
    path = f"/api/league/{league}/scoring"
    refused = post(club, path, {"scoring": "normalised"})
    assert refused.status_code == 403 and refused.get_json() == REFUSED
    page = club.get(f"/league/{league}/scoring")
    assert page.status_code == 403 and 'name="password"' in page.get_data(as_text=True)
    posted = club.post(
        f"/league/{league}/scoring", data={"scoring": "normalised", "write_token": token()}
    )
    assert posted.status_code == 403
    assert "Change the scoring" not in club.get(f"/league/{league}").get_data(as_text=True)
    assert club.get(f"/api/league/{league}").get_json()["changes"] == []
    assert post(club, path, {"scoring": "normalised"}, **basic()).status_code == 200
    club.post("/organiser/sign-in", data={"password": PASSWORD, "next": "/league"})
    assert "Change the scoring" in club.get(f"/league/{league}").get_data(as_text=True)
    assert club.get(f"/league/{league}/scoring").status_code == 200
