"""The game page is kept under its game's stamp, and never shows a stale or someone else's page."""

from __future__ import annotations

import gc
import re
import threading
import weakref

import pytest

from scorekeeper.games import ledger, service
from scorekeeper.games.models import Game
from scorekeeper.games.views import games as games_views
from scorekeeper.games.views.games import PAGES
from scorekeeper.platform import cache
from scorekeeper.platform.cache import Kept
from scorekeeper.platform.database import db
from tests.season.seeding import entry, play_game
from tests.support.apps import app_on
from tests.support.book import record_page, start
from tests.support.games import held_key
from tests.support.queries import counted


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
    pages = app.extensions[cache.KEPT][PAGES]
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


def test_a_round_undone_and_recorded_again_shows_the_new_round(client):
    """The same number of rounds, each at its first version: the stamp moves all the same."""
    game_id = start(client)
    record_page(client, game_id, out="Cat", Ann="K", Bob="7", Dan="JK")
    game_page(client, game_id)
    assert totals(game_page(client, game_id)) == ["10", "7", "0", "15"]
    key = held_key(client, game_id)
    undone = client.delete(f"/api/games/{game_id}/rounds/1", headers={"X-Game-Key": key})
    assert undone.status_code == 200, undone.get_json()
    record_page(client, game_id, out="Ann", Bob="A", Cat="2", Dan="3")
    game_page(client, game_id)
    assert totals(game_page(client, game_id)) == ["0", "15", "2", "3"]


def test_kept_values_go_least_recently_asked_first():
    kept = Kept(size=2)
    computed = []

    def value(name):
        return lambda previous: computed.append(name) or name.upper()

    assert kept.get("a", 1, value("a")) == "A"
    assert kept.get("b", 1, value("b")) == "B"
    assert kept.get("a", 1, value("a")) == "A"  # kept; a is now the most recent
    assert kept.get("c", 1, value("c")) == "C"
    assert kept.get("b", 1, value("b")) == "B"  # b went: computed again
    assert computed == ["a", "b", "c", "b"]
    assert kept.get("a", 1, value("a")) == "A" and computed[-1] == "a"  # c, then a, went


def test_a_kept_value_is_computed_again_from_the_one_before_when_its_stamp_moves():
    kept = Kept(size=4)
    assert kept.get("season", ("g", 1), lambda previous: [previous]) == [None]
    assert kept.get("season", ("g", 1), lambda previous: "never") == [None]
    assert kept.get("season", ("g", 2), lambda previous: [previous]) == [[None]]
    # With no stamp, nothing is kept: computed every time, from nothing.
    assert kept.get("season", None, lambda previous: previous) is None
    assert len(kept) == 1


@pytest.fixture
def book_app(migrated_database, tmp_path):
    """An app on a database file (or a database of its own), which a thread of its own reads."""
    return app_on(migrated_database(), tmp_path)


def test_a_value_never_kept_is_pending_past_the_wait_then_kept_once_done(book_app):
    """`get_or_older` with nothing kept before (a server just started): past the wait, `Pending`,
    while the one computation goes on apart; whoever asks meanwhile waits for that one."""
    kept, release, computed = Kept(size=1), threading.Event(), []

    def slow(previous):
        computed.append(previous)
        release.wait(20)
        return "season"

    with book_app.app_context():
        with pytest.raises(cache.Pending):
            kept.get_or_older("season", 1, slow, 0.05)
        with pytest.raises(cache.Pending):
            kept.get_or_older("season", 1, slow, 0.05)
        release.set()
        assert kept.get_or_older("season", 1, slow, 10) == ("season", True)
        assert kept.get_or_older("season", 1, slow, 0) == ("season", True)
    assert computed == [None]


def test_a_value_computed_apart_is_computed_without_the_collectors_full_walks(book_app):
    """The collector is paused while a value is computed apart (its walks over the season
    stopped every thread for 50-99 ms at a time beside the requests), and on again after."""
    kept, seen = Kept(size=1), []
    assert gc.isenabled()
    with book_app.app_context():
        assert kept.get_or_older("season", 1, lambda previous: seen.append(gc.isenabled()), 10)
    assert seen == [False] and gc.isenabled()


def test_the_collector_is_on_again_only_after_the_last_computation_that_paused_it():
    first, second = cache.collector_paused(), cache.collector_paused()
    first.__enter__()
    second.__enter__()
    assert not gc.isenabled()
    first.__exit__(None, None, None)
    assert not gc.isenabled()  # the second still runs
    second.__exit__(None, None, None)
    assert gc.isenabled()
    gc.disable()  # off before: left off
    try:
        with cache.collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_failed_computation_is_the_error_of_the_request_that_waited_for_it(book_app):
    kept = Kept(size=1)

    def broken(previous):
        raise LookupError("no season")

    with book_app.app_context():
        with pytest.raises(LookupError, match="no season"):
            kept.get_or_older("season", 1, broken, 10)
        # The next request tries again.
        assert kept.get_or_older("season", 1, lambda previous: "season", 10) == ("season", True)


def test_a_value_made_from_one_still_pending_is_served_but_never_kept(app):
    kept = Kept(size=2)

    def without(previous):
        cache.provisional()  # say, a game page without the chances of a season not ready
        return "without"

    with app.app_context():  # a request
        assert kept.get("page", 1, without) == "without"
        assert kept.get("other", 1, lambda previous: "other") == "other"
    assert len(kept) == 0  # nothing this request made
    with app.app_context():  # the next one
        assert kept.get("page", 1, lambda previous: "with") == "with"
        assert kept.get("page", 1, without) == "with"
    assert len(kept) == 1


class Linked:
    """An object in a cycle of its own: only the garbage collector frees it."""

    def __init__(self):
        self.me = self


def test_settling_freezes_what_is_alive_and_gives_it_back_past_the_slack(monkeypatch):
    """`cache.settle` takes what is alive out of the collector's walks; garbage frozen with it
    (a cycle another thread dropped) is collected once the frozen objects grow past the slack."""
    monkeypatch.setattr(cache, "_frozen_after", [])
    alive = Linked()
    cache.settle()
    assert id(alive) not in {id(found) for found in gc.get_objects()}  # frozen
    dropped = weakref.ref(alive)
    del alive
    gc.collect()
    assert dropped() is not None  # frozen garbage: not collected
    cache.settle()  # within the slack: still frozen
    gc.collect()
    assert dropped() is not None
    # Far past it: frozen objects freed since (by their references) lower the count.
    monkeypatch.setattr(cache, "FROZEN_SLACK", -(10**9))
    cache.settle()  # past it: given back, collected, then the rest frozen again
    assert dropped() is None
    assert gc.get_freeze_count() > 0


def test_a_change_from_another_process_is_seen_once_the_stamp_is_read_again(
    fresh_database, tmp_path, monkeypatch
):
    """Two apps on one database, as two server processes: a round the second corrects shows on
    the first's page once the game's stamp is read again (within `STAMP_SECONDS`)."""
    url = fresh_database("pages")
    first = app_on(url, tmp_path, "first", UPGRADE_ON_START=True)
    second = app_on(url, tmp_path, "second")
    reader = first.test_client()
    with second.app_context():
        game_id = play_game(["Ann", "Bob", "Cat"], [[0, 10, 20]])
    game_page(reader, game_id)
    assert totals(game_page(reader, game_id)) == ["0", "10", "20"]
    monkeypatch.setattr(games_views, "STAMP_SECONDS", 3600.0)
    with counted(first) as statements:
        game_page(reader, game_id)
    assert statements == []  # kept, its stamp read a moment ago
    with second.app_context():
        service.correct_round(db.session.get(Game, game_id), 1, entry([20, 0, 10]))
        db.session.commit()
    assert totals(game_page(reader, game_id)) == ["0", "10", "20"]  # within the bound
    monkeypatch.setattr(games_views, "STAMP_SECONDS", 0.0)
    with counted(first) as statements:
        assert totals(game_page(reader, game_id)) == ["20", "0", "10"]
    monkeypatch.setattr(games_views, "STAMP_SECONDS", 3600.0)
    with counted(first) as statements:
        game_page(reader, game_id)
    assert statements == []


def test_a_stamp_never_changed_reads_as_the_databases_own(app):
    with app.app_context():
        database_stamp = cache.read(cache.DATABASE)
        assert database_stamp is not None and database_stamp[1] == 0
        assert cache.read("game 404") == (database_stamp[0], 0)
        game_id = play_game(["Ann", "Bob", "Cat"], [[0, 10, 20]])
        moved = cache.read(ledger.stamp_name(game_id))
        assert moved[0] != database_stamp[0] and moved[1] >= 1
        assert cache.read(cache.DATABASE) == database_stamp  # never counted
