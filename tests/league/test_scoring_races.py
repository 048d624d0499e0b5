"""Two taps changing a league's scoring at once, through two real server processes on one
database (SQLite's file, or PostgreSQL under `.ci/postgres`): the change lands once, the other tap
is told the league is scored so already (409), never a 500; the same request sent twice at once
with one key is one change, answered twice."""

from __future__ import annotations

import pytest

from tests.support.server import at_once, send

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("scoring races")]

RACES = 6


def test_two_taps_at_once_change_the_scoring_once(servers):
    port = servers[0].port
    for trial in range(RACES):
        status, league = send(
            port, "POST", "/api/league", {"name": f"Race {trial}", "scoring": "places"}
        )
        assert status == 201, league
        path = f"/api/league/{league['id']}/scoring"
        answers = at_once(
            [
                lambda port=server.port, key=f"s{trial}-{n}", path=path: send(
                    port, "POST", path, {"scoring": "normalised"}, key
                )
                for n, server in enumerate(servers)
            ]
        )
        assert sorted(status for status, _body in answers) == [200, 409], answers
        loser = next(body for status, body in answers if status == 409)
        assert loser["code"] == "unchanged", loser
        status, read = send(port, "GET", f"/api/league/{league['id']}")
        assert len(read["changes"]) == 1 and read["scoring"] == "normalised"


def test_the_same_change_sent_twice_at_once_is_one_change(servers):
    port = servers[0].port
    status, league = send(port, "POST", "/api/league", {"name": "Twins", "scoring": "places"})
    path = f"/api/league/{league['id']}/scoring"
    body = {"scoring": "places", "points": [5, 3, 1]}
    answers = at_once(
        [lambda server=server: send(server.port, "POST", path, body, "twin") for server in servers]
    )
    assert [status for status, _body in answers] == [200, 200], answers
    assert answers[0][1] == answers[1][1]
    status, read = send(port, "GET", f"/api/league/{league['id']}")
    assert len(read["changes"]) == 1 and read["points"] == [5, 3, 1]
