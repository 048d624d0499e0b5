"""The home page as a person sees it on a tablet, and on the machine serving the table."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from scorekeeper.platform import network
from tests.support.browser import TABLET_VIEWPORTS
from tests.support.config import TEST_CONFIG
from tests.support.server import serving
from tests.support.tablet import AT_ONE_SIZE

pytestmark = pytest.mark.browser


@AT_ONE_SIZE
def test_home_page_links_work(page, live_server):
    page.goto("/")
    assert page.title() == "Liverpool Scorekeeper"
    links = page.locator("a[href]")
    assert links.count() >= 1
    for index in range(links.count()):
        href = links.nth(index).get_attribute("href")
        if href.startswith("http") and not href.startswith(live_server):
            continue  # the tablet's address: followed for real below, on a server that listens there
        response = page.request.get(href)
        assert response.status == 200, href


def test_tap_targets_are_finger_sized(page):
    page.goto("/")
    for element in page.locator("a, button, input, select").all():
        if not element.is_visible():
            continue
        box = element.bounding_box()
        assert box["height"] >= 48, element.evaluate("e => e.outerHTML")


@AT_ONE_SIZE
def test_no_external_requests(page, live_server):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("/")
    page.wait_for_load_state("networkidle")
    assert requested
    assert all(url.startswith(live_server) for url in requested), requested


def test_first_evening_leads_with_the_first_game(page):
    page.goto("/")
    first = page.locator(".big-button").first
    expect(first).to_contain_text("Start your first game")
    first.click()
    expect(page).to_have_url(re.compile(r"/games/new$"))


@pytest.fixture
def table_server(tmp_path, fresh_database):
    """The app listening on every interface, as `make run` serves it, with its port known."""
    addresses = network.tablet_addresses("0.0.0.0")
    if not addresses:
        pytest.skip("this machine has no network address besides loopback")
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=fresh_database("table"))
    app = create_app(config, instance_path=str(tmp_path / "table-instance"))
    app.config["SERVE_HOST"] = "0.0.0.0"
    with serving(app, host="0.0.0.0") as url:
        yield url, network.url(addresses[0], int(url.rsplit(":", 1)[1]))


@pytest.mark.parametrize("viewport", sorted(TABLET_VIEWPORTS))
def test_the_serving_machine_shows_the_tablet_where_to_go(tablet, table_server, viewport):
    """Opened on this machine the page shows the address and its QR code; the address itself,
    opened as a tablet would, is the app, without the hint (it came from the network)."""
    here, tablet_url = table_server
    page = tablet(viewport).new_page()
    page.goto(here + "/")
    hint = page.locator(".tablet-hint")
    expect(hint.get_by_role("heading")).to_have_text("Open this on the tablet")
    link = hint.get_by_role("link", name=tablet_url)
    expect(link).to_have_attribute("href", tablet_url)
    code = hint.get_by_role("img", name=f"QR code for {tablet_url}")
    expect(code).to_be_visible()
    assert code.evaluate("img => img.complete && img.naturalWidth > 0")
    box = code.bounding_box()
    assert box["width"] >= 150 and box["height"] >= 150  # large enough for a camera
    link.click()
    expect(page).to_have_url(tablet_url)
    expect(page.locator("h1")).to_have_text("Liverpool Scorekeeper")
    expect(page.locator(".tablet-hint")).to_have_count(0)
