"""Two real server processes on one database: every kind of racing write has exactly one winner.

Each race sends two writes to one game at once, one through each process, each naming what it
expects (a new round its number, a correction or undo the version it read). Exactly one wins; the
other gets 409 (404 when the round it targets was undone meanwhile); never a 500 or 503, and the
ledger never has a gap. Runs on SQLite (one file, two processes) and on PostgreSQL.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from tests.support.names import NAMES
from tests.support.server import Client, at_once, integrity, request

# One process builds the shared fixture, once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("races")]

RACES = 30


def new_game(port: int) -> tuple[int, str]:
    status, data = request(port, "POST", "/api/games", {"players": NAMES, "first_dealer": "Ann"})
    assert status == 201, data
    return data["id"], data["key"]


def entry(out: str, card: str) -> dict[str, Any]:
    return {"out": out, "leftovers": {name: card for name in NAMES if name != out}}


def record_body(number: int, card: str = "5") -> dict[str, Any]:
    return {**entry(NAMES[number % 4], card), "number": number}


def record(port: int, game_id: int, key: str, number: int, card: str = "5"):
    return request(port, "POST", f"/api/games/{game_id}/rounds", record_body(number, card), key=key)


def ledger(port: int, game_id: int) -> list[dict]:
    status, state = request(port, "GET", f"/api/games/{game_id}")
    assert status == 200
    return state["rounds"]


def race(servers, key: str, first: tuple, second: tuple) -> list[tuple[int, Any]]:
    """Send `first` (method, path, body) through one process and `second` through the other,
    released together."""
    calls = [
        lambda port=server.port, call=call: request(port, *call, key=key)
        for server, call in zip(servers, (first, second), strict=True)
    ]
    return at_once(calls)


def one_winner(answers, ok: int, losers: set[int]) -> int:
    """The index of the one answer with status `ok`; every other answer is one of `losers`."""
    statuses = [status for status, _ in answers]
    assert statuses.count(ok) == 1, answers
    assert set(statuses) - {ok} <= losers, answers
    return statuses.index(ok)


def test_record_against_record(servers):
    port = servers[0].port
    for trial in range(RACES):
        number = trial % 7 + 1
        if number == 1:
            game_id, key = new_game(port)
        path = f"/api/games/{game_id}/rounds"
        answers = race(
            servers,
            key,
            ("POST", path, record_body(number, "7")),
            ("POST", path, record_body(number, "9")),
        )
        winner = one_winner(answers, 201, {409})
        loser = answers[1 - winner][1]
        assert f"round {number} was recorded meanwhile" in loser["error"]
        assert loser["round"] == answers[winner][1]
        assert [played["number"] for played in ledger(port, game_id)] == list(range(1, number + 1))
    assert integrity(servers[0].database_url) == "ok"


def test_correct_against_correct(servers):
    port = servers[0].port
    game_id, key = new_game(port)
    assert record(port, game_id, key, 1, "A")[0] == 201
    path = f"/api/games/{game_id}/rounds/1"
    version = 1
    for _ in range(RACES):
        answers = race(
            servers,
            key,
            ("PUT", path, {**entry("Bob", "7"), "version": version}),
            ("PUT", path, {**entry("Cat", "9"), "version": version}),
        )
        winner = one_winner(answers, 200, {409})
        assert answers[winner][1]["version"] == version + 1
        assert answers[1 - winner][1]["round"] == answers[winner][1]
        # The next race starts from what neither side enters, so each has a change to make.
        reset = request(port, "PUT", path, {**entry("Dan", "A"), "version": version + 1}, key=key)
        assert reset[0] == 200
        version += 2
        assert ledger(port, game_id)[0]["version"] == version
    assert integrity(servers[0].database_url) == "ok"


def game_at_round_two(port: int) -> tuple[int, str]:
    """A new game with rounds 1 and 2 recorded: round 2 is the latest, at version 1."""
    game_id, key = new_game(port)
    for number in (1, 2):
        assert record(port, game_id, key, number)[0] == 201
    return game_id, key


def test_undo_against_record(servers):
    port = servers[0].port
    for _ in range(RACES):
        game_id, key = game_at_round_two(port)
        path = f"/api/games/{game_id}/rounds"
        answers = race(
            servers, key, ("DELETE", f"{path}/2?version=1"), ("POST", path, record_body(3))
        )
        statuses = [status for status, _ in answers]
        assert statuses in ([200, 409], [409, 201]), answers
        numbers = [played["number"] for played in ledger(port, game_id)]
        if statuses[0] == 200:  # undone first: round 3 would leave a gap
            assert numbers == [1]
            assert "cannot be recorded yet" in answers[1][1]["error"]
        else:  # recorded first: round 2 is no longer the latest
            assert numbers == [1, 2, 3]
            assert "only the latest round" in answers[0][1]["error"]
    assert integrity(servers[0].database_url) == "ok"


def test_undo_against_correct(servers):
    port = servers[0].port
    for _ in range(RACES):
        game_id, key = game_at_round_two(port)
        path = f"/api/games/{game_id}/rounds/2"
        answers = race(
            servers,
            key,
            ("DELETE", f"{path}?version=1"),
            ("PUT", path, {**entry("Cat", "Q"), "version": 1}),
        )
        statuses = [status for status, _ in answers]
        assert statuses in ([200, 404], [409, 200]), answers
        rounds = ledger(port, game_id)
        if statuses[0] == 200:  # undone first: the correction finds no round 2
            assert [played["number"] for played in rounds] == [1]
        else:  # corrected first: the undo saw an older version
            assert rounds[1] == answers[1][1] and rounds[1]["version"] == 2
            assert answers[0][1]["round"] == rounds[1]
    assert integrity(servers[0].database_url) == "ok"


# --- Saved rule sets -----------------------------------------------------------------------------


def save(port: int, name: str, rules: str, idempotency_key: str | None = None):
    """`POST /api/rulesets` on a fresh connection: (status, parsed answer, replayed?)."""
    headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
    with Client(port) as client:
        answer = client.send_json("POST", "/api/rulesets", {"rules": rules, "name": name}, headers)
    return answer.status, answer.parsed(), answer.headers.get("idempotent-replayed")


def saved_names(port: int) -> list[str]:
    status, data = request(port, "GET", "/api/rulesets")
    assert status == 200
    return sorted(saved["name"] for saved in data["rulesets"])


def test_two_saves_of_one_name_keep_one_and_the_other_is_told(servers):
    """Two tablets save rules under the same name at once: the unique name key decides, one is
    saved and the other is 409 naming the name, never a 500 or a second row."""
    port, names = servers[0].port, []
    for trial in range(RACES):
        name = f"Table {trial}"
        answers = at_once(
            [
                partial(save, server.port, name, rules)
                for server, rules in zip(servers, ("online", "family"), strict=True)
            ]
        )
        winner = one_winner([answer[:2] for answer in answers], 201, {409})
        loser = answers[1 - winner][1]
        assert f'"{name}" is already saved' in loser["error"], answers
        kept = request(port, "GET", f"/api/rulesets/{answers[winner][1]['id']}")[1]
        assert kept["rules"]["name"] == name
        assert kept["rules"]["jokers"] == answers[winner][1]["rules"]["jokers"]  # the winner's
        names.append(name)
        assert saved_names(port) == sorted(names)


def test_one_save_sent_twice_at_once_is_saved_once(servers):
    """A retry racing its own first try (one Idempotency-Key, two processes): one rule set,
    and both answers are its answer."""
    port = servers[0].port
    for trial in range(RACES):
        name, key = f"Retried {trial}", f"retry-{trial}"
        answers = at_once([partial(save, server.port, name, "online", key) for server in servers])
        assert [status for status, _, _ in answers] == [201, 201], answers
        assert answers[0][1] == answers[1][1]
        assert sorted(str(replayed) for _, _, replayed in answers) == ["None", "true"]
        assert saved_names(port).count(name) == 1
