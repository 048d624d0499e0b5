"""A club with organisers (`ORGANISER_PASSWORD`): only an organiser sets a league up and changes
which nights count, through the API and on the pages; everyone else reads the league."""

from __future__ import annotations

from tests.league.helpers import night, post
from tests.support.organisers import PASSWORD, REFUSED, basic


def test_only_an_organiser_changes_the_league_through_the_api(club):
    made = night(
        club,
        "2026-11-05",
        [["Ann", "Bob", "Cat", "Dan"]],
        {1: [("Ann", {"Bob": 10, "Cat": 20, "Dan": 30})]},
        headers=basic(),
    )
    body = {"name": "Club", "scoring": "places"}
    refused = post(club, "/api/league", body)
    assert refused.status_code == 403 and refused.get_json() == REFUSED
    created = post(club, "/api/league", body, **basic())
    assert created.status_code == 201, created.get_json()
    league = created.get_json()["id"]
    path = f"/api/league/{league}/nights"
    assert post(club, path, {"night": made["id"]}).status_code == 403
    assert post(club, path, {"night": made["id"]}, **basic()).status_code == 201
    assert club.delete(f"{path}/{made['id']}").status_code == 403
    # Everyone reads the league.
    read = club.get(f"/api/league/{league}").get_json()
    assert [row["name"] for row in read["table"]] == ["Ann", "Bob", "Cat", "Dan"]
    assert club.delete(f"{path}/{made['id']}", headers=basic()).status_code == 200


def test_the_pages_show_the_changes_to_an_organiser_only(club):
    made = post(club, "/api/league", {"name": "Club", "scoring": "places"}, **basic())
    league = made.get_json()["id"]
    assert "New league" not in club.get("/league").get_data(as_text=True)
    refused = club.get("/league/new")
    assert refused.status_code == 403 and 'name="password"' in refused.get_data(as_text=True)
    assert club.post(f"/league/{league}/nights", data={"night": "1"}).status_code == 403
    club.post("/organiser/sign-in", data={"password": PASSWORD, "next": "/league"})
    assert "New league" in club.get("/league").get_data(as_text=True)
    assert club.get("/league/new").status_code == 200
