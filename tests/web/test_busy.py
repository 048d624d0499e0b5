"""Busy is not broken: a database write-locked by another program answers 503, keeps the entries."""

from __future__ import annotations

import re

import pytest

from scorekeeper import create_app
from tests.support.book import new_game
from tests.support.config import TEST_CONFIG
from tests.support.forms import read_form
from tests.support.locks import write_locked
from tests.support.names import NAMES

pytestmark = pytest.mark.sqlite_only("holds SQLite's write lock from a second connection")


@pytest.fixture
def busy_app(tmp_path):
    path = tmp_path / "busy.sqlite"
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}")
    config["DATABASE_BUSY_SECONDS"] = 0.3
    application = create_app(config, instance_path=str(tmp_path / "instance"))
    application.database_path = path
    return application


def started(client) -> tuple[int, str]:
    game = new_game(client, profile=None)
    return game.id, game.key


def test_the_api_answers_503_with_retry_after(busy_app):
    client = busy_app.test_client()
    game_id, key = started(client)
    with write_locked(busy_app.database_path):
        answer = client.post(
            f"/api/games/{game_id}/rounds",
            json={"out": "Ann", "leftovers": {"Bob": "K", "Cat": "5", "Dan": "9"}},
            headers={"X-Game-Key": key},
        )
        assert answer.status_code == 503
        assert int(answer.headers["Retry-After"]) > 0
        assert "nothing was saved" in answer.get_json()["error"]
        assert client.post("/api/games", json={"players": NAMES}).status_code == 503
    assert client.get(f"/api/games/{game_id}").get_json()["rounds"] == []


def test_a_round_posted_while_busy_is_kept_and_can_be_sent_again(busy_app):
    client = busy_app.test_client()
    game_id, key = started(client)
    client.set_cookie(f"gk_{game_id}", key)
    form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    token = re.search(r'name="write_token" type="hidden" value="([^"]+)"', form).group(1)
    typed = {"out": "0", "cards_1": "K Q", "cards_2": "5", "cards_3": "JK", "round_number": "1"}
    with write_locked(busy_app.database_path):
        answer = client.post(f"/games/{game_id}/rounds/new", data=typed | {"write_token": token})
    assert answer.status_code == 503
    assert int(answer.headers["Retry-After"]) > 0
    html = answer.get_data(as_text=True)
    assert "The score book is busy" in html and "nothing was saved" in html
    assert "<td>K Q</td>" in html and "<td>JK</td>" in html
    again = read_form(html)
    assert again.action == f"/games/{game_id}/rounds/new"
    assert dict(again.fields).items() >= (typed | {"write_token": token}).items()
    # Once the other program is done, "Try again" saves the round, once.
    for _ in range(2):
        saved = client.post(again.action, data=dict(again.fields))
        assert saved.status_code == 302
    assert len(client.get(f"/api/games/{game_id}").get_json()["rounds"]) == 1


def test_a_round_of_long_hands_is_kept_whole_while_busy(busy_app):
    """The busy page shows what was posted within the bounds a forged post meets on the CSRF
    page: a real round form, its hands long (a deal of sixty cards), is all there, and resent."""
    client = busy_app.test_client()
    game_id, key = started(client)
    client.set_cookie(f"gk_{game_id}", key)
    form = client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    token = re.search(r'name="write_token" type="hidden" value="([^"]+)"', form).group(1)
    hand = " ".join(["10", "JK", "Q", "2"] * 15)
    typed = {"out": "0", "cut_exact": "y", "round_number": "1"}
    typed |= {f"cards_{seat}": hand for seat in (1, 2, 3)}
    with write_locked(busy_app.database_path):
        answer = client.post(f"/games/{game_id}/rounds/new", data=typed | {"write_token": token})
    assert answer.status_code == 503
    html = answer.get_data(as_text=True)
    assert html.count(f"<td>{hand}</td>") == 3 and "not shown" not in html
    assert dict(read_form(html).fields).items() >= (typed | {"write_token": token}).items()


@pytest.mark.parametrize(
    "path, data, kept",
    [
        (
            "/games/new",
            {
                "names-0": "Ann",
                "names-1": "Bob",
                "names-2": "Cat",
                "names-3": "Dan",
                "profile": "liverpool",
                "first_dealer": "random",
            },
            "Cat",
        ),
    ],
)
def test_other_pages_answer_503_never_500(busy_app, path, data, kept):
    client = busy_app.test_client()
    started(client)
    with write_locked(busy_app.database_path):
        answer = client.post(path, data=data)
    assert answer.status_code == 503, answer.get_data(as_text=True)[:500]
    assert "Retry-After" in answer.headers
    html = answer.get_data(as_text=True)
    assert f"<td>{kept}</td>" in html and "Try again" in html


@pytest.mark.parametrize(
    "ask",
    [
        lambda client: client.post(
            "/rules?q=meld&game=1",
            data={"cards": "7♠ 7♥ 7♦", "profile": "liverpool", "round": "1", "players": "4"},
        ),
        lambda client: client.post("/api/rules/meld", json={"cards": "7♠ 7♥ 7♦"}),
    ],
    ids=["page", "api"],
)
def test_a_rules_question_is_answered_while_another_program_writes(busy_app, ask):
    """A question posted to the referee writes nothing: it takes no write lock, so a long write
    elsewhere (an import) never makes the table wait for a verdict."""
    client = busy_app.test_client()
    started(client)
    with write_locked(busy_app.database_path):
        answer = ask(client)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    if answer.is_json:
        assert answer.get_json()["legal"] is True
    else:
        assert '<section class="verdict legal"' in answer.get_data(as_text=True)
