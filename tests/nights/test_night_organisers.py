"""A club with organisers (`ORGANISER_PASSWORD`): only an organiser sets a night up, checks
players in, draws and seats late arrivals, through the API and on the pages; everyone else reads
the night and its tables as before, the set-up's forms not shown to them."""

from __future__ import annotations

from tests.support.organisers import PASSWORD, REFUSED, basic

ELEVEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit"]


def test_only_an_organiser_sets_a_night_up_and_draws_it_through_the_api(club):
    body = {"rules": "shanghai", "held_on": "2026-12-03"}
    refused = club.post("/api/nights", json=body)
    assert refused.status_code == 403 and refused.get_json() == REFUSED
    assert club.get("/api/nights").get_json()["nights"] == []
    made = club.post("/api/nights", json=body, headers=basic())
    assert made.status_code == 201, made.get_json()
    night = made.get_json()["id"]
    players = {"players": ELEVEN}
    assert club.post(f"/api/nights/{night}/players", json=players).status_code == 403
    assert club.post(f"/api/nights/{night}/draw").status_code == 403
    assert club.get(f"/api/nights/{night}").get_json()["players"] == []
    checked = club.post(f"/api/nights/{night}/players", json=players, headers=basic())
    assert checked.status_code == 201
    drawn = club.post(f"/api/nights/{night}/draw", headers=basic())
    assert drawn.status_code == 201
    # Everyone reads the night and its tables.
    read = club.get(f"/api/nights/{night}").get_json()
    assert read["state"] == "drawn" and sorted(len(t["players"]) for t in read["tables"]) == [
        3,
        4,
        4,
    ]


def test_the_pages_show_the_set_up_to_an_organiser_only(club):
    made = club.post(
        "/api/nights", json={"rules": "shanghai", "held_on": "2026-12-03"}, headers=basic()
    ).get_json()
    page = club.get(f"/nights/{made['id']}").get_data(as_text=True)
    assert "Draw the tables" not in page and 'name="new_names"' not in page
    assert "New night" not in club.get("/nights").get_data(as_text=True)
    refused = club.get("/nights/new")
    assert refused.status_code == 403 and 'name="password"' in refused.get_data(as_text=True)
    club.post("/organiser/sign-in", data={"password": PASSWORD, "next": "/nights"})
    page = club.get(f"/nights/{made['id']}").get_data(as_text=True)
    assert "Draw the tables" in page and 'name="new_names"' in page
    assert club.get("/nights/new").status_code == 200
