"""The game page is served from a cache that never shows a stale or someone else's page."""

from __future__ import annotations

import re

from scorekeeper.games.pagecache import PageCache
from tests.support.book import record_page, start
from tests.support.games import held_key


def totals(page: str) -> list[str]:
    """The totals row of the ledger, as shown."""
    return [cell.strip() for cell in re.findall(r"<td class=\"total[^\"]*\">([^<]+)", page)]


def game_page(client, game_id):
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_recording_a_round_changes_the_page(client):
    game_id = start(client)
    game_page(client, game_id)  # the flash of the start
    before = game_page(client, game_id)
    assert "Record round 1" in before
    record_page(client, game_id, out="Cat", Ann="K", Bob="7", Dan="JK")
    after = game_page(client, game_id)
    after = game_page(client, game_id)  # served from the cache this time
    assert "Record round 2" in after
    assert totals(after) == ["10", "7", "0", "15"]


def test_the_page_is_kept_until_the_game_changes(app, client):
    game_id = start(client)
    game_page(client, game_id)
    first = game_page(client, game_id)
    pages = app.extensions["scorekeeper.pages"]
    assert len(pages) == 1
    assert game_page(client, game_id) == first
    assert len(pages) == 1


def test_a_flash_message_is_shown_once_and_never_cached(client):
    game_id = start(client)
    assert "Game started" in game_page(client, game_id)
    assert "Game started" not in game_page(client, game_id)
    assert "Game started" not in game_page(client, game_id)


def test_spectators_never_get_the_editors_page(app, client):
    game_id = start(client)
    game_page(client, game_id)
    editor = game_page(client, game_id)
    assert "Record round 1" in editor
    spectator = app.test_client()
    watched = game_page(spectator, game_id)
    assert "Record round 1" not in watched
    assert "join?key=" not in watched


def test_a_correction_through_the_api_invalidates_the_page(app, client):
    game_id = start(client)
    record_page(client, game_id, out="Cat", Ann="K", Bob="7", Dan="JK")
    game_page(client, game_id)
    page = game_page(client, game_id)
    assert totals(page) == ["10", "7", "0", "15"]
    key = held_key(client, game_id)
    round_one = client.get(f"/api/games/{game_id}").get_json()["rounds"][0]
    body = {
        "cut_exact": False,
        "out": "Cat",
        "leftovers": {"Ann": "A", "Bob": "2", "Dan": "3"},
        "version": round_one["version"],
    }
    response = client.put(f"/api/games/{game_id}/rounds/1", json=body, headers={"X-Game-Key": key})
    assert response.status_code == 200, response.get_json()
    corrected = game_page(client, game_id)
    assert totals(corrected) == ["15", "2", "0", "3"]


def test_cache_forgets_the_oldest_page():
    pages = PageCache(size=2)
    pages.put("a", "A")
    pages.put("b", "B")
    assert pages.get("a") == "A"  # a is now the most recent
    pages.put("c", "C")
    assert pages.get("b") is None
    assert pages.get("a") == "A" and pages.get("c") == "C"


def test_a_change_from_another_process_is_seen_once_the_stamp_expires(app, client):
    """Writes this process does not make (a second server, a command) show within STAMP_SECONDS."""
    from scorekeeper.platform.database import db

    game_id = start(client)
    record_page(client, game_id, out="Cat", Ann="K", Bob="7", Dan="JK")
    game_page(client, game_id)
    assert totals(game_page(client, game_id)) == ["10", "7", "0", "15"]
    pages = app.extensions["scorekeeper.pages"]
    pages.stamp_seconds = 3600.0
    # Raw SQL, as another process would write: no ORM object tells this process.
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(db.text("UPDATE round_scores SET score = 99 WHERE seat = 0"))
        connection.execute(db.text("UPDATE rounds SET version = version + 1"))
    assert totals(game_page(client, game_id)) == ["10", "7", "0", "15"]  # within the bound
    pages.stamp_seconds = 0.0
    assert totals(game_page(client, game_id))[0] == "99"
