"""The games list page as the score book grows: 100 games, then 20,000.

Each size gets its own server (`python -m scorekeeper.serve` under cheroot, a fresh SQLite
file, as in `bench/web.py`). Once it is up, the games are written straight into its file in one
transaction (bulk inserts, not the API, so seeding 20,000 games takes seconds): 4 players each,
5 ongoing games of 3 rounds (the newest) and the rest finished with 7 rounds, created a minute
apart. Page 1 is then the same at both sizes (5 ongoing, 20 finished), so the comparison is the
size of the book alone.

Both servers run at once, each with one keep-alive client; the two sizes' requests alternate one
by one (closed loop, no think time), so that other work on a shared machine weighs on both
alike: a warm-up, then `REQUESTS` timed requests each, latency from send to the last byte read. Rows: `GET /games/` (page 1),
the last page, and `GET /api/games` (page 1). Target: the list page's p95 with 20,000 games is
within 2x of its p95 with 100 games.
"""

from __future__ import annotations

import contextlib
import http.client
import sqlite3
import statistics
import time
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import make_url

from tests.support.names import NAMES
from tests.support.server import Client, private_server

TITLE = "Games list (100 vs 20,000 games)"
SIZES = (100, 20_000)
ONGOING = 5
REQUESTS = 300
WARMUP = 30
QUICK_REQUESTS = 60
QUICK_WARMUP = 10
TARGET = 2.0
SCORES = (0, 15, 25, 40)  # one round's scores by seat, turned each round


def seed(path, games: int) -> None:
    """`games` games written straight into the served database file, in one transaction."""
    start = datetime(2026, 1, 1)
    connection = sqlite3.connect(path, timeout=30)
    game_rows, player_rows, round_rows, score_rows = [], [], [], []
    round_id = 0
    for game_id in range(1, games + 1):
        created = start + timedelta(minutes=game_id)
        ongoing = game_id > games - ONGOING
        played = 3 if ongoing else 7
        finished = None if ongoing else str(created + timedelta(minutes=50))
        game_rows.append((game_id, "liverpool", 0, str(created), finished, None, None))
        player_rows += [
            (game_id * 4 + seat, game_id, seat, name, name.casefold())
            for seat, name in enumerate(NAMES)
        ]
        for number in range(1, played + 1):
            round_id += 1
            out = number % 4
            dealer = (number - 1) % 4
            round_rows.append(
                (round_id, game_id, number, dealer, (dealer + 3) % 4, False, out, 1, str(created))
            )
            score_rows += [
                (round_id * 4 + seat, round_id, seat, "" if seat == out else "K 5",
                 0 if seat == out else SCORES[(seat + number) % 4],
                 0, 0 if seat == out else SCORES[(seat + number) % 4])
                for seat in range(4)
            ]  # fmt: skip
    with connection:
        connection.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", game_rows)
        connection.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?)", player_rows)
        connection.executemany(
            "INSERT INTO rounds (id, game_id, number, dealer, cutter, cut_exact, out, version,"
            " recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            round_rows,
        )
        connection.executemany(
            "INSERT INTO round_scores (id, round_id, seat, leftovers, penalty, bonus, score)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            score_rows,
        )
    connection.execute("ANALYZE")
    connection.close()


def measure(clients: dict[int, Client], path_of, requests: int, warmup: int) -> dict:
    """p50, p95 and max in ms for each size, and the answer's size; the sizes' requests
    alternate one by one, so that other work on the machine weighs on both alike."""
    times: dict[int, list[float]] = {size: [] for size in clients}
    sizes: dict[int, int] = {}
    for index in range(warmup + requests):
        for size, client in clients.items():
            path = path_of(size)
            started = time.perf_counter()
            try:
                response = client.request("GET", path)
            except (http.client.RemoteDisconnected, ConnectionResetError):
                # The server closed the kept-alive connection while the other size was being
                # asked (its idle timeout, on a loaded machine): asked again on a new one.
                started = time.perf_counter()
                response = client.request("GET", path)
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status == 200, (path, response.status)
            if index >= warmup:
                times[size].append(elapsed)
            sizes[size] = len(response.body)
    figures = {}
    for size, measured in times.items():
        measured.sort()
        figures[size] = {
            "p50": statistics.median(measured),
            "p95": measured[int(0.95 * (len(measured) - 1))],
            "max": measured[-1],
            "bytes": sizes[size],
        }
    return figures


def last_page(size: int) -> int:
    return -(-size // 25)


REQUESTS_MEASURED = (
    ("GET /games/ (page 1)", lambda size: "/games/"),
    ("GET /games/?page=<last>", lambda size: f"/games/?page={last_page(size)}"),
    ("GET /api/games (page 1)", lambda size: "/api/games"),
)


def main(quick: bool = False) -> list[dict[str, Any]]:
    requests = QUICK_REQUESTS if quick else REQUESTS
    warmup = QUICK_WARMUP if quick else WARMUP
    with contextlib.ExitStack() as stack:
        clients = {}
        seeded = {}
        for size in SIZES:
            server = stack.enter_context(private_server())
            started = time.perf_counter()
            seed(make_url(server.database_url).database, size)
            seeded[size] = time.perf_counter() - started
            clients[size] = Client(server.port)
            stack.callback(clients[size].close)
        rows = []
        page_p95 = {}
        for label, path_of in REQUESTS_MEASURED:
            figures = measure(clients, path_of, requests, warmup)
            for size in SIZES:
                if label.startswith("GET /games/ "):
                    page_p95[size] = figures[size]["p95"]
                rows.append(
                    {
                        "games": f"{size:,}",
                        "request": label.replace("<last>", str(last_page(size))),
                        "requests": requests,
                        "p50 ms": f"{figures[size]['p50']:.1f}",
                        "p95 ms": f"{figures[size]['p95']:.1f}",
                        "max ms": f"{figures[size]['max']:.1f}",
                        "answer B": f"{figures[size]['bytes']:,}",
                        "seeded in s": f"{seeded[size]:.1f}",
                    }
                )
    ratio = page_p95[SIZES[-1]] / page_p95[SIZES[0]]
    rows.append(
        {
            "games": f"{SIZES[-1]:,} vs {SIZES[0]:,}",
            "request": "GET /games/ p95 ratio",
            "p95 ms": f"{ratio:.2f}x",
            "target": f"<= {TARGET:.0f}x",
            "result": "met" if ratio <= TARGET else "MISSED",
        }
    )
    return rows
