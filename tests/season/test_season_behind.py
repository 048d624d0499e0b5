"""No page waits behind the season's computation (issue: the season at any size): past
`SEASON_WAIT_SECONDS` a page shows the season as it was, says so (the API: `up_to_date`), and the
new one is finished in the background, with writes going on meanwhile; where no season was worked
out yet (a server just started), a season page says so (503) and opens itself again, while the
score book goes on without the season. A merge answers from the season as kept, a server works
the season out as it starts, and a season worked out apart is kept out of the garbage collector's
walks."""

from __future__ import annotations

import gc
import threading
import time

from scorekeeper import create_app
from scorekeeper.platform import cache
from scorekeeper.season import players as season
from tests.support.book import new_game, play_rounds
from tests.support.config import TEST_CONFIG
from tests.support.queries import counted

NOTICE = "figures are being brought up to date with the latest games"
PENDING = "figures are being worked out (the score book has just started)"
PENDING_FI = "lasketaan"
CHANCES = "Chances to win, from the ratings:"


def ann_games(page: str) -> str:
    """Ann's row of the players' table."""
    return page.split('href="/players/Ann"', 1)[1].split("</tr>", 1)[0]


def waiting_app(fresh_database, tmp_path, name: str):
    """An app whose pages wait 0.2 s for the season, then show it as it was."""
    settings = {
        **TEST_CONFIG,
        "SQLALCHEMY_DATABASE_URI": fresh_database(name),
        "SEASON_WAIT_SECONDS": 0.2,
    }
    return create_app(settings, instance_path=str(tmp_path / "instance"))


def up_to_date(client) -> dict:
    """`GET /api/players` once the season with every change in it is worked out: a page waits
    only `SEASON_WAIT_SECONDS` for it, then answers the season before it, or 503 where no season
    was kept yet (a slow machine takes longer than that even for a few games)."""
    deadline = time.monotonic() + 20
    while True:
        answer = client.get("/api/players")
        assert answer.status_code in (200, 503), answer.get_data(as_text=True)
        if answer.status_code == 200 and answer.get_json()["up_to_date"]:
            return answer.get_json()
        assert time.monotonic() < deadline, "the season was never brought up to date"
        time.sleep(0.05)


def as_just_started(app) -> None:
    """The app as a process just started: no season kept."""
    with app.app_context():
        cache.kept(season.STAMP).clear()


def slowed(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """From now on the season takes as long as the test says (at most 20 s): (set when a
    computation starts, set to let it finish)."""
    release, started = threading.Event(), threading.Event()
    compute = season._compute

    def slow(previous):
        started.set()
        release.wait(20)
        return compute(previous)

    monkeypatch.setattr(season, "_compute", slow)
    return started, release


def test_a_long_computation_shows_the_season_before_it_and_says_so(
    fresh_database, tmp_path, monkeypatch
):
    client = waiting_app(fresh_database, tmp_path, "season").test_client()
    game = new_game(client)
    play_rounds(client, game)
    first = up_to_date(client)
    assert {player["name"]: player["games"] for player in first["players"]}["Ann"] == 1

    started, release = slowed(monkeypatch)
    game = new_game(client)
    play_rounds(client, game)  # writes go on while the season is being computed
    page = client.get("/players/")
    assert started.wait(10)
    assert page.status_code == 200
    shown = page.get_data(as_text=True)
    assert NOTICE in shown
    # The season as it was: one game each, on the page and through the API.
    assert 'data-column="games">1<' in ann_games(shown)
    answer = client.get("/api/players").get_json()
    assert {player["games"] for player in answer["players"]} == {1}
    assert answer["up_to_date"] is False
    assert client.get("/api/players/records").get_json()["up_to_date"] is False
    release.set()
    deadline = time.monotonic() + 20
    while NOTICE in (shown := client.get("/players/").get_data(as_text=True)):
        assert time.monotonic() < deadline, "the season was never brought up to date"
        time.sleep(0.05)
    assert 'data-column="games">2<' in ann_games(shown)
    assert client.get("/api/players").get_json()["up_to_date"] is True
    # The season computed apart is out of the garbage collector's walks (`cache.settle`).
    with client.application.app_context():
        kept = season.current()
    assert gc.is_tracked(kept.games)
    assert id(kept.games) not in {id(found) for found in gc.get_objects()}


def test_a_merge_while_the_season_is_worked_out_answers_at_once_and_says_so(
    fresh_database, tmp_path, monkeypatch
):
    """The merge's answer is the player in the season as kept, with the merge in it: it never
    waits for the season, and says when that season is from before the latest change."""
    client = waiting_app(fresh_database, tmp_path, "season-merge").test_client()
    play_rounds(client, new_game(client, ["Ann", "Bob", "Cat"], "family"))
    play_rounds(client, new_game(client, ["Annie", "Bob", "Cat"], "family"))
    up_to_date(client)

    started, release = slowed(monkeypatch)
    play_rounds(client, new_game(client, ["Annie", "Dan", "Eve"], "family"))
    try:
        answer = client.post("/api/players/merges", json={"from": "Annie", "into": "Ann"})
        # The answer did not wait for the season: its computation was only set going.
        assert started.wait(10)
        body = answer.get_json()
        assert answer.status_code == 201, body
        # Ann and Annie's games as kept: Annie's last game came after the season was worked out.
        assert (body["player"]["name"], body["player"]["games"]) == ("Ann", 2)
        assert body["player"]["rating"] is None and body["up_to_date"] is False
    finally:
        release.set()
    ann = {player["name"]: player for player in up_to_date(client)["players"]}["Ann"]
    assert ann["games"] == 3 and ann["rating"] is not None


def test_a_server_start_works_out_the_season_before_any_page_asks(fresh_database, tmp_path):
    """`players.warm` (a server's start): the first page then reads the season as kept, one
    statement for its stamp, no seat; the season is out of the garbage collector's walks."""
    app = waiting_app(fresh_database, tmp_path, "season-warm")
    client = app.test_client()
    play_rounds(client, new_game(client, ["Ann", "Bob", "Cat"], "family"))
    with app.app_context():
        cache.kept(season.STAMP).clear()  # as a process just started
    season.warm(app)
    with counted(app) as statements:
        answer = client.get("/api/players").get_json()
    assert answer["up_to_date"] is True and len(answer["players"]) == 3
    assert not [statement for statement in statements if "FROM players" in statement]
    with app.app_context():
        kept = season.current()
    assert id(kept.games) not in {id(found) for found in gc.get_objects()}


def test_a_season_page_before_the_first_season_is_worked_out_says_so_and_opens_itself_again(
    fresh_database, tmp_path, monkeypatch
):
    """A server just started on thousands of games: a season page answers 503 past the wait,
    says why, in the page's language, and opens itself again (Retry-After, `reopen.js`); the
    score book goes on meanwhile: a game page without the chances, a merge without its player."""
    app = waiting_app(fresh_database, tmp_path, "season-start")
    client = app.test_client()
    play_rounds(client, new_game(client, ["Ann", "Bob", "Cat"], "family"))
    play_rounds(client, new_game(client, ["Annie", "Bob", "Cat"], "family"))
    waiting = new_game(client, ["Ann", "Bob", "Cat"], "family")  # not started: its chances
    as_just_started(app)
    started, release = slowed(monkeypatch)
    try:
        page = client.get("/players/")
        assert started.wait(10)
        assert (page.status_code, page.headers["Retry-After"]) == (503, "1")
        shown = page.get_data(as_text=True)
        assert PENDING in shown and NOTICE not in shown  # no figures shown, none behind
        assert 'src="/static/reopen.js' in shown and 'data-reopen="/players/"' in shown
        answer = client.get("/api/players/records")
        assert (answer.status_code, answer.headers["Retry-After"]) == (503, "1")
        assert PENDING in answer.get_json()["error"]
        finnish = client.get("/players/Ann", headers={"Accept-Language": "fi"})
        assert finnish.status_code == 503
        assert PENDING_FI in finnish.get_data(as_text=True)
        assert PENDING not in finnish.get_data(as_text=True)
        game_page = client.get(f"/games/{waiting.id}")
        assert game_page.status_code == 200
        assert CHANCES not in game_page.get_data(as_text=True)
        merged = client.post("/api/players/merges", json={"from": "Annie", "into": "Ann"})
        assert merged.status_code == 201, merged.get_json()
        assert merged.get_json()["player"] is None and merged.get_json()["up_to_date"] is False
    finally:
        release.set()
    deadline = time.monotonic() + 20
    while (page := client.get("/players/")).status_code == 503 or NOTICE in page.get_data(
        as_text=True
    ):
        assert time.monotonic() < deadline, "the season was never worked out"
        time.sleep(0.05)
    assert page.status_code == 200
    assert 'data-column="games">2<' in ann_games(page.get_data(as_text=True))  # Annie's too
    # The game page made without the chances was not kept so.
    assert CHANCES in client.get(f"/games/{waiting.id}").get_data(as_text=True)


def test_a_season_worked_out_apart_brings_the_records_a_players_page_shows(
    fresh_database, tmp_path
):
    """The records of all time read every round line (seconds at 20,000 games): they are worked
    out with the season in the background, so a player's page after a change reads none."""
    app = waiting_app(fresh_database, tmp_path, "season-records")
    client = app.test_client()
    play_rounds(client, new_game(client, ["Ann", "Bob", "Cat"], "family"))
    up_to_date(client)
    play_rounds(client, new_game(client, ["Ann", "Bob", "Dan"], "family"))
    up_to_date(client)
    with counted(app) as statements:
        page = client.get("/players/Dan")
    assert page.status_code == 200 and "Dan" in page.get_data(as_text=True)
    assert not [statement for statement in statements if "round_scores" in statement]
