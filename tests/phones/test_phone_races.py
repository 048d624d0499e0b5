"""Two server processes on one database, eight phones sending at once: every hand is kept once.

Each phone sends its hand twice at the same moment with one `Idempotency-Key` (a double tap, or
a retry racing its first try), one copy through each process; a phone changing its hand races
the tablet closing the round, and the last hands race the tablet saving it; eight phones tap
one name at once. Runs on SQLite (one file, two processes) and PostgreSQL.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from tests.support.names import EIGHT_NAMES, NAMES
from tests.support.server import Client, at_once, request

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("phone-races")]

ROUNDS = 3
TOKEN = "X-Seat-Token"


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


CLAIM_TRIALS = 10


def claim(port: int, code: str, seat: str) -> tuple[int, Any]:
    return request(port, "POST", f"/api/join/{code}", {"seat": seat})


def works(port: int, code: str, token: str) -> bool:
    """Whether a seat token reads its seat's hand."""
    with Client(port) as client:
        return client.request("GET", f"/api/join/{code}/hand", None, {TOKEN: token}).status == 200


def test_eight_phones_claiming_one_seat_at_once_seat_exactly_one(servers):
    """Eight phones tap the same name at the same moment, through both processes: one is
    seated (201, and its token sends), seven are told the seat is taken (409)."""
    ports = [server.port for server in servers]
    status, game = request(
        ports[0], "POST", "/api/games", {"players": EIGHT_NAMES, "rules": "family"}
    )
    key = game["key"]
    path = f"/api/games/{game['id']}/rounds/1/open"
    seated, working = [], []
    for trial in range(CLAIM_TRIALS):
        status, opened = request(ports[trial % 2], "POST", path, key=key)
        assert status == 201, opened
        code = opened["code"]
        answers = at_once([partial(claim, ports[phone % 2], code, "Cat") for phone in range(8)])
        statuses = sorted(status for status, _ in answers)
        seated.append(statuses.count(201))
        tokens = [body["token"] for status, body in answers if status == 201]
        working.append(sum(works(ports[0], code, token) for token in tokens))
        assert statuses.count(409) == 8 - statuses.count(201), answers
        assert request(ports[1], "DELETE", path, None, key)[0] == 200
    assert (seated, working) == ([1] * CLAIM_TRIALS, [1] * CLAIM_TRIALS)


SAVE_TRIALS = 15


def recorded_and_sent(url: str, game_id: int) -> tuple[datetime, dict[int, datetime]]:
    """When the game's round 1 was recorded, and when each seat's hand was last sent."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            recorded = connection.execute(
                text("SELECT recorded_at FROM rounds WHERE game_id = :g AND number = 1"),
                {"g": game_id},
            ).scalar_one()
            sent = connection.execute(
                text(
                    "SELECT h.seat, h.sent_at FROM phone_hands h"
                    " JOIN round_openings o ON o.id = h.opening_id WHERE o.game_id = :g"
                ),
                {"g": game_id},
            ).all()
    finally:
        engine.dispose()
    return recorded, {seat: when for seat, when in sent}


def test_a_send_racing_the_save_of_its_round_is_kept_before_it_or_refused(servers):
    """The last hands sent at the moment the tablet saves the round: a send told "Sent" was
    kept before the round was recorded; one that came after is refused (409), never told the
    tablet has a hand the ledger was saved without."""
    ports = [server.port for server in servers]
    url = servers[0].database_url
    late, kept, refused = 0, 0, 0
    for trial in range(SAVE_TRIALS):
        status, game = request(
            ports[0], "POST", "/api/games", {"players": NAMES, "rules": "family"}
        )
        key = game["key"]
        status, opened = request(
            ports[1], "POST", f"/api/games/{game['id']}/rounds/1/open", key=key
        )
        code = opened["code"]
        tokens = {}
        for seat, name in enumerate(NAMES[1:]):
            status, joined = request(ports[seat % 2], "POST", f"/api/join/{code}", {"seat": name})
            assert status == 201, joined
            tokens[name] = joined["token"]
            assert send(ports[seat % 2], code, tokens[name], "K", f"first-{name}")[0] == 200
        entry = {"out": "Ann", "leftovers": {name: "K" for name in NAMES[1:]}}
        answers = at_once(
            [
                partial(send, ports[seat % 2], code, tokens[name], "Q 3", f"last-{name}")
                for seat, name in enumerate(NAMES[1:])
            ]
            + [
                partial(
                    request, ports[trial % 2], "POST", f"/api/games/{game['id']}/rounds", entry, key
                )
            ]
        )
        assert answers[-1][0] == 201, answers
        recorded, sent = recorded_and_sent(url, game["id"])
        for seat, (status, _) in enumerate(answers[:-1], start=1):
            assert status in (200, 409), answers
            if status == 200:
                kept += 1
                late += sent[seat] > recorded
            else:
                refused += 1
    assert late == 0, (
        f"{late} of {kept} sends told 'Sent' were kept after the round ({refused} refused)"
    )
