"""A club's Redis (`REDIS_URL`): the limits are counted there and a refused form's page is kept
there for every app process; without the setting each process keeps its own, as always; and
Redis stopping mid-evening stops nothing (each process counts apart again) while `/healthz`
says so. These apps share one process; tests/web/test_shared_servers.py runs real ones.
"""

from __future__ import annotations

import pytest
from flask_babel import force_locale
from flask_limiter._extension import RequestLimit
from limits.errors import StorageError

from scorekeeper.platform import shared
from tests.support.apps import app_on
from tests.support.games import FlaskSender, create_game, record
from tests.support.names import NAMES
from tests.support.organisers import HASH, PASSWORD
from tests.support.server import LOOPBACK, free_port

# A new game with two players of the same name: refused, its form shown again (303 to itself).
TWO_ANNS = {"names-0": "Ann", "names-1": "ann", "profile": "liverpool", "first_dealer": "1"}
SECRET = "one key for every process of the club"


def club_apps(url: str, tmp_path, count: int, **config):
    """`count` apps on one database with one secret key, as a club's processes (their test
    clients post as a browser does, without following a redirect)."""
    return [
        app_on(url, tmp_path, f"process-{n}", UPGRADE_ON_START=n == 0, SECRET_KEY=SECRET, **config)
        for n in range(count)
    ]


def new(app) -> int:
    return app.test_client().post("/api/games", json={"players": NAMES}).status_code


def test_without_redis_nothing_is_shared_and_the_health_check_is_as_before(app, client):
    assert app.config["REDIS_URL"] is None
    assert app.extensions[shared.EXTENSION] is None
    assert shared.limits_storage(app) == ("memory://", {})
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.get_json() == {"ok": True, "last_backup": None}


@pytest.mark.parametrize(
    "value", ["http://scores:hunter2@redis.example:6379", "hunter2", "memcached://localhost:11211"]
)
def test_a_redis_url_of_another_kind_is_refused_at_start_without_repeating_it(app_with, value):
    with force_locale("en"), pytest.raises(ValueError) as refused:
        app_with(REDIS_URL=value)
    assert "REDIS_URL" in str(refused.value)
    assert "hunter2" not in str(refused.value) and value not in str(refused.value)


def test_the_limits_storage_comes_from_redis_url_unless_another_store_is_named(app_with):
    unix = app_with(REDIS_URL="unix:///run/redis/redis.sock?db=2")
    assert shared.limits_storage(unix)[0] == "redis+unix:///run/redis/redis.sock?db=2"
    tls = app_with(REDIS_URL="rediss://:pw@redis.example:6380/1")
    assert shared.limits_storage(tls)[0] == "rediss://:pw@redis.example:6380/1"
    own = app_with(REDIS_URL="redis://localhost:6379/0", RATELIMIT_STORAGE_URI="redis://b:6379/3")
    assert shared.limits_storage(own) == ("redis://b:6379/3", {})


def test_the_limits_are_counted_in_redis_for_every_process_that_shares_it(
    fresh_database, tmp_path, redis_server
):
    """Two processes without Redis count apart (tests/web/test_ratelimits.py); with it, the
    second refuses what the first has already used up."""
    first, second = club_apps(
        fresh_database("club"),
        tmp_path,
        2,
        REDIS_URL=redis_server.url,
        RATELIMIT_NEW_GAMES="3 per day",
    )
    assert [new(first), new(second), new(first)] == [201, 201, 201]
    assert [new(second), new(first)] == [429, 429]
    assert any(key.startswith(b"LIMITS:") for key in redis_server.client().scan_iter())


@pytest.mark.parametrize("with_redis", [True, False], ids=["redis", "no redis"])
def test_a_refused_forms_page_is_shown_by_whichever_process_the_redirect_reaches(
    request, fresh_database, tmp_path, with_redis
):
    """The proxy may send the GET after a refused post's 303 to another process: with Redis
    that process shows the page the post drew, what was typed and what to fix; without it, it
    draws the form afresh (and the page's script offers the entries back from its draft)."""
    config = {"REDIS_URL": request.getfixturevalue("redis_server").url} if with_redis else {}
    posting, showing = club_apps(fresh_database("forms"), tmp_path, 2, **config)
    tablet = posting.test_client()
    posted = tablet.post("/games/new", data=TWO_ANNS)
    assert posted.status_code == 303 and posted.location == "/games/new"
    other = showing.test_client()
    other.set_cookie("session", tablet.get_cookie("session").value)
    page = other.get("/games/new").get_data(as_text=True)
    assert ('value="ann"' in page) is with_redis
    assert ("already at the table" in page) is with_redis
    # Once: a reload draws the form afresh, on either process.
    again = other.get("/games/new").get_data(as_text=True)
    assert 'value="ann"' not in again


def test_redis_stopped_mid_evening_the_app_keeps_scoring_and_says_so(
    fresh_database, tmp_path, redis_server
):
    (app,) = club_apps(fresh_database("evening"), tmp_path, 1, REDIS_URL=redis_server.url)
    app.config["RATELIMIT_NEW_GAMES"] = "3 per day"
    client = app.test_client()
    book = FlaskSender(client)
    game = create_game(book, NAMES)
    record(book, game, NAMES[0])
    assert client.get("/healthz").get_json() == {"ok": True, "last_backup": None, "redis": "ok"}

    redis_server.stop()
    record(book, game, NAMES[1])  # the round is saved
    assert len(client.get(f"/api/games/{game.id}").get_json()["rounds"]) == 2
    health = client.get("/healthz")
    assert health.status_code == 200
    assert health.get_json() == {"ok": True, "last_backup": None, "redis": "unreachable"}
    # A refused form's page is kept in this process instead.
    posted = client.post("/games/new", data=TWO_ANNS)
    assert posted.status_code == 303
    assert 'value="ann"' in client.get("/games/new").get_data(as_text=True)
    # The limits hold in this process's own memory, counted afresh (the refused form was one):
    # neither open nor closed.
    assert [new(app) for _ in range(3)] == [201, 201, 429]

    redis_server.start()
    assert client.get("/healthz").get_json() == {"ok": True, "last_backup": None, "redis": "ok"}
    record(book, game, NAMES[2])


def test_wrong_organiser_passwords_are_counted_once_for_every_process(
    fresh_database, tmp_path, redis_server
):
    first, second = club_apps(
        fresh_database("organisers"),
        tmp_path,
        2,
        REDIS_URL=redis_server.url,
        ORGANISER_PASSWORD=HASH,
        RATELIMIT_ORGANISER_SIGN_INS="3 per day",
    )

    def sign_in(app, password: str) -> int:
        return app.test_client().post("/organiser/sign-in", data={"password": password}).status_code

    assert sign_in(first, PASSWORD) == 303  # a right one is never counted
    assert [sign_in(app, "a guess") for app in (first, second, first)] == [200, 200, 200]
    assert [sign_in(second, "a guess"), sign_in(first, PASSWORD)] == [429, 429]


def test_a_count_that_fails_after_the_answer_is_logged_never_a_500(
    fresh_database, tmp_path, redis_server, caplog
):
    """A wrong edit link is counted once its 403 is made: Redis stopping in that moment leaves
    the 403 as it is, and the next wrong links are counted in the process's memory."""
    (app,) = club_apps(
        fresh_database("moment"),
        tmp_path,
        1,
        REDIS_URL=redis_server.url,
        RATELIMIT_BAD_EDIT_LINKS="2 per day",
    )
    stopping = []

    @app.after_request
    def stop_redis(response):  # runs before Flask-Limiter's own hook, which counts the 403
        if stopping:
            redis_server.stop()
        return response

    game = create_game(FlaskSender(app.test_client()), NAMES)
    guess = app.test_client()
    assert guess.get(f"/games/{game.id}/join?key=first-guess").status_code == 403
    stopping.append(True)
    assert guess.get(f"/games/{game.id}/join?key=second-guess").status_code == 403
    stopping.clear()
    assert "Failed to deduct rate limit" in caplog.text
    tries = [guess.get(f"/games/{game.id}/join?key=guess-{n}").status_code for n in range(3)]
    assert tries == [403, 403, 429]


def test_a_refusal_whose_wait_cannot_be_read_quotes_the_whole_window(
    fresh_database, tmp_path, redis_server, monkeypatch
):
    (app,) = club_apps(
        fresh_database("wait"),
        tmp_path,
        1,
        REDIS_URL=redis_server.url,
        RATELIMIT_NEW_GAMES="1 per day",
    )
    assert new(app) == 201

    def unreadable(self):
        raise StorageError(ConnectionError("Redis went away"))

    monkeypatch.setattr(RequestLimit, "window", property(unreadable))
    refused = app.test_client().post("/api/games", json={"players": NAMES})
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "86400"


def test_a_process_started_while_redis_is_away_serves_and_says_so(fresh_database, tmp_path):
    (app,) = club_apps(
        fresh_database("away"), tmp_path, 1, REDIS_URL=f"redis://{LOOPBACK}:{free_port()}/0"
    )
    client = app.test_client()
    assert client.get("/healthz").get_json() == {
        "ok": True,
        "last_backup": None,
        "redis": "unreachable",
    }
    book = FlaskSender(client)
    record(book, create_game(book, NAMES), NAMES[0])
