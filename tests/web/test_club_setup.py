"""The club set-up, started for real: two app processes (`python -m scorekeeper.serve`, as the
units of `scorekeeper config systemd` run them) on the engine under test, sharing one Redis,
behind nginx terminating HTTPS under `/cards/` with the file `scorekeeper config nginx` writes.
Through it: the score book plays, a limit counts once for both processes, and with one process
killed the other takes every request, the acknowledged rounds all kept."""

from __future__ import annotations

import http.client
import json
import ssl

import pytest

from tests.support.names import NAMES
from tests.support.nginx import CLUB, generated
from tests.support.server import server_pair

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("club set-up")]

NEW_GAMES = 3


class Tablet:
    """HTTPS to nginx by the club's name (the test's own certificate, not checked)."""

    def __init__(self, port: int):
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        self.connection = http.client.HTTPSConnection("127.0.0.1", port, context=context)
        self.port = port

    def send(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict, bytes]:
        sent = {"Host": f"{CLUB}:{self.port}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        self.connection.request(method, "/cards" + path, body=data, headers=sent)
        answer = self.connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()


@pytest.fixture
def club(tmp_path, fresh_database, redis_server):
    env = {
        "REDIS_URL": redis_server.url,
        "TRUSTED_PROXIES": "1",
        "RATELIMIT_NEW_GAMES": f"{NEW_GAMES} per hour",
    }
    with server_pair(fresh_database("club"), tmp_path, env) as pair:
        upstreams = tuple(f"127.0.0.1:{server.port}" for server in pair)
        with generated(tmp_path, upstreams, "/cards/") as https_port:
            yield pair, Tablet(https_port)


def test_the_club_plays_through_nginx_counts_once_and_survives_a_killed_process(club):
    (first, _second), tablet = club
    status, _headers, home = tablet.send("GET", "/")
    assert status == 200 and b'href="/cards/static/' in home

    status, _headers, body = tablet.send("POST", "/api/games", {"players": NAMES[:4]})
    assert status == 201, body
    game = json.loads(body)
    write = {"X-Game-Key": game["key"]}
    rounds = f"/api/games/{game['id']}/rounds"

    def record(number: int) -> int:
        out = game["players"][number % 4]
        leftovers = {name: "K 5" for name in game["players"] if name != out}
        entry = {"out": out, "leftovers": leftovers}
        keyed = {**write, "Idempotency-Key": f"round-{number}"}
        status, _headers, answer = tablet.send("POST", rounds, entry, keyed)
        assert status in (201, 429), answer
        return status

    # nginx spreads the requests over both processes: every round lands, in order.
    assert [record(number) for number in range(1, 5)] == [201] * 4

    # New games are limited per tablet: counted in Redis, the same count whichever process
    # nginx chose, and the tablet's own address (X-Forwarded-For) is what is counted.
    made = [tablet.send("POST", "/api/games", {"players": NAMES[:4]}) for _ in range(NEW_GAMES)]
    assert [status for status, _h, _b in made] == [201] * (NEW_GAMES - 1) + [429]
    assert int(made[-1][1]["retry-after"]) > 0

    first.kill()
    assert [record(number) for number in range(5, 8)] == [201] * 3
    status, _headers, body = tablet.send("GET", f"/api/games/{game['id']}")
    assert status == 200
    assert [entry["number"] for entry in json.loads(body)["rounds"]] == list(range(1, 8))
