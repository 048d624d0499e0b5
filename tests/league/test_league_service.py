"""The league's service and reads without the API: names unique as they look, a merged player's
nights as one player's, a normalised score worked out on exact fractions, and the best round
among several level."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.league import service, standings
from scorekeeper.league.service import LeagueRefused
from tests.league.helpers import night, post


def test_a_leagues_name_is_unique_as_it_looks(app):
    with app.app_context():
        made = service.create_league("  Thursday   Club ", "places", [5, 3])
        assert (made.name, made.points) == ("Thursday Club", [5, 3])
        with pytest.raises(LeagueRefused) as refused:
            service.create_league("THURSDAY CLUB", "normalised")
        assert refused.value.fields == {"name": "there is already a league called Thursday Club"}
        assert service.create_league("Cup", "normalised").points == []


def test_a_merged_player_is_one_player_under_the_name_they_joined(client, app):
    four = [["Ann", "Bob", "Cat", "Dan"]]
    first = night(client, "2026-11-05", four, {1: [("Ann", {"Bob": 10, "Cat": 20, "Dan": 30})]})
    other = [["Annie", "Bob", "Cat", "Dan"]]
    second = night(client, "2026-11-12", other, {1: [("Annie", {"Bob": 10, "Cat": 20, "Dan": 30})]})
    merged = post(client, "/api/players/merges", {"from": "Annie", "into": "Ann"})
    assert merged.status_code == 201, merged.json
    made = post(
        client,
        "/api/league",
        {"name": "L", "scoring": "places", "nights": [first["id"], second["id"]]},
    )
    assert [(r["name"], r["nights"], r["score"]) for r in made.json["table"]][0] == ("Ann", 2, 8)
    annie = client.get(f"/api/league/{made.json['id']}/players/Ann").json
    assert [n["name"] for n in annie["nights"]] == ["Ann", "Annie"]


def test_a_normalised_score_is_exact_and_level_best_rounds_are_all_named(app, client):
    # Two tables whose players out left the others 30 points each: both are the best round.
    made = night(
        client,
        "2026-11-05",
        [["Ann", "Bob", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"]],
        {
            1: [("Ann", {"Bob": 10, "Cat": 10, "Dan": 10})],
            2: [("Eve", {"Fay": 5, "Gus": 5, "Hal": 20})],
        },
    )
    with app.app_context():
        from scorekeeper.nights.service import get_night

        summary = standings.night_summary(get_night(made["id"]))
        assert [(b.name, b.table, b.others) for b in summary.best] == [
            ("Ann", 1, 30),
            ("Eve", 2, 30),
        ]
        league = service.create_league("N", "normalised")
        service.add_night(league, made["id"])
        table = standings.table(league, service.league_nights(league))
        scores = {line.name: line.score for line in table.lines}
        assert scores["Hal"] == Fraction(20) - Fraction(30, 4)
        assert standings.shown(league, scores["Hal"]) == "+12.50"
        assert standings.shown(league, None) == "—"
