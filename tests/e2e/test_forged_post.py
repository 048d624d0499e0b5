"""A page on another site that posts a round form to the app never gets a round recorded."""

from __future__ import annotations

import html
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from tests.support.names import NAMES
from tests.support.server import STOP_POLL_SECONDS
from tests.support.tablet import AT_ONE_SIZE

pytestmark = pytest.mark.browser

FORGED = {"out": "0", "cut_exact": "y", "cards_1": "JK JK", "cards_2": "A", "cards_3": "K"}


def forged_page(target: str) -> bytes:
    """Another site's page: a round form aimed at the app, sent as soon as it loads."""
    inputs = "".join(
        f'<input type="hidden" name="{name}" value="{html.escape(value)}">'
        for name, value in FORGED.items()
    )
    return (
        f'<!doctype html><title>Free cards</title><form id="f" method="post" action="{target}">'
        f"{inputs}</form><script>document.getElementById('f').submit()</script>"
    ).encode()


@pytest.fixture(params=["127.0.0.2", "127.0.0.1"], ids=["another-site", "another-port"])
def other_origin(request):
    """Serve the forged page on a second loopback origin; yields (url, set_target)."""
    target: dict[str, str] = {}

    def site(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [forged_page(target["url"])]

    server = make_server(request.param, 0, site, threaded=True)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": STOP_POLL_SECONDS}, daemon=True
    )
    thread.start()
    try:
        yield f"http://{request.param}:{server.server_port}/", target
    finally:
        server.shutdown()
        thread.join(timeout=5)


@AT_ONE_SIZE
def test_a_forged_round_is_shown_but_never_recordable(page, live_server, other_origin):
    page.goto("/games/new")
    for seat, name in enumerate(NAMES):
        page.locator(f"#names-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")
    game_path = page.url.removeprefix(live_server)
    url, target = other_origin
    target["url"] = f"{live_server}{game_path}/rounds/new"

    page.goto(url)
    expect(page.get_by_role("heading", name="Nothing was saved")).to_be_visible()
    assert page.url == target["url"]
    # What was received is only shown: no form, no token, nothing a tap could send.
    expect(page.locator("td", has_text="JK JK")).to_have_count(1)
    expect(page.locator("form")).to_have_count(0)
    expect(page.locator("input")).to_have_count(0)
    expect(page.locator("main").get_by_role("button")).to_have_count(0)  # (the top bar: theme)
    rounds = page.request.get(f"{live_server}/api{game_path}").json()["rounds"]
    assert rounds == []

    # The link opens this tablet's own, empty form for the round.
    page.get_by_role("link", name="Open a fresh form").tap()
    expect(page.locator("h1")).to_contain_text("Record round 1")
    for seat in (1, 2, 3):
        expect(page.locator(f"#cards_{seat}")).to_have_value("")
    expect(page.locator(".cut-choice input")).not_to_be_checked()
