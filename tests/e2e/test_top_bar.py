"""The top bar on every page, by the LAN name at the real sizes: one line on a phone (the links
folded under a menu button), and one line on a tablet either way up, "✓ Dark room" included."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tablet import WAKE_LOCK_STUB
from tests.support import games
from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.games import PageSender
from tests.support.names import NAMES
from tests.support.tablet import axe_violations, by_lan_name, small_controls

pytestmark = pytest.mark.browser

SIZES = {**TABLET_VIEWPORTS, "phone": PHONE_VIEWPORT}
# One line of fingertip targets and the bar's padding: the most the bar takes on any page.
MOST = 60
PAGES = ["/", "/games/", "/games/new", "/players/", "/players/records", "/rules", "/rulesets/"]


def bar_height(page) -> float:
    return page.locator(".topbar").bounding_box()["height"]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_top_bar_is_one_line_on_every_page(tablet, live_server, axe_source, size):
    sender = PageSender(tablet(base_url=live_server).new_page())  # the API on loopback
    page = by_lan_name(tablet, live_server, SIZES[size])
    game = games.create_game(sender, NAMES, "liverpool")
    games.play_rounds(sender, game, 2)
    page.goto("/")
    if size == "phone":
        page.get_by_role("button", name="Menu").tap()
    page.get_by_role("button", name="Dark room").click()  # "✓ Dark room": the widest it gets
    expect(page.get_by_role("button", name="Dark room")).to_have_text("✓ Dark room")
    heights = {}
    for path in [*PAGES, f"/games/{game.id}", f"/players/{NAMES[0]}"]:
        page.goto(path)
        heights[path] = bar_height(page)
    assert {path: h for path, h in heights.items() if h > MOST} == {}, heights
    # Every link of the bar is a tap or two away, a fingertip each, and nothing axe finds.
    menu = page.get_by_role("button", name="Menu")
    if size == "phone":
        expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
        expect(menu).to_have_attribute("aria-expanded", "false")
        menu.tap()
        expect(menu).to_have_attribute("aria-expanded", "true")
    else:
        expect(menu).to_be_hidden()
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link")).to_have_count(3)
    assert small_controls(page, ".topbar a, .topbar button") == []
    assert axe_violations(page, axe_source) == []
    nav.get_by_role("link", name="Games").tap()
    expect(page.locator("h1")).to_have_text("Games")
    if size == "phone":
        expect(page.get_by_role("navigation", name="Main")).to_be_hidden()


@pytest.mark.parametrize("size", sorted(TABLET_VIEWPORTS))
def test_the_screen_note_and_the_dark_room_keep_the_bar_one_line(tablet, live_server, size):
    """The table's own tablet: its name, "Screen stays on", the links and "✓ Dark room"."""
    page = tablet(size, base_url=live_server).new_page()
    game = games.create_game(PageSender(page), NAMES, "liverpool")
    page.add_init_script(WAKE_LOCK_STUB)
    page.goto(f"/games/{game.id}/join?key={game.key}")
    page.get_by_role("button", name="Dark room").click()
    for path in (f"/games/{game.id}", f"/games/{game.id}/rounds/new"):
        page.goto(path)
        expect(page.locator(".wakelock-note")).to_have_text("Screen stays on")
        expect(page.get_by_role("button", name="Dark room")).to_have_text("✓ Dark room")
        assert bar_height(page) <= MOST, path


# Before any script of the page: the tablet chose the dark room, and when the theme is set.
DARK_ROOM_CHOSEN = """
localStorage.setItem("scorekeeper-theme", "dark");
window.themeSetAt = null;
new MutationObserver(() => {
  if (window.themeSetAt === null && document.documentElement.dataset.theme === "dark") {
    window.themeSetAt = performance.now();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-theme"] });
"""
THEME_LATE_S = 0.6


def test_a_dark_room_never_sees_the_light_page_first(tablet, live_server):
    """The theme is an ES module, run after the page is parsed: the page is not painted before
    it has set the tablet's choice, even when the module is slow to arrive."""
    context = tablet(base_url=live_server, color_scheme="light")
    context.add_init_script(DARK_ROOM_CHOSEN)
    page = context.new_page()

    def late(route):
        time.sleep(THEME_LATE_S)
        route.continue_()

    page.route("**/static/theme.js*", late)
    page.goto("/games/new")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    # A function, not an expression: Playwright checks an expression again by `eval`, which the
    # page's CSP refuses, so the wait failed whenever the first paint came after its first look.
    page.wait_for_function("() => performance.getEntriesByType('paint').length > 0")
    painted = page.evaluate("performance.getEntriesByType('paint')[0].startTime")
    set_at = page.evaluate("window.themeSetAt")
    assert set_at is not None and set_at <= painted, (set_at, painted)
    expect(page.get_by_role("button", name="Dark room")).to_have_attribute("aria-pressed", "true")
