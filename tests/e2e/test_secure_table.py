"""The table's features at the real table: a tablet that trusts the score book's authority
opens it by a LAN name over HTTPS and gets a secure context, the screen kept on, the service
worker and its offline page, and an installable app; over plain HTTP it is told what is missing;
a tablet that does not trust it yet gets a certificate error, and `/trust` over HTTP.

The server is `python -m scorekeeper.serve --https yes` as its own process, its authority in a
folder of the test's own; chromium resolves the LAN name to loopback."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as BrowserError
from playwright.sync_api import expect

from scorekeeper.tls import certificates
from tests.support.browser import LAN_NAME, TABLET_VIEWPORTS
from tests.support.server import Client, free_port
from tests.support.tablet import navigated_by_its_timers, start_game
from tests.support.trust import Profiles, lan_https_server, trusting_chromium

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("secure_table")]


@pytest.fixture(scope="module")
def server(tmp_path_factory, module_database):
    # Ports of its own choosing would be bound without SO_REUSEADDR (cheroot's rule for port 0),
    # and the restart below could then not take them again while old connections linger.
    ports = (free_port(), free_port())
    yield from lan_https_server(tmp_path_factory, module_database, "secure-table", ports)


@pytest.fixture(scope="module")
def trusting(browser, server, tmp_path_factory):
    """A chromium whose NSS database holds the authority the server made at its first start."""
    yield from trusting_chromium(browser, server, tmp_path_factory)


def secure(server) -> str:
    return f"https://{LAN_NAME}:{server.https_port}"


def plain(server) -> str:
    return f"http://{LAN_NAME}:{server.port}"


@pytest.fixture
def open_page():
    """Opens a page of a fresh profile of `chromium` at a tablet size; every profile it opened
    is closed after the test. `page.problems` holds the page's script errors."""
    profiles = Profiles()

    def opened(chromium, base_url: str, viewport: str = "landscape"):
        return profiles.open(chromium, TABLET_VIEWPORTS[viewport], base_url=base_url)

    yield opened
    profiles.close()


@pytest.mark.parametrize("viewport", sorted(TABLET_VIEWPORTS))
def test_a_trusting_tablet_gets_every_table_feature_by_the_lan_name(
    open_page, trusting, server, viewport
):
    page = open_page(trusting, secure(server), viewport)
    page.goto("/")
    assert page.evaluate("() => window.isSecureContext") is True
    cdp = page.context.new_cdp_session(page)
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == secure(server) + "/"
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's browser profile is a throwaway one, which chromium never installs into.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    start_game(page)  # the scorekeeper's tablet: its round form keeps the screen on
    expect(page.locator(".wakelock-note")).to_have_text("Screen stays on")
    assert page.evaluate("() => navigator.serviceWorker.controller !== null") is True
    assert page.problems == []


def test_the_offline_page_shows_when_the_server_stops_and_leaves_when_it_is_back(
    open_page, trusting, server
):
    page = open_page(trusting, secure(server))
    page.goto("/games/")
    page.evaluate("async () => await navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    server.stop()
    page.clock.install()
    try:
        page.reload()
        expect(page.locator("h1")).to_have_text("The score book cannot be reached")
    finally:
        server.restart()  # on the same two ports, as `make run` is started again
    assert navigated_by_its_timers(page, step_ms=5000) == secure(server) + "/games/"
    expect(page.locator("h1")).to_have_text("Games")


def test_over_plain_http_the_tablet_is_told_what_is_missing_and_the_fix(
    open_page, trusting, server
):
    # This tablet used the secure address before, and yet opens the plain one (by an address,
    # where a browser keeps no HSTS, or after HSTS ran out): its secure session cookie must not
    # stand in the way of the plain address's forms (a browser lets no plain page replace it).
    earlier = open_page(trusting, secure(server))
    earlier.goto("/games/new")
    page = open_page(trusting, plain(server))
    page.context.add_cookies(earlier.context.cookies())
    page.goto("/")
    assert page.url.startswith("http://")
    assert page.evaluate("() => window.isSecureContext") is False
    offer = page.locator("a[href^='https://']").first
    expect(offer).to_have_attribute("href", secure(server) + "/")
    start_game(page)
    note = page.locator(".wakelock-note")
    expect(note).to_contain_text("Screen may sleep")
    assert page.problems == []


def test_a_tablet_that_does_not_trust_it_yet_gets_a_certificate_error_and_trust_works(
    open_page, browser, server
):
    page = open_page(browser, plain(server))
    with pytest.raises(BrowserError, match="ERR_CERT_AUTHORITY_INVALID"):
        page.goto(secure(server) + "/")
    page = page.context.new_page()  # away from the browser's own error page
    page.goto("/trust")
    expect(page.locator("h1")).to_be_visible()
    expect(page.get_by_role("link", name="Check", exact=True)).to_be_visible()
    with Client(server.port) as client:  # the download itself, as the tablet gets it
        download = client.request("GET", "/trust/scorekeeper-ca.crt")
    assert download.status == 200
    assert download.headers["content-type"] == "application/x-x509-ca-cert"
    assert download.body == certificates.read_authority(server.tls_folder).der


def test_trust_sends_a_tablet_that_trusts_it_to_the_secure_address(open_page, trusting, server):
    page = open_page(trusting, plain(server))
    page.goto("/trust")
    page.get_by_role("link", name="Check", exact=True).tap()
    page.wait_for_url(secure(server) + "/**")
    assert page.evaluate("() => window.isSecureContext") is True


def test_a_tablet_told_hsts_by_the_lan_name_still_opens_the_plain_port(open_page, trusting, server):
    """After the secure address, chromium opens `http://name:PORT/` as `https://name:PORT/`
    (HSTS): the plain port answers TLS too, so an old bookmark and /trust still open there."""
    page = open_page(trusting, plain(server))
    page.goto("/")
    assert page.url == plain(server) + "/"  # never told: plain stays plain
    page.goto(secure(server) + "/")
    page.goto(plain(server) + "/trust")
    assert page.url == f"https://{LAN_NAME}:{server.port}/trust"
    expect(page.locator("h1")).to_be_visible()
    assert page.evaluate("() => window.isSecureContext") is True
    page.goto(plain(server) + "/")
    start_game(page)
    assert page.url.startswith(f"https://{LAN_NAME}:{server.port}/games/")
    assert page.problems == []
