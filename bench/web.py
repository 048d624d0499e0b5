"""The app under load as the table feels it: cheroot on loopback, 8 keep-alive clients.

Each run starts `python -m scorekeeper.serve` (serve.py's default threads) on loopback, on the
port it picks itself, with a fresh SQLite file (WAL, synchronous=FULL), then loads one endpoint
at a time from 8 threads, each with its own keep-alive `http.client` connection, closed loop: a
warm-up, then a fixed measured window. `GET /healthz` is the baseline; `GET /games/<id>` the page
of a finished 7-deal, 4-player game with the game's key cookie (the scorekeeper's tablet);
`POST /api/rules/meld` a rotation of melds, legal and not; `POST /api/games/<id>/rounds` every
deal of many fresh games (made before the window), with the game's edit key.

A request counts when its answer is read inside the window; latency is from send to the last
byte read. Each figure is the median over the runs; the ratio to /healthz is taken within each
run. "load-gen CPU" is the generator's own CPU over the window (100% = one core: near it, the
generator was the limit). Statements per request are counted in-process with a SQLAlchemy
`before_cursor_execute` listener on games of 1 and 7 deals, 4 and 8 players (a query per player
or per deal shows as a growing count). Last, a finished 8-player game's page drawn afresh under a
7-deal and a 10-deal rule set (`_game_pages.py`).
"""

from __future__ import annotations

import math
import os
import queue
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.platform import cache
from scorekeeper.rules.ruleset import DEFAULT_RULES
from tests.support.games import (
    FlaskSender,
    Game,
    cookie_header,
    create_game,
    key_cookie,
    round_body,
    seed_game,
)
from tests.support.names import EIGHT_NAMES, NAMES
from tests.support.server import Client, Response, encode, json_headers, private_server

from ._game_pages import file_app, page_rows

TITLE = "Web (cheroot on loopback, 8 keep-alive clients)"
LAST_DEAL = DEFAULT_RULES.last_deal  # the games seeded here play the default rules

CLIENTS = 8
WARMUP = 1.0
DURATION = 5.0
RUNS = 3
QUICK_WARMUP = 0.3
QUICK_DURATION = 1.5
QUICK_RUNS = 1
TIMEOUT = 10.0  # seconds a client waits for one answer before counting it as an error
MAX_REQUESTS = 1_000_000  # per client per window: a bound even on a very fast machine

RATIO_TARGET = 0.5
P99_TARGET_MS = 50.0
ROUNDS_TARGET = 100.0

MELDS = [
    "7♠ 7♥ 7♦",
    "5♠ 6♠ JK 8♠",
    "9♥ 10♥ J♥ Q♥ K♥ A♥",
    "4♣ 4♦ JK JK",
    "2♠ 3♥ 4♦ 5♣",
    "K♠ K♠ K♥",
    "3♦ 4♦ 5♦ 6♦ 7♦ JK 9♦",
]


# --- The load generator -----------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    expect: int = 200


class Plan:
    """What one client sends: `next()` gives a request (None: nothing left), `answered()` hears back."""

    def next(self) -> Request | None:
        raise NotImplementedError

    def answered(self, request: Request, response: Response | None) -> None:
        """Called after every request (response None: it failed at the socket)."""


class Cycle(Plan):
    """The same few requests in turn, starting at `offset`."""

    def __init__(self, requests: Sequence[Request], offset: int = 0):
        self.requests = list(requests)
        self.index = offset

    def next(self) -> Request:
        request = self.requests[self.index % len(self.requests)]
        self.index += 1
        return request


class GamePool:
    """Fresh games for the round recorders, made before the window so it times only rounds."""

    def __init__(self) -> None:
        self.games: queue.SimpleQueue[Game] = queue.SimpleQueue()
        self.made_in_window = 0
        self.lock = threading.Lock()

    def fill(self, port: int, count: int, clients: int = CLIENTS) -> None:
        """Create `count` games through the API, from `clients` connections at once."""
        if count <= 0:
            return
        shares = [
            count // clients + (1 if index < count % clients else 0) for index in range(clients)
        ]

        def make(share: int) -> None:
            client = Client(port, TIMEOUT)
            try:
                for _ in range(share):
                    self.games.put(create_game(client, NAMES))
            finally:
                client.close()

        threads = [threading.Thread(target=make, args=(share,)) for share in shares if share]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def size(self) -> int:
        return self.games.qsize()

    def take(self, client: Client) -> Game:
        try:
            return self.games.get_nowait()
        except queue.Empty:
            with self.lock:
                self.made_in_window += 1
            return create_game(client, NAMES)  # the pool ran dry: counted and reported


class RecordRounds(Plan):
    """Rounds 1-7 of one game after another, each POST with the game's edit key."""

    BODIES = {number: encode(round_body(NAMES, number)) for number in range(1, LAST_DEAL + 1)}

    def __init__(self, pool: GamePool, client: Client):
        self.pool = pool
        self.client = client
        self.game: Game | None = None

    def next(self) -> Request:
        if self.game is None or self.game.rounds >= LAST_DEAL:
            self.game = self.pool.take(self.client)
        number = self.game.rounds + 1
        return Request(
            "POST",
            self.game.rounds_path,
            self.BODIES[number],
            json_headers(self.game.write_headers),
            expect=201,
        )

    def answered(self, request: Request, response: Response | None) -> None:
        if response is not None and response.status == 201:
            self.game.rounds += 1
        else:
            self.game = None  # never retry into a game in an unknown state


@dataclass
class Load:
    """One window of load on one endpoint."""

    seconds: float
    latencies: list[float]  # seconds, of the requests answered as expected inside the window
    errors: Counter
    cpu: float  # the load generator's CPU seconds over the window
    sample_error: str = ""
    made_in_window: int = 0  # games the round recorders had to create inside the window

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def percentile(self, fraction: float) -> float:
        """Nearest-rank percentile, in milliseconds."""
        if not self.latencies:
            return math.inf
        ordered = sorted(self.latencies)
        rank = max(1, math.ceil(fraction * len(ordered)))
        return ordered[rank - 1] * 1000


def run_load(
    port: int, plans: Callable[[int, Client], Plan], seconds: float, clients: int = CLIENTS
) -> Load:
    """`clients` threads, one keep-alive connection each, sending back to back for `seconds`."""
    window: dict[str, float] = {}
    started = threading.Barrier(clients, action=lambda: window.update(start=time.perf_counter()))
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[Counter] = [Counter() for _ in range(clients)]
    samples: list[str] = []

    def client_loop(index: int) -> None:
        client = Client(port, TIMEOUT)
        plan = plans(index, client)
        clock = time.perf_counter
        mine, failed = latencies[index], errors[index]
        try:
            started.wait()
            end = window["start"] + seconds
            for _ in range(MAX_REQUESTS):
                request = plan.next()
                if request is None:
                    break
                sent = clock()
                if sent >= end:
                    break
                try:
                    response = client.request(
                        request.method, request.path, request.body, request.headers
                    )
                except Exception as error:  # a socket error or a timeout: an error, not a crash
                    response = None
                    failure = type(error).__name__
                else:
                    failure = None if response.status == request.expect else response.status
                read = clock()
                plan.answered(request, response)
                if read > end:
                    break
                if failure is None:
                    mine.append(read - sent)
                else:
                    failed[failure] += 1
                    if not samples and response is not None:
                        samples.append(f"{response.status} {response.body[:200]!r}")
        finally:
            client.close()

    threads = [threading.Thread(target=client_loop, args=(index,)) for index in range(clients)]
    cpu_before = time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + TIMEOUT + 30)
    cpu = time.process_time() - cpu_before
    return Load(
        seconds=seconds,
        latencies=[value for part in latencies for value in part],
        errors=sum(errors, Counter()),
        cpu=cpu,
        sample_error=samples[0] if samples else "",
    )


# --- One run: every endpoint on one server ----------------------------------------------------


ENDPOINTS = (
    "GET /healthz",
    "GET /games/<id>",
    "POST /api/rules/meld",
    "POST /api/games/<id>/rounds",
)


def one_run(warmup: float, duration: float) -> dict[str, Load]:
    """Start the server, load each endpoint (warm-up, then the window), stop the server."""
    results: dict[str, Load] = {}
    with private_server() as server:
        port = server.port
        with Client(port, TIMEOUT) as setup:
            finished = seed_game(setup, LAST_DEAL)
            keeper = cookie_header(key_cookie(setup, finished))
            page = setup.request("GET", f"/games/{finished.id}", headers=keeper)
        if page.status != 200:
            raise RuntimeError(f"the game page answered {page.status}")

        static = {
            "GET /healthz": [Request("GET", "/healthz")],
            # As the tablet that keeps score sees it: with the game's key cookie.
            "GET /games/<id>": [
                Request(
                    "GET",
                    f"/games/{finished.id}",
                    headers={"Accept": "text/html", **keeper},
                )
            ],
            "POST /api/rules/meld": [
                Request("POST", "/api/rules/meld", encode({"cards": cards}), json_headers())
                for cards in MELDS
            ],
        }
        for name, requests in static.items():

            def plans(index: int, _client: Client, requests=requests) -> Plan:
                return Cycle(requests, offset=index)

            run_load(port, plans, warmup)
            results[name] = run_load(port, plans, duration)

        # Recording rounds: warm up on a small pool, then size the pool from the warm-up's rate
        # (with room to spare) so the window times rounds, not the creation of games.
        pool = GamePool()
        pool.fill(port, CLIENTS * 4)

        def recorders(_index: int, client: Client) -> Plan:
            return RecordRounds(pool, client)

        warm = run_load(port, recorders, warmup)
        expected_rounds = max(warm.rate, ROUNDS_TARGET) * duration * 2
        pool.fill(port, math.ceil(expected_rounds / LAST_DEAL) + 2 * CLIENTS - pool.size())
        pool.made_in_window = 0
        rounds = run_load(port, recorders, duration)
        rounds.made_in_window = pool.made_in_window
        results["POST /api/games/<id>/rounds"] = rounds
    return results


# --- Statements per request, in-process ---------------------------------------------------------


def count_statements() -> list[dict[str, Any]]:
    """Statements per request on the game page (1 and 7 rounds, 4 and 8 players) and a round POST."""
    from sqlalchemy import event

    from scorekeeper.platform.database import db

    rows = []
    with file_app("queries") as app:
        with app.app_context():
            engine = db.engine
        statements: list[str] = []

        def listener(_conn, _cursor, statement, _parameters, _context, _executemany):
            statements.append(statement)

        event.listen(engine, "before_cursor_execute", listener)
        try:
            client = FlaskSender(app.test_client())

            def measure(method: str, path: str, data: Any = None, headers=None) -> list[str]:
                statements.clear()
                if data is None:
                    answer = client.request(method, path, headers=headers)
                else:
                    answer = client.send_json(method, path, data, headers)
                if answer.status >= 400:
                    raise RuntimeError(f"{method} {path} answered {answer.status}")
                return list(statements)

            one = seed_game(client, 1)
            seven = seed_game(client, LAST_DEAL)
            eight = seed_game(client, LAST_DEAL, EIGHT_NAMES, rules="family")
            measure("GET", f"/games/{seven.id}")  # warm: the first request may load more
            pages = {}
            for label, game in (
                ("1 round, 4 players", one),
                ("7 rounds, 4 players", seven),
                ("7 rounds, 8 players", eight),
            ):
                # Rendered (the game just changed: the page cache misses), then served again.
                cache.forget_all(app)
                pages[f"GET /games/<id>: {label}, rendered"] = measure("GET", f"/games/{game.id}")
                pages[f"GET /games/<id>: {label}, cached"] = measure("GET", f"/games/{game.id}")
            fresh = create_game(client, NAMES)
            writes = {
                "POST /api/games/<id>/rounds: round 1": measure(
                    "POST", fresh.rounds_path, round_body(NAMES, 1), fresh.write_headers
                ),
            }
            fresh.rounds = 1
            for number in range(2, LAST_DEAL):
                measure("POST", fresh.rounds_path, round_body(NAMES, number), fresh.write_headers)
            writes["POST /api/games/<id>/rounds: round 7"] = measure(
                "POST", fresh.rounds_path, round_body(NAMES, LAST_DEAL), fresh.write_headers
            )
        finally:
            event.remove(engine, "before_cursor_execute", listener)

    def bounded(suffix: str) -> bool:
        """The same count for every game size, among the rendered or among the cached pages."""
        return len({len(found) for name, found in pages.items() if name.endswith(suffix)}) == 1

    for name, found in {**pages, **writes}.items():
        kinds = Counter(statement.split(None, 1)[0].upper() for statement in found)
        row = {
            "endpoint": name,
            "statements/request": len(found),
            "of which": ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())),
        }
        if name in pages:
            row["target"] = "bounded: same count for every game size"
            suffix = name.rsplit(", ", 1)[1]
            row["result"] = "met" if bounded(suffix) else "MISSED (grows with the game)"
        rows.append(row)
    return rows


# --- The table ----------------------------------------------------------------------------------


def _ms(value: float) -> str:
    return "-" if math.isinf(value) else f"{value:.1f}"


def summarize(runs: list[dict[str, Load]]) -> list[dict[str, Any]]:
    rows = []
    for name in ENDPOINTS:
        loads = [run[name] for run in runs]
        rate = statistics.median(load.rate for load in loads)
        p50 = statistics.median(load.percentile(0.50) for load in loads)
        p99 = statistics.median(load.percentile(0.99) for load in loads)
        ratio = statistics.median(
            load.rate / run["GET /healthz"].rate if run["GET /healthz"].rate else 0.0
            for load, run in zip(loads, runs, strict=True)
        )
        cpu = statistics.median(load.cpu / load.seconds for load in loads)
        errors = sum((load.errors for load in loads), Counter())
        row = {
            "endpoint": name,
            "runs": len(loads),
            "req/s": f"{rate:.0f}",
            "p50 ms": _ms(p50),
            "p99 ms": _ms(p99),
            "vs /healthz": f"{ratio:.2f}",
            "errors": ", ".join(f"{count}× {kind}" for kind, count in errors.items()) or "0",
            "load-gen CPU": f"{cpu:.0%}",
        }
        if name == "GET /healthz":
            row["target"] = "baseline"
            row["result"] = ""
        elif name.startswith("POST /api/games"):
            made = sum(load.made_in_window for load in loads)
            row["target"] = f">= {ROUNDS_TARGET:.0f} rounds/s (synchronous=FULL)"
            missed = [f"{rate:.0f} < {ROUNDS_TARGET:.0f} rounds/s"] if rate < ROUNDS_TARGET else []
            if errors:
                missed.append("errors")
            row["result"] = "met" if not missed else "MISSED (" + "; ".join(missed) + ")"
            if made:
                row["result"] += f"; {made} games made inside the window"
        else:
            row["target"] = f">= {RATIO_TARGET:.0%} of /healthz, p99 <= {P99_TARGET_MS:.0f} ms"
            missed = []
            if ratio < RATIO_TARGET:
                missed.append(f"{ratio:.2f} < {RATIO_TARGET}")
            if p99 > P99_TARGET_MS:
                missed.append(f"p99 {p99:.0f} > {P99_TARGET_MS:.0f} ms")
            if errors:
                missed.append("errors")
            row["result"] = "met" if not missed else "MISSED (" + "; ".join(missed) + ")"
        samples = [load.sample_error for load in loads if load.sample_error]
        if samples:
            row["result"] += f" - first error: {samples[0]}"
        rows.append(row)
    return rows


def load_average() -> str:
    """The host's 1-minute load average: other work on the machine moves every figure here."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def main(quick: bool = False) -> list[dict[str, Any]]:
    warmup = QUICK_WARMUP if quick else WARMUP
    duration = QUICK_DURATION if quick else DURATION
    before = load_average()
    runs = [one_run(warmup, duration) for _ in range(QUICK_RUNS if quick else RUNS)]
    rows = summarize(runs)
    rows[0]["result"] = f"host load avg {before} → {load_average()} (nproc {os.cpu_count()})"
    return rows + count_statements() + page_rows(quick)
