"""A club's app processes sharing one Redis, as real server processes on one database (SQLite's
file, or PostgreSQL under `.ci/postgres`): a limit hit alternately on two processes refuses at
exactly the count one process refuses at; and Redis stopped mid-evening, both processes keep
saving rounds and starting games while their `/healthz` says Redis is unreachable."""

from __future__ import annotations

import pytest

from tests.support.games import create_game, record
from tests.support.names import NAMES
from tests.support.server import Client, server_pair

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("shared redis")]

LIMIT = 5
TRIES = LIMIT + 3


def start_game(port: int, game_id: int) -> int:
    with Client(port) as client:
        return client.send_json("POST", "/api/games", {"players": NAMES}).status


def try_wrong_link(port: int, game_id: int) -> int:
    with Client(port) as client:
        return client.request("GET", f"/games/{game_id}/join?key=a-guess").status


# Each limit: its setting, one request it counts and the answer that request gets under it.
KINDS = {
    "new games": ("RATELIMIT_NEW_GAMES", start_game, 201),
    "wrong edit links": ("RATELIMIT_BAD_EDIT_LINKS", try_wrong_link, 403),
}


def rounds(client: Client, game_id: int) -> list:
    return client.request("GET", f"/api/games/{game_id}").json()["rounds"]


def health(port: int) -> tuple[int, object]:
    with Client(port) as client:
        answer = client.request("GET", "/healthz")
    body = answer.json()
    return answer.status, {"ok": body["ok"], "redis": body["redis"]}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_limit_hit_alternately_on_two_processes_refuses_at_the_count_of_one(
    kind, tmp_path, fresh_database, redis_server
):
    setting, send, counted = KINDS[kind]
    env = {"REDIS_URL": redis_server.url, setting: f"{LIMIT} per day"}
    with server_pair(fresh_database("limits"), tmp_path, env) as servers:
        ports = [server.port for server in servers]
        with Client(ports[0]) as client:
            game_id = create_game(client).id if kind != "new games" else 0
        alone = [send(ports[0], game_id) for _ in range(TRIES)]
        redis_server.client().flushdb()  # the counts start again from nothing
        alternately = [send(ports[number % 2], game_id) for number in range(TRIES)]
    assert alone == [counted] * LIMIT + [429] * (TRIES - LIMIT)
    assert alternately == alone


def test_redis_stopped_mid_evening_both_processes_keep_scoring_and_say_so(
    tmp_path, fresh_database, redis_server
):
    env = {"REDIS_URL": redis_server.url}
    with server_pair(fresh_database("evening"), tmp_path, env) as servers:
        first, second = (Client(server.port) for server in servers)
        ports = [server.port for server in servers]
        game = create_game(first)
        record(second, game, NAMES[0])
        assert [health(port) for port in ports] == [(200, {"ok": True, "redis": "ok"})] * 2

        redis_server.stop()
        record(first, game, NAMES[1])
        record(second, game, NAMES[2])
        assert start_game(ports[1], 0) == 201
        assert [health(port) for port in ports] == [(200, {"ok": True, "redis": "unreachable"})] * 2
        assert len(rounds(first, game.id)) == len(rounds(second, game.id)) == 3

        redis_server.start()
        assert [health(port) for port in ports] == [(200, {"ok": True, "redis": "ok"})] * 2
        record(first, game, NAMES[3])
        first.close()
        second.close()
