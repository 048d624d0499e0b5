"""Two tablets merging players at once, through two real server processes on one database
(SQLite's file, or PostgreSQL under `.ci/postgres`): the merge is judged on the two players'
seats and written under the merges' lock (`merges.merge`), so two merges the other way round
make one merge, never a cycle, and the same merge twice makes it once; never a 500."""

from __future__ import annotations

import time

import pytest

from tests.support.server import at_once, send

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("merge races")]

RACES = 6


def two_players(port: int, trial: int, kind: str) -> tuple[str, str]:
    """Two players who never sat together, each in a game of their own."""
    one, other = f"Ann {kind} {trial}", f"Annie {kind} {trial}"
    for name in (one, other):
        status, game = send(port, "POST", "/api/games", {"players": [name, "Bob", "Cat", "Dan"]})
        assert status == 201, game
    return one, other


def players_now(port: int) -> set[str]:
    """The players' names in the season with every change in it: a served page waits only
    `SEASON_WAIT_SECONDS` for it, then answers the one before (`up_to_date` false), or 503
    where the server has not worked out any season yet."""
    deadline = time.monotonic() + 20
    while True:
        status, listed = send(port, "GET", "/api/players")
        assert status in (200, 503), listed
        if status == 200 and listed["up_to_date"]:
            return {player["name"] for player in listed["players"]}
        assert time.monotonic() < deadline, "the season was never brought up to date"
        time.sleep(0.05)


def merges_of(port: int, names: tuple[str, str]) -> list[dict]:
    status, body = send(port, "GET", "/api/players/merges")
    assert status == 200, body
    return [row for row in body["merges"] if row["from"] in names and row["undone_at"] is None]


def test_two_merges_the_other_way_round_at_once_make_one(servers):
    port = servers[0].port
    for trial in range(RACES):
        one, other = two_players(port, trial, "crossed")
        bodies = [{"from": one, "into": other}, {"from": other, "into": one}]
        answers = at_once(
            [
                lambda server=server, body=body, key=f"crossed-{trial}-{n}": send(
                    server.port, "POST", "/api/players/merges", body, key
                )
                for n, (server, body) in enumerate(zip(servers, bodies, strict=True))
            ]
        )
        statuses = sorted(status for status, _body in answers)
        assert statuses == [201, 400], answers
        refused = next(body for status, body in answers if status == 400)
        assert "are already one player" in refused["error"], refused
        assert len(merges_of(port, (one, other))) == 1
        names = players_now(port)
        assert len(names & {one, other}) == 1, names


def test_the_same_merge_from_two_tablets_at_once_is_made_once(servers):
    port = servers[0].port
    for trial in range(RACES):
        one, other = two_players(port, trial, "twice")
        body = {"from": one, "into": other}
        answers = at_once(
            [
                lambda server=server, key=f"twice-{trial}-{n}", body=body: send(
                    server.port, "POST", "/api/players/merges", body, key
                )
                for n, server in enumerate(servers)
            ]
        )
        statuses = sorted(status for status, _body in answers)
        assert statuses == [201, 400], answers
        assert len(merges_of(port, (one, other))) == 1
