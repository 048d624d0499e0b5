"""The language switch as a person uses it, by the LAN name at tablet and phone sizes: the
browser's language spoken at once, another chosen with a tap and kept on this device only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS, lan_url
from tests.support.config import TEST_CONFIG
from tests.support.languages import small_catalogs
from tests.support.server import serving
from tests.support.tablet import FINGERTIP, axe_violations, laid_out

pytestmark = pytest.mark.browser

SIZES = {**TABLET_VIEWPORTS, "phone": PHONE_VIEWPORT}


@pytest.fixture
def speaking_server(tmp_path, fresh_database):
    """The app served on loopback with a Finnish and a Chilean catalog."""
    config = {
        **TEST_CONFIG,
        "SQLALCHEMY_DATABASE_URI": fresh_database("languages"),
        "WTF_CSRF_ENABLED": True,
        "BABEL_TRANSLATION_DIRECTORIES": str(small_catalogs(tmp_path / "translations")),
    }
    with serving(create_app(config, instance_path=str(tmp_path / "instance"))) as url:
        yield lan_url(url)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_finnish_tablet_reads_finnish_and_a_tap_switches_it(
    tablet, speaking_server, axe_source, size
):
    finnish = tablet(SIZES[size], base_url=speaking_server, locale="fi-FI").new_page()
    finnish.goto("/games/new")
    expect(finnish.locator("html")).to_have_attribute("lang", "fi")
    switch = finnish.get_by_role("navigation", name="Kieli")
    links = switch.get_by_role("link")
    expect(links).to_have_text(["English", "Español (Chile)", "Suomi"])
    for box in (links.nth(index).bounding_box() for index in range(3)):
        assert box["height"] >= FINGERTIP
        assert box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    assert axe_violations(laid_out(finnish), axe_source) == []

    switch.get_by_role("link", name="English").tap()
    expect(finnish).to_have_url(speaking_server + "/games/new")
    expect(finnish.locator("html")).to_have_attribute("lang", "en")
    finnish.reload()
    expect(finnish.locator("html")).to_have_attribute("lang", "en")

    # Another device at the same table keeps the language its browser asks for.
    other = tablet(SIZES[size], base_url=speaking_server, locale="fi-FI").new_page()
    other.goto("/games/new")
    expect(other.locator("html")).to_have_attribute("lang", "fi")
