"""A finished game's page, drawn afresh, by the number of deals its rules play.

Two finished 8-player games are built through the API on an in-process app (a private SQLite
file): one under a 7-deal rule set and one under a 10-deal one (`PAGE_GAMES`; the deal count is
the rule set's, so another game is one more entry). Each page is then rendered `RENDERS` times
with the page cache cleared before every request, the two games in turn (the order reversed
every time) so the machine's load weighs on both alike; the figure is each page's median, and
the target is the 10-deal page within `RATIO_TARGET` times the 7-deal one.

Where the score book does not yet take a game past some deal (its rules stored with the game),
the row says how many deals it took and the ratio waits for that.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from scorekeeper.platform import cache
from scorekeeper.rules.ruleset import PRESETS
from tests.support.games import FlaskSender, cookie_header, create_game, key_cookie, round_body
from tests.support.names import EIGHT_NAMES

# (preset, players): the finished games whose pages are compared, the first one the baseline.
PAGE_GAMES = (("family", 8), ("shanghai", 8))
RENDERS = 40
QUICK_RENDERS = 8
RATIO_TARGET = 1.5


def _finished_game(client: FlaskSender, preset: str, players: int):
    """(game, deals recorded): every deal of the preset's rules, as far as the score book takes."""
    names = EIGHT_NAMES[:players]
    game = create_game(client, names, preset)
    for number in range(1, PRESETS[preset].last_deal + 1):
        answer = client.send_json(
            "POST", game.rounds_path, round_body(game.names, number), game.write_headers
        )
        if answer.status != 201:
            break
        game.rounds = number
    return game


def _render_ms(app, client: FlaskSender, path: str, headers: dict[str, str]) -> float:
    """One request for the page with the page cache cleared first: the page drawn afresh."""
    cache.forget_all(app)
    start = time.perf_counter_ns()
    answer = client.request("GET", path, headers=headers)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if answer.status != 200:
        raise RuntimeError(f"GET {path} answered {answer.status}")
    return elapsed


@contextmanager
def file_app(name: str) -> Iterator[Any]:
    """An app in-process on a private SQLite file made by the migrations, disposed afterwards."""
    from scorekeeper import create_app
    from scorekeeper.platform.database import db

    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/{name}.sqlite",
                "SECRET_KEY": "bench",
                "UPGRADE_ON_START": True,
            },
            instance_path=folder,
        )
        try:
            yield app
        finally:
            with app.app_context():
                db.session.remove()
                db.engine.dispose()


def page_rows(quick: bool = False) -> list[dict[str, Any]]:
    renders = QUICK_RENDERS if quick else RENDERS
    with file_app("pages") as app:
        client = FlaskSender(app.test_client())
        games = [_finished_game(client, preset, players) for preset, players in PAGE_GAMES]
        pages = [
            (
                f"/games/{game.id}",
                {"Accept": "text/html", **cookie_header(key_cookie(client, game))},
            )
            for game in games
        ]
        times: list[list[float]] = [[] for _ in games]
        order = list(range(len(games)))
        for path, headers in pages:  # warm: the first request may load more
            _render_ms(app, client, path, headers)
        for _ in range(renders):
            for index in order:
                times[index].append(_render_ms(app, client, *pages[index]))
            order.reverse()
    return _rows(games, times)


def _rows(games, times: list[list[float]]) -> list[dict[str, Any]]:
    base = statistics.median(times[0])
    rows = []
    for (preset, players), game, samples in zip(PAGE_GAMES, games, times, strict=True):
        deals = PRESETS[preset].last_deal
        median = statistics.median(samples)
        row = {
            "endpoint": f"GET /games/<id>: finished {deals}-deal game ({preset}), "
            f"{players} players, rendered",
            "runs": len(samples),
            "p50 ms": f"{median:.1f}",
            "vs the first": f"{median / base:.2f}",
        }
        if game.rounds < deals:
            row["target"] = (
                f"<= {RATIO_TARGET:g}x the {PRESETS[PAGE_GAMES[0][0]].last_deal}-deal page"
            )
            row["result"] = f"not measured: the score book took {game.rounds} of its {deals} deals"
        elif samples is not times[0]:
            row["target"] = (
                f"<= {RATIO_TARGET:g}x the {PRESETS[PAGE_GAMES[0][0]].last_deal}-deal page"
            )
            row["result"] = "met" if median <= RATIO_TARGET * base else "MISSED"
        rows.append(row)
    return rows
