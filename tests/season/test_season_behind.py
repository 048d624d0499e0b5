"""No page waits behind the season's computation (issue: the season at any size): past
`SEASON_WAIT_SECONDS` a page shows the season as it was, says so, and the new one is finished in
the background, with writes going on meanwhile."""

from __future__ import annotations

import threading
import time

from scorekeeper import create_app
from scorekeeper.season import players as season
from tests.support.book import new_game, play_rounds
from tests.support.config import TEST_CONFIG

NOTICE = "figures are being brought up to date with the latest games"


def ann_games(page: str) -> str:
    """Ann's row of the players' table."""
    return page.split('href="/players/Ann"', 1)[1].split("</tr>", 1)[0]


def test_a_long_computation_shows_the_season_before_it_and_says_so(
    fresh_database, tmp_path, monkeypatch
):
    settings = {
        **TEST_CONFIG,
        "SQLALCHEMY_DATABASE_URI": fresh_database("season"),
        "SEASON_WAIT_SECONDS": 0.2,
    }
    app = create_app(settings, instance_path=str(tmp_path / "instance"))
    client = app.test_client()
    game = new_game(client)
    play_rounds(client, game)
    first = client.get("/api/players").get_json()
    assert {player["name"]: player["games"] for player in first["players"]}["Ann"] == 1

    # From now on the season takes as long as the test says (at most 20 s).
    release, started = threading.Event(), threading.Event()
    compute = season._compute

    def slow(previous):
        started.set()
        release.wait(20)
        return compute(previous)

    monkeypatch.setattr(season, "_compute", slow)
    game = new_game(client)
    play_rounds(client, game)  # writes go on while the season is being computed
    page = client.get("/players/")
    assert started.is_set()
    assert page.status_code == 200
    shown = page.get_data(as_text=True)
    assert NOTICE in shown
    # The season as it was: one game each, on the page and through the API.
    assert 'data-column="games">1<' in ann_games(shown)
    listed = client.get("/api/players").get_json()["players"]
    assert {player["games"] for player in listed} == {1}
    release.set()
    deadline = time.monotonic() + 20
    while NOTICE in (shown := client.get("/players/").get_data(as_text=True)):
        assert time.monotonic() < deadline, "the season was never brought up to date"
        time.sleep(0.05)
    assert 'data-column="games">2<' in ann_games(shown)
