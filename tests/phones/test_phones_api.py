"""Hands sent by phone, through the JSON API: the tablet opens a round, phones take seats and
send their hands, the tablet sees each seat and saves the round as always; and a seat token
can do nothing but send its own seat's hand for its own round."""

from __future__ import annotations

import pytest

from tests.support.book import new_game, record
from tests.support.names import NAMES

TOKEN = "X-Seat-Token"


def open_round(client, game, number=1, **headers):
    return client.post(
        f"/api/games/{game.id}/rounds/{number}/open", headers={**game.write_headers, **headers}
    )


def join(client, code, seat, token=None, **extra):
    headers = {TOKEN: token} if token else {}
    return client.post(f"/api/join/{code}", json={"seat": seat, **extra}, headers=headers)


def send(client, code, token, **hand):
    return client.put(f"/api/join/{code}/hand", json=hand, headers={TOKEN: token})


def hands(client, game, number=1):
    return client.get(f"/api/games/{game.id}/rounds/{number}/hands", headers=game.write_headers)


@pytest.fixture
def game(client):
    return new_game(client)


@pytest.fixture
def code(client, game):
    answer = open_round(client, game)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["code"]


def seated(client, code, name):
    answer = join(client, code, name)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["token"]


def test_opening_a_round_gives_a_code_and_its_address(client, game):
    answer = open_round(client, game)
    assert answer.status_code == 201
    body = answer.get_json()
    assert len(body["code"]) == 4 and body["code"].isupper()
    assert body["url"] == f"http://localhost/join/{body['code']}"
    assert body["open"] is True and body["round"] == 1
    assert [(seat["name"], seat["state"]) for seat in body["seats"]] == [
        (name, "waiting") for name in NAMES
    ]
    again = open_round(client, game)  # the tablet asks again: the same code, nothing new
    assert again.status_code == 200 and again.get_json()["code"] == body["code"]


def test_only_the_round_to_play_opens_and_only_with_the_key(client, game):
    assert open_round(client, game, 2).status_code == 409
    assert open_round(client, game, 9).status_code == 400
    assert client.post(f"/api/games/{game.id}/rounds/1/open").status_code == 401
    wrong = client.post(f"/api/games/{game.id}/rounds/1/open", headers={"X-Game-Key": "x" * 22})
    assert wrong.status_code == 403


def test_four_phones_send_and_the_tablet_saves_exactly_their_hands(client, game, code):
    tokens = {name: seated(client, code.lower(), name) for name in NAMES}  # any case reads
    assert send(client, code, tokens["Ann"], cards="K Q 5").status_code == 200
    assert send(client, code, tokens["Bob"], points=25).status_code == 200
    assert send(client, code, tokens["Cat"], out=True).status_code == 200
    sent = send(client, code, tokens["Dan"], cards=["JK", "3♣"])
    assert sent.get_json()["message"] == "Sent: 18 — the scorekeeper's tablet has it"
    states = {seat["name"]: seat for seat in hands(client, game).get_json()["seats"]}
    assert {name: (s["state"], s["hand"], s["penalty"]) for name, s in states.items()} == {
        "Ann": ("received", {"cards": "5 Q K"}, 25),
        "Bob": ("received", {"points": 25}, 25),
        "Cat": ("received", {"out": True}, 0),
        "Dan": ("received", {"cards": "3♣ JK"}, 18),
    }
    saved = client.post(
        game.rounds_path,
        json={
            "out": "Cat",
            "leftovers": {"Ann": states["Ann"]["hand"]["cards"], "Dan": "3♣ JK"},
            "points": {"Bob": 25},
        },
        headers=game.write_headers,
    )
    assert saved.status_code == 201
    assert saved.get_json()["penalties"] == {"Ann": 25, "Bob": 25, "Cat": 0, "Dan": 18}
    # The round is in the ledger: the code is over, and a late phone is told what it holds.
    late = send(client, code, tokens["Ann"], cards="K")
    assert late.status_code == 409
    assert late.get_json()["error"] == (
        "round 1 is already in the ledger: Ann 5 Q K = 25; nothing was changed"
    )
    assert join(client, code, "Ann").status_code == 404
    assert hands(client, game).get_json()["open"] is False


def test_the_same_hand_sent_twice_is_kept_once(client, game, code):
    token = seated(client, code, "Ann")
    for _ in range(2):
        assert send(client, code, token, cards="K Q").status_code == 200
    assert hands(client, game).get_json()["seats"][0]["sends"] == 1
    key = {"Idempotency-Key": "ann-hand-1"}
    first = client.put(f"/api/join/{code}/hand", json={"cards": "7"}, headers={TOKEN: token, **key})
    repeat = client.put(
        f"/api/join/{code}/hand", json={"cards": "7"}, headers={TOKEN: token, **key}
    )
    assert repeat.headers["Idempotent-Replayed"] == "true"
    assert repeat.get_json() == first.get_json()
    assert hands(client, game).get_json()["seats"][0]["sends"] == 2


def test_a_taken_seat_is_refused_until_the_tablet_releases_it(client, game, code):
    token = seated(client, code, "Bob")
    taken = join(client, code, "bob")
    assert taken.status_code == 409
    assert taken.get_json()["error"].startswith(
        "Are you Bob? Bob's hand is already being entered on another phone"
    )
    assert join(client, code, "Bob", token).status_code == 201  # the same phone again
    released = client.delete(f"/api/games/{game.id}/rounds/1/hands/Bob", headers=game.write_headers)
    assert released.get_json()["seats"][1]["state"] == "waiting"
    assert send(client, code, token, cards="K").status_code == 404
    assert join(client, code, "Bob").status_code == 201


def test_a_seat_token_cannot_record_correct_undo_or_send_for_another_seat(client, game, code):
    token = seated(client, code, "Ann")
    as_key = {"X-Game-Key": token}
    entry = {"out": "Ann", "leftovers": {"Bob": "5", "Cat": "5", "Dan": "5"}}
    assert client.post(game.rounds_path, json=entry, headers=as_key).status_code == 403
    record(client, game, "Ann")
    assert (
        client.put(
            f"{game.rounds_path}/1", json={**entry, "version": 1}, headers=as_key
        ).status_code
        == 403
    )
    assert client.delete(f"{game.rounds_path}/1", headers=as_key).status_code == 403
    assert client.post(f"/api/games/{game.id}/rounds/2/open", headers=as_key).status_code == 403
    assert client.get(f"/api/games/{game.id}/rounds/2/hands", headers=as_key).status_code == 403
    assert (
        client.post(f"/api/games/{game.id}/end", json={"after": 1}, headers=as_key).status_code
        == 403
    )


def test_a_token_is_for_its_own_round_and_code(client, game, code):
    token = seated(client, code, "Ann")
    other = new_game(client, ["Eve", "Fay", "Gus", "Hal"])
    other_code = open_round(client, other).get_json()["code"]
    assert send(client, other_code, token, cards="K").status_code == 404
    wrong_round = send(client, code, token, cards="K", round=2)
    assert wrong_round.status_code == 409
    assert (
        "this phone is on round 2, but the code is for round 1" in wrong_round.get_json()["error"]
    )
    # Closed by the tablet: the token stops working, and saying so names no other game.
    closed = client.delete(f"/api/games/{game.id}/rounds/1/open", headers=game.write_headers)
    assert closed.get_json()["closed"] is True
    refused = send(client, code, token, cards="K")
    assert refused.status_code == 409
    assert "no longer open to phones" in refused.get_json()["error"]


def test_a_phone_reads_only_its_own_seat(client, game, code):
    ann = seated(client, code, "Ann")
    bob = seated(client, code, "Bob")
    send(client, code, bob, cards="K K")
    mine = client.get(f"/api/join/{code}/hand", headers={TOKEN: ann}).get_json()
    assert mine["seat"] == "Ann" and mine["hand"] is None and mine["open"] is True
    assert "K" not in repr({k: v for k, v in mine.items() if k != "contract"})
    assert set(mine) == {
        "game",
        "round",
        "contract",
        "cards_dealt",
        "seat",
        "open",
        "hand",
        "penalty",
        "sent_at",
    }
    assert client.get(f"/api/join/{code}/hand").status_code == 404  # no token: no round


@pytest.mark.parametrize("code", ["ZZZZ", "ACD", "0000", "ACDE-F", "é" * 4, "x" * 500])
def test_a_wrong_code_reveals_nothing(client, game, code):
    open_round(client, game)
    answer = join(client, code, "Ann")
    assert answer.status_code == 404
    assert set(answer.get_json()) == {"error"}
    assert (
        "Ann" not in answer.get_json()["error"] and str(game.id) not in answer.get_json()["error"]
    )


def test_every_problem_of_a_hand_is_named(client, game, code):
    token = seated(client, code, "Ann")
    for body, said in [
        ({}, "give one of 'cards'"),
        ({"cards": "K", "points": 5}, "not 'cards' and 'points'"),
        ({"cards": "K", "colour": "red"}, "unknown field 'colour'"),
        ({"cards": "K X"}, "X"),
        ({"cards": ""}, "no cards given"),
        ({"cards": "JK JK JK JK JK JK JK"}, "joker"),
        ({"points": -3}, "-3 points cannot be"),
        ({"points": True}, "whole number"),
        ({"out": False}, "'out' must be true"),
        ({"cards": 5}, "'cards' must be text"),
    ]:
        answer = send(client, code, token, **body)
        assert answer.status_code == 400, body
        assert said in answer.get_json()["error"], (body, answer.get_json())
    assert hands(client, game).get_json()["seats"][0]["state"] == "joined"


def test_a_round_undone_after_saving_is_not_reopened_by_its_old_code(client, game, code):
    token = seated(client, code, "Ann")
    record(client, game, "Ann")
    client.delete(f"{game.rounds_path}/1", headers=game.write_headers)
    assert send(client, code, token, cards="K").status_code == 409
    fresh = open_round(client, game)
    assert fresh.status_code == 201  # a new opening: the old one is over
    assert fresh.get_json()["seats"][0]["state"] == "waiting"


def test_join_attempts_are_limited_per_address(app, client, game, code, still_clock):
    app.config["RATELIMIT_JOINS"] = "3 per minute"
    for attempt in range(3):
        assert join(client, "ZZZZ" if attempt else code, "Ann").status_code in (201, 404)
    limited = join(client, code, "Bob")
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    assert "tries at a round's code" in limited.get_json()["error"]
