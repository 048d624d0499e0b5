"""Servers for tests and benchmarks: `python -m scorekeeper.serve` (cheroot) as its own process
on loopback, an app served in this process (`serving`), and HTTP/1.1 to either."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from tests.support.config import RAISED_LIMITS

ROOT = Path(__file__).resolve().parent.parent.parent
LOOPBACK = "127.0.0.1"

# The lines `python -m scorekeeper.serve` prints once it listens: its HTTP port, and with
# `--https yes` its HTTPS port too.
ANNOUNCED_PORT = re.compile(r"open http://localhost:(\d+)/")
ANNOUNCED_HTTPS_PORT = re.compile(r"open https://localhost:(\d+)/")
# How the server process is started: the module `make run` runs.
SERVE_MODULE = ("-m", "scorekeeper.serve")
# The database of every server process started here, in order (the tests' conftest checks that
# each is on the engine under test).
STARTED_ON: list[str] = []
# How often a server served in this process looks for its stop: at the standard library's 0.5 s,
# every test that serves an app would wait that long to end.
STOP_POLL_SECONDS = 0.01


def free_port() -> int:
    """A loopback port no one listens on now, for a server that must be told its port (nginx,
    redis-server, a server started again on the port it had)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


class Server:
    """`python -m scorekeeper.serve` as its own process, on loopback, on the given database;
    `with Server(...)` starts it and stops it again. HTTP alone (`--https no`) unless `https`:
    then HTTPS too, on a port of its own (`https_port`), with the certificate in the
    environment's `TLS_FOLDER`."""

    def __init__(
        self,
        database_url: str,
        log: Path,
        env: Mapping[str, str] | None = None,
        https: bool = False,
    ):
        self.database_url = database_url
        self.log_path = log
        self.env = dict(env or {})
        self.https = https
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.https_port: int | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    @property
    def tls_folder(self) -> Path:
        """Where the server keeps its authority and certificate (its `TLS_FOLDER`)."""
        return Path(self.env["TLS_FOLDER"])

    @property
    def secure_url(self) -> str:
        """The HTTPS address by the name the certificate holds for loopback."""
        assert self.https_port is not None, "started without HTTPS"
        return f"https://localhost:{self.https_port}"

    def __enter__(self) -> Server:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()

    def start(self, timeout: float = 20, ports: tuple[int, int | None] = (0, 0)) -> None:
        """Start on ports the server itself picks (`--port 0`), read back from what it prints:
        no other process can take a port between choosing and binding it."""
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "live-server-test",
            **RAISED_LIMITS,
            **self.env,
        }
        STARTED_ON.append(self.database_url)
        command = [sys.executable, *SERVE_MODULE, "--host", LOOPBACK, "--port", str(ports[0])]
        if self.https:
            command += ["--https", "yes", "--https-port", str(ports[1])]
        else:
            command += ["--https", "no"]
        printed_before = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server stopped on start ({self.process.returncode}):\n{self.log()}"
                )
            printed = self.log_path.read_bytes()[printed_before:].decode("utf-8", "replace")
            bound = ANNOUNCED_PORT.search(printed)
            secure = ANNOUNCED_HTTPS_PORT.search(printed)
            if bound and (secure or not self.https):
                self.port = int(bound.group(1))
                self.https_port = int(secure.group(1)) if secure else None
                with contextlib.suppress(OSError):
                    if request(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                        return
            time.sleep(0.02)
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    def restart(self) -> None:
        """Start again on the same ports, as `make run` is started again after a stop."""
        self.start(ports=(self.port, self.https_port))

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


@contextlib.contextmanager
def server_pair(
    database_url: str, folder: Path, env: Mapping[str, str] | None = None
) -> Iterator[list[Server]]:
    """Two server processes on one database (their logs in `folder`, their settings over the
    tests' in `env`), stopped when the block ends; neither may have logged a traceback."""
    pair = [Server(database_url, folder / f"server-{n}.log", env) for n in (1, 2)]
    try:
        for server in pair:
            server.start()
        yield pair
    finally:
        for server in pair:
            server.stop()
    for server in pair:
        assert "Traceback" not in server.log(), server.log()


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes
    cookies: list[str] = field(default_factory=list)  # every Set-Cookie header, in order

    def json(self) -> Any:
        return json.loads(self.body)

    def parsed(self) -> Any:
        """The body as JSON when the server says it is, as text otherwise."""
        if self.headers.get("content-type", "").startswith("application/json"):
            return self.json()
        return self.body.decode("utf-8", "replace")


class Client:
    """One keep-alive HTTP/1.1 connection to a server on loopback (stdlib `http.client`)."""

    def __init__(self, port: int, timeout: float = 15):
        self.port = port
        self.timeout = timeout
        self.connection = http.client.HTTPConnection(LOOPBACK, port, timeout=timeout)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """Send one request and read the whole answer; after a dropped connection the next
        request opens a new one."""
        try:
            self.connection.request(method, path, body=body, headers=dict(headers or {}))
            answer = self.connection.getresponse()
            data = answer.read()
        except (http.client.HTTPException, OSError):
            self.reconnect()
            raise
        if answer.will_close:
            self.reconnect()
        headers = {name.lower(): value for name, value in answer.getheaders()}
        return Response(answer.status, headers, data, answer.headers.get_all("Set-Cookie") or [])

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


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    key: str | None = None,
    timeout: float = 15,
) -> tuple[int, Any]:
    """One HTTP request on a fresh connection: (status, parsed JSON or text)."""
    headers = {"X-Game-Key": key} if key is not None else {}
    data = None
    if body is not None:
        data = encode(body)
        headers["Content-Type"] = "application/json"
    with Client(port, timeout) as client:
        answer = client.request(method, path, data, headers)
    return answer.status, answer.parsed()


def send(port: int, method: str, path: str, body=None, idempotency: str | None = None):
    """One JSON request (`{}` when no body is given) on a fresh connection, with its
    `Idempotency-Key` when given: (status, parsed answer), for tests racing two processes."""
    headers = {"Content-Type": "application/json"}
    if idempotency is not None:
        headers["Idempotency-Key"] = idempotency
    with Client(port) as client:
        answer = client.request(method, path, encode(body or {}), headers)
    return answer.status, answer.parsed()


@contextlib.contextmanager
def private_server(env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """A started server on a SQLite file of its own in a temporary folder (never `instance/`),
    stopped and removed when the block ends."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-server-") as folder:
        database = Path(folder) / "book.sqlite"
        with Server(f"sqlite:///{database}", Path(folder) / "server.log", env) as server:
            yield server


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


class Wifi:
    """The network between the browsers and an app served in this process: while it is down, a
    request never reaches the app; its connection is dropped unanswered, as when the tablet's
    Wi-Fi is gone. A browser told it is offline still sends now and then (Chromium's offline
    switch and request interception each let a post out, once in many runs, as they take effect
    or are lifted when a profile closes); down here, nothing it sends is recorded. A test reading
    the score book past the browser is the laptop itself, wired (`WIRED`), never cut off."""

    WIRED = {"X-Wired": "1"}

    def __init__(self, application) -> None:
        self.application = application
        self.is_up = True
        # What arrived while the network was down: (method, path), never passed to the app.
        self.dropped: list[tuple[str, str]] = []

    def down(self) -> None:
        self.is_up = False

    def up(self) -> None:
        self.is_up = True

    def __call__(self, environ, start_response):
        if not self.is_up and "HTTP_X_WIRED" not in environ:
            self.dropped.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
            with contextlib.suppress(OSError):
                environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            # The server takes a dropped connection as the client gone, and answers nothing.
            raise ConnectionAbortedError("the network is down")
        return self.application(environ, start_response)


# The network of each app served in this process, by its port.
_NETWORKS: dict[int, Wifi] = {}


def wifi(url: str) -> Wifi:
    """The network in front of the app served at `url` (`serving`)."""
    return _NETWORKS[int(re.search(r":(\d+)", url.split("//", 1)[-1]).group(1))]


@contextlib.contextmanager
def serving(application, host: str = LOOPBACK) -> Iterator[str]:
    """Serve an app in this process over HTTP on a free port for as long as the block runs (on
    loopback unless `host` says otherwise; the address given back is always loopback's), behind
    a network that a test can take down (`wifi`)."""
    from werkzeug.serving import make_server

    network = Wifi(application)
    server = make_server(host, 0, network, threaded=True)
    _NETWORKS[server.server_port] = network
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": STOP_POLL_SECONDS}, daemon=True
    )
    thread.start()
    try:
        yield f"http://{LOOPBACK}:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        _NETWORKS.pop(server.server_port, None)


def refused_on_a_busy_port(
    arguments: Callable[[int], list[str]], env: Mapping[str, str], variable: str = "PORT"
) -> subprocess.CompletedProcess:
    """Start `python <arguments(port)>` on a loopback port another socket holds: it must exit
    non-zero with one sentence naming `variable` and another port, and announce nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind((LOOPBACK, 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, *arguments(port)],
            cwd=ROOT,
            env={"PATH": "/usr/bin:/bin", **env},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode != 0
    match = re.fullmatch(rf"port {port} is in use: try {variable}=(\d+) make run\n", result.stderr)
    assert match, result.stderr
    assert int(match.group(1)) != port
    assert "Traceback" not in result.stderr + result.stdout
    assert "open http" not in result.stdout  # nothing announced for a server that never started
    assert "scan" not in result.stdout
    return result
