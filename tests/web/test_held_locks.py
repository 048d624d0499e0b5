"""Bounded waits: a game locked by another connection answers 503 within the busy wait, on each
engine, through the test client and a real server, whose other answers (`/healthz`) never wait.

On SQLite another connection holds the database's write lock (`BEGIN IMMEDIATE`); on PostgreSQL
another session holds the game's row lock (`SELECT … FOR UPDATE`), as a long import or a stuck
client would. Either way the write waits `DATABASE_BUSY_SECONDS`, then is answered 503 with
`Retry-After`, the page keeping what was typed, and nothing saved; once the lock is let go the
same write is saved, once.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from scorekeeper import create_app
from scorekeeper.platform.database import db
from tests.support.book import new_game
from tests.support.config import ENGINE, TEST_CONFIG, is_sqlite
from tests.support.forms import read_form
from tests.support.locks import game_locked
from tests.support.names import NAMES
from tests.support.server import Client, Server, at_once, request

# The busy wait in these tests: small, so a held lock costs the run a second a write.
WAIT = 1.0
# The bound each answer is held to: the wait, and room for the rest on a loaded machine (a run
# beside other test runs on 2 cores took over a second more). Still far below the lock, which is
# held until the answer has come: a write that waited for it would never answer at all.
BOUND = WAIT + 3.0
# The server's worker threads (`python -m scorekeeper.serve --threads`, 8 by default).
SERVER_THREADS = 8

postgres_only = pytest.mark.skipif(ENGINE != "postgresql", reason="tests PostgreSQL's timeouts")


@pytest.fixture
def held_app(tmp_path):
    """An app on a database another connection can reach (on SQLite a file, not memory), with
    the small wait."""
    config = dict(TEST_CONFIG, DATABASE_BUSY_SECONDS=WAIT)
    if is_sqlite(config["SQLALCHEMY_DATABASE_URI"]):
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path / 'held.sqlite'}"
    else:
        config["UPGRADE_ON_START"] = False  # the test's own database is already migrated
    return create_app(config, instance_path=str(tmp_path / "instance"))


def rounds(client, game_id: int) -> list:
    return client.get(f"/api/games/{game_id}").get_json()["rounds"]


def timed(call):
    """The answer of `call()` and the seconds it took."""
    began = time.monotonic()
    answer = call()
    return answer, time.monotonic() - began


def round_body(number: int = 1) -> dict:
    return {"out": "Ann", "leftovers": {"Bob": "K", "Cat": "5", "Dan": "9"}, "number": number}


def test_an_api_write_to_a_locked_game_answers_503_within_the_wait(held_app):
    client = held_app.test_client()
    game = new_game(client, profile=None)
    post = lambda: client.post(  # noqa: E731
        f"/api/games/{game.id}/rounds", json=round_body(), headers={"X-Game-Key": game.key}
    )
    with game_locked(held_app.config["SQLALCHEMY_DATABASE_URI"], game.id):
        answer, seconds = timed(post)
    assert answer.status_code == 503, answer.get_data(as_text=True)
    assert seconds < BOUND
    assert int(answer.headers["Retry-After"]) > 0
    assert "nothing was saved" in answer.get_json()["error"]
    assert rounds(client, game.id) == []
    assert post().status_code == 201
    assert len(rounds(client, game.id)) == 1


def test_a_round_posted_to_a_locked_game_is_kept_and_saved_once_after(held_app):
    client = held_app.test_client()
    game = new_game(client, profile=None)
    client.set_cookie(f"gk_{game.id}", game.key)
    form = client.get(f"/games/{game.id}/rounds/new").get_data(as_text=True)
    token = re.search(r'name="write_token" type="hidden" value="([^"]+)"', form).group(1)
    typed = {"out": "0", "cards_1": "K Q", "cards_2": "5", "cards_3": "JK", "round_number": "1"}
    with game_locked(held_app.config["SQLALCHEMY_DATABASE_URI"], game.id):
        answer, seconds = timed(
            lambda: client.post(f"/games/{game.id}/rounds/new", data=typed | {"write_token": token})
        )
    assert answer.status_code == 503
    assert seconds < BOUND
    assert int(answer.headers["Retry-After"]) > 0
    html = answer.get_data(as_text=True)
    assert "nothing was saved" in html
    assert "<td>K Q</td>" in html and "<td>JK</td>" in html
    assert rounds(client, game.id) == []
    again = read_form(html)
    for _ in range(2):  # "Try again", and a second tap on it
        assert client.post(again.action, data=dict(again.fields)).status_code == 302
    assert len(rounds(client, game.id)) == 1


@pytest.mark.sqlite_only("the in-process writer queue is SQLite's")
def test_a_writer_queued_second_waits_the_busy_wait_in_all(tmp_path):
    """The second writer waits in this process's queue behind the first, which gives up at the
    wait; what is left of the second's wait is all SQLite's busy handler gets (not a second
    wait of its own, which made it wait twice as long)."""
    wait = 2.0
    path = tmp_path / "queued.sqlite"
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}")
    application = create_app(config | {"DATABASE_BUSY_SECONDS": wait}, str(tmp_path / "inst"))
    game = new_game(application.test_client(), profile=None)

    def write():
        return timed(
            lambda: application.test_client().post(
                f"/api/games/{game.id}/rounds",
                json=round_body(),
                headers={"X-Game-Key": game.key},
            )
        )

    answers: list = []
    with game_locked(f"sqlite:///{path}", game.id):
        first = threading.Thread(target=lambda: answers.append(write()))
        first.start()
        # Queued while the first waits, and let in (by its giving up) before its own wait ends.
        time.sleep(wait / 4)
        second = write()
        first.join()
    assert answers[0][0].status_code == 503 and second[0].status_code == 503
    assert second[1] < wait + 1.0, f"the second writer waited {second[1]:.2f} s"


@pytest.fixture
def server(tmp_path, fresh_database) -> Iterator[Server]:
    """`python -m scorekeeper.serve` on a database of its own, with the small wait."""
    env = {"DATABASE_BUSY_SECONDS": str(WAIT)}
    with Server(fresh_database("held"), tmp_path / "server.log", env) as running:
        yield running
    assert "Traceback" not in running.log(), running.log()


def write_calls(server: Server, game: dict):
    """A write to the game through the API, and the round form's post of what a table typed."""
    path = f"/api/games/{game['id']}/rounds"
    page = f"/games/{game['id']}/rounds/new"

    def api_write():
        with Client(server.port) as client:
            return client.send_json("POST", path, round_body(), {"X-Game-Key": game["key"]})

    def page_write():
        """The round form opened and posted back, as a tablet's browser does (its CSRF token
        with the session cookie that goes with it)."""
        cookie = f"gk_{game['id']}={game['key']}"
        with Client(server.port) as client:
            opened = client.request("GET", page, headers={"Cookie": cookie})
            session = "; ".join(c.split(";", 1)[0] for c in opened.cookies)
            form = dict(read_form(opened.body.decode()).fields) | TYPED
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"{cookie}; {session}",
            }
            return client.request("POST", page, urlencode(form).encode(), headers)

    return api_write, page_write


# What a table typed into the round form.
TYPED = {"out": "0", "cards_1": "K Q", "cards_2": "5", "cards_3": "JK"}


def healthz(server: Server):
    """`/healthz`, asked once the writes sent with it are waiting."""
    time.sleep(WAIT / 4)
    with Client(server.port) as client:
        return client.request("GET", "/healthz")


def started_game(server: Server) -> dict:
    status, game = request(server.port, "POST", "/api/games", {"players": NAMES})
    assert status == 201, game
    return game


def answered(call):
    """The answer of `call()`, the seconds it took and when it came."""
    answer, seconds = timed(call)
    return answer, seconds, time.monotonic()


def test_a_real_server_answers_503_in_time_and_healthz_at_once(server):
    """A locked game's writes (a page's and the API's) wait in the server's threads: each is
    answered 503 within the wait, and `/healthz` is answered while they still wait."""
    game = started_game(server)
    api_write, page_write = write_calls(server, game)
    calls = [api_write, api_write, page_write, page_write, lambda: healthz(server)]
    with game_locked(server.database_url, game["id"]):
        *writes, health = at_once([lambda call=call: answered(call) for call in calls])
    assert health[0].status == 200 and health[0].json() == {"ok": True, "last_backup": None}
    for answer, seconds, done in writes:
        assert answer.status == 503, answer.body[:300]
        assert int(answer.headers["retry-after"]) > 0
        assert seconds < BOUND, [(w[0].status, round(w[1], 2)) for w in writes]
        # /healthz did not wait for the lock: it was answered before any write gave up.
        assert health[2] < done
    for answer, _, _ in writes[2:]:
        assert "<td>K Q</td>" in answer.body.decode()
    assert request(server.port, "GET", f"/api/games/{game['id']}")[1]["rounds"] == []
    assert api_write().status == 201
    assert len(request(server.port, "GET", f"/api/games/{game['id']}")[1]["rounds"]) == 1


def test_every_thread_on_a_locked_game_keeps_healthz_waiting_at_most_the_wait(server):
    """Even with as many writes waiting as the server has threads, each thread is free again
    after the wait: `/healthz` waits for one at most that long, never for the lock's holder."""
    game = started_game(server)
    api_write, _ = write_calls(server, game)
    calls = [api_write] * SERVER_THREADS + [lambda: healthz(server)]
    with game_locked(server.database_url, game["id"]):
        *writes, health = at_once([lambda call=call: timed(call) for call in calls])
        # Answered while the lock's holder still holds it.
        assert health[0].status == 200
        assert health[1] < WAIT / 4 + BOUND
    assert all(answer.status == 503 for answer, _ in writes), writes


@postgres_only
def test_only_requests_are_bounded(held_app):
    """A page's and a write's statements are bounded; the commands (`import`, `backup`, `flask db
    upgrade`), which run in the app's context outside any request, are not: a large import is
    never cut off."""

    def bounds() -> tuple[str, str]:
        lock = db.session.execute(text("SHOW lock_timeout")).scalar()
        return lock, db.session.execute(text("SHOW statement_timeout")).scalar()

    with held_app.test_request_context("/api/games", method="POST"):
        assert bounds() == ("1s", "1s")
    with held_app.test_request_context("/games/"):
        assert bounds() == ("1s", "30s")
    with held_app.app_context():
        assert bounds() == ("0", "0")


@postgres_only
def test_a_second_process_migrating_waits_for_the_first_past_every_bound(held_app):
    """`flask db upgrade` (as every process runs on start) waits for another process's advisory
    lock as long as that one migrates, however small the request bounds are."""
    hold = 3 * WAIT
    held = threading.Event()

    def other_process_migrating():
        engine = create_engine(held_app.config["SQLALCHEMY_DATABASE_URI"], poolclass=NullPool)
        try:
            with engine.connect() as other, other.begin():
                other.execute(text("SELECT pg_advisory_xact_lock(7217001)"))
                held.set()
                time.sleep(hold)
        finally:
            engine.dispose()

    migrating = threading.Thread(target=other_process_migrating)
    migrating.start()
    held.wait(10)
    result, seconds = timed(lambda: held_app.test_cli_runner().invoke(args=["db", "upgrade"]))
    migrating.join()
    assert result.exit_code == 0, result.output
    assert seconds > hold - WAIT
