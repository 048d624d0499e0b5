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
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
import uuid
from pathlib import Path

from tests.support.config import TEST_DATABASE_URL, Databases
from tests.support.games import create_game, record
from tests.support.names import EIGHT_NAMES
from tests.support.server import Client, Server

TITLE = "Phones sending hands (cheroot on loopback, 8 phones at once)"
PHONES = 8
GAMES = 4
QUICK_GAMES = 1
P95_TARGET_MS = 100.0
HANDS = ["K Q 5", "JK 3", "A", "10 10 4", "Q 9", "2 5 8 J", "6", "K K 2"]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


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


def main(quick: bool = False) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-phones-") as name:
        folder = Path(name)
        for engine, url in _engines(folder):
            with Server(url, folder / f"{engine}.log") as server:
                result = _play(server, QUICK_GAMES if quick else GAMES)
            for copies, ms in result["latencies"].items():
                p95 = _percentile(ms, 0.95)
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
    return rows
