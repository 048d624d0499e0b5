"""Eight phones sending their hands at once to one game, through the API, on SQLite and (under
`.ci/postgres`, which sets TEST_DATABASE_URL) PostgreSQL.

Each run starts `python -m scorekeeper.serve` (cheroot) on loopback on a fresh database. A table
of 8 (family rules, 7 deals) plays its game: the tablet opens each round to phones, the 8 phones
take their seats, then all 8 send their hands at once, each on its own connection (opened
before), released together by a barrier: the target's case. Every other round each phone sends
its hand twice at the same moment with one `Idempotency-Key` (a double tap), so 16 requests race. The tablet then reads every
seat (each must hold exactly the hand sent, sent once) and records the round with those hands;
the next round opens, and so on through several games. The first burst is a warm-up (the
server opens its database connections), not counted. Latency is from send to the last byte
read of each PUT answer. Target: p95 <= 100 ms per engine, every hand stored once.

Then, on the same server, the tablet's poll of the seats' state (static/phonecollect.js, every
second while it collects the hands) while nothing moved: a game of 8 with 6 rounds recorded,
round 7 opened, the 8 phones seated and 4 hands sent; the tablet (the edit key's cookie, as its
page holds it) asks `GET /games/<id>/rounds/7/phones/state` with the tag held, one request after
another on one keep-alive connection, each answered 304; beside it the game page's own poll
(`GET /games/<id>/state`, 304) for comparison. Then each of the 4 other phones sends its hand,
and the poll after each must answer 200 with it and a new tag (timed too). "server CPU" is the
server process's own CPU time (user + system, psutil) over the polls, per poll.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from bench.screen import percentile, timed
from tests.support.config import TEST_DATABASE_URL, Databases
from tests.support.games import cookie_header, create_game, key_cookie, record
from tests.support.names import EIGHT_NAMES
from tests.support.server import Client, Response, Server

TITLE = "Phones sending hands (cheroot on loopback, 8 phones at once)"
PHONES = 8
GAMES = 4
QUICK_GAMES = 1
P95_TARGET_MS = 100.0
HANDS = ["K Q 5", "JK 3", "A", "10 10 4", "Q 9", "2 5 8 J", "6", "K K 2"]
POLLS = 1000
QUICK_POLLS = 200
# The round the seats' poll is measured on: the game's last, with every round before it recorded.
POLLED_ROUND = 7


def _burst(
    port: int, code: str, tokens: list[str], number: int, copies: int
) -> list[tuple[int, float]]:
    """Every phone sends its hand `copies` times at the same moment (one key): (status, ms)."""
    barrier = threading.Barrier(copies * PHONES)
    answers: list[tuple[int, float]] = [(0, 0.0)] * (copies * PHONES)

    def send(index: int, token: str, key: str, cards: str) -> None:
        with Client(port) as client:
            client.request("GET", "/healthz")  # the connection is open before the clock starts
            barrier.wait()
            started = time.perf_counter()
            answer = client.send_json(
                "PUT",
                f"/api/join/{code}/hand",
                {"cards": cards, "round": number},
                {"X-Seat-Token": token, "Idempotency-Key": key},
            )
            answers[index] = (answer.status, (time.perf_counter() - started) * 1000)

    threads = []
    for seat, token in enumerate(tokens):
        key = str(uuid.uuid4())
        for twin in range(copies):
            index = copies * seat + twin
            args = (index, token, key, HANDS[(seat + number) % len(HANDS)])
            threads.append(threading.Thread(target=send, args=args))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def _play(server: Server, games: int) -> dict:
    # Odd rounds: each phone sends once (8 at once); even rounds: each sends twice with one
    # key, as a double tap does (16 at once).
    latencies: dict[int, list[float]] = {1: [], 2: []}
    wrong: list[str] = []
    rounds = 0
    with Client(server.port) as tablet:
        for played in range(games):
            game = create_game(tablet, EIGHT_NAMES, "family")
            for number in range(1, 8):
                opened = tablet.request(
                    "POST", f"/api/games/{game.id}/rounds/{number}/open", None, game.headers
                ).json()
                code = opened["code"]
                tokens = [
                    tablet.send_json("POST", f"/api/join/{code}", {"seat": name}).json()["token"]
                    for name in game.names
                ]
                copies = 1 if number % 2 else 2
                for status, ms in _burst(server.port, code, tokens, number, copies):
                    if played or number > 1:  # the first burst warms up (opens the pool)
                        latencies[copies].append(ms)
                    if status != 200:
                        wrong.append(f"PUT answered {status}")
                seats = tablet.request(
                    "GET", f"/api/games/{game.id}/rounds/{number}/hands", None, game.headers
                ).json()["seats"]
                for seat in seats:
                    expected = HANDS[(seat["seat"] + number) % len(HANDS)].split()
                    if seat["sends"] != 1 or sorted(seat["hand"]["cards"].split()) != sorted(
                        expected
                    ):
                        wrong.append(f"round {number} {seat['name']}: {seat}")
                out = game.names[number % PHONES]
                hands = {s["name"]: s["hand"]["cards"] for s in seats if s["name"] != out}
                record(tablet, game, out, hands)
                rounds += 1
    return {"latencies": latencies, "wrong": wrong, "rounds": rounds}


def _engines(folder: Path) -> list[tuple[str, str]]:
    engines = [("SQLite", f"sqlite:///{folder / 'phones.sqlite'}")]
    if TEST_DATABASE_URL is not None:
        engines.append(("PostgreSQL", Databases(folder).make("phones")))
    return engines


def _timed(server: Server, count: int, ask: Callable[[], Response], status: int) -> dict:
    """`count` requests one after another (timed as the screen's are): p50, p95 ms and the
    server's CPU per request."""
    run = timed(server.process.pid, count, ask, status)
    return {
        "requests": count,
        "p50 ms": f"{statistics.median(run.times):.2f}",
        "p95 ms": f"{percentile(run.times, 0.95):.2f}",
        "server CPU ms/request": f"{run.cpu_ms:.3f}",
    }


def _seats_poll(server: Server, engine: str, polls: int) -> list[dict]:
    """The tablet's seats poll (304) and the game page's (304) while nothing moved, then the
    poll after each of 4 hands sent (200, with the hand)."""
    with Client(server.port) as tablet, Client(server.port) as phones:
        game = create_game(tablet, EIGHT_NAMES, "family")
        for number in range(1, POLLED_ROUND):
            record(tablet, game, game.names[number % PHONES])
        opened = tablet.request(
            "POST", f"/api/games/{game.id}/rounds/{POLLED_ROUND}/open", None, game.headers
        )
        code = opened.json()["code"]
        tokens = [
            phones.send_json("POST", f"/api/join/{code}", {"seat": name}).json()["token"]
            for name in game.names
        ]

        def send(seat: int) -> None:
            phones.reconnect()  # idle while the polls were timed: the server may have closed it
            answer = phones.send_json(
                "PUT",
                f"/api/join/{code}/hand",
                {"cards": HANDS[seat], "round": POLLED_ROUND},
                {"X-Seat-Token": tokens[seat]},
            )
            assert answer.status == 200, answer.body[:200]

        for seat in range(4):
            send(seat)
        cookie = cookie_header(key_cookie(tablet, game))
        seats = f"/games/{game.id}/rounds/{POLLED_ROUND}/phones/state"
        tag = tablet.request("GET", seats, headers=cookie).json()["tag"]
        game_tag = tablet.request("GET", f"/games/{game.id}/state").json()["tag"]
        held = {**cookie, "If-None-Match": f'"{tag}"'}
        on_page = {"If-None-Match": f'"{game_tag}"'}
        rows = [
            {
                "engine": engine,
                "what": "the tablet's seats poll, nothing changed (304)",
                **_timed(server, polls, lambda: tablet.request("GET", seats, headers=held), 304),
            },
            {
                "engine": engine,
                "what": "the game page's poll, nothing changed (304)",
                **_timed(
                    server,
                    polls,
                    lambda: tablet.request("GET", f"/games/{game.id}/state", headers=on_page),
                    304,
                ),
            },
        ]
        times = []
        for seat in range(4, PHONES):
            send(seat)
            started = time.perf_counter()
            answer = tablet.request("GET", seats, headers={**cookie, "If-None-Match": f'"{tag}"'})
            times.append((time.perf_counter() - started) * 1000)
            assert answer.status == 200, answer.status
            state = answer.json()
            sent = sorted(state["seats"][seat]["hand"]["cards"].split())
            assert state["tag"] != tag and sent == sorted(HANDS[seat].split()), state
            tag = state["tag"]
        rows.append(
            {
                "engine": engine,
                "what": "the tablet's seats poll after a hand arrived (200)",
                "requests": len(times),
                "p50 ms": f"{statistics.median(times):.2f}",
                "p95 ms": f"{max(times):.2f}",
            }
        )
    return rows


def poll_rows(quick: bool = False) -> list[dict]:
    """The seats' poll alone, on each engine (see the module's docstring)."""
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-phones-") as name:
        folder = Path(name)
        for engine, url in _engines(folder):
            with Server(url, folder / f"{engine}.log") as server:
                rows += _seats_poll(server, engine, QUICK_POLLS if quick else POLLS)
    return rows


def main(quick: bool = False) -> list[dict]:
    rows = []
    polled: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-phones-") as name:
        folder = Path(name)
        for engine, url in _engines(folder):
            with Server(url, folder / f"{engine}.log") as server:
                result = _play(server, QUICK_GAMES if quick else GAMES)
                polled += _seats_poll(server, engine, QUICK_POLLS if quick else POLLS)
            for copies, ms in result["latencies"].items():
                p95 = percentile(ms, 0.95)
                rows.append(
                    {
                        "engine": engine,
                        "sends at once": f"{PHONES * copies}"
                        + (" (each phone twice, one key)" if copies > 1 else " (8 phones)"),
                        "PUTs": len(ms),
                        "p50 ms": f"{statistics.median(ms):.1f}",
                        "p95 ms": f"{p95:.1f}",
                        "max ms": f"{max(ms):.1f}",
                        "hands stored once": "yes" if not result["wrong"] else result["wrong"][:3],
                        "target p95 <= 100 ms": (
                            ("met" if p95 <= P95_TARGET_MS else "MISSED")
                            if copies == 1
                            else "(no target)"
                        ),
                    }
                )
    return rows + polled
