"""Phones at a table served over HTTPS: the tablet, which trusts the score book, collects the
hands by the LAN name over HTTPS and offers guests' phones the plain address beside the secure
one; a guest's phone that never trusted the score book joins by the plain address, with no
certificate warning, and sends its hand. The collecting page's seats are on the tablet's first
screen at both sizes.

The server is `python -m scorekeeper.serve --https yes` as its own process, its authority in a
folder of the test's own; chromium resolves the LAN name to loopback."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import LAN_NAME, PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.tablet import axe_violations, laid_out, start_game
from tests.support.trust import Profiles, lan_https_server, trusting_chromium

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("phone_guests")]


@pytest.fixture(scope="module")
def server(tmp_path_factory, module_database):
    yield from lan_https_server(tmp_path_factory, module_database, "phone-guests")


@pytest.fixture(scope="module")
def trusting(browser, server, tmp_path_factory):
    """A chromium whose NSS database holds the authority the server made at its first start."""
    yield from trusting_chromium(browser, server, tmp_path_factory)


@pytest.fixture
def profiles():
    """Opens a fresh profile of a chromium at a size; every one it opened is closed after."""
    opened = Profiles()
    yield opened.open
    opened.close()


def first_screen(page, *selectors: str) -> dict[str, dict]:
    """Each selector's first element's box at the top of the page, in the viewport's pixels."""
    laid_out(page).evaluate("() => window.scrollTo(0, 0)")
    return {
        selector: page.evaluate(
            """(selector) => {
                const box = document.querySelector(selector).getBoundingClientRect();
                return {top: box.top, bottom: box.bottom, left: box.left, right: box.right};
            }""",
            selector,
        )
        for selector in selectors
    }


def off_screen(page, boxes: dict[str, dict]) -> list[str]:
    """The selectors whose box does not lie whole within the viewport."""
    size = page.viewport_size
    return [
        f"{selector}: {box}"
        for selector, box in boxes.items()
        if box["top"] < 0 or box["bottom"] > size["height"] or box["right"] > size["width"]
    ]


@pytest.mark.parametrize("viewport", sorted(TABLET_VIEWPORTS))
def test_a_guests_phone_joins_by_the_plain_address_the_tablet_offers_beside_the_secure_one(
    server, trusting, browser, profiles, axe_source, viewport
):
    secure = f"https://{LAN_NAME}:{server.https_port}"
    page = profiles(trusting, TABLET_VIEWPORTS[viewport], base_url=secure)
    start_game(page)  # Ann, Bob, Cat, Dan
    page.get_by_role("button", name="Players enter their own hands").tap()
    assert page.url.startswith(secure + "/games/")
    code = page.locator(".round-code").inner_text()
    guests = page.locator(".join-code", has_text="Guests' phones")
    expect(guests).to_contain_text("Guests' phones: scan this one (plain address, no warning)")
    expect(page.locator(".join-code", has_text="Phones that trust")).to_be_visible()
    expect(page.locator(".join-qr")).to_have_count(2)
    plain = f"http://{LAN_NAME}:{server.port}"
    expect(page.locator(".join-address")).to_have_text(f"{plain}/join")

    # The first screen holds both codes, the round code and every seat's state.
    boxes = first_screen(
        page, ".join-code", ".join-code + .join-code", ".round-code", ".seat-state:last-child"
    )
    assert off_screen(page, boxes) == [], boxes
    assert axe_violations(page, axe_source) == []

    # A guest's phone, which trusts nothing of the score book's, opens the plain address.
    phone = profiles(browser, PHONE_VIEWPORT, is_mobile=True)
    answer = phone.goto(f"{plain}/join")
    assert answer.status == 200 and phone.evaluate("() => location.protocol") == "http:"
    phone.get_by_label("Round code").fill(code.lower())
    phone.get_by_role("button", name="Join").tap()
    phone.get_by_role("button", name="Bob", exact=True).tap()
    expect(phone.locator("h1")).to_have_text("Bob")
    for rank in ("K", "7"):
        phone.locator(f'.cardpad button[data-rank="{rank}"]').tap()
    phone.get_by_role("button", name="Send").tap()
    expect(phone.locator(".flash")).to_have_text("Sent: 17 — the scorekeeper's tablet has it")
    # Over plain HTTP its cookies are plain ones, or the phone would never send them back.
    cookies = phone.context.cookies()
    assert cookies and not any(cookie["secure"] for cookie in cookies), cookies
    bob = page.locator('.seat-state[data-seat="1"]')
    expect(bob).to_have_class(re.compile(r"\bis-received\b"))
    expect(page.locator("#cards_1")).to_have_value("7 K")
    assert page.problems == [] and phone.problems == []
