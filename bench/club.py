"""A club's evening under load: 16 tables and the room's screen, on the club set-up and `make run`.

**A, the club set-up** (docs/serving.md): two app processes (`python -m scorekeeper.serve
--https no`, cheroot, 8 threads each) on one PostgreSQL (a throwaway cluster of its own, with
PostgreSQL's durable defaults: fsync on) and one Redis, the same SECRET_KEY, TRUSTED_PROXIES=1,
behind nginx running the file `scorekeeper config nginx` writes (`deployment.nginx`; HTTPS with a
certificate of the bench's own, `worker_processes auto`, the access log on). **B, side by side**:
one `make run`-like process (`python -m scorekeeper.serve`, plain HTTP, a SQLite file, no proxy).
Both get the raised per-address limits the tests use (every device here has one address).

**The load**, the same on each: a night of 64 players drawn into 16 tables of 4 through
`/api/nights` (Liverpool rules), and every device of the room as its page's script behaves, each
on its own keep-alive connection (`http.client`; HTTPS to nginx on A), each in a thread:

- the **tablet** of each table: its game page (with the game's key cookie), then the page's
  state every 2 s (`If-None-Match`, as static/live.js), the page again when the tag moved. Every
  round (after 5-12 s on the game page) it opens the round to phones (`POST …/rounds/<n>/open`),
  loads the collecting page (and its QR code's image) and asks the seats' state every 1 s (static/phonecollect.js's
  `POLL_MS`) until all four hands are in, waits a second (the cut checked) and saves the round
  (`POST /api/games/<id>/rounds`, with an `Idempotency-Key`), then loads the game page again;
- four **phones** per table: at each round's opening, after 0.5-3 s (the code scanned) each
  takes its seat (`POST /api/join/<code>`), reads its seat (`GET /api/join/<code>/hand`) and after
  another 2-6 s (the cards tapped in) sends its hand (`PUT /api/join/<code>/hand`; one of the four
  went out). A phone's page polls nothing (static/phonehand.js);
- a **spectator** per table: the game page, its state every 2 s, the page again on a new tag;
- the room's **screen**: `/nights/<id>/screen`, its state every 2 s (static/screen.js), the page
  again on a new tag.

The phones speak the JSON API (`docs/games-api.md`), which does the same work as the phone's
page and its form; the tablet saves through the API too, not the round form. Static files (CSS,
scripts) are not asked for: a browser holds them from its first visit.

So a round takes 10-20 s here where a real deal takes 10 minutes or more: the writes come about
40x denser than at a real evening, the reads at the pages' real rates. Polls keep their period
(a poll still in flight skips its turn, as the scripts' `busy` does); devices start spread over
the first 2 s. A connection the server has closed while idle is opened again before the next
request (cheroot drops a connection silent for 10 s, nginx after 75 s), and a request that meets
a connection closed under it is sent once more on a new one, as a browser does (writes carry an
`Idempotency-Key` or are idempotent): those are counted, apart from errors.

**Measured**: after a warm-up, a fixed window. Reads are the GETs (polls answered 200 or 304,
pages), writes the POSTs and PUTs; latency from send to the last byte read, at the device. An
error is any other status or a failed request. "server CPU" is the server processes' own CPU
(user + system, psutil) over the window, 100 % = one core: on A the app processes, nginx (master
and workers), PostgreSQL (postmaster and backends) and Redis. The load generator runs on the same
2 cores (its CPU is given too), and so does everything else on the machine (the load average).
Beside it, per set-up: four reads timed one after another on one connection before the room
arrives ("alone": what a request costs with nothing else asking), and how late a 20 ms sleep
wakes in the load generator during the window (the wait for a core that every request meets).
`--quick` is a smoke run: 3 s of warm-up, 7 s measured, people 3-5x quicker (a round in 10 s).
Targets (issue 41): p95 <= 100 ms for reads, <= 250 ms for writes, no errors.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import json
import math
import os
import random
import re
import ssl
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from tests.support.games import Game, cookie_header, key_cookie
from tests.support.nginx import CLUB, generated
from tests.support.postgres import Cluster
from tests.support.redisserver import RedisServer
from tests.support.server import LOOPBACK, Response, Server, encode, json_headers

TITLE = "The club set-up under load (16 tables and the room's screen)"

TABLES = 16
SEATS = 4
PLAYERS = [f"Player {n:02d}" for n in range(1, TABLES * SEATS + 1)]
WARMUP = 10.0
DURATION = 60.0
QUICK_WARMUP = 3.0
QUICK_DURATION = 7.0
START_SPREAD = 2.0  # devices start spread over this many seconds
PAGE_POLL = 2.0  # static/live.js and static/screen.js: EVERY_MS
PHONES_POLL = 1.0  # phones/views.py: POLL_MS
CHECKING_CUT = 1.0  # from the last hand in to the round saved
COLLECT_AT_MOST = 20.0  # the tablet saves with what it has after this long
TIMEOUT = 15.0
ALONE = 50  # each read timed this many times alone, before the room arrives
QUICK_ALONE = 10
READ_P95_TARGET = 100.0
WRITE_P95_TARGET = 250.0
HANDS = ["K Q 5", "JK 3", "A", "10 10 4", "Q 9", "2 5 8 J", "6", "K K 2"]
TAG = re.compile(rb'data-tag="([^"]*)"')
# Connection failures that mean the server closed an idle keep-alive connection under us.
STALE = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


@dataclass(frozen=True)
class Pace:
    """How long people take, in seconds (uniformly between the two)."""

    on_game_page: tuple[float, float] = (5.0, 12.0)  # the tablet, between rounds
    scanning: tuple[float, float] = (0.5, 3.0)  # from a round's opening to a phone's seat taken
    entering: tuple[float, float] = (2.0, 6.0)  # from the seat taken to the hand sent


EVENING = Pace()
QUICK = Pace(on_game_page=(0.5, 1.5), scanning=(0.3, 1.0), entering=(0.5, 2.0))  # a round in 10 s


# --- A device's connection ------------------------------------------------------------------


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """One client context for every device (the bench's own certificate: not checked)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


@dataclass(frozen=True)
class Target:
    """Where the devices send: a port, plain or HTTPS (by the club's name), and how long the
    server keeps an idle connection open."""

    port: int
    https: bool
    keeps_idle: float

    def connection(self) -> http.client.HTTPConnection:
        if not self.https:
            return http.client.HTTPConnection(LOOPBACK, self.port, timeout=TIMEOUT)
        return http.client.HTTPSConnection(
            LOOPBACK, self.port, timeout=TIMEOUT, context=_tls_context()
        )

    @property
    def host(self) -> dict[str, str]:
        return {"Host": f"{CLUB}:{self.port}"} if self.https else {}


class Link:
    """One device's keep-alive connection (a `tests.support.games.Sender`)."""

    def __init__(self, target: Target, retried: Counter):
        self.target = target
        self.retried = retried
        self.connection = target.connection()
        self.used = False
        self.last = 0.0

    def reopen(self) -> None:
        self.connection.close()
        self.connection = self.target.connection()
        self.used = False

    def request(self, method: str, path: str, body=None, headers=None) -> Response:
        if self.used and time.monotonic() - self.last > self.target.keeps_idle:
            self.reopen()  # the server has closed it by now: a browser opens a new one
        sent = {**self.target.host, **dict(headers or {})}
        for attempt in (0, 1):
            reused = self.used
            try:
                self.connection.request(method, path, body=body, headers=sent)
                answer = self.connection.getresponse()
                data = answer.read()
            except STALE:
                self.reopen()
                if not reused or attempt:
                    raise
                self.retried[f"{method} on a connection the server had closed"] += 1
                continue
            except (http.client.HTTPException, OSError):
                self.reopen()
                raise
            break
        self.last = time.monotonic()
        self.used = True
        if answer.will_close:
            self.reopen()
        headers = {name.lower(): value for name, value in answer.getheaders()}
        return Response(answer.status, headers, data, answer.headers.get_all("Set-Cookie") or [])

    def send_json(self, method: str, path: str, data: Any, headers=None) -> Response:
        return self.request(method, path, encode(data), json_headers(headers))

    def close(self) -> None:
        self.connection.close()


# --- What was measured ----------------------------------------------------------------------


@dataclass
class Recorder:
    """Every request's latency by kind and route, inside the window; errors and samples."""

    start: float = math.inf
    end: float = math.inf
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter = field(default_factory=Counter)
    samples: list[str] = field(default_factory=list)
    retried: Counter = field(default_factory=Counter)
    pace: Pace = EVENING

    def send(
        self, link: Link, route: str, method: str, path: str, data: Any = None, headers=None
    ) -> Response | None:
        """One request, timed; None when it failed (counted as an error inside the window)."""
        kind = "read" if method == "GET" else "write"
        sent = time.monotonic()
        try:
            if data is None:
                answer = link.request(method, path, None, headers)
            else:
                answer = link.send_json(method, path, data, headers)
        except Exception as error:  # a socket error or a timeout: an error, not a crash
            answer, failure = None, type(error).__name__
        else:
            failure = None if answer.status < 400 else str(answer.status)
        took = (time.monotonic() - sent) * 1000
        if self.start <= sent < self.end:
            with self.lock:
                if failure is None:
                    self.latencies[(kind, f"{method} {route}")].append(took)
                else:
                    self.errors[f"{method} {route}: {failure}"] += 1
                    if len(self.samples) < 3 and answer is not None:
                        self.samples.append(f"{answer.status} {answer.body[:160]!r}")
        return answer if failure is None else None

    def sleep_until(self, moment: float) -> bool:
        """Wait until `moment` (monotonic); False once the run is over."""
        return not self.stop.wait(max(0.0, moment - time.monotonic()))


def _next_turn(turn: float, period: float) -> float:
    """A poll's next turn: a turn missed while busy is skipped, as setInterval's is."""
    turn += period
    now = time.monotonic()
    if turn < now:
        turn += math.ceil((now - turn) / period) * period
    return turn


# --- The room -------------------------------------------------------------------------------


@dataclass
class Table:
    """One drawn table: its game, its players, the edit key and the tablet's key cookie, and
    the round open to phones now (the phones wait on `opened`)."""

    game: int
    names: list[str]
    key: str
    cookie: dict[str, str]
    last_round: int
    rounds: int = 0
    opening: tuple[int, str] | None = None
    opened: threading.Condition = field(default_factory=threading.Condition)

    def announce(self, number: int, code: str) -> None:
        with self.opened:
            self.opening = (number, code)
            self.opened.notify_all()

    def wait_for_round(self, after: int, stop: threading.Event) -> tuple[int, str] | None:
        with self.opened:
            while not stop.is_set():
                if self.opening is not None and self.opening[0] > after:
                    return self.opening
                self.opened.wait(0.5)
        return None


@dataclass
class Room:
    night: int
    tables: list[Table]


def _created(answer: Response, what: str) -> dict:
    if answer.status not in (200, 201):
        raise RuntimeError(f"{what} answered {answer.status}: {answer.body[:300]!r}")
    return answer.json()


def make_room(target: Target) -> Room:
    """The night through `/api/nights`: 64 players drawn into 16 tables, each table's game with
    its key and the tablet's key cookie (from the game's edit link)."""
    link = Link(target, Counter())
    try:
        night = _created(
            link.send_json("POST", "/api/nights", {"rules": "liverpool", "held_on": "2026-12-05"}),
            "POST /api/nights",
        )
        path = f"/api/nights/{night['id']}"
        _created(link.send_json("POST", f"{path}/players", {"players": PLAYERS}), "players")
        drawn = _created(link.send_json("POST", f"{path}/draw", {}), "the draw")
        tables = []
        for table in drawn["tables"]:
            key = drawn["keys"][str(table["game"])]
            game = Game(id=table["game"], names=list(table["players"]), key=key)
            read = _created(link.request("GET", f"/api/games/{game.id}"), "the game")
            cookie = cookie_header(key_cookie(link, game))
            tables.append(Table(game.id, game.names, key, cookie, read["last_round"]))
    finally:
        link.close()
    if len(tables) != TABLES or any(len(table.names) != SEATS for table in tables):
        raise RuntimeError(f"the draw made {[len(table.names) for table in tables]}")
    return Room(drawn["id"], tables)


def _tag(page: Response | None) -> str | None:
    found = TAG.search(page.body) if page is not None else None
    return found.group(1).decode() if found else None


def follow_page(record: Recorder, link: Link, page: str, route: str, who: str) -> None:
    """A page that follows its state every 2 s, as `who` sees it: the spectator's game page,
    the room's screen."""
    held = _tag(record.send(link, f"{route} ({who})", "GET", page))
    turn = time.monotonic()
    while record.sleep_until(turn := _next_turn(turn, PAGE_POLL)):
        asked = {"If-None-Match": f'"{held}"'}
        answer = record.send(link, f"{route}/state ({who})", "GET", f"{page}/state", headers=asked)
        if answer is not None and answer.status == 200 and answer.json()["tag"] != held:
            held = _tag(record.send(link, f"{route} ({who})", "GET", page)) or held


class Tablet:
    """The scorekeeper's tablet at one table: the game page, and a round every so often with
    the phones' hands."""

    def __init__(self, record: Recorder, link: Link, table: Table):
        self.record, self.link, self.table = record, link, table
        self.page = f"/games/{table.game}"
        self.tag: str | None = None

    def load_page(self) -> None:
        answer = self.record.send(
            self.link, "/games/<id> (tablet)", "GET", self.page, headers=self.cookie
        )
        self.tag = _tag(answer) or self.tag

    @property
    def cookie(self) -> dict[str, str]:
        return self.table.cookie

    def run(self) -> None:
        record, table = self.record, self.table
        self.load_page()
        turn = time.monotonic()
        next_round = turn + random.uniform(*record.pace.on_game_page)
        while not record.stop.is_set():
            if table.rounds < table.last_round and time.monotonic() >= next_round:
                self.play_round(table.rounds + 1)
                self.load_page()
                next_round = time.monotonic() + random.uniform(*record.pace.on_game_page)
                turn = time.monotonic()
                continue
            turn = _next_turn(turn, PAGE_POLL)
            if not record.sleep_until(min(turn, next_round)):
                break
            if time.monotonic() < turn:
                continue  # the round's turn came first
            asked = {**self.cookie, "If-None-Match": f'"{self.tag}"'}
            state = f"{self.page}/state"
            answer = record.send(
                self.link, "/games/<id>/state (tablet)", "GET", state, headers=asked
            )
            if answer is not None and answer.status == 200 and answer.json()["tag"] != self.tag:
                self.load_page()

    def play_round(self, number: int) -> None:
        record, link, table = self.record, self.link, self.table
        keyed = {"X-Game-Key": table.key, "Idempotency-Key": f"{uuid.uuid4()}"}
        rounds = f"/games/{table.game}/rounds/{number}"
        opened = record.send(
            link, "/api/games/<id>/rounds/<n>/open", "POST", f"/api{rounds}/open", {}, keyed
        )
        if opened is None:
            return  # tried again at the next turn
        table.announce(number, opened.json()["code"])
        page = record.send(
            link, "/games/<id>/rounds/<n>/phones", "GET", f"{rounds}/phones", headers=self.cookie
        )
        tag = _tag(page)
        # The page's image: the QR code the phones scan, drawn for this round.
        qr = f"{rounds}/phones/qr.svg"
        record.send(link, "/games/<id>/rounds/<n>/phones/qr.svg", "GET", qr, headers=self.cookie)
        seats: list[dict] = []
        turn = time.monotonic()
        deadline = turn + COLLECT_AT_MOST
        while record.sleep_until(turn := _next_turn(turn, PHONES_POLL)):
            asked = {**self.cookie, "If-None-Match": f'"{tag}"'}
            answer = record.send(
                link,
                "/games/<id>/rounds/<n>/phones/state",
                "GET",
                f"{rounds}/phones/state",
                headers=asked,
            )
            if answer is not None and answer.status == 200:
                state = answer.json()
                tag, seats = state["tag"], state["seats"]
            if sum(seat["state"] == "received" for seat in seats) == SEATS:
                break
            if time.monotonic() > deadline:
                break
        if not record.sleep_until(time.monotonic() + CHECKING_CUT):
            return
        saved = record.send(
            link,
            "/api/games/<id>/rounds",
            "POST",
            f"/api/games/{table.game}/rounds",
            self.round_body(number, seats),
            {"X-Game-Key": table.key, "Idempotency-Key": f"game-{table.game}-round-{number}"},
        )
        if saved is not None:
            table.rounds = number

    def round_body(self, number: int, seats: list[dict]) -> dict[str, Any]:
        """The round as the phones sent it (a seat with nothing received: as its phone would)."""
        hands = {seat["name"]: seat.get("hand") or {} for seat in seats}
        out = next((name for name, hand in hands.items() if hand.get("out")), None)
        if out is None:
            out = self.table.names[number % SEATS]
        leftovers = {}
        for seat, name in enumerate(self.table.names):
            if name != out:
                leftovers[name] = hands.get(name, {}).get("cards") or phone_hand(seat, number)
        return {"out": out, "leftovers": leftovers}


def phone_hand(seat: int, number: int) -> str:
    return HANDS[(seat + number) % len(HANDS)]


def phone(record: Recorder, link: Link, table: Table, seat: int) -> None:
    """A player's phone: at each round's opening it takes its seat, reads it and sends its hand."""
    seen = 0
    name = table.names[seat]
    while (opening := table.wait_for_round(seen, record.stop)) is not None:
        number, code = opening
        seen = number
        if not record.sleep_until(time.monotonic() + random.uniform(*record.pace.scanning)):
            return
        joined = record.send(link, "/api/join/<code>", "POST", f"/api/join/{code}", {"seat": name})
        if joined is None:
            continue
        token = {"X-Seat-Token": joined.json()["token"]}
        record.send(link, "/api/join/<code>/hand", "GET", f"/api/join/{code}/hand", headers=token)
        if not record.sleep_until(time.monotonic() + random.uniform(*record.pace.entering)):
            return
        hand: dict[str, Any] = (
            {"out": True} if seat == number % SEATS else {"cards": phone_hand(seat, number)}
        )
        headers = {**token, "Idempotency-Key": str(uuid.uuid4())}
        record.send(
            link,
            "/api/join/<code>/hand",
            "PUT",
            f"/api/join/{code}/hand",
            {**hand, "round": number},
            headers,
        )


def devices(record: Recorder, target: Target, room: Room) -> list[Callable[[], None]]:
    """Every device of the room, as a function running it on a connection of its own."""

    def on_link(run: Callable[[Link], None]) -> Callable[[], None]:
        def started() -> None:
            link = Link(target, record.retried)
            try:
                if record.sleep_until(time.monotonic() + random.uniform(0, START_SPREAD)):
                    run(link)
            finally:
                link.close()

        return started

    made = []
    for table in room.tables:
        made.append(on_link(lambda link, table=table: Tablet(record, link, table).run()))
        made.append(
            on_link(
                lambda link, table=table: follow_page(
                    record, link, f"/games/{table.game}", "/games/<id>", "spectator"
                )
            )
        )
        for seat in range(SEATS):
            made.append(
                on_link(lambda link, table=table, seat=seat: phone(record, link, table, seat))
            )
    screen = f"/nights/{room.night}/screen"
    made.append(
        on_link(lambda link: follow_page(record, link, screen, "/nights/<id>/screen", "screen"))
    )
    return made


# --- CPU of the server processes --------------------------------------------------------------


class Processes:
    """The server's processes by part (a part's children counted with it, as they are when
    sampled: nginx's workers, PostgreSQL's backends)."""

    def __init__(self, parts: Mapping[str, list[int]]):
        self.parts = {name: [psutil.Process(pid) for pid in pids] for name, pids in parts.items()}

    def cpu(self) -> dict[str, dict[int, float]]:
        taken: dict[str, dict[int, float]] = {}
        for name, roots in self.parts.items():
            seen: dict[int, float] = {}
            for root in roots:
                for process in [root, *root.children(recursive=True)]:
                    with contextlib.suppress(psutil.Error):
                        times = process.cpu_times()
                        seen[process.pid] = times.user + times.system
            taken[name] = seen
        return taken


def cpu_share(before: dict, after: dict, seconds: float) -> dict[str, float]:
    """Each part's CPU over the window, as a share of one core."""
    return {
        name: sum(spent - before[name].get(pid, 0.0) for pid, spent in after[name].items())
        / seconds
        for name in after
    }


# --- One set-up under the load ----------------------------------------------------------------


def alone(target: Target, room: Room, count: int) -> dict[str, list[float]]:
    """Reads timed one after another on one connection before the room arrives: what each
    costs with nothing else asking (ms)."""
    table = room.tables[0]
    link = Link(target, Counter())
    try:
        game = f"/games/{table.game}"
        screen = f"/nights/{room.night}/screen"
        game_tag = link.request("GET", f"{game}/state", headers=table.cookie).json()["tag"]
        screen_tag = link.request("GET", f"{screen}/state").json()["tag"]
        asks = {
            "GET /games/<id>/state (tablet), 304": (
                f"{game}/state",
                {**table.cookie, "If-None-Match": f'"{game_tag}"'},
            ),
            "GET /games/<id> (spectator)": (game, {}),
            "GET /nights/<id>/screen/state (screen), 304": (
                f"{screen}/state",
                {"If-None-Match": f'"{screen_tag}"'},
            ),
            "GET /nights/<id>/screen (screen)": (screen, {}),
        }
        timed: dict[str, list[float]] = {}
        for name, (path, headers) in asks.items():
            link.request("GET", path, headers=headers)  # warm
            found = timed[name] = []
            for _ in range(count):
                sent = time.monotonic()
                answer = link.request("GET", path, headers=headers)
                found.append((time.monotonic() - sent) * 1000)
                if answer.status not in (200, 304):
                    raise RuntimeError(f"{name} answered {answer.status}")
    finally:
        link.close()
    return timed


def oversleep(record: Recorder, found: list[float]) -> None:
    """How late a 20 ms sleep wakes in the load generator (ms): the wait for a core (and for
    the generator's own lock) that every device's request meets too."""
    while not record.stop.is_set():
        asked = time.monotonic()
        time.sleep(0.02)
        woke = time.monotonic()
        if record.start <= asked < record.end:
            found.append((woke - asked - 0.02) * 1000)


@dataclass
class Result:
    setup: str
    seconds: float
    latencies: dict[tuple[str, str], list[float]]
    errors: Counter
    samples: list[str]
    retried: Counter
    cpu: dict[str, float]
    generator_cpu: float
    load: tuple[float, float]
    rounds: int
    alone: dict[str, list[float]]
    oversleep: list[float]


def load_room(target: Target, processes: Processes, setup: str, quick: bool) -> Result:
    """The room on the set-up: the night made, every device started, the window measured."""
    room = make_room(target)
    solo = alone(target, room, QUICK_ALONE if quick else ALONE)
    record = Recorder(pace=QUICK if quick else EVENING)
    warmup, duration = (QUICK_WARMUP, QUICK_DURATION) if quick else (WARMUP, DURATION)
    late: list[float] = []
    runs = [*devices(record, target, room), lambda: oversleep(record, late)]
    threads = [threading.Thread(target=run, daemon=True) for run in runs]
    began = time.monotonic()
    record.start, record.end = began + warmup, began + warmup + duration
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, record.start - time.monotonic()))
    load_before = os.getloadavg()[0]
    cpu_before, generator_before = processes.cpu(), time.process_time()
    time.sleep(max(0.0, record.end - time.monotonic()))
    cpu_after, generator_after = processes.cpu(), time.process_time()
    load_after = os.getloadavg()[0]
    record.stop.set()
    for thread in threads:
        thread.join(TIMEOUT + 5)
    with record.lock:  # every request sent inside the window, answered in it or after
        latencies = {key: list(values) for key, values in record.latencies.items()}
    return Result(
        setup=setup,
        seconds=duration,
        latencies=latencies,
        errors=Counter(record.errors),
        samples=list(record.samples),
        retried=Counter(record.retried),
        cpu=cpu_share(cpu_before, cpu_after, duration),
        generator_cpu=(generator_after - generator_before) / duration,
        load=(load_before, load_after),
        rounds=sum(table.rounds for table in room.tables),
        alone=solo,
        oversleep=late,
    )


class DurableCluster(Cluster):
    """The tests' throwaway cluster, but durable as a club's is: fsync and synchronous commits
    on (PostgreSQL's defaults)."""

    def start(self) -> None:
        options = f"-c listen_addresses='' -k {self.folder}"
        log = str(self.folder / "server.log")
        self._run(
            "pg_ctl", "-D", str(self.folder / "data"), "-l", log, "-w", "-o", options, "start"
        )

    def postmaster(self) -> int:
        return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])


@contextlib.contextmanager
def club(folder: Path) -> Iterator[tuple[Target, Processes]]:
    """Set-up A: PostgreSQL, Redis, two app processes, nginx on the generated file."""
    with DurableCluster() as cluster:
        redis = RedisServer(folder / "redis")
        redis.start()
        try:
            env = {"REDIS_URL": redis.url, "TRUSTED_PROXIES": "1"}
            apps = [Server(cluster.url, folder / f"app-{n}.log", env) for n in (1, 2)]
            try:
                for app in apps:
                    app.start()
                upstreams = tuple(f"{LOOPBACK}:{app.port}" for app in apps)
                nginx = folder / "nginx"
                nginx.mkdir()
                with generated(nginx, upstreams, "/") as port:
                    master = int((nginx / "nginx.pid").read_text().strip())
                    parts = {
                        "app 1": [apps[0].process.pid],
                        "app 2": [apps[1].process.pid],
                        "nginx": [master],
                        "PostgreSQL": [cluster.postmaster()],
                        "Redis": [redis.process.pid],
                    }
                    # nginx keeps an idle client connection 75 s (its keepalive_timeout).
                    yield Target(port, https=True, keeps_idle=70.0), Processes(parts)
            finally:
                for app in apps:
                    app.stop()
                _no_tracebacks(apps)
        finally:
            redis.stop()


@contextlib.contextmanager
def make_run(folder: Path) -> Iterator[tuple[Target, Processes]]:
    """Set-up B: one process on a SQLite file, plain HTTP, no proxy."""
    database = f"sqlite:///{folder / 'book.sqlite'}"
    with Server(database, folder / "make-run.log") as app:
        # cheroot drops a connection silent for 10 s (serve.SOCKET_TIMEOUT).
        yield Target(app.port, https=False, keeps_idle=9.0), Processes({"app": [app.process.pid]})
    _no_tracebacks([app])


def _no_tracebacks(servers: list[Server]) -> None:
    for server in servers:
        if "Traceback" in server.log():
            raise RuntimeError(f"{server.log_path} holds a traceback:\n{server.log()[-3000:]}")


# --- The table ----------------------------------------------------------------------------------


def _percentile(values: list[float], share: float) -> float:
    """Nearest rank."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(share * len(ordered))) - 1]


def _figures(values: list[float], seconds: float) -> dict[str, str]:
    if not values:
        return {"requests": "0", "req/s": "0", "p50 ms": "-", "p95 ms": "-", "max ms": "-"}
    return {
        "requests": str(len(values)),
        "req/s": "" if math.isnan(seconds) else f"{len(values) / seconds:.1f}",
        "p50 ms": f"{_percentile(values, 0.50):.1f}",
        "p95 ms": f"{_percentile(values, 0.95):.1f}",
        "max ms": f"{max(values):.1f}",
    }


def rows_of(result: Result) -> list[dict[str, str]]:
    rows = []
    for kind, target in (("read", READ_P95_TARGET), ("write", WRITE_P95_TARGET)):
        values = [
            ms for (each, _route), found in result.latencies.items() if each == kind for ms in found
        ]
        errors = sum(count for name, count in result.errors.items() if _kind(name) == kind)
        figures = _figures(values, result.seconds)
        p95 = _percentile(values, 0.95) if values else math.inf
        missed = []
        if p95 > target:
            missed.append(f"p95 {p95:.0f} ms > {target:.0f} ms, by {p95 - target:.0f} ms")
        if errors:
            missed.append(f"{errors} errors")
        rows.append(
            {
                "set-up": result.setup,
                "what": f"all {kind}s",
                **figures,
                "errors": str(errors),
                "target": f"p95 <= {target:.0f} ms, 0 errors",
                "result": "met" if not missed else "MISSED (" + "; ".join(missed) + ")",
            }
        )
    for (_kind_of, route), values in sorted(result.latencies.items()):
        errors = sum(count for name, count in result.errors.items() if name.startswith(route + ":"))
        rows.append(
            {"set-up": result.setup, "what": route, **_figures(values, result.seconds),
             "errors": str(errors)}
        )  # fmt: skip
    for route, values in result.alone.items():
        rows.append(
            {"set-up": result.setup, "what": f"alone: {route}", **_figures(values, math.nan),
             "errors": "0"}
        )  # fmt: skip
    late = result.oversleep or [math.nan]
    rows.append(
        {
            "set-up": result.setup,
            "what": "a 20 ms sleep in the load generator: late by",
            "requests": str(len(late)),
            "req/s": "",
            **{
                name: f"{_percentile(late, share):.1f}"
                for name, share in (("p50 ms", 0.5), ("p95 ms", 0.95), ("max ms", 1.0))
            },
        }
    )
    cpu = ", ".join(f"{name} {share:.0%}" for name, share in result.cpu.items())
    notes = [
        f"server CPU {sum(result.cpu.values()):.0%} ({cpu})",
        f"load generator {result.generator_cpu:.0%}",
        f"load avg {result.load[0]:.1f} → {result.load[1]:.1f}",
        f"{result.rounds} rounds saved in all",
    ]
    if result.retried:
        notes.append(
            "sent again on a new connection: "
            + ", ".join(f"{count}× {what}" for what, count in result.retried.items())
        )
    if result.errors:
        notes.append("errors: " + ", ".join(f"{n}× {what}" for what, n in result.errors.items()))
    if result.samples:
        notes.append("first error: " + result.samples[0])
    rows.append({"set-up": result.setup, "what": "CPU over the window", "result": "; ".join(notes)})
    return rows


def _kind(error: str) -> str:
    return "read" if error.startswith("GET ") else "write"


def main(quick: bool = False) -> list[dict[str, str]]:
    random.seed(41)
    results = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-club-") as name:
        folder = Path(name)
        for setup, started in (
            ("A: club (2 apps, PostgreSQL, Redis, nginx HTTPS)", club),
            ("B: make run (1 app, SQLite, HTTP)", make_run),
        ):
            place = folder / setup[0]
            place.mkdir()
            with started(place) as (target, processes):
                results.append(load_room(target, processes, setup, quick))
    rows = []
    for result in results:
        rows += rows_of(result)
    return rows


if __name__ == "__main__":
    print(json.dumps(main(quick=True), indent=1, ensure_ascii=False))
