"""Real server processes for tests: `python -m scorekeeper.serve` on loopback, and HTTP to it."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parent.parent.parent


# The line `python -m scorekeeper.serve` prints once it listens.
ANNOUNCED_PORT = re.compile(r"open http://localhost:(\d+)/")


class Server:
    """`python -m scorekeeper.serve` as its own process, on loopback, on the given database."""

    def __init__(self, database_url: str, log: Path, env: dict[str, str] | None = None):
        self.database_url = database_url
        self.log_path = log
        self.env = env or {}
        self.process: subprocess.Popen | None = None
        self.port = 0

    def start(self, timeout: float = 20) -> None:
        """Start on a port the server itself picks (`--port 0`), read back from what it prints:
        no other process can take the port between choosing and binding it."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "concurrency-test",
            **self.env,
        }
        printed_before = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", "0"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped on start:\n{self.log()}")
            printed = self.log_path.read_bytes()[printed_before:].decode("utf-8", "replace")
            bound = ANNOUNCED_PORT.search(printed)
            if bound:
                self.port = int(bound.group(1))
                with contextlib.suppress(OSError):
                    if request(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                        return
            time.sleep(0.02)
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, no goodbye."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    key: str | None = None,
    timeout: float = 15,
) -> tuple[int, Any]:
    """One HTTP request on a fresh connection: (status, parsed JSON or text)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["X-Game-Key"] = key
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        if response.getheader("Content-Type", "").startswith("application/json"):
            return response.status, json.loads(raw)
        return response.status, raw.decode("utf-8", "replace")
    finally:
        connection.close()


def integrity(database_url: str) -> str:
    """ "ok", or what is wrong: SQLite's own check, then on any engine a ledger with a gap."""
    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            if engine.dialect.name == "sqlite":
                result = connection.exec_driver_sql("PRAGMA integrity_check").scalar()
                if result != "ok":
                    return result
            gaps = connection.exec_driver_sql(
                "SELECT game_id, count(*), max(number) FROM rounds GROUP BY game_id"
                " HAVING count(*) <> max(number)"
            ).fetchall()
            if gaps:
                return f"ledgers with a gap (game, rounds, last round): {gaps}"
            lonely = connection.exec_driver_sql(
                "SELECT count(*) FROM round_scores s LEFT JOIN rounds r ON r.id = s.round_id"
                " WHERE r.id IS NULL"
            ).scalar()
            return "ok" if not lonely else f"{lonely} scores of no round"
    finally:
        engine.dispose()


def at_once(calls) -> list[tuple[int, Any]]:
    """Run every call in its own thread, released together, and collect the answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            answers[index] = call()
        except Exception as error:  # noqa: BLE001  (reported by the assertion below)
            answers[index] = (None, repr(error))

    threads = [threading.Thread(target=run, args=item) for item in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers
