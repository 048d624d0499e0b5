"""What a page weighs as the tablet downloads it: chromium with a cold cache loads the page, opens
every folded box and lets every lazy image come; each request is counted as Playwright saw it
transferred (response headers and body as sent, compressed when the server compressed it)."""

from __future__ import annotations

import ipaddress
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from scorekeeper.rules.ruleset import DEFAULT_RULES
from tests.support.games import key_cookie, seed_game
from tests.support.server import Client

TARGET_BYTES = 60_000
# The page's own calls to the server once loaded (the live game check, saved drafts) are its
# conversation with the server, not its weight.
CALLS = ("fetch", "xhr", "eventsource", "websocket")
SETTLE_SECONDS = 10

# Everything the page asks for once its boxes are open: no image waits for a scroll.
OPEN_EVERYTHING = """async () => {
    document.querySelectorAll("details").forEach((box) => { box.open = true; });
    const images = [...document.images];
    images.forEach((image) => { image.loading = "eager"; });
    await Promise.all(images.map((image) => image.decode().catch(() => null)));
}"""
# Every URL the document names, resolved: links, forms, scripts, styles, images, sources.
NAMED_URLS = """() => [...document.querySelectorAll(
    "[href], [src], [action], [formaction], [poster], [srcset], [data]"
)].flatMap((element) => [
    element.href, element.src, element.action, element.formAction, element.poster,
    element.getAttribute("data") && new URL(element.getAttribute("data"), document.baseURI).href,
    ...(element.srcset || "").split(",").map((part) => part.trim().split(/\\s+/)[0])
        .filter(Boolean).map((url) => new URL(url, document.baseURI).href),
].filter((url) => typeof url === "string" && url))"""
# A script without defer, async or type=module stops the parser until it has run.
BLOCKING_SCRIPTS = """() => [...document.scripts]
    .filter((script) => !script.defer && !script.async && script.type !== "module")
    .map((script) => script.src || "(inline)")"""


@dataclass(frozen=True)
class Sight:
    """A page as one person at the table opens it."""

    name: str
    path: str
    cookies: dict[str, str]  # the game's key cookie for the scorekeeper's tablet
    rounds: int | None = None  # the ledger rows a game page shows in its HTML as served


def table_sights(port: int) -> list[Sight]:
    """The pages weighed, on two games seeded through the server's API: one finished, one at
    round 4, seen by the scorekeeper's tablet and by a spectator."""
    with Client(port) as client:
        finished = seed_game(client, DEFAULT_RULES.last_deal)
        playing = seed_game(client, 3, salt=1)
        keeper_finished, keeper_playing = key_cookie(client, finished), key_cookie(client, playing)
    return [
        Sight("home", "/", {}),
        Sight("games list", "/games/", {}),
        Sight(
            "game page, finished (keeper)",
            f"/games/{finished.id}",
            keeper_finished,
            DEFAULT_RULES.last_deal,
        ),
        Sight("game page, round 4 (keeper)", f"/games/{playing.id}", keeper_playing, 3),
        Sight("game page, round 4 (spectator)", f"/games/{playing.id}", {}, 3),
        Sight("record round 4 (keeper)", f"/games/{playing.id}/rounds/new", keeper_playing),
        Sight("rules check", "/rules", {}),
    ]


def weigh_cold(browser, base_url: str, sight: Sight, viewport: dict[str, int]) -> Weight:
    """The page in a browser profile of its own (nothing cached), with the service worker
    kept out: its one-off copy of the static files for offline use is no page's weight."""
    context = browser.new_context(
        viewport=viewport, has_touch=True, base_url=base_url, service_workers="block"
    )
    try:
        if sight.cookies:
            context.add_cookies(
                [{"name": n, "value": v, "url": base_url} for n, v in sight.cookies.items()]
            )
        return weigh(context, sight.path)
    finally:
        context.close()


@dataclass(frozen=True)
class Transfer:
    url: str
    kind: str  # Playwright's resource type: document, stylesheet, script, image, ...
    status: int
    bytes: int  # response headers + body as transferred
    body: int  # the body as transferred
    plain: int  # the body once decoded
    encoding: str  # Content-Encoding, "" when sent as is


@dataclass
class Weight:
    """One page loaded with a cold cache: what crossed the network, and what the page is."""

    path: str
    origin: str
    html: str  # the document exactly as served (decoded), before any script ran
    transfers: list[Transfer] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)  # the page's own calls, not counted
    failed: list[str] = field(default_factory=list)
    named_urls: list[str] = field(default_factory=list)
    blocking_scripts: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(transfer.bytes for transfer in self.transfers)

    def by_kind(self) -> Counter:
        """Bytes transferred per resource type, headers included."""
        counts: Counter = Counter()
        for transfer in self.transfers:
            counts[transfer.kind] += transfer.bytes
        return counts

    def external(self) -> list[str]:
        """Every URL requested or named that leaves the serving machine."""
        urls = [transfer.url for transfer in self.transfers] + self.calls + self.named_urls
        return sorted({url for url in urls if is_external(url, self.origin)})

    def missing(self) -> list[str]:
        """Requests that failed or answered an error."""
        errors = [f"{t.url} ({t.status})" for t in self.transfers if t.status >= 400]
        return errors + self.failed


def is_external(url: str, origin: str) -> bool:
    """True for a URL on another machine (data:, about: and the like reach no machine; the home
    page links to this machine's own network address, for the tablet)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss", ""):
        return False
    if f"{parts.scheme}://{parts.netloc}" == origin:
        return False
    return not is_this_machine(parts.hostname or "")


def is_this_machine(host: str) -> bool:
    """An address literal this machine can listen on is one of its own (no name is looked up)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host == "localhost"
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, 0))
        except OSError:
            return False
    return True


def weigh(context, path: str) -> Weight:
    """Load `path` in a new tab of `context` (a fresh one: a cold cache) and count its transfers."""
    tab = context.new_page()
    started: list = []
    done: list = []
    failed: list = []
    tab.on("request", lambda request: started.append(request))
    tab.on("requestfinished", lambda request: done.append(request))
    tab.on("requestfailed", lambda request: failed.append(request))
    try:
        response = tab.goto(path, wait_until="load")
        if response is None or response.status != 200:
            raise AssertionError(f"{path} answered {response and response.status}")
        parts = urlsplit(response.url)
        weight = Weight(path, f"{parts.scheme}://{parts.netloc}", response.text())
        tab.wait_for_load_state("networkidle")
        tab.evaluate(OPEN_EVERYTHING)
        _settle(tab, started, done, failed)
        weight.named_urls = tab.evaluate(NAMED_URLS)
        weight.blocking_scripts = tab.evaluate(BLOCKING_SCRIPTS)
        for request in done:
            if request.resource_type in CALLS:
                weight.calls.append(request.url)
            else:
                weight.transfers.append(_transfer(request))
        weight.failed = [f"{request.url} ({request.failure})" for request in failed]
    finally:
        tab.close()
    return weight


def _transfer(request) -> Transfer:
    answer = request.response()
    sizes = request.sizes()
    return Transfer(
        url=request.url,
        kind=request.resource_type,
        status=answer.status,
        bytes=sizes["responseHeadersSize"] + sizes["responseBodySize"],
        body=sizes["responseBodySize"],
        plain=len(answer.body()),
        encoding=answer.headers.get("content-encoding", ""),
    )


def _settle(tab, started: list, done: list, failed: list) -> None:
    """Until every request the page started has finished or failed (events arrive while
    Playwright waits)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    while len(done) + len(failed) < len(started):
        if time.monotonic() > deadline:
            pending = {r.url for r in started} - {r.url for r in done + failed}
            raise AssertionError(f"requests still open after {SETTLE_SECONDS} s: {pending}")
        tab.wait_for_timeout(20)
