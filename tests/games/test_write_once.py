"""Every write happens once: a page's one-time token, the API's Idempotency-Key."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from scorekeeper.games.models import Game, Round, RoundChange
from scorekeeper.platform import writeonce
from scorekeeper.platform.database import db, utcnow
from scorekeeper.platform.writeonce import WriteOnce
from tests.support.book import new_game as book_game
from tests.support.book import play_rounds
from tests.support.games import Game as Started
from tests.support.games import handed_key
from tests.support.names import NAMES
from tests.support.server import Server, at_once, integrity, request

ROUND = {"out": "Ann", "leftovers": {"Bob": "K", "Cat": "5", "Dan": "9"}}


def counts(app) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(
            db.session.scalar(db.select(db.func.count(model.id)))
            for model in (Game, Round, RoundChange)
        )


def token_of(page: str) -> str:
    match = re.search(r'name="write_token" type="hidden" value="([^"]+)"', page)
    assert match, "the form carries no one-time token"
    return match.group(1)


def flashed(client) -> list[str]:
    with client.session_transaction() as session:
        return [message for _category, message in session.get("_flashes", [])]


def new_game_form(client) -> dict[str, str]:
    token = token_of(client.get("/games/new").get_data(as_text=True))
    data = {f"names-{seat}": name for seat, name in enumerate(NAMES)}
    return data | {"profile": "liverpool", "first_dealer": "0", "write_token": token}


def round_form(client, game_id: int) -> dict[str, str]:
    token = token_of(client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True))
    return {"out": "0", "cards_1": "K", "cards_2": "5", "cards_3": "9"} | {
        "round_number": "1",
        "write_token": token,
    }


# --- Pages ---------------------------------------------------------------------------------


def test_start_the_game_twice_starts_one_game_and_both_answers_hold_its_key(client, app):
    data = new_game_form(client)
    first = client.post("/games/new", data=data)
    assert flashed(client) == ["Game started: Ann deals round 1."]
    client.get(first.location)  # the flash is shown once
    second = client.post("/games/new", data=data)
    assert counts(app)[0] == 1
    assert (first.status_code, second.status_code) == (302, 302)
    assert first.location == second.location
    assert flashed(client) == ["Game started: Ann deals round 1."]
    game_id = int(first.location.rsplit("/", 1)[1])
    handed = [handed_key(r.headers.getlist("Set-Cookie")) for r in (first, second)]
    assert handed[0] == handed[1] and handed[0][0] == game_id
    keys = [key for _, key in handed]
    # The key is kept sealed, never in clear.
    with app.app_context():
        kept = db.session.scalars(db.select(WriteOnce)).one()
        assert keys[0] not in repr(vars(kept))
        assert kept.key_hash != data["write_token"]


def test_save_round_twice_saves_once_and_says_saved(client, app):
    game_id = int(client.post("/games/new", data=new_game_form(client)).location.rsplit("/", 1)[1])
    data = round_form(client, game_id)
    first = client.post(f"/games/{game_id}/rounds/new", data=data)
    client.get(first.location)
    second = client.post(f"/games/{game_id}/rounds/new", data=data)
    assert second.status_code == 302 and second.location == first.location
    assert flashed(client) == ["Round 1 saved."]
    assert counts(app) == (1, 1, 0)
    page = client.get(second.location).get_data(as_text=True)
    assert "Round 1 saved." in page and "meanwhile" not in page


def post_twice(client, path: str, data: dict[str, str], message: str) -> None:
    """Post the same form twice: both answers go to the game saying what the first one did."""
    for _ in range(2):
        answer = client.post(path, data=data)
        assert answer.status_code == 302
        assert flashed(client) == [message]
        client.get(answer.location)


def test_correct_and_undo_twice_change_once(client, app):
    game_id = int(client.post("/games/new", data=new_game_form(client)).location.rsplit("/", 1)[1])
    client.post(f"/games/{game_id}/rounds/new", data=round_form(client, game_id))
    client.post(
        f"/games/{game_id}/rounds/new",
        data=round_form(client, game_id)
        | {"round_number": "2", "out": "1", "cards_0": "A", "cards_1": ""},
    )
    assert counts(app)[1] == 2
    edit = client.get(f"/games/{game_id}/rounds/2/edit").get_data(as_text=True)
    data = {"out": "1", "cards_0": "K", "cards_2": "5", "cards_3": "9", "round_number": "2"}
    data |= {"version": "1", "write_token": token_of(edit)}
    post_twice(client, f"/games/{game_id}/rounds/2/edit", data, "Round 2 corrected.")
    assert counts(app) == (1, 2, 1)
    undo = client.get(f"/games/{game_id}/rounds/2/undo").get_data(as_text=True)
    data = {"version": "2", "write_token": token_of(undo)}
    undone = "Round 2 undone: it is kept in the history below."
    post_twice(client, f"/games/{game_id}/rounds/2/undo", data, undone)
    # Round 1 is still there: the second tap undid nothing more.
    assert counts(app) == (1, 1, 2)


def test_a_refused_post_leaves_its_token_unused(client, app):
    game_id = int(client.post("/games/new", data=new_game_form(client)).location.rsplit("/", 1)[1])
    data = round_form(client, game_id)
    refused = client.post(f"/games/{game_id}/rounds/new", data=data | {"cards_1": "Z"})
    assert refused.status_code == 200 and data["write_token"] in refused.get_data(as_text=True)
    assert counts(app)[1] == 0
    assert client.post(f"/games/{game_id}/rounds/new", data=data).status_code == 302
    assert counts(app)[1] == 1


def test_the_token_is_written_in_the_writes_own_transaction(client, app, monkeypatch):
    """A write that fails after its token was added leaves neither the round nor the token."""
    game_id = int(client.post("/games/new", data=new_game_form(client)).location.rsplit("/", 1)[1])
    data = round_form(client, game_id)
    real_keep = writeonce.keep

    def keep_then_crash(*args, **kwargs):
        real_keep(*args, **kwargs)
        raise RuntimeError("the power went out")

    monkeypatch.setattr(writeonce, "keep", keep_then_crash)
    with pytest.raises(RuntimeError):
        client.post(f"/games/{game_id}/rounds/new", data=data)
    monkeypatch.setattr(writeonce, "keep", real_keep)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(WriteOnce.id))) == 1  # the game's
    assert counts(app)[1] == 0
    assert client.post(f"/games/{game_id}/rounds/new", data=data).status_code == 302
    assert counts(app)[1] == 1


# --- The API -------------------------------------------------------------------------------


def api_game(client, key: str | None = None):
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(
        "/api/games", json={"players": NAMES, "first_dealer": "Ann"}, headers=headers
    )


def test_a_repeated_new_game_answers_the_same_game_without_its_key(client, app):
    first, second = api_game(client, "start-1"), api_game(client, "start-1")
    assert (first.status_code, second.status_code) == (201, 201)
    assert "key" in first.get_json() and "key" not in second.get_json()
    assert second.get_json() == {k: v for k, v in first.get_json().items() if k != "key"}
    assert second.headers["Location"] == first.headers["Location"]
    assert second.headers["Idempotent-Replayed"] == "true"
    assert counts(app)[0] == 1
    assert api_game(client, "start-2").get_json()["id"] != first.get_json()["id"]


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("POST", "/rounds", ROUND),
        (
            "PUT",
            "/rounds/1",
            ROUND | {"out": "Bob", "leftovers": {"Ann": "3", "Cat": "5", "Dan": "9"}, "version": 1},
        ),
        ("DELETE", "/rounds/1", {"version": 1}),
    ],
)
def test_every_write_with_a_key_happens_once(client, app, method, path, body):
    game = api_game(client).get_json()
    headers = {"X-Game-Key": game["key"]}
    base = f"/api/games/{game['id']}"
    if method != "POST":
        assert client.post(base + "/rounds", json=ROUND, headers=headers).status_code == 201
    before = counts(app)
    answers = [
        client.open(
            base + path, method=method, json=body, headers=headers | {"Idempotency-Key": "k-1"}
        )
        for _ in range(3)
    ]
    assert len({(a.status_code, a.get_data()) for a in answers}) == 1, [
        a.get_json() for a in answers
    ]
    assert answers[0].status_code in (200, 201)
    assert [a.headers.get("Idempotent-Replayed") for a in answers] == [None, "true", "true"]
    changed = tuple(after - was for after, was in zip(counts(app), before, strict=True))
    assert changed == {"POST": (0, 1, 0), "PUT": (0, 0, 1), "DELETE": (0, -1, 1)}[method]
    # The same key with another body is refused, and changes nothing.
    other = client.open(
        base + path,
        method=method,
        json=body | {"cut_exact": True},
        headers=headers | {"Idempotency-Key": "k-1"},
    )
    assert other.status_code == 422 and "another request" in other.get_json()["error"]
    assert tuple(after - was for after, was in zip(counts(app), before, strict=True)) == changed


def test_keys_are_scoped_to_the_game_and_need_the_edit_key(client, app):
    one, two = api_game(client).get_json(), api_game(client).get_json()
    for game in (one, two):
        answer = client.post(
            f"/api/games/{game['id']}/rounds",
            json=ROUND,
            headers={"X-Game-Key": game["key"], "Idempotency-Key": "same"},
        )
        assert answer.status_code == 201
    assert counts(app)[1] == 2
    # A repeat without the game's key learns nothing.
    answer = client.post(
        f"/api/games/{one['id']}/rounds", json=ROUND, headers={"Idempotency-Key": "same"}
    )
    assert answer.status_code == 401


@pytest.mark.parametrize("key", ["", " ", "\u00e9", "x" * 256, "a b"])
def test_a_malformed_key_is_refused(client, app, key):
    answer = client.post("/api/games", json={"players": NAMES}, headers={"Idempotency-Key": key})
    assert answer.status_code == 400
    assert "Idempotency-Key" in answer.get_json()["error"]
    assert counts(app)[0] == 0


def test_a_refused_write_leaves_its_key_unused(client, app):
    game = api_game(client).get_json()
    headers = {"X-Game-Key": game["key"], "Idempotency-Key": "retry-me"}
    path = f"/api/games/{game['id']}/rounds"
    bad = client.post(path, json=ROUND | {"leftovers": {"Bob": "Z"}}, headers=headers)
    assert bad.status_code == 400
    assert client.post(path, json=ROUND, headers=headers).status_code == 201


def test_keys_are_kept_a_day_and_purged_after(client, app):
    game = api_game(client).get_json()
    headers = {"X-Game-Key": game["key"]}
    path = f"/api/games/{game['id']}/rounds"
    client.post(path, json=ROUND, headers=headers | {"Idempotency-Key": "old"})
    client.post(path, json=ROUND, headers=headers | {"Idempotency-Key": "day-old"})
    with app.app_context():
        rows = {row.key_hash: row for row in db.session.scalars(db.select(WriteOnce))}
        old = writeonce.Once("api game 1", "old", "").key_hash
        day_old = writeonce.Once("api game 1", "day-old", "").key_hash
        rows[old].created_at = utcnow() - timedelta(hours=26)
        rows[day_old].created_at = utcnow() - timedelta(hours=24)
        db.session.commit()
    # Still kept after 24 hours: the repeat changes nothing.
    again = client.post(path, json=ROUND, headers=headers | {"Idempotency-Key": "day-old"})
    assert again.headers["Idempotent-Replayed"] == "true"
    assert counts(app)[1] == 2
    client.post(path, json=ROUND, headers=headers | {"Idempotency-Key": "new"})
    with app.app_context():
        kept = set(db.session.scalars(db.select(WriteOnce.key_hash)))
    assert old not in kept and day_old in kept


# --- Two processes ---------------------------------------------------------------------------


@pytest.mark.slow
def test_twins_through_two_processes_write_once(tmp_path, fresh_database):
    url = fresh_database("twins")
    pair = [Server(url, tmp_path / f"server-{n}.log") for n in (1, 2)]
    for server in pair:
        server.start()
    try:
        body = {"players": NAMES, "first_dealer": "Ann"}
        for attempt in range(5):
            answers = at_once(
                [
                    lambda port=server.port, n=attempt: _post(port, "/api/games", body, f"game-{n}")
                    for server in pair
                ]
            )
            assert [status for status, _ in answers] == [201, 201], answers
            assert answers[0][1]["id"] == answers[1][1]["id"]
            game_id = answers[0][1]["id"]
            key = next(data["key"] for _, data in answers if "key" in data)
            answers = at_once(
                [
                    lambda port=server.port, path=f"/api/games/{game_id}/rounds", key=key: _post(
                        port, path, ROUND, "round-1", key
                    )
                    for server in pair
                ]
            )
            assert [status for status, _ in answers] == [201, 201], answers
            assert answers[0][1] == answers[1][1]
        status, games = request(pair[0].port, "GET", "/api/games")
        assert len(games["games"]) == 5
        assert all(game["round"] == 2 for game in games["games"])
        assert integrity(url) == "ok"
    finally:
        for server in pair:
            server.stop()
            assert "Traceback" not in server.log(), server.log()


def _post(
    port: int,
    path: str,
    body,
    idempotency_key: str,
    game_key: str | None = None,
    method: str = "POST",
):
    import http.client
    import json

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Content-Type": "application/json", "Idempotency-Key": idempotency_key}
        if game_key:
            headers["X-Game-Key"] = game_key
        data = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read()
        return response.status, json.loads(text) if text else None
    finally:
        connection.close()


@pytest.mark.slow
def test_rematch_and_delete_twins_through_two_processes_act_once(tmp_path, fresh_database):
    """The same Idempotency-Key through two processes at once: one new game for a rematch,
    and 204 to both DELETEs of a game, whichever process found it gone."""
    url = fresh_database("twins")
    pair = [Server(url, tmp_path / f"server-{n}.log") for n in (1, 2)]
    for server in pair:
        server.start()
    try:
        port = pair[0].port
        status, game = request(port, "POST", "/api/games", {"players": NAMES})
        assert status == 201
        for number in range(1, 8):
            path = f"/api/games/{game['id']}/rounds"
            assert request(port, "POST", path, ROUND, key=game["key"])[0] == 201, number

        def twins(method: str, path: str, key: str, game_key: str):
            return at_once(
                [
                    lambda port=server.port: _post(port, path, None, key, game_key, method)
                    for server in pair
                ]
            )

        for attempt in range(4):
            path = f"/api/games/{game['id']}/rematch"
            answers = twins("POST", path, f"again-{attempt}", game["key"])
            assert [status for status, _ in answers] == [201, 201], answers
            assert answers[0][1]["id"] == answers[1][1]["id"]
            assert sum("key" in data for _, data in answers) == 1
            status, gone = request(port, "POST", "/api/games", {"players": NAMES})
            answers = twins("DELETE", f"/api/games/{gone['id']}", f"bye-{attempt}", gone["key"])
            assert answers == [(204, None), (204, None)]
        status, games = request(port, "GET", "/api/games")
        assert games["total"] == 1 + 4  # the first game and one rematch per attempt
        assert integrity(url) == "ok"
    finally:
        for server in pair:
            server.stop()
            assert "Traceback" not in server.log(), server.log()


def test_a_form_aimed_at_another_round_gets_a_new_token(client, app):
    """Another device recorded round 1 meanwhile: the form, now for round 2, is a new change."""
    game_id = int(client.post("/games/new", data=new_game_form(client)).location.rsplit("/", 1)[1])
    stale = round_form(client, game_id)
    client.post(f"/games/{game_id}/rounds/new", data=round_form(client, game_id))
    page = client.post(f"/games/{game_id}/rounds/new", data=stale).get_data(as_text=True)
    assert "which is already in the ledger: nothing was saved from it" in page
    fresh = token_of(page)
    assert fresh != stale["write_token"]
    saved = client.post(
        f"/games/{game_id}/rounds/new", data=stale | {"round_number": "2", "write_token": fresh}
    )
    assert saved.status_code == 302 and flashed(client) == ["Round 2 saved."]
    assert counts(app)[1] == 2


# --- Play again, archive, restore, delete -----------------------------------------------------


def finished_game(client) -> Started:
    game = book_game(client)
    play_rounds(client, game)
    return game


def test_a_repeated_api_rematch_starts_one_game(client, app):
    game = finished_game(client)
    headers = game.headers | {"Idempotency-Key": "again-1"}
    first = client.post(f"/api/games/{game.id}/rematch", headers=headers)
    second = client.post(f"/api/games/{game.id}/rematch", headers=headers)
    assert (first.status_code, second.status_code) == (201, 201)
    assert counts(app)[0] == 2
    assert second.get_json() == {k: v for k, v in first.get_json().items() if k != "key"}
    assert "key" in first.get_json()
    assert second.headers["Location"] == first.headers["Location"]
    assert second.headers["Idempotent-Replayed"] == "true"
    third = client.post(f"/api/games/{game.id}/rematch", headers=game.headers)
    assert third.status_code == 201 and counts(app)[0] == 3  # a new key, a new game


def test_a_double_post_of_play_again_starts_one_game_and_both_answers_hold_its_key(client, app):
    game = finished_game(client)
    client.set_cookie(f"gk_{game.id}", game.key)
    page = client.get(f"/games/{game.id}/rematch").get_data(as_text=True)
    data = {"write_token": token_of(page)}
    answers = [client.post(f"/games/{game.id}/rematch", data=data) for _ in range(2)]
    assert counts(app)[0] == 2
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].location == answers[1].location
    new_id = int(answers[0].location.rsplit("/", 1)[1])
    handed = [handed_key(a.headers.getlist("Set-Cookie")) for a in answers]
    assert handed[0] == handed[1] and handed[0][0] == new_id
    held = [key for _, key in handed]
    assert flashed(client) == ["New game with the same table: Bob deals round 1."] * 2
    with app.app_context():
        kept = db.session.scalars(db.select(WriteOnce)).one()
        assert held[0] not in repr(vars(kept))  # kept sealed, never in clear
    shown = client.get(f"/games/{new_id}").get_data(as_text=True)
    assert "Record round 1" in shown  # the second answer's cookie opens the new game too


def test_a_repeated_delete_answers_204_again_and_deletes_nothing_more(client, app):
    kept, gone = book_game(client), book_game(client)
    headers = gone.headers | {"Idempotency-Key": "bye"}
    answers = [client.delete(f"/api/games/{gone.id}", headers=headers) for _ in range(2)]
    assert [a.status_code for a in answers] == [204, 204]
    assert [a.get_data() for a in answers] == [b"", b""]
    assert answers[1].headers["Idempotent-Replayed"] == "true"
    assert counts(app)[0] == 1
    assert client.get(f"/api/games/{kept.id}").status_code == 200
    # The first answer goes only to a repeat holding the key of the game it deleted.
    for key in ("not-the-key", kept.key):
        other = client.delete(
            f"/api/games/{gone.id}", headers={"X-Game-Key": key, "Idempotency-Key": "bye"}
        )
        assert other.status_code == 404
    assert client.delete(f"/api/games/{gone.id}", headers=gone.headers).status_code == 404


def test_a_repeated_archive_or_restore_gets_the_first_answer(client, app):
    game = book_game(client)
    path = f"/api/games/{game.id}/archive"
    archived = client.post(path, headers=game.headers | {"Idempotency-Key": "tidy"})
    assert archived.status_code == 200 and archived.get_json()["archived_at"]
    restored = client.delete(path, headers=game.headers | {"Idempotency-Key": "untidy"})
    assert restored.status_code == 200 and restored.get_json()["archived_at"] is None
    # Each repeat answers what its first did, and changes nothing: the game stays restored.
    again = client.post(path, headers=game.headers | {"Idempotency-Key": "tidy"})
    assert (again.status_code, again.get_json()) == (200, archived.get_json())
    assert again.headers["Idempotent-Replayed"] == "true"
    assert client.get(f"/api/games/{game.id}").get_json()["archived_at"] is None
    client.post(path, headers=game.headers)
    again = client.delete(path, headers=game.headers | {"Idempotency-Key": "untidy"})
    assert (again.status_code, again.get_json()) == (200, restored.get_json())
    assert client.get(f"/api/games/{game.id}").get_json()["archived_at"] is not None


def test_a_key_sent_again_with_another_request_is_refused(client, app):
    first = client.post("/api/games", json={"players": NAMES}, headers={"Idempotency-Key": "mine"})
    assert first.status_code == 201
    other = client.post(
        "/api/games", json={"players": NAMES[:3]}, headers={"Idempotency-Key": "mine"}
    )
    assert other.status_code == 422 and "another request" in other.get_json()["error"]
    game = first.get_json()
    headers = {"X-Game-Key": game["key"], "Idempotency-Key": "mine"}
    assert client.post(f"/api/games/{game['id']}/archive", headers=headers).status_code == 200
    # The same key on another route of the game is another request.
    again = client.delete(f"/api/games/{game['id']}/archive", headers=headers)
    assert again.status_code == 422
    assert client.get(f"/api/games/{game['id']}").get_json()["archived_at"] is not None
    assert counts(app)[0] == 1


@pytest.mark.parametrize(
    ("action", "message", "archived"),
    [
        ("archive", "Game archived: it no longer shows in the games lists.", True),
        ("restore", "Game restored to the games lists.", False),
        ("delete", "Game deleted.", None),
    ],
)
def test_a_confirm_page_posted_twice_acts_once_and_says_what_it_did(
    client, app, action, message, archived
):
    game = book_game(client)
    other = book_game(client)
    client.set_cookie(f"gk_{game.id}", game.key)
    if action == "restore":
        client.post(f"/api/games/{game.id}/archive", headers=game.headers)
    page = client.get(f"/games/{game.id}/{action}").get_data(as_text=True)
    data = {"write_token": token_of(page)}
    answers = []
    for _ in range(2):
        answers.append(client.post(f"/games/{game.id}/{action}", data=data))
        assert flashed(client) == [message]
        client.get(answers[-1].location)
    assert [a.status_code for a in answers] == [303, 303]
    assert answers[0].location == answers[1].location
    state = client.get(f"/api/games/{game.id}")
    if archived is None:
        assert state.status_code == 404 and counts(app)[0] == 1
    else:
        assert (state.get_json()["archived_at"] is not None) == archived
        with app.app_context():
            assert db.session.scalar(db.select(db.func.count(WriteOnce.id))) == 1
    assert client.get(f"/api/games/{other.id}").status_code == 200
