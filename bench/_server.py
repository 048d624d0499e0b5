"""Shared by the web and weight benchmarks: the app under waitress on loopback, and a client.

`Server` starts `python -m scorekeeper.serve` as a subprocess on a free loopback port, with its
own SQLite file in a temporary folder (so the benchmarks never touch `instance/`), waits for
`/healthz`, and stops the process it started when the `with` block ends. `Client` is one
keep-alive HTTP/1.1 connection (stdlib `http.client`). The seeding helpers create games and
record rounds through the JSON API, sending the game's edit key (`X-Game-Key`) on writes when
the create response carries one.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = "127.0.0.1"
NAMES = ["Ann", "Bob", "Cat", "Dan"]
EIGHT_NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
KEY_HEADER = "X-Game-Key"
LAST_ROUND = 7

# Cards left in the hands of the players who did not go out, a few per round, all within the copy
# limits of two packs and three jokers. Rank-only entries are allowed too (the penalty needs no suit).
HANDS = [
    "K♠ 7♦",
    "JK 3♣ 3♥",
    "A♥",
    "10♦ 10♣ 4♠",
    "Q♥ 9♣",
    "2♠ 5♦ 8♥ J♣",
    "6♣",
    "K♦ K♥ 2♣",
    "7♠ JK",
    "5♥ 9♦ Q♠",
    "8♣ A♠",
    "4♦ 6♥ J♦",
]


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


class Server:
    """`python -m scorekeeper.serve` on loopback with a private SQLite file; a context manager."""

    def __init__(
        self,
        *,
        threads: int | None = None,
        startup_timeout: float = 30.0,
        module: str = "scorekeeper.serve",
        env: Mapping[str, str] | None = None,
    ):
        self.threads = threads  # None: serve.py's default
        self.module = module  # another module only to try a change out (it must call serve.main)
        self.extra_env = dict(env or {})
        self.startup_timeout = startup_timeout
        self.port = 0
        self.folder: Path | None = None
        self.process: subprocess.Popen | None = None
        self._log = None

    @property
    def database(self) -> Path:
        assert self.folder is not None
        return self.folder / "bench.sqlite"

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def __enter__(self) -> Server:
        self.folder = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
        self.port = free_port()
        env = dict(os.environ)
        env["DATABASE_URL"] = f"sqlite:///{self.database}"
        env["SECRET_KEY"] = secrets.token_hex(32)
        env["PYTHONUNBUFFERED"] = "1"
        env.update(self.extra_env)
        command = [sys.executable, "-m", self.module, "--host", LOOPBACK]
        command += ["--port", str(self.port)]
        if self.threads is not None:
            command += ["--threads", str(self.threads)]
        self._log = open(self.folder / "server.log", "wb")  # noqa: SIM115  (closed in __exit__)
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        try:
            self._wait_until_up()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited with {self.process.returncode}:\n{self.log()}"
                )
            try:
                client = Client(self.port, timeout=2)
                try:
                    if client.request("GET", "/healthz").status == 200:
                        return
                finally:
                    client.close()
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        raise RuntimeError(f"the server did not answer /healthz in {self.startup_timeout} s")

    def log(self) -> str:
        if self.folder is None or not (self.folder / "server.log").exists():
            return ""
        return (self.folder / "server.log").read_text(errors="replace")[-4000:]

    def __exit__(self, *exc_info) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # only the process this object started, by its handle
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """One keep-alive HTTP/1.1 connection to the loopback server (stdlib `http.client`)."""

    def __init__(self, port: int, timeout: float = 10.0):
        self.port = port
        self.timeout = timeout
        self.connection = http.client.HTTPConnection(LOOPBACK, port, timeout=timeout)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """Send one request and read the whole answer; a dropped connection is opened again."""
        try:
            self.connection.request(method, path, body=body, headers=dict(headers or {}))
            answer = self.connection.getresponse()
            data = answer.read()
        except (http.client.HTTPException, ConnectionError, TimeoutError, OSError):
            self.reconnect()
            raise
        if answer.will_close:
            self.reconnect()
        return Response(answer.status, {k.lower(): v for k, v in answer.getheaders()}, data)

    def send_json(
        self, method: str, path: str, data: Any, headers: Mapping[str, str] | None = None
    ) -> Response:
        return self.request(method, path, encode(data), json_headers(headers))

    def reconnect(self) -> None:
        self.connection.close()
        self.connection = http.client.HTTPConnection(LOOPBACK, self.port, timeout=self.timeout)

    def close(self) -> None:
        self.connection.close()


def encode(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def json_headers(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    return {"Content-Type": "application/json", "Accept": "application/json", **(extra or {})}


# --- Games through the JSON API ---------------------------------------------------------------


@dataclass
class Game:
    """A game created through the API: its id, players and edit key (None before keys exist)."""

    id: int
    names: list[str]
    key: str | None = None
    rounds: int = 0
    data: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def write_headers(self) -> dict[str, str]:
        """What every write to this game sends: the edit key, when the server gave one."""
        return {KEY_HEADER: self.key} if self.key else {}


def key_cookie(game: Game) -> dict[str, str]:
    """The cookie the tablet that started the game holds (the API hands the key over instead)."""
    if not game.key:
        return {}
    try:
        from scorekeeper.scorebook.keys import cookie_name
    except ImportError:  # the app has no edit keys: nothing to hold
        return {}
    return {cookie_name(game.id): game.key}


def cookie_header(cookies: Mapping[str, str]) -> dict[str, str]:
    if not cookies:
        return {}
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items())}


def game_body(names: Sequence[str] = NAMES, profile: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"players": list(names), "first_dealer": names[0]}
    if profile:
        body["profile"] = profile
    return body


def read_game(response: Response, names: Sequence[str]) -> Game:
    if response.status != 201:
        raise RuntimeError(f"POST /api/games answered {response.status}: {response.body[:300]!r}")
    data = response.json()
    return Game(id=data["id"], names=list(names), key=data.get("key"), data=data)


def create_game(client: Client, names: Sequence[str] = NAMES, profile: str | None = None) -> Game:
    return read_game(client.send_json("POST", "/api/games", game_body(names, profile)), names)


def round_body(names: Sequence[str], number: int, salt: int = 0) -> dict[str, Any]:
    """A plausible round: one player out (nobody in every ninth), the others holding a few cards."""
    players = len(names)
    out = None if (number + salt) % 9 == 0 else (number + salt) % players
    leftovers = {
        name: HANDS[(number * 3 + seat + salt) % len(HANDS)]
        for seat, name in enumerate(names)
        if seat != out
    }
    return {
        "out": None if out is None else names[out],
        "cut_exact": (number + salt) % 5 == 0,
        "leftovers": leftovers,
    }


def rounds_path(game: Game) -> str:
    return f"/api/games/{game.id}/rounds"


def record_rounds(client: Client, game: Game, count: int, salt: int = 0) -> None:
    """Record the game's next `count` rounds through the API."""
    for _ in range(count):
        number = game.rounds + 1
        response = client.send_json(
            "POST", rounds_path(game), round_body(game.names, number, salt), game.write_headers
        )
        if response.status != 201:
            raise RuntimeError(
                f"recording round {number} of game {game.id} answered {response.status}: "
                f"{response.body[:300]!r}"
            )
        game.rounds = number


def seed_game(
    client: Client,
    rounds: int,
    names: Sequence[str] = NAMES,
    profile: str | None = None,
    salt: int = 0,
) -> Game:
    """A game with `rounds` rounds recorded (7: a finished game)."""
    game = create_game(client, names, profile)
    record_rounds(client, game, rounds, salt)
    return game
