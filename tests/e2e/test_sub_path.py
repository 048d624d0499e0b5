"""The score book under `/cards/` behind a real nginx, as Home Assistant's ingress serves it:
chromium opens it by the LAN name, starts a game and records a round, the service worker
registers for `/cards/` alone, the room's screen asks for its state there, every request the pages make stays under the prefix, every
cookie is kept there; when the proxy stops the offline page shows, and leaves by itself once it
is back.

The app trusts one proxy at 127.0.0.1 (`TRUSTED_PROXIES`, `TRUSTED_PROXY_ADDRESSES`); chromium
treats the plain LAN address as a secure context (as a tablet does the ingress's HTTPS), so the
worker may register. Every address of every page is checked without a browser in
tests/web/test_sub_path.py."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from tests.support.browser import (
    PHONE_VIEWPORT,
    TABLET_VIEWPORTS,
    lan_url,
    launch_whole,
)
from tests.support.config import TEST_CONFIG
from tests.support.names import EIGHT_NAMES
from tests.support.nginx import PREFIX, nginx_in_front, nginx_path
from tests.support.server import serving
from tests.support.tablet import ROUNDS, navigated_by_its_timers, record_round

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("sub_path")]

SIZES = {"tablet": TABLET_VIEWPORTS["landscape"], "phone": PHONE_VIEWPORT}
OFFLINE = "The score book cannot be reached"


@pytest.fixture(scope="module")
def proxy(tmp_path_factory, migrated_template):
    """The app served on loopback, nginx in front of it under `/cards/`."""
    nginx_path()  # skip (or fail in CI) before anything starts
    folder = tmp_path_factory.mktemp("sub-path")
    config = dict(
        TEST_CONFIG,
        WTF_CSRF_ENABLED=True,
        UPGRADE_ON_START=False,
        TRUSTED_PROXIES=1,
        TRUSTED_PROXY_ADDRESSES="127.0.0.1",
    )
    with migrated_template.served_copy(folder) as url:
        config["SQLALCHEMY_DATABASE_URI"] = url
        app = create_app(config, instance_path=str(folder / "instance"))
        with serving(app) as served, nginx_in_front(served, folder / "nginx") as nginx:
            yield nginx


@pytest.fixture(scope="module")
def chromium(browser, proxy):
    """The whole chromium beside the session's, taking the proxy's plain LAN address for a
    secure one (as a tablet takes the ingress's HTTPS address): the service worker registers
    there (the headless shell does not take that switch)."""
    origin = lan_url(proxy.url.removesuffix(PREFIX + "/"))
    launched = launch_whole(browser, f"--unsafely-treat-insecure-origin-as-secure={origin}")
    yield launched
    launched.close()


@pytest.fixture
def opened(chromium, proxy):
    """Opens a page at a size in a fresh profile, the service worker allowed, every request
    and every script error it makes noted (`page.requests`, `page.problems`)."""
    contexts = []

    def open_page(size: str):
        context = chromium.new_context(
            viewport=SIZES[size],
            base_url=lan_url(proxy.url),
            has_touch=True,
            service_workers="allow",
            locale="en-US",
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.requests, page.problems = [], []
        context.on("request", lambda request: page.requests.append(request.url))
        page.on("pageerror", lambda error: page.problems.append(str(error)))
        page.on("console", lambda msg: msg.type == "error" and page.problems.append(msg.text))
        return page

    yield open_page
    for context in contexts:
        context.close()


def post(page, path: str, body: dict | None = None) -> dict:
    """A JSON API request the page makes itself (`fetch`), its path under the prefix."""
    answer = page.evaluate(
        """async ([path, body]) => {
            const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
                headers: {"Content-Type": "application/json"}});
            return {status: r.status, location: r.headers.get("Location"), body: await r.json()};
        }""",
        [f"{PREFIX}/{path}", body or {}],
    )
    assert answer["status"] == 201, answer
    assert answer["location"].startswith(PREFIX + "/api/"), answer
    return answer["body"]


def controlled(page) -> None:
    """The page registered the worker and is under its control (a reload puts it there)."""
    page.evaluate("async () => await navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_game_under_the_prefix_through_nginx(opened, proxy, size):
    page = opened(size)
    base = lan_url(proxy.url)
    page.goto("")
    expect(page.locator(".brand")).to_have_attribute("href", PREFIX + "/")
    worker = page.evaluate(
        """async () => { const r = await navigator.serviceWorker.ready;
            return [r.scope, r.active.scriptURL]; }"""
    )
    assert worker[0] == base
    assert worker[1].startswith(base + "sw.js?language=en")
    page.goto("games/new")
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.locator(f"#names-{seat}").fill(name)
    page.locator('.seat[data-seat="0"] .deals-first').tap()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")
    assert page.url.startswith(base + "games/")
    record_round(page, 1, *ROUNDS[1])
    assert page.url.startswith(base + "games/")
    expect(page.locator(".totals, table").first).to_be_visible()
    # The room's screen of a night drawn through the JSON API, asking for its state by itself.
    night = post(page, "api/nights", {"rules": "liverpool", "held_on": "2026-12-05"})
    post(page, f"api/nights/{night['id']}/players", {"players": EIGHT_NAMES})
    post(page, f"api/nights/{night['id']}/draw")
    page.clock.install()  # the screen's check every 2 s, moved on below
    page.goto(f"nights/{night['id']}/screen")
    expect(page.locator(".screen-table")).to_have_count(2)
    state = f"{base}nights/{night['id']}/screen/state"
    with page.expect_request(lambda request: request.url == state):
        page.clock.run_for(2000)
    cookies = page.context.cookies()
    assert {cookie["name"] for cookie in cookies} >= {"session", "game_keys"}
    assert {cookie["path"] for cookie in cookies} == {PREFIX}
    outside = [url for url in page.requests if not url.startswith(base)]
    assert outside == []
    assert page.problems == []


def test_the_offline_page_when_the_proxy_stops_and_back_when_it_answers(opened, proxy):
    page = opened("tablet")
    page.goto("games/")
    controlled(page)
    proxy.stop()
    page.clock.install()
    try:
        page.reload()
        expect(page.locator("h1")).to_have_text(OFFLINE)
        # Styled from the worker's cache, under the prefix.
        display = "() => getComputedStyle(document.querySelector('.topbar')).display"
        assert page.evaluate(display) == "flex"
    finally:
        proxy.start()  # on the same port
    # The offline page asks the health check under the prefix, and reloads once it answers.
    assert navigated_by_its_timers(page, step_ms=5000) == lan_url(proxy.url) + "games/"
    expect(page.locator("h1")).to_have_text("Games")
