"""A real Redis for tests: Debian's `redis-server` started on a free loopback port, its files in a
temporary folder, stopped (and started again on the same port) as a test asks."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests.support.server import LOOPBACK, free_port

START_SECONDS = 10


def redis_server_path() -> str:
    """Debian's redis-server; missing: fail in CI, else skip."""
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK) else None
    )
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "redis-server is missing: .ci/run must install it (apt-get install redis-server)"
            )
        pytest.skip("redis-server is not installed (apt-get install redis-server) - skipped")
    return found


class RedisServer:
    """`redis-server` on loopback, keeping nothing on disk; `url` for `REDIS_URL`."""

    def __init__(self, folder: Path):
        self.program = redis_server_path()
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = 0
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=5)

    def start(self) -> None:
        """Start on a free port (or the port it had, when started again), and wait for PONG."""
        for _attempt in range(5):
            port = self.port or free_port()
            if self._started_on(port):
                self.port = port
                return
            if self.port:
                break  # its own port, taken meanwhile: nothing else to try
        raise RuntimeError(f"redis-server did not start:\n{self.log()}")

    def _started_on(self, port: int) -> bool:
        command = [
            self.program,
            "--bind",
            LOOPBACK,
            "--port",
            str(port),
            "--dir",
            str(self.folder),
            "--save",
            "",
            "--appendonly",
            "no",
            "--logfile",
            str(self.folder / "redis.log"),
        ]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        client = redis.Redis(host=LOOPBACK, port=port, socket_timeout=1)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False  # the port was taken between choosing it and binding it
            try:
                if client.ping():
                    return True
            except redis.ConnectionError:
                time.sleep(0.02)
        self.stop()
        return False

    def stop(self) -> None:
        """Stop it (its counts go with it: nothing is saved)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def log(self) -> str:
        path = self.folder / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""
