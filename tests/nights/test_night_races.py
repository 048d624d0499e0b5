"""Two organisers drawing one night at once, through two real server processes on one database
(SQLite's file, or PostgreSQL under `.ci/postgres`): one draw, the other refused, never a 500;
and the one step that decides, the night's conditional move from open to drawn, refuses a draw
that read the night before another committed its own."""

from __future__ import annotations

import time

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.nights import service
from scorekeeper.nights.models import OPEN, NightTable
from scorekeeper.platform.database import db
from tests.support.games import KEY_HEADER
from tests.support.server import Client, at_once, encode, send

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("night races")]

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit"]
RACES = 8


def test_two_organisers_drawing_at_once_make_one_draw(servers):
    port = servers[0].port
    for trial in range(RACES):
        status, night = send(port, "POST", "/api/nights", {"rules": "shanghai", "players": PLAYERS})
        assert status == 201, night
        path = f"/api/nights/{night['id']}/draw"
        answers = at_once(
            [
                lambda port=server.port, key=f"t{trial}-{n}", path=path: send(
                    port, "POST", path, None, key
                )
                for n, server in enumerate(servers)
            ]
        )
        statuses = sorted(status for status, _body in answers)
        assert statuses == [201, 409], answers
        loser = next(body for status, body in answers if status == 409)
        assert loser["code"] == "drawn", loser
        status, read = send(port, "GET", f"/api/nights/{night['id']}")
        assert [len(table["players"]) for table in read["tables"]] == [4, 4, 3]
        winner = next(body for status, body in answers if status == 201)
        assert [t["game"] for t in read["tables"]] == [t["game"] for t in winner["tables"]]
    status, games = send(port, "GET", "/api/games?per_page=100")
    assert games["total"] == 3 * RACES


def test_the_same_draw_sent_twice_at_once_is_one_draw(servers):
    port = servers[0].port
    status, night = send(port, "POST", "/api/nights", {"rules": "shanghai", "players": PLAYERS})
    path = f"/api/nights/{night['id']}/draw"
    answers = at_once(
        [lambda server=server: send(server.port, "POST", path, None, "twin") for server in servers]
    )
    assert [status for status, _body in answers] == [201, 201], answers
    assert answers[0][1]["tables"] == answers[1][1]["tables"]
    assert sum("keys" in body for _status, body in answers) == 1


def test_a_draw_that_read_the_night_before_another_committed_is_refused(app, client):
    made = client.post("/api/nights", json={"rules": "shanghai", "players": PLAYERS}).json
    assert client.post(f"/api/nights/{made['id']}/draw", json={}).status_code == 201
    with app.test_request_context():
        night = service.get_night(made["id"])
        set_committed_value(night, "state", OPEN)  # as read before the other draw committed
        with pytest.raises(service.NightRefused) as refused:
            service.draw(night)
        assert refused.value.code == "drawn" and refused.value.status == 409
        db.session.rollback()
    assert client.get("/api/games").json["total"] == 3


def test_a_nights_table_is_stored_once(app, client):
    made = client.post("/api/nights", json={"rules": "shanghai", "players": PLAYERS}).json
    assert client.post(f"/api/nights/{made['id']}/draw", json={}).status_code == 201
    with app.app_context():
        db.session.add(NightTable(night_id=made["id"], number=1))
        with pytest.raises(IntegrityError):
            db.session.flush()
        db.session.rollback()


def test_a_tables_save_on_one_process_moves_the_screen_on_the_other_and_survives_a_restart(
    servers,
):
    """A night drawn on one process; a table's tablet saves its round there (and sends it again,
    as a lost answer's retry), while the room's screen asks the other process: the screen's tag
    moves once, the round is recorded once, and after the first process restarts mid-evening
    the night, its tables, the round and the screen are all as they were."""
    first, second = servers
    status, night = send(
        first.port, "POST", "/api/nights", {"rules": "shanghai", "players": PLAYERS}
    )
    assert status == 201, night
    status, drawn = send(first.port, "POST", f"/api/nights/{night['id']}/draw", None, "draw")
    assert status == 201, drawn
    screen = f"/nights/{night['id']}/screen/state"
    with Client(second.port) as client:
        before = client.request("GET", screen)
    assert before.status == 200
    tag = before.headers["etag"]
    table = drawn["tables"][0]
    game, key = table["game"], drawn["keys"][str(table["game"])]
    out, *others = table["players"]
    body = {"out": out, "cut_exact": False, "leftovers": {name: "K 5" for name in others}}
    headers = {"Content-Type": "application/json", "Idempotency-Key": "round-1"}
    headers[KEY_HEADER] = key
    for _ in range(2):
        with Client(first.port) as client:
            saved = client.request("POST", f"/api/games/{game}/rounds", encode(body), headers)
        assert saved.status == 201, saved.body
    with Client(second.port) as client:
        # As the screen asks: its stamps are read again at most half a second apart.
        for _ in range(12):
            moved = client.request("GET", screen, headers={"If-None-Match": tag})
            if moved.status != 304:
                break
            time.sleep(0.25)
        assert moved.status == 200 and moved.headers["etag"] != tag
        still = client.request("GET", screen, headers={"If-None-Match": moved.headers["etag"]})
        assert still.status == 304
    first.stop()  # mid-evening, as a laptop is shut
    first.restart()
    status, read = send(first.port, "GET", f"/api/nights/{night['id']}")
    assert status == 200 and read["state"] == "drawn"
    assert [t["game"] for t in read["tables"]] == [t["game"] for t in drawn["tables"]]
    status, played = send(first.port, "GET", f"/api/games/{game}")
    assert status == 200 and len(played["rounds"]) == 1
    with Client(first.port) as client:
        after = client.request("GET", screen, headers={"If-None-Match": moved.headers["etag"]})
    assert after.status == 304
