"""The league pages without script: set a league up, count nights, the table with its CSV (in
the page's language) and its printed sheet, a player's nights, and a night's summary linked from
the night's page; each refusal shown on the page."""

from __future__ import annotations

import csv
import io
import itertools

from tests.league.helpers import post, two_nights

_tokens = (f"{n:022d}" for n in itertools.count())


def token() -> str:
    return next(_tokens)


def new_league(client, name="Thursday", scoring="places", points="4, 3, 2, 1"):
    data = {"name": name, "scoring": scoring, "points": points, "write_token": token()}
    return client.post("/league/new", data=data)


def test_a_league_is_set_up_and_its_nights_counted_on_the_pages(client):
    a, b, c = two_nights(client)
    assert "No league yet" in client.get("/league").get_data(as_text=True)
    made = new_league(client)
    assert made.status_code == 303, made.get_data(as_text=True)
    where = made.location
    page = client.get(where).get_data(as_text=True)
    assert "League set up: add the nights that count." in page
    assert "No night counts for this league yet." in page
    assert f'<option value="{a["id"]}">2026-11-05 · Liverpool</option>' in page
    for night in (a, b, c):
        added = client.post(
            f"{where}/nights", data={"night": str(night["id"]), "write_token": token()}
        )
        assert added.status_code == 303, added.get_data(as_text=True)
    page = client.get(where).get_data(as_text=True)
    assert "The night of 2026-11-19 counts for this league." in page
    assert "1 table is still in play: it counts once its game ends." in page
    assert page.index(">Ann</a>") < page.index(">Fay</a>") < page.index(">Bob</a>")
    assert "Players level share a place, as the rules say." in page
    listed = client.get("/league").get_data(as_text=True)
    assert "Thursday" in listed and "3 nights" in listed
    removed = client.post(f"{where}/nights/{c['id']}/remove", data={"write_token": token()})
    assert removed.status_code == 303
    assert "in play" not in client.get(where).get_data(as_text=True)


def test_the_new_league_page_names_every_problem(client):
    assert new_league(client).status_code == 303
    refused = new_league(client, name="thursday", points="3, 5, x")
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    assert "there is already a league called Thursday" in page
    assert "a place is never worth more than the one above it" in page
    assert "a place&#39;s points are a whole number from 0 to 1000" in page
    assert new_league(client, name="Other", scoring="normalised", points="").status_code == 303


def test_the_table_as_csv_and_as_a_sheet_to_print(client):
    a, b, _c = two_nights(client)
    made = post(
        client, "/api/league", {"name": "=Club", "scoring": "places", "nights": [a["id"], b["id"]]}
    )
    league = made.json["id"]
    download = client.get(f"/league/{league}/table.csv")
    assert download.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="league-{league}.csv"' in download.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(download.get_data(as_text=True))))
    assert rows[0] == ["Place", "Player", "Nights", "Points", "Wins", "Deals won"]
    assert rows[1:9] == [
        ["1", "Ann", "2", "7", "1", "1"],
        ["1", "Fay", "2", "7", "1", "1"],
        ["3", "Bob", "2", "5", "0", "1"],
        ["3", "Eve", "2", "5", "1", "1"],
        ["5", "Gus", "1", "3", "0", "0"],
        ["6", "Cat", "1", "2", "0", "0"],
        ["6", "Dan", "1", "2", "0", "0"],
        ["8", "Hal", "1", "1", "0", "0"],
    ]
    assert rows[9] == ["League", "'=Club"]  # never a formula
    assert rows[10][0] == "Scoring" and rows[11][0] == "Ties"
    finnish = client.get(f"/league/{league}/table.csv", headers={"Accept-Language": "fi"})
    header = next(csv.reader(io.StringIO(finnish.get_data(as_text=True))))
    assert header[1] == "Pelaaja" and header[3] == "Pisteet" and header[4] == "Voitot"
    printed = client.get(f"/league/{league}/print").get_data(as_text=True)
    assert "2 nights, 2026-11-05 to 2026-11-12." in printed and "league-table" in printed
    assert 'href="/league/' not in printed.split("league-table", 1)[1].split("</table>")[0]


def test_a_players_nights_and_a_nights_summary(client):
    a, b, c = two_nights(client)
    made = post(
        client,
        "/api/league",
        {"name": "Norm", "scoring": "normalised", "nights": [a["id"], b["id"], c["id"]]},
    )
    league = made.json["id"]
    page = client.get(f"/league/{league}/players/ann").get_data(as_text=True)
    assert "Ann in Norm" in page and "Place 2 · Per deal against the table: -7.50" in page
    assert "-12.50" in page and "-2.50" in page
    cat = client.get(f"/league/{league}/players/Cat").get_data(as_text=True)
    assert "in play" in cat and "+7.50" in cat
    assert client.get(f"/league/{league}/players/Zed").status_code == 404
    assert client.get(f"/league/{league}/player?name=a/..").status_code == 404
    night = client.get(f"/nights/{a['id']}").get_data(as_text=True)
    assert f'href="/nights/{a["id"]}/summary"' in night
    summary = client.get(f"/nights/{a['id']}/summary").get_data(as_text=True)
    assert "Eve went out in round 1 at table 2, leaving the others 60 points." in summary
    assert "Winner: Ann" in summary and "Winner: Eve" in summary and "League: Norm" in summary
    playing = client.get(f"/nights/{c['id']}/summary").get_data(as_text=True)
    assert "Leading: Cat" in playing
    assert client.get("/nights/999/summary").status_code == 404
