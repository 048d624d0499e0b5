"""Two server processes on one database, eight phones sending at once: every hand is kept once.

Each phone sends its hand twice at the same moment with one `Idempotency-Key` (a double tap, or
a retry racing its first try), one copy through each process; and a phone changing its hand
races the tablet closing the round. Runs on SQLite (one file, two processes) and PostgreSQL.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests.support.names import EIGHT_NAMES
from tests.support.server import Client, Server, at_once, request

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("phone-races")]

ROUNDS = 3


@pytest.fixture(scope="module")
def servers(tmp_path_factory, module_database):
    folder = tmp_path_factory.mktemp("phone-races")
    url = module_database("phone-races")
    pair = [Server(url, folder / f"server-{n}.log") for n in (1, 2)]
    for server in pair:
        server.start()
    yield pair
    for server in pair:
        server.stop()
        assert "Traceback" not in server.log(), server.log()


def send(port: int, code: str, token: str, cards: str, key: str):
    with Client(port) as client:
        answer = client.send_json(
            "PUT",
            f"/api/join/{code}/hand",
            {"cards": cards},
            {"X-Seat-Token": token, "Idempotency-Key": key},
        )
    return answer.status, answer.headers.get("idempotent-replayed")


def test_eight_phones_each_sending_twice_at_once_keep_one_hand_each(servers):
    ports = [server.port for server in servers]
    status, game = request(
        ports[0], "POST", "/api/games", {"players": EIGHT_NAMES, "rules": "family"}
    )
    assert status == 201, game
    key = game["key"]
    for number in range(1, ROUNDS + 1):
        status, opened = request(
            ports[number % 2], "POST", f"/api/games/{game['id']}/rounds/{number}/open", key=key
        )
        assert status == 201, opened
        code = opened["code"]
        tokens = {}
        for seat, name in enumerate(EIGHT_NAMES):
            status, joined = request(ports[seat % 2], "POST", f"/api/join/{code}", {"seat": name})
            assert status == 201, joined
            tokens[name] = joined["token"]
        calls = [
            partial(send, port, code, tokens[name], f"K {seat + 2}", f"r{number}-{name}")
            for seat, name in enumerate(EIGHT_NAMES)
            for port in ports
        ]
        answers = at_once(calls)
        assert [status for status, _ in answers] == [200] * 16, answers
        # Of each phone's twins, one wrote and the other was given its answer.
        assert sorted(str(replayed) for _, replayed in answers) == ["None"] * 8 + ["true"] * 8
        status, hands = request(
            ports[0], "GET", f"/api/games/{game['id']}/rounds/{number}/hands", key=key
        )
        assert [(seat["hand"], seat["sends"]) for seat in hands["seats"]] == [
            ({"cards": f"{seat + 2} K"}, 1) for seat in range(8)
        ]
        out = EIGHT_NAMES[number - 1]
        entry = {
            "out": out,
            "leftovers": {
                seat["name"]: seat["hand"]["cards"]
                for seat in hands["seats"]
                if seat["name"] != out
            },
        }
        status, saved = request(ports[1], "POST", f"/api/games/{game['id']}/rounds", entry, key=key)
        assert status == 201, saved


def test_a_send_racing_the_tablet_closing_the_round_is_either_kept_or_refused(servers):
    ports = [server.port for server in servers]
    status, game = request(
        ports[0], "POST", "/api/games", {"players": EIGHT_NAMES[:4], "rules": "family"}
    )
    key = game["key"]
    for trial in range(10):
        path = f"/api/games/{game['id']}/rounds/1/open"
        status, opened = request(ports[0], "POST", path, key=key)
        assert status == 201, opened
        code = opened["code"]
        status, joined = request(ports[1], "POST", f"/api/join/{code}", {"seat": "Ann"})
        answers = at_once(
            [
                partial(send, ports[0], code, joined["token"], "Q", f"close-{trial}"),
                partial(request, ports[1], "DELETE", path, None, key),
            ]
        )
        assert answers[0][0] in (200, 409), answers
        assert answers[1][0] == 200, answers
        status, late = request(ports[0], "GET", f"/api/games/{game['id']}/rounds/1/hands", key=key)
        assert late["open"] is False and late["code"] is None
