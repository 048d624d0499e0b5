"""A tablet on the table's Wi-Fi opening the plain-HTTP address by the LAN name: `/trust` shows
the steps and its Check says in words that the tablet does not trust the score book yet (the
secure port is closed here: nothing answers it), the game page says the screen may sleep and
links the secure address, the home page offers it, and the offline page comes back by itself
once the server answers."""

from __future__ import annotations

import json
import re
import socket

import pytest
from playwright.sync_api import expect

from tests.support.browser import LAN_NAME, PHONE_VIEWPORT, lan_url
from tests.support.names import NAMES
from tests.support.server import LOOPBACK
from tests.support.tablet import axe_violations, by_lan_name, make_game, navigated_by_its_timers
from tests.support.trust import make_authority

pytestmark = pytest.mark.browser

SIZES = {"landscape": "landscape", "phone": PHONE_VIEWPORT}
NOT_YET = "This tablet does not trust the score book yet"
# The Check's failed request is the browser's own console line, not a script error.
REFUSED = "ERR_CONNECTION_REFUSED"


def closed_port() -> int:
    """A port on loopback that nothing listens on: the secure address that never answers."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


@pytest.fixture
def secure_served(tmp_path, live_server_with) -> tuple[str, int]:
    """The app over HTTP on loopback as `make run` serves it beside HTTPS: SERVE_HTTPS_PORT set
    (to a closed port), a certificate authority in its tls folder. (url, the secure port)."""
    port = closed_port()
    make_authority(tmp_path / "tls")
    return live_server_with(SERVE_HTTPS_PORT=port, TLS_FOLDER=str(tmp_path / "tls")), port


def script_errors(page) -> list[str]:
    return [problem for problem in page.problems if REFUSED not in problem]


def no_sideways_scroll(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_trust_shows_the_steps_and_the_check_says_not_yet(tablet, secure_served, size):
    served, port = secure_served
    page = by_lan_name(tablet, served, SIZES[size])
    page.goto("/trust")
    expect(page.locator("h1")).to_have_text("Trust this score book")
    # Headless chromium on Linux: the other systems' steps come first and open.
    own = page.locator("#steps-other")
    expect(own).to_have_attribute("open", "")
    expect(own.get_by_role("link", name="scorekeeper-ca.crt")).to_be_visible()
    expect(page.locator("#steps-android")).not_to_have_attribute("open", "")
    page.locator("#steps-android > summary").click()
    expect(page.get_by_text("Install a certificate → CA certificate")).to_be_visible()
    expect(page.locator(".fingerprint")).to_have_text(
        re.compile(r"^([0-9A-F]{2}:){31}[0-9A-F]{2}$")
    )
    no_sideways_scroll(page)
    check = page.get_by_role("link", name="Check", exact=True)
    expect(check).to_have_attribute("href", f"https://{LAN_NAME}:{port}/trust/check")
    check.tap()
    expect(page.locator("#trust-result")).to_contain_text(NOT_YET)
    expect(page.locator("#trust-result")).to_contain_text(
        "Follow the steps above, then Check again"
    )
    expect(page).to_have_url(re.compile(r"/trust$"))  # it stays to say so
    no_sideways_scroll(page)
    assert script_errors(page) == []


ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko)"
    " Chrome/124.0.0.0 Safari/537.36"
)
# An iPad asking for the desktop site: Safari's user agent says Macintosh.
IPAD_AS_A_MAC = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)"
    " Version/17.4 Safari/605.1.15"
)
TOUCH_MAC = """
Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'MacIntel' });
Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => 5 });
"""


def test_an_android_tablet_sees_its_own_steps_first(tablet, secure_served):
    page = tablet("landscape", base_url=lan_url(secure_served[0]), user_agent=ANDROID).new_page()
    page.goto("/trust")
    expect(page.locator("details.trust-system").first).to_have_attribute("id", "steps-android")
    expect(page.get_by_text("Install a certificate → CA certificate")).to_be_visible()
    expect(page.get_by_role("link", name="scorekeeper.mobileconfig")).to_be_hidden()


def test_an_ipad_that_says_it_is_a_mac_gets_the_ipad_steps_opened(tablet, secure_served):
    """The server reads a Mac; the page's script sees a touch screen and opens the iPad's."""
    context = tablet("portrait", base_url=lan_url(secure_served[0]), user_agent=IPAD_AS_A_MAC)
    page = context.new_page()
    page.add_init_script(TOUCH_MAC)
    page.goto("/trust")
    expect(page.locator("#steps-apple")).to_have_attribute("open", "")
    expect(page.get_by_role("link", name="scorekeeper.mobileconfig")).to_be_visible()
    expect(page.get_by_text("Certificate Trust Settings")).to_be_visible()


def test_a_trusting_tablets_check_goes_to_the_secure_address(tablet, secure_served):
    """The secure address answered as a trusting tablet gets it (by Playwright, since nothing
    listens there): the page says so and goes to the secure home page. The page's own policy
    must let the Check ask that origin, or this answer never arrives."""
    served, port = secure_served
    secure = f"https://{LAN_NAME}:{port}/"
    page = by_lan_name(tablet, served, "landscape")
    asked = []

    def answer_check(route):
        asked.append(route.request.headers.get("accept"))
        route.fulfill(
            status=200,
            content_type="application/json",
            headers={"Access-Control-Allow-Origin": "*"},
            body=json.dumps({"ok": True}),
        )

    page.route(f"{secure}trust/check", answer_check)
    page.route(secure, lambda route: route.fulfill(content_type="text/html", body="<h1>home</h1>"))
    page.goto("/trust")
    page.get_by_role("link", name="Check", exact=True).click()
    expect(page).to_have_url(secure)
    assert asked == ["application/json"]
    assert page.problems == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_trust_is_accessible(tablet, secure_served, axe_source, size, scheme):
    page = by_lan_name(tablet, secure_served[0], SIZES[size])
    page.emulate_media(color_scheme=scheme)
    page.goto("/trust")
    assert axe_violations(page, axe_source) == []
    page.get_by_role("link", name="Check", exact=True).click()
    expect(page.locator("#trust-result")).to_contain_text(NOT_YET)
    assert axe_violations(page, axe_source) == []


def editors_game(tablet, served):
    """A game made on loopback; its edit link, for the tablet opening it by the LAN name."""
    setup = tablet("landscape", base_url=served).new_page()
    game_id, key = make_game(setup, NAMES, 1, "liverpool")
    setup.close()
    return game_id, key


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_game_page_says_the_screen_may_sleep_and_where_it_would_not(
    tablet, secure_served, size
):
    served, port = secure_served
    game_id, key = editors_game(tablet, served)
    page = by_lan_name(tablet, served, SIZES[size])
    page.goto(f"/games/{game_id}/join?key={key}")
    page.goto(f"/games/{game_id}?view=1")
    assert page.evaluate("() => window.isSecureContext") is False
    note = page.locator(".topbar .wakelock-missing")
    expect(note).to_have_text("Screen may sleep: open the secure address · how")
    expect(note.get_by_role("link", name="open the secure address")).to_have_attribute(
        "href", f"https://{LAN_NAME}:{port}/games/{game_id}?view=1"
    )
    expect(note.get_by_role("link", name="how")).to_have_attribute("href", "/trust")
    note.get_by_role("link", name="how").click()
    expect(page.locator("h1")).to_have_text("Trust this score book")
    no_sideways_scroll(page)
    assert page.problems == []


def test_without_a_secure_address_the_game_page_still_says_the_screen_may_sleep(
    tablet, live_server
):
    game_id, key = editors_game(tablet, live_server)
    page = by_lan_name(tablet, live_server, "landscape")
    page.goto(f"/games/{game_id}/join?key={key}")
    page.goto(f"/games/{game_id}/rounds/new")
    note = page.locator(".topbar .wakelock-missing")
    expect(note).to_contain_text("Screen may sleep")
    expect(note).to_have_attribute("title", re.compile("plain HTTP"))
    expect(note.get_by_role("link")).to_have_count(0)
    assert page.problems == []


def test_the_home_page_by_the_lan_name_offers_the_secure_address(tablet, secure_served):
    served, port = secure_served
    page = by_lan_name(tablet, served, "landscape")
    page.goto("/")
    offer = page.locator(".secure-offer")
    expect(offer.get_by_role("heading")).to_have_text("Use the secure address")
    secure = f"https://{LAN_NAME}:{port}/"
    expect(offer.get_by_role("link", name=secure)).to_have_attribute("href", secure)
    expect(offer.get_by_role("link", name="Trust the score book")).to_have_attribute(
        "href", "/trust"
    )
    buttons = page.locator(".big-buttons").bounding_box()
    assert offer.bounding_box()["y"] >= buttons["y"] + buttons["height"]  # after the buttons
    expect(page.locator(".big-button").last).to_be_in_viewport()
    assert page.problems == []


def test_the_offline_page_comes_back_by_itself_once_the_server_answers(tablet, live_server):
    """The health check fails once (the server still away), then reaches the server: the page
    reloads by itself."""
    page = tablet("landscape", base_url=lan_url(live_server)).new_page()
    checks = []

    def health(route):
        checks.append(route.request.url)
        if len(checks) == 1:
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route("**/healthz", health)
    page.clock.install()
    page.goto("/offline")
    expect(page.locator("#retry")).to_have_text("Trying again by itself every 5 seconds…")
    assert navigated_by_its_timers(page, step_ms=5000).endswith("/offline")  # reloaded
    assert len(checks) == 2
    assert all(url.endswith("/healthz") for url in checks)
    expect(page.locator("h1")).to_have_text("The score book cannot be reached")
