"""Limits per client address: a family's evening never meets them; a flood is answered 429 with
`Retry-After`, as JSON under /api/ and as a page elsewhere; a repeat of a write already done
still gets its first answer, and a refused post spends nothing.

Every other test runs with the limits raised (`tests.support.config.RAISED_LIMITS`); these use
the real ones, as a served score book has them.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from flask_babel import force_locale, gettext
from limits import parse

from scorekeeper.games.models import Game as GameRow
from scorekeeper.platform import limits, settings
from scorekeeper.platform.database import db
from scorekeeper.platform.writeonce import WriteOnce
from tests.support.apps import app_on
from tests.support.book import new_game, play_rounds
from tests.support.config import RAISED_LIMITS, TEST_CONFIG
from tests.support.games import Game, held_key
from tests.support.names import NAMES
from tests.support.organisers import HASH, PASSWORD
from tests.support.saved import smith_document

REAL_LIMITS = {name: settings.default(name) for name in RAISED_LIMITS}
NEW_GAMES = 60  # the first of RATELIMIT_NEW_GAMES's limits: "60 per hour"
WRONG_LINKS = 20
IMPORTS = 30
JOINS = 20  # tries at a round's code from phones, a minute
WRONG_PASSWORDS = 10  # wrong organiser passwords, an hour


@pytest.fixture(autouse=True)
def real_limits(monkeypatch, still_clock):
    """The limits as served, for every app these tests make, counted on a clock held still."""
    for name, value in REAL_LIMITS.items():
        monkeypatch.setitem(TEST_CONFIG, name, value)


def test_the_counts_here_are_the_declared_limits():
    assert {
        "RATELIMIT_NEW_GAMES": f"{NEW_GAMES} per hour; 300 per day",
        "RATELIMIT_IMPORTS": f"{IMPORTS} per hour",
        "RATELIMIT_BAD_EDIT_LINKS": f"{WRONG_LINKS} per hour",
        "RATELIMIT_JOINS": f"{JOINS} per minute",
        "RATELIMIT_ORGANISER_SIGN_INS": f"{WRONG_PASSWORDS} per hour",
    } == REAL_LIMITS
    assert settings.default("RATELIMIT_STORAGE_URI") == "memory://"


def token_of(page: str) -> str:
    match = re.search(r'name="write_token" type="hidden" value="([^"]+)"', page)
    assert match, "the form carries no one-time token"
    return match.group(1)


def new_game_form(client) -> dict[str, str]:
    """The new-game page's form as the tablet posts it, with its one-time token."""
    token = token_of(client.get("/games/new").get_data(as_text=True))
    seats = {f"names-{seat}": name for seat, name in enumerate(NAMES)}
    return seats | {"profile": "liverpool", "first_dealer": "0", "write_token": token}


def start_on_the_page(client) -> int:
    answer = client.post("/games/new", data=new_game_form(client))
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return int(answer.location.rsplit("/", 1)[1])


def finish(client, game_id: int) -> None:
    """Play every deal of a game this tablet started, through the API with its key."""
    data = client.get(f"/api/games/{game_id}").get_json()
    play_rounds(client, Game(game_id, data["players"], held_key(client, game_id), data=data))


def play_again_on_the_page(client, game_id: int) -> int:
    page = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    answer = client.post(f"/games/{game_id}/rematch", data={"write_token": token_of(page)})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return int(answer.location.rsplit("/", 1)[1])


def join(client, game_id: int, key: str):
    return client.get(f"/games/{game_id}/join", query_string={"key": key})


def test_a_familys_evening_never_meets_a_limit(app, client):
    """Everything one table does in an evening, from one address (three more tablets joining
    through the same router): 12 games, 6 started on the page and 6 by Play again, a false
    start deleted, a double tap, each game joined by the other three tablets, two edit links
    typed wrong, the family's rule set opened from a file and saved, and a script's game by API.
    It is made here in a burst, which no limit over a window can count as less than the same
    evening spread over hours."""
    others = [app.test_client() for _ in range(3)]
    games = []
    false_start = start_on_the_page(client)
    page = client.get(f"/games/{false_start}/delete").get_data(as_text=True)
    assert (
        client.post(
            f"/games/{false_start}/delete", data={"write_token": token_of(page)}
        ).status_code
        == 303
    )
    form = new_game_form(client)
    first = client.post("/games/new", data=form)
    assert client.post("/games/new", data=form).location == first.location  # the double tap
    games.append(int(first.location.rsplit("/", 1)[1]))
    for number in range(11):
        previous = games[-1]
        finish(client, previous)
        games.append(
            play_again_on_the_page(client, previous) if number % 2 else start_on_the_page(client)
        )
    for game_id in games:
        key = held_key(client, game_id)
        for other in others:
            assert join(other, game_id, key).status_code == 303
    assert [join(others[0], games[0], "typo").status_code for _ in range(2)] == [403, 403]
    upload = client.post(
        "/rulesets/upload",
        data={"file": (io.BytesIO(json.dumps(smith_document()).encode()), "smith.json")},
        content_type="multipart/form-data",
    )
    assert upload.status_code == 303
    shared = client.get(upload.location).get_data(as_text=True)
    saved = client.post(
        upload.location, data={"name": "Smith family", "write_token": token_of(shared)}
    )
    assert saved.status_code == 303
    assert client.post("/api/games", json={"players": NAMES}).status_code == 201
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(GameRow.id))) == 13


def test_the_game_past_the_limit_is_refused_on_the_page_and_by_the_api(client):
    """One limit for every way to start a game: half the games by API, half by the page, and the
    next one is refused both ways, with how long to wait."""
    for _ in range(NEW_GAMES // 2):
        assert client.post("/api/games", json={"players": NAMES}).status_code == 201
    for _ in range(NEW_GAMES // 2):
        start_on_the_page(client)
    api = client.post("/api/games", json={"players": NAMES})
    assert api.status_code == 429
    assert api.is_json and set(api.get_json()) == {"error", "retry_after"}
    wait = int(api.headers["Retry-After"])
    assert 0 < wait <= 3600 and api.get_json()["retry_after"] == wait
    assert "too many games started from this address" in api.get_json()["error"]
    form = new_game_form(client)
    page = client.post("/games/new", data=form)
    assert page.status_code == 429
    assert 0 < int(page.headers["Retry-After"]) <= 3600
    assert page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    assert "<h1>Too many at once</h1>" in html
    assert "Too many games started from this address" in html
    # What was typed is kept, ready to send again once the wait is over.
    assert 'action="/games/new"' in html and "Try again" in html
    for name in NAMES:
        assert f'value="{name}"' in html


def test_a_repeat_at_the_limit_gets_its_first_answer_and_a_refusal_spends_no_token(app, client):
    """The limit is looked at after the write-once check: a double tap of a game already started
    lands on that game (with its key), never on 429; and a post refused for the limit wrote
    nothing, so its token still starts its game once the limit allows."""
    form = new_game_form(client)
    first = client.post("/games/new", data=form)
    api_headers = {"Idempotency-Key": "the-script's-first-game"}
    api_first = client.post("/api/games", json={"players": NAMES}, headers=api_headers)
    for _ in range(NEW_GAMES - 2):
        assert client.post("/api/games", json={"players": NAMES}).status_code == 201
    assert client.post("/api/games", json={"players": NAMES}).status_code == 429
    again = client.post("/games/new", data=form)
    assert (again.status_code, again.location) == (302, first.location)
    assert "game_keys=" in again.headers["Set-Cookie"]
    api_again = client.post("/api/games", json={"players": NAMES}, headers=api_headers)
    assert api_again.status_code == 201
    assert api_again.headers["Idempotent-Replayed"] == "true"
    assert api_again.get_json()["id"] == api_first.get_json()["id"]
    refused_form = new_game_form(client)
    assert client.post("/games/new", data=refused_form).status_code == 429
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(WriteOnce.id))) == 2  # the two above
        made = db.session.scalar(db.select(db.func.count(GameRow.id)))
    app.config["RATELIMIT_NEW_GAMES"] = "1000 per hour"  # the wait is over
    retried = client.post("/games/new", data=refused_form)
    assert retried.status_code == 302 and retried.location != first.location
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(GameRow.id))) == made + 1


def test_play_again_counts_as_a_game_started(app, client):
    game = new_game(client)
    play_rounds(client, game)
    for _ in range(NEW_GAMES - 1):
        assert client.post("/api/games", json={"players": NAMES}).status_code == 201
    refused = client.post(f"/api/games/{game.id}/rematch", headers=game.headers)
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    client.set_cookie(f"gk_{game.id}", game.key)
    page = client.get(f"/games/{game.id}/rematch").get_data(as_text=True)
    assert (
        client.post(f"/games/{game.id}/rematch", data={"write_token": token_of(page)}).status_code
        == 429
    )


def test_wrong_edit_links_are_limited_and_right_ones_never(app, client):
    """Guessing keys is refused after 20 wrong links an hour; a tablet joining with the right
    link is not counted at all. The refusal's page holds no key and sends no Referer."""
    game = new_game(client)
    other = app.test_client()
    for _ in range(3 * WRONG_LINKS):
        assert join(other, game.id, game.key).status_code == 303
    for number in range(WRONG_LINKS):
        assert join(other, game.id, f"guess-{number}").status_code == 403
    refused = join(other, game.id, "guess-last")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert refused.headers["Referrer-Policy"] == "no-referrer"
    assert "too many wrong edit links tried" in refused.get_data(as_text=True).lower()
    assert "guess-last" not in refused.get_data(as_text=True)
    # The table's own tablet, at another address, is not held up by the guesser.
    at_the_table = client.get(
        f"/games/{game.id}/join",
        query_string={"key": game.key},
        environ_base={"REMOTE_ADDR": "192.168.1.30"},
    )
    assert at_the_table.status_code == 303


def test_imports_are_limited_on_the_pages_and_the_api(client):
    """Opening rule sets from elsewhere (a file, a shared link's save, the API's save) is one
    limit: 30 an hour from one address."""
    for number in range(IMPORTS):
        body = {"rules": smith_document(f"Family {number}")}
        assert client.post("/api/rulesets", json=body).status_code == 201
    api = client.post("/api/rulesets", json={"rules": smith_document("One more")})
    assert api.status_code == 429 and api.get_json()["retry_after"] > 0
    upload = client.post(
        "/rulesets/upload",
        data={"file": (io.BytesIO(json.dumps(smith_document()).encode()), "smith.json")},
        content_type="multipart/form-data",
    )
    assert upload.status_code == 429
    assert "Attach again: smith.json" in upload.get_data(as_text=True)


def test_each_client_address_has_its_own_count_behind_a_trusted_proxy(fresh_database, tmp_path):
    app = app_on(
        fresh_database("proxy"),
        tmp_path,
        UPGRADE_ON_START=True,
        TRUSTED_PROXIES=1,
        RATELIMIT_NEW_GAMES="2 per hour",
    )
    client = app.test_client()

    def start_from(address: str) -> int:
        headers = {"X-Forwarded-For": address}
        return client.post("/api/games", json={"players": NAMES}, headers=headers).status_code

    assert [start_from("192.168.1.20") for _ in range(3)] == [201, 201, 429]
    assert [start_from("192.168.1.21") for _ in range(3)] == [201, 201, 429]


def test_each_app_counts_apart_and_the_switch_turns_limits_off(fresh_database, tmp_path):
    """Two apps in one process (as the tests make hundreds) never share a count; an app with
    `RATELIMIT_ENABLED` off counts nothing."""
    url = fresh_database("apart")
    first, second = (
        app_on(
            url, tmp_path, name, UPGRADE_ON_START=name == "first", RATELIMIT_NEW_GAMES="2 per hour"
        )
        for name in ("first", "second")
    )
    assert [new(first) for _ in range(3)] == [201, 201, 429]
    assert [new(second) for _ in range(3)] == [201, 201, 429]
    off = app_on(url, tmp_path, "off", RATELIMIT_ENABLED=False, RATELIMIT_NEW_GAMES="2 per hour")
    assert [new(off) for _ in range(3)] == [201, 201, 201]


def test_a_limit_on_every_request_is_still_applied_when_a_setting_gives_one(
    fresh_database, tmp_path
):
    """The score book counts its limits where its views call `limits.count`; Flask-Limiter's own
    setting for a limit on every request (`RATELIMIT_DEFAULT`), if an instance's config.py gives
    one, is still applied to every request, the referee's questions among them."""
    url = fresh_database("request-wide")
    plain = app_on(url, tmp_path, "plain", UPGRADE_ON_START=True)
    wide = app_on(url, tmp_path, "wide", RATELIMIT_DEFAULT="2 per minute")
    question = {"round": 1, "hand": "7♠ 7♥ 7♦ 9♠ 9♥ 9♦ 3♣ 4♣ 5♣ 8♦ A♥"}

    def asked(app) -> list[int]:
        client = app.test_client()
        return [client.post("/api/rules/solve", json=question).status_code for _ in range(3)]

    assert asked(plain) == [200, 200, 200]
    assert asked(wide) == [200, 200, 429]


def new(app) -> int:
    """Start a game by API from this app's test client: the answer's status."""
    return app.test_client().post("/api/games", json={"players": NAMES}).status_code


# --- Round codes --------------------------------------------------------------------------------

# Routes whose `<code>` is not a round's: a shared rule set's link carries the rule set itself.
NOT_ROUND_CODES = {"rulesets.shared"}
# The routes a phone joins by: a live code shows its seats there, as it must; everywhere else a
# phone without a seat of the round is answered as for a wrong code.
JOINING = {"phones.pick_seat", "phones.take_seat", "phones_api.join"}
# Codes no round is open under here, as long as the live ones (`codes.LENGTH`).
WRONG_CODES = ("XXXX", "YYYY")


def round_code_routes(app) -> list[tuple[str, str, str]]:
    """(endpoint, method, path with `{code}`) of every route that resolves a round's code."""
    routes = []
    for rule in app.url_map.iter_rules():
        if "code" not in rule.arguments or rule.endpoint in NOT_ROUND_CODES:
            continue
        assert rule.arguments == {"code"}, rule.rule
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            routes.append((rule.endpoint, method, rule.rule.replace("<code>", "{code}")))
    return routes


def try_code(client, method: str, path: str, address: str, **extra):
    """One try at a code from `address`, with a body that takes no seat: an unknown seat."""
    body = {"json": {"seat": "Nobody"}} if path.startswith("/api/") else {"data": {}}
    if method == "PUT":
        body = {"json": {"cards": "K"}}
    return client.open(
        path,
        method=method,
        environ_base={"REMOTE_ADDR": address},
        **(body if method != "GET" else {}),
        **extra,
    )


def open_code(client) -> str:
    game = new_game(client)
    opened = client.post(f"/api/games/{game.id}/rounds/1/open", headers=game.write_headers)
    assert opened.status_code == 201, opened.get_json()
    return opened.get_json()["code"]


def test_every_route_under_a_round_code_counts_a_phone_without_a_seat(app, client):
    """A guesser's tries are counted on every route that reads a round's code, pages and API,
    each method, live codes and wrong ones alike: 20 a minute from one address, then 429."""
    live = open_code(client)
    routes = round_code_routes(app)
    assert {path for _, _, path in routes} >= {
        "/join/{code}",
        "/join/{code}/hand",
        "/api/join/{code}",
        "/api/join/{code}/hand",
    }
    refused = {}
    for number, (endpoint, method, path) in enumerate(routes, start=10):
        guesser = app.test_client()
        address = f"192.168.7.{number}"
        answers = [
            try_code(guesser, method, path.format(code=(live, *WRONG_CODES)[n % 3]), address)
            for n in range(JOINS + 1)
        ]
        refused[endpoint, method] = [answer.status_code for answer in answers].count(429)
        assert answers[-1].status_code == 429, (endpoint, method)
    assert refused == {route: 1 for route in refused}


def test_a_burst_across_a_minutes_edge_is_weighted_by_what_is_left_of_the_last_minute(
    app, still_clock
):
    """The limits count a sliding window (`limits.STRATEGY`): the tries of the minute before
    count in proportion to what is left of that minute, rounded down. 10 tries in a minute's
    last second and 11 in the next minute's second second are 21 in two seconds, yet weigh
    10 × 59/60 + 10 = 19.8 before the 21st: it is let through, and the 22nd refused. This is
    why the other tests here count on a clock held still: a burst that crosses the edge by
    chance is counted as less than itself. Half a minute on, the last minute weighs half."""
    guesser = app.test_client()

    def tries(count: int) -> list[int]:
        return [
            try_code(guesser, "GET", "/join/XXXX", "192.168.9.1").status_code for _ in range(count)
        ]

    still_clock.now += 58  # the last second of the clock's first minute
    assert tries(JOINS // 2) == [404] * (JOINS // 2)
    still_clock.now += 2
    assert tries(JOINS // 2 + 2) == [404] * (JOINS // 2 + 1) + [429]
    still_clock.now += 29  # 30 s into the minute: 10 × 1/2 + 11 = 16 counted
    assert tries(5) == [404] * 4 + [429]


def test_a_seated_phone_is_never_counted_and_never_held_up_by_a_guesser(app, client):
    """Once seated, a phone's page, sends and retries are not tries at a code: a whole round of
    them, then its own address past the limit by guesses, and it still sends."""
    code = open_code(client)
    phone = app.test_client()
    address = {"REMOTE_ADDR": "192.168.7.2"}
    joined = phone.post(f"/api/join/{code}", json={"seat": "Ann"}, environ_base=address)
    seat = {"X-Seat-Token": joined.get_json()["token"]}
    for number in range(3 * JOINS):
        sent = phone.put(
            f"/api/join/{code}/hand",
            json={"points": 2 + number % 20},
            headers=seat,
            environ_base=address,
        )
        assert sent.status_code == 200, sent.get_json()
    guesses = [try_code(phone, "GET", "/join/XXXX/hand", "192.168.7.2") for _ in range(JOINS)]
    assert [answer.status_code for answer in guesses].count(429) == 1  # its join counted
    sent = phone.put(
        f"/api/join/{code}/hand", json={"out": True}, headers=seat, environ_base=address
    )
    assert sent.status_code == 200, sent.get_json()


def test_a_live_code_and_a_wrong_one_answer_alike_to_a_phone_without_a_seat(app, client):
    """Past the joining routes (which show a live code's seats, to be taken), a phone holding no
    seat of the round is answered exactly as for a code no round has: status, headers and body,
    but for the code itself."""
    live = open_code(client)
    other = open_code(client)
    elsewhere = client.post(f"/api/join/{other}", json={"seat": "Ann"}).get_json()["token"]
    compared = 0
    for number, (endpoint, method, path) in enumerate(round_code_routes(app), start=10):
        if endpoint in JOINING:
            continue
        address = f"192.168.8.{number}"
        for token in (None, elsewhere):
            headers = {"X-Seat-Token": token} if token else {}
            answers = []
            for code in (live, live.lower(), WRONG_CODES[0]):
                phone = app.test_client()
                if token:
                    phone.set_cookie("phone", token)
                answer = try_code(phone, method, path.format(code=code), address, headers=headers)
                text = answer.get_data(as_text=True).replace(code, "CODE")
                answers.append((answer.status_code, answer.content_type, text))
            assert answers[0][0] == 404, (endpoint, method, answers[0])
            assert answers[0] == answers[1] == answers[2], (endpoint, method)
            compared += 1
    assert compared >= 6  # the hand's page (GET, POST) and API (GET, PUT), each with and without


@pytest.mark.parametrize(
    "written", ["20/hour", "200 per day", "5 per 10 minutes", "3/second", "1/month", "2/year"]
)
def test_a_limit_is_quoted_as_written_in_english_and_through_the_catalog(app, written):
    item = parse(written)
    with app.test_request_context():
        assert limits.limit_in_words(item) == str(item)  # English as the limits library says it
        with force_locale("fi"):
            unit = item.GRANULARITY.name
            expected = gettext(
                f"%(amount)s per %(multiples)s {unit}",  # each unit has its own message
                amount=item.amount,
                multiples=item.multiples,
            )
            assert limits.limit_in_words(item) == expected


def test_wrong_organiser_passwords_stop_at_the_limit_and_right_ones_never_count(app_with):
    client = app_with(ORGANISER_PASSWORD=HASH).test_client()

    def sign_in(password: str):
        return client.post("/organiser/sign-in", data={"password": password})

    for _ in range(WRONG_PASSWORDS):
        assert sign_in(PASSWORD).status_code == 303
        assert sign_in("a guess").status_code == 200
    refused = sign_in(PASSWORD)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
