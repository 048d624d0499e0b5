"""Many tablets at once against the real server (cheroot): one wins, the rest 409."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.names import NAMES
from tests.support.server import Server, at_once, integrity, request

# One process builds the shared fixture, once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("trust_concurrency")]

TABLETS = 12


@pytest.fixture(scope="module")
def server(tmp_path_factory, module_database):
    folder = tmp_path_factory.mktemp("concurrency")
    running = Server(module_database("book"), folder / "server.log")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def game(server):
    status, data = request(server.port, "POST", "/api/games", {"players": NAMES})
    assert status == 201
    return data["id"], data["key"]


def entry(out: str | None, card: str) -> dict[str, Any]:
    return {"out": out, "leftovers": {name: card for name in NAMES if name != out}}


def tablet_entries(number: int) -> list[dict[str, Any]]:
    """What each tablet enters: all different, so the stored round shows whose entry won."""
    cards = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return [entry(NAMES[(number + i) % 4], cards[i % len(cards)]) for i in range(TABLETS)]


def only_winner(answers, ok: int, losers: set[int]) -> Any:
    statuses = [status for status, _ in answers]
    assert None not in statuses, answers
    assert statuses.count(ok) == 1, statuses
    assert set(statuses) - {ok} <= losers, statuses
    return next(body for status, body in answers if status == ok)


def test_one_tablet_records_each_round_the_others_get_409(server, game):
    game_id, key = game
    for number in range(1, 8):
        bodies = [{**body, "number": number} for body in tablet_entries(number)]
        path = f"/api/games/{game_id}/rounds"
        answers = at_once(
            [lambda b=b, p=path: request(server.port, "POST", p, b, key=key) for b in bodies]
        )
        winner = only_winner(answers, 201, {409})
        assert winner["number"] == number
        for status, body in answers:
            if status == 409:
                assert body["round"] == winner  # the loser sees what was stored instead
                assert f"round {number} was recorded meanwhile" in body["error"]
        status, state = request(server.port, "GET", f"/api/games/{game_id}")
        assert [played["number"] for played in state["rounds"]] == list(range(1, number + 1))
        assert state["rounds"][-1] == winner
    assert state["finished"] is True
    assert state["totals"] == {
        name: sum(played["scores"][name] for played in state["rounds"]) for name in NAMES
    }
    assert integrity(server.database_url) == "ok"


def test_one_tablet_corrects_a_round_the_others_get_409(server, game):
    game_id, key = game
    path = f"/api/games/{game_id}/rounds"
    # An ace, which no tablet enters: a correction identical to the stored round changes nothing
    # (200, same version), so every tablet's entry must differ from it for one winner to exist.
    assert request(server.port, "POST", path, entry("Ann", "A"), key=key)[0] == 201
    for version in (1, 2, 3):
        bodies = [{**body, "version": version} for body in tablet_entries(version)]
        answers = at_once(
            [lambda b=b: request(server.port, "PUT", f"{path}/1", b, key=key) for b in bodies]
        )
        winner = only_winner(answers, 200, {409})
        assert winner["version"] == version + 1
        for status, body in answers:
            if status == 409:
                assert body == {
                    "error": f"round 1 was changed on another device (now version {version + 1}); "
                    "reload and try again",
                    "round": winner,
                }
        status, state = request(server.port, "GET", f"/api/games/{game_id}")
        assert state["rounds"] == [winner]
    page = request(server.port, "GET", f"/games/{game_id}")[1]
    assert page.count("round 1 corrected") == 3  # one history entry per winning correction
    assert integrity(server.database_url) == "ok"


def test_undo_and_corrections_of_the_same_round_at_once(server, game):
    game_id, key = game
    path = f"/api/games/{game_id}/rounds"
    for number in (1, 2):
        request(server.port, "POST", path, entry(NAMES[number], "5"), key=key)
    calls = []
    for index, body in enumerate(tablet_entries(2)):
        if index % 3 == 0:
            calls.append(lambda: request(server.port, "DELETE", f"{path}/2?version=1", key=key))
        else:
            calls.append(
                lambda b=body: request(
                    server.port, "PUT", f"{path}/2", {**b, "version": 1}, key=key
                )
            )
    answers = at_once(calls)
    winner = only_winner(answers, 200, {404, 409})
    state = request(server.port, "GET", f"/api/games/{game_id}")[1]
    if "rounds" in winner and "id" in winner:  # the undo won: the round is gone, for everyone
        assert [played["number"] for played in state["rounds"]] == [1]
        assert {status for status, _ in answers} == {200, 404}
    else:  # a correction won: the round is as that tablet entered it
        assert state["rounds"][1] == winner
        assert {status for status, _ in answers} == {200, 409}
    assert integrity(server.database_url) == "ok"


def test_games_started_at_once_each_get_their_own_key(server):
    answers = at_once(
        [lambda: request(server.port, "POST", "/api/games", {"players": NAMES})] * TABLETS
    )
    # A refusal shows its answer and the server's log, where a 500 leaves its traceback.
    assert [status for status, _ in answers] == [201] * TABLETS, (answers, server.log()[-6000:])
    ids = {body["id"] for _, body in answers}
    assert len(ids) == TABLETS
    assert len({body["key"] for _, body in answers}) == TABLETS
    # Each key opens its own game only.
    first, second = answers[0][1], answers[1][1]
    path = f"/api/games/{second['id']}/rounds"
    assert request(server.port, "POST", path, entry("Ann", "5"), key=first["key"])[0] == 403
    assert request(server.port, "POST", path, entry("Ann", "5"), key=second["key"])[0] == 201


def test_the_server_never_logs_a_key(server, game):
    game_id, key = game
    status, _ = request(server.port, "GET", f"/games/{game_id}/join?key={key}")
    assert status == 303
    request(server.port, "GET", f"/games/{game_id}/join?key={key[:-2]}")
    request(server.port, "POST", f"/api/games/{game_id}/rounds", entry("Ann", "5"), key=key)
    request(server.port, "POST", f"/api/games/{game_id}/rounds", entry("Ann", "5"), key="x" + key)
    log = server.log()
    assert "open http://localhost" in log  # the log is being captured
    assert key not in log and key[:-2] not in log
