"""Edit keys: only a device holding a game's key changes it; every other device only watches."""

from __future__ import annotations

import hashlib
import io
import logging
import re
import secrets
from http.cookies import SimpleCookie

import flask
import pytest
import qrcode
import qrcode.image.svg
from itsdangerous import Signer

from scorekeeper import create_app
from scorekeeper.games import keys
from scorekeeper.games.models import Game, Round
from scorekeeper.platform.database import db
from tests.support.book import new_game, start
from tests.support.config import TEST_CONFIG
from tests.support.games import handed_key, held_key, keys_in
from tests.support.names import NAMES

ROUND = {"out": "Cat", "leftovers": {"Ann": "5", "Bob": "5", "Dan": "5"}}
NEEDS_KEY = "this game needs its edit key: send it in the X-Game-Key header"


def create(client, names=NAMES):
    """A game made through the API: its JSON (without the key) and its key."""
    game = new_game(client, names, profile=None)
    return game.data, game.key


def text(response) -> str:
    return response.get_data(as_text=True)


def count_rounds(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Round.id)))


def cookie_of(client, game_id):
    return held_key(client, game_id)


@pytest.fixture
def other(app):
    """Another tablet on the same Wi-Fi: same server, its own cookie jar, no keys."""
    return app.test_client()


# --- The key itself ---------------------------------------------------------------------------


def test_the_key_is_128_bits_and_only_its_hash_is_stored(client, app):
    game, key = create(client)
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", key)  # token_urlsafe(16): 128 random bits
    with app.app_context():
        stored = db.session.get(Game, game["id"]).key_hash
    assert stored == hashlib.sha256(key.encode()).hexdigest()
    with app.app_context():
        dump = "\n".join(
            repr(row)
            for table in db.metadata.sorted_tables
            for row in db.session.execute(table.select())
        )
    assert stored in dump and key not in dump


def test_the_key_is_in_the_201_answer_only(client):
    game, key = create(client)
    for path in (f"/api/games/{game['id']}", "/api/games"):
        answer = text(client.get(path))
        assert key not in answer
        assert '"key"' not in answer and "key_hash" not in answer
    assert "key" not in client.get(f"/api/games/{game['id']}").get_json()


def test_every_game_gets_its_own_key(client):
    assert len({create(client)[1] for _ in range(20)}) == 20


# --- The API ----------------------------------------------------------------------------------


def writes(game_id):
    """Every change the API offers on a game with one recorded round."""
    return [
        ("post", f"/api/games/{game_id}/rounds", ROUND),
        ("put", f"/api/games/{game_id}/rounds/1", {**ROUND, "out": "Ann", "version": 1}),
        ("delete", f"/api/games/{game_id}/rounds/1", None),
    ]


def send(client, method, path, body, key=None):
    headers = {} if key is None else {"X-Game-Key": key}
    return getattr(client, method)(path, json=body, headers=headers)


@pytest.mark.parametrize("index", range(3))
def test_a_write_without_the_key_is_401(client, index):
    game, key = create(client)
    assert send(client, *writes(game["id"])[0], key=key).status_code == 201
    before = client.get(f"/api/games/{game['id']}").get_json()
    response = send(client, *writes(game["id"])[index])
    assert response.status_code == 401
    assert response.get_json() == {"error": NEEDS_KEY}
    assert client.get(f"/api/games/{game['id']}").get_json() == before


@pytest.mark.parametrize("index", range(3))
@pytest.mark.parametrize(
    "wrong", ["x", "A" * 22, "a" * 5000, "ключ", "\u00ff" * 22, " ", "key\u0000"]
)
def test_a_write_with_a_wrong_key_is_403(client, index, wrong):
    game, key = create(client)
    assert send(client, *writes(game["id"])[0], key=key).status_code == 201
    before = client.get(f"/api/games/{game['id']}").get_json()
    headers = {"X-Game-Key": wrong.encode("utf-8").decode("latin-1")}
    method, path, body = writes(game["id"])[index]
    response = getattr(client, method)(path, json=body, headers=headers)
    assert response.status_code in (403, 401)  # a blank header counts as none
    assert "error" in response.get_json()
    assert client.get(f"/api/games/{game['id']}").get_json() == before


@pytest.mark.parametrize("index", range(3))
def test_game_a_key_opens_nothing_on_game_b(client, index):
    game_a, key_a = create(client)
    game_b, key_b = create(client, ["Eve", "Fay", "Gus", "Hal"])
    send(client, "post", f"/api/games/{game_b['id']}/rounds", {**ROUND, "out": None}, key=key_b)
    send(client, "post", f"/api/games/{game_b['id']}/rounds", _round_b(), key=key_b)
    before = client.get(f"/api/games/{game_b['id']}").get_json()
    method, path, body = [
        ("post", f"/api/games/{game_b['id']}/rounds", _round_b()),
        ("put", f"/api/games/{game_b['id']}/rounds/1", {**_round_b(), "version": 1}),
        ("delete", f"/api/games/{game_b['id']}/rounds/1", None),
    ][index]
    response = send(client, method, path, body, key=key_a)
    assert response.status_code == 403
    assert "not the edit key of game" in response.get_json()["error"]
    assert client.get(f"/api/games/{game_b['id']}").get_json() == before


def _round_b():
    return {"out": "Eve", "leftovers": {"Fay": "2", "Gus": "3", "Hal": "4"}}


def test_the_key_is_checked_before_the_body(client):
    game, _key = create(client)
    response = client.post(f"/api/games/{game['id']}/rounds", data="{oops", content_type="text")
    assert response.status_code == 401


def test_an_unknown_game_is_404_with_or_without_a_key(client):
    _game, key = create(client)
    for headers in ({}, {"X-Game-Key": key}):
        response = client.post("/api/games/999/rounds", json=ROUND, headers=headers)
        assert response.status_code == 404


def test_reads_need_no_key(client, other):
    game, key = create(client)
    send(client, "post", f"/api/games/{game['id']}/rounds", ROUND, key=key)
    assert other.get(f"/api/games/{game['id']}").status_code == 200
    assert other.get("/api/games").status_code == 200


def test_every_write_route_of_the_api_and_pages_needs_the_key(app, client, other):
    """A guard for routes added later: each one that changes a game refuses a device without it."""
    game_id = start(client)
    client.post(f"/games/{game_id}/rounds/new", data={"out": "0", **_cards(1, 2, 3)})
    checked = 0
    for rule in app.url_map.iter_rules():
        if "game_id" not in rule.arguments or rule.endpoint == "static":
            continue
        path = rule.rule.replace("<int:game_id>", str(game_id)).replace("<int:number>", "1")
        writing = rule.methods & {"POST", "PUT", "PATCH", "DELETE"}
        for method in sorted(writing):
            response = other.open(path, method=method, json={**ROUND, "version": 1, "number": 2})
            assert response.status_code in (401, 403), (method, path, response.status_code)
            checked += 1
        if rule.endpoint.startswith("rounds."):
            assert other.get(path).status_code == 403, path
    assert checked >= 6
    assert count_rounds(app) == 1


def _cards(*seats):
    return {f"cards_{seat}": "5" for seat in seats}


def test_a_game_from_before_keys_is_read_only_until_given_one(app, client, runner):
    game, _key = create(client)
    with app.app_context():
        db.session.get(Game, game["id"]).key_hash = None
        db.session.commit()
    response = send(client, "post", f"/api/games/{game['id']}/rounds", ROUND, key="anything")
    assert response.status_code == 403
    assert f"game-key {game['id']}" in response.get_json()["error"]
    assert "Spectator" in text(client.get(f"/games/{game['id']}"))

    result = runner.invoke(args=["game-key", str(game["id"])])
    assert result.exit_code == 0, result.output
    link = re.search(r"(/games/\d+/join\?key=)([A-Za-z0-9_-]{22})", result.output)
    new_key = link.group(2)
    assert (
        send(client, "post", f"/api/games/{game['id']}/rounds", ROUND, key=new_key).status_code
        == 201
    )
    # The link it prints works on a tablet.
    tablet = app.test_client()
    assert tablet.get(link.group(0)).status_code == 303
    assert "Record round 2" in text(tablet.get(f"/games/{game['id']}"))


def test_a_new_key_replaces_the_old_one(client, runner):
    game, old = create(client)
    result = runner.invoke(args=["game-key", str(game["id"])])
    new = re.search(r"key=([A-Za-z0-9_-]{22})", result.output).group(1)
    assert (
        send(client, "post", f"/api/games/{game['id']}/rounds", ROUND, key=old).status_code == 403
    )
    assert (
        send(client, "post", f"/api/games/{game['id']}/rounds", ROUND, key=new).status_code == 201
    )


@pytest.mark.parametrize("game_id", ["42", "99999999999999999999999"])
def test_game_key_for_an_unknown_game(runner, game_id):
    result = runner.invoke(args=["game-key", game_id])
    assert result.exit_code == 1
    assert f"game {game_id} does not exist" in result.output


# --- The pages --------------------------------------------------------------------------------


def test_starting_a_game_gives_this_browser_its_key(client, app):
    data = {f"names-{i}": name for i, name in enumerate(NAMES)}
    response = client.post("/games/new", data={**data, "profile": "liverpool", "first_dealer": "0"})
    game_id = int(response.location.rsplit("/", 1)[1])
    [header] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(keys.COOKIE)]
    cookie = SimpleCookie(header)[keys.COOKIE]
    assert keys_in(cookie.value) == {game_id: keys_in(cookie.value)[game_id]}
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["path"] == "/"
    assert int(cookie["max-age"]) >= 365 * 24 * 60 * 60
    with app.app_context():
        assert keys.matches(db.session.get(Game, game_id).key_hash, keys_in(cookie.value)[game_id])


def test_the_editor_sees_the_buttons_and_the_edit_link(client):
    game_id = start(client)
    client.post(f"/games/{game_id}/rounds/new", data={"out": "0", **_cards(1, 2, 3)})
    response = client.get(f"/games/{game_id}")
    page = text(response)
    assert "Record round 2" in page
    assert "Correct round 1" in page
    assert "Undo round 1" in page
    assert "Spectator" not in page
    assert "Let another tablet edit" in page
    key = cookie_of(client, game_id)
    assert f'href="/games/{game_id}/join?key={key}"' in page
    assert f'src="/games/{game_id}/edit-link.svg"' in page
    assert response.headers["Cache-Control"] == "no-store"


def test_another_tablet_only_watches(client, other, app):
    game_id = start(client)
    client.post(f"/games/{game_id}/rounds/new", data={"out": "0", **_cards(1, 2, 3)})
    page = text(other.get(f"/games/{game_id}"))
    assert "Spectator — ask the table's tablet for the edit link" in page
    assert "Round 2 of 7" in page  # the game itself is all there
    assert re.search(r'<tr data-round="1">', page)
    for absent in (
        "Record round",
        "Correct round",
        "Undo round",
        "/rounds/",
        "join?key",
        "edit-link",
    ):
        assert absent not in page
    assert cookie_of(client, game_id) not in page


@pytest.mark.parametrize(
    ("method", "path", "data"),
    [
        ("get", "/rounds/new", None),
        ("post", "/rounds/new", {"out": "1", "round_number": "2", **_cards(0, 2, 3)}),
        ("get", "/rounds/1/edit", None),
        ("post", "/rounds/1/edit", {"out": "1", "version": "1", **_cards(0, 2, 3)}),
        ("get", "/rounds/1/undo", None),
        ("post", "/rounds/1/undo", {"version": "1"}),
    ],
)
def test_round_pages_refuse_a_spectator_with_a_clear_page(client, other, app, method, path, data):
    game_id = start(client)
    client.post(f"/games/{game_id}/rounds/new", data={"out": "0", **_cards(1, 2, 3)})
    before = client.get(f"/api/games/{game_id}").get_json()
    response = getattr(other, method)(f"/games/{game_id}{path}", data=data)
    assert response.status_code == 403
    page = text(response)
    assert "This tablet can only watch this game" in page
    assert "Let another tablet edit" in page
    assert "Nothing was changed" in page
    assert count_rounds(app) == 1
    assert client.get(f"/api/games/{game_id}").get_json() == before


def test_the_join_link_hands_the_key_over_and_leaves_no_trace(client, other, app):
    game_id = start(client)
    key = cookie_of(client, game_id)
    response = other.get(f"/games/{game_id}/join?key={key}")
    assert response.status_code == 303
    assert response.location == f"/games/{game_id}"  # no key in the address that stays
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["Cache-Control"] == "no-store"
    assert cookie_of(other, game_id) == key
    page = text(other.get(response.location))
    assert "This tablet can now record and correct this game." in page
    assert "Record round 1" in page
    saved = other.post(f"/games/{game_id}/rounds/new", data={"out": "0", **_cards(1, 2, 3)})
    assert saved.status_code == 302
    assert count_rounds(app) == 1


@pytest.mark.parametrize("wrong", ["", "nope", "A" * 22, "x" * 3000, "%00", "ключ"])
def test_a_wrong_join_link_sets_nothing(client, other, wrong):
    game_id = start(client)
    response = other.get(f"/games/{game_id}/join", query_string={"key": wrong})
    assert response.status_code == 403
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "This edit link does not work" in text(response)
    assert handed_key(response.headers.getlist("Set-Cookie")) is None
    assert cookie_of(other, game_id) is None
    assert "Spectator" in text(other.get(f"/games/{game_id}"))


def test_game_a_key_opens_nothing_on_game_b_in_the_browser(client, other):
    game_a = start(client)
    game_b = start(client, ["Eve", "Fay", "Gus", "Hal"])
    key_a = cookie_of(client, game_a)
    assert other.get(f"/games/{game_b}/join?key={key_a}").status_code == 403
    # Even a cookie forged under B's name with A's key (of the older kind, one per game).
    other.set_cookie(f"gk_{game_b}", key_a)
    assert "Spectator" in text(other.get(f"/games/{game_b}"))
    assert other.get(f"/games/{game_b}/rounds/new").status_code == 403


def test_join_of_an_unknown_game_is_404(client):
    assert client.get("/games/999/join?key=abc").status_code == 404


def test_the_qr_code_is_the_edit_link_as_svg(client, other):
    game_id = start(client)
    key = cookie_of(client, game_id)
    response = client.get(f"/games/{game_id}/edit-link.svg")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("image/svg+xml")
    assert response.headers["Cache-Control"] == "no-store"
    svg = text(response)
    assert "<svg" in svg and "<path" in svg
    assert not re.search(r"\sstyle\s*=|<style|<script|\son[a-z]+\s*=", svg)
    expected = qrcode.make(
        f"http://localhost/games/{game_id}/join?key={key}",
        image_factory=qrcode.image.svg.SvgPathImage,
        border=2,
    )
    buffer = io.BytesIO()
    expected.save(buffer)
    assert svg == buffer.getvalue().decode()
    assert other.get(f"/games/{game_id}/edit-link.svg").status_code == 403


@pytest.mark.parametrize("who", ["editor", "spectator"])
def test_no_inline_script_or_style_on_the_trust_pages(client, other, who):
    game_id = start(client)
    browser = client if who == "editor" else other
    pages = [text(browser.get(f"/games/{game_id}"))]
    if who == "spectator":
        pages.append(text(other.get(f"/games/{game_id}/rounds/new")))
        pages.append(text(other.get(f"/games/{game_id}/join?key=wrong")))
    for page in pages:
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
        assert not re.search(r"\son[a-z]+\s*=", page)
        assert not re.search(r"\sstyle\s*=", page)
        assert "http://" not in page and "https://" not in page


def test_the_key_never_reaches_the_logs(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.INFO, logger="sqlalchemy.engine")  # every statement and its values
    application = create_app(dict(TEST_CONFIG), instance_path=str(tmp_path / "instance"))
    client = application.test_client()
    game, key = create(client)
    send(client, "post", f"/api/games/{game['id']}/rounds", ROUND, key=key)
    send(client, "put", f"/api/games/{game['id']}/rounds/1", {**ROUND, "version": 1}, key=key)
    send(client, "post", f"/api/games/{game['id']}/rounds", ROUND, key=key + "x")
    tablet = application.test_client()
    tablet.get(f"/games/{game['id']}/join?key={key}")
    tablet.get(f"/games/{game['id']}/join?key={key[:-1]}")
    tablet.get(f"/games/{game['id']}")
    tablet.get(f"/games/{game['id']}/edit-link.svg")
    assert caplog.records  # something was logged (the SQL at DEBUG), and none of it holds the key
    for record in caplog.records:
        assert key not in record.getMessage()
        assert key[:-1] not in record.getMessage()


def test_the_edit_link_warns_when_the_page_is_open_as_localhost(client):
    game_id = start(client)
    assert "only this machine reaches" in text(client.get(f"/games/{game_id}"))
    client.set_cookie(keys.COOKIE, client.get_cookie(keys.COOKIE).value, domain="192.168.1.5")
    lan = text(client.get(f"/games/{game_id}", base_url="http://192.168.1.5:5000"))
    assert "only this machine reaches" not in lan
    assert "Let another tablet edit" in lan
    qr = client.get(f"/games/{game_id}/edit-link.svg", base_url="http://192.168.1.5:5000")
    assert qr.status_code == 200  # the code then holds the address the tablets use


# --- One cookie for all the games a tablet edits -------------------------------------------


def cookie_header(client) -> str:
    """The Cookie header this browser sends with its next request."""
    with client:
        client.get("/healthz")
        return flask.request.headers.get("Cookie", "")


def cookie_names(header: str) -> list[str]:
    """The names of the cookies in a Cookie header."""
    return [part.split("=", 1)[0].strip() for part in header.split(";") if part.strip()]


def test_a_tablet_that_started_456_games_sends_one_bounded_cookie(client, app):
    """A browser that started 456 games, one cookie each, a 14.8 KB Cookie header. Its
    older cookies are folded into the one cookie the next time it is given a key, and from then
    on the header stays under the budget however many games it starts."""
    legacy = {game_id: secrets.token_urlsafe(16) for game_id in range(1000, 1456)}
    for game_id, key in legacy.items():
        client.set_cookie(f"gk_{game_id}", key)
    assert len(cookie_header(client)) > 14_000
    started = [start(client) for _ in range(160)]
    header = cookie_header(client)
    assert len(client.get_cookie(keys.COOKIE).value) <= keys.COOKIE_BUDGET
    assert len(header) < 4096  # the session's cookie included: far under any server's limit
    # Every older cookie deleted: by name, since a signed value may hold "gk_" by chance.
    assert not [name for name in cookie_names(header) if name.startswith("gk_")]
    newest = keys_in(client.get_cookie(keys.COOKIE).value)
    assert list(newest)[:5] == started[::-1][:5]  # the newest games' keys kept, newest first
    assert set(started[-100:]) <= set(newest)
    # The oldest game fell out: this tablet watches it now, and its edit link gives it back.
    first = started[0]
    assert first not in newest
    assert "Spectator" in text(client.get(f"/games/{first}"))
    with app.app_context():
        key = keys.rekey(first)
    assert client.get(f"/games/{first}/join?key={key}").status_code == 303
    assert "Record round 1" in text(client.get(f"/games/{first}"))
    assert list(keys_in(client.get_cookie(keys.COOKIE).value))[0] == first


def test_a_per_game_cookie_of_before_still_opens_its_game_and_is_folded_in(client, other):
    game_id = start(client)
    key = cookie_of(client, game_id)
    other.set_cookie(f"gk_{game_id}", key)  # as the tablet kept it before one cookie held all
    assert "Record round 1" in text(other.get(f"/games/{game_id}"))
    assert other.get(f"/games/{game_id}/rounds/new").status_code == 200
    assert "resume-title" in text(other.get("/"))  # and it is offered to resume
    second = start(other)  # the next key given folds it into the one cookie
    assert other.get_cookie(f"gk_{game_id}") is None
    assert keys_in(other.get_cookie(keys.COOKIE).value) == {
        second: cookie_of(other, second),
        game_id: key,
    }
    assert "Record round 1" in text(other.get(f"/games/{game_id}"))


@pytest.mark.parametrize("signed_by", [None, "another-servers-secret-key-0123456789abcdef"])
def test_a_key_cookie_not_signed_here_holds_no_key(client, other, signed_by):
    """A cookie written by hand or signed by another server gives nothing, even holding the real
    key: only this server's cookies are read."""
    game_id = start(client)
    payload = f"{game_id}:{cookie_of(client, game_id)}"
    if signed_by is None:
        forged = payload + ".notasignature"
    else:
        signer = Signer(signed_by, salt="scorekeeper game keys", digest_method=hashlib.sha256)
        forged = signer.sign(payload).decode()
    other.set_cookie(keys.COOKIE, forged)
    assert "Spectator" in text(other.get(f"/games/{game_id}"))
    assert other.get(f"/games/{game_id}/rounds/new").status_code == 403
    assert "resume-title" not in text(other.get("/"))


def test_the_key_cookie_is_secure_on_https_under_a_name_plain_http_cannot_take(app):
    form = {**{f"names-{i}": n for i, n in enumerate(NAMES)}, "first_dealer": "0"}
    secure = app.test_client()
    answer = secure.post("/games/new", data=form, base_url="https://scores.lan:5443")
    [line] = [h for h in answer.headers.getlist("Set-Cookie") if keys.COOKIE in h]
    assert line.startswith(f"__Host-{keys.COOKIE}=")
    assert "; Secure" in line and "Path=/" in line and "Domain" not in line
    game_id = handed_key([line])[0]
    page = secure.get(f"/games/{game_id}", base_url="https://scores.lan:5443")
    assert "Record round 1" in text(page)
    plain = app.test_client()
    answer = plain.post("/games/new", data=form)
    [line] = [h for h in answer.headers.getlist("Set-Cookie") if keys.COOKIE in h]
    assert line.startswith(f"{keys.COOKIE}=") and "Secure" not in line
