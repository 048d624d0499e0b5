"""Faults at a club's evening, on real server processes: one of two processes killed (the other
keeps serving, every acknowledged write is kept, a retried write lands once), and PostgreSQL
restarted under a running process (503 with `Retry-After` meanwhile, then answers again without
the app being restarted). Redis stopping is in tests/web/test_shared_servers.py."""

from __future__ import annotations

import contextlib
import http.client
import threading

import pytest

from tests.support.config import ENGINE
from tests.support.games import create_game, record_rounds, round_body
from tests.support.names import NAMES
from tests.support.postgres import Cluster
from tests.support.server import Client, Server, server_pair

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("club faults")]


def ledger(client: Client, game) -> list[int]:
    answer = client.request("GET", f"/api/games/{game.id}")
    assert answer.status == 200, answer.body[:300]
    return [entry["number"] for entry in answer.json()["rounds"]]


def test_a_process_killed_mid_evening_loses_nothing_and_a_retry_lands_once(
    tmp_path, fresh_database
):
    with server_pair(fresh_database("club"), tmp_path) as (first, second):
        with Client(first.port) as tablet:
            game = create_game(tablet, NAMES)
            record_rounds(tablet, game, 2)
            # Round 3 is acknowledged by the first process, which is then killed; the tablet
            # never read the answer, so it sends the round again, to the other process.
            acknowledged = round_body(game.names, 3)
            headers = {**game.write_headers, "Idempotency-Key": "round-3"}
            answer = tablet.send_json("POST", game.rounds_path, acknowledged, headers)
            assert answer.status == 201
        # Round 4 is in flight when the first process is killed: landed or not, never twice.
        flight = round_body(game.names, 4)
        flight_headers = {**game.write_headers, "Idempotency-Key": "round-4"}

        def send_and_lose() -> None:
            with (
                Client(first.port) as doomed,
                contextlib.suppress(http.client.HTTPException, OSError),
            ):
                doomed.send_json("POST", game.rounds_path, flight, flight_headers)

        sender = threading.Thread(target=send_and_lose)
        sender.start()
        first.kill()
        sender.join(timeout=20)

        with Client(second.port) as tablet:
            retried = tablet.send_json("POST", game.rounds_path, acknowledged, headers)
            assert (retried.status, retried.json()) == (answer.status, answer.json())
            landed = tablet.send_json("POST", game.rounds_path, flight, flight_headers)
            assert landed.status == 201, landed.body[:300]
            again = tablet.send_json("POST", game.rounds_path, flight, flight_headers)
            assert again.json() == landed.json()
            assert ledger(tablet, game) == [1, 2, 3, 4]
            # The other process goes on with the evening.
            game.rounds = 4
            record_rounds(tablet, game, 1)
            assert ledger(tablet, game) == [1, 2, 3, 4, 5]


@pytest.mark.skipif(ENGINE != "postgresql", reason="PostgreSQL restarted: the PostgreSQL run")
def test_postgresql_restarted_answers_503_then_the_app_recovers_by_itself(tmp_path):
    with Cluster() as cluster, Server(cluster.url, tmp_path / "server.log") as server:
        with Client(server.port) as tablet:
            game = create_game(tablet, NAMES)
            record_rounds(tablet, game, 1)

            cluster.stop()
            api = tablet.request("GET", f"/api/games/{game.id}")
            assert api.status == 503 and int(api.headers["retry-after"]) > 0
            assert api.json()["error"]
            page = tablet.request("GET", f"/games/{game.id}")
            assert page.status == 503 and int(page.headers["retry-after"]) > 0
            refused = tablet.send_json(
                "POST", game.rounds_path, round_body(game.names, 2), game.write_headers
            )
            assert refused.status == 503

            cluster.start()
            assert ledger(tablet, game) == [1]
            assert tablet.request("GET", f"/games/{game.id}").status == 200
            record_rounds(tablet, game, 1)
            assert ledger(tablet, game) == [1, 2]
        assert "Traceback" not in server.log(), server.log()
