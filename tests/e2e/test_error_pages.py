"""An error page is a page of the app: its layout and theme, readable, with nothing axe finds."""

from __future__ import annotations

import pytest

from tests.support.tablet import AT_ONE_SIZE, axe_violations

pytestmark = pytest.mark.browser

LOOK = """() => {
  const body = getComputedStyle(document.body);
  const bar = document.querySelector('.topbar');
  return {
    background: body.backgroundColor,
    color: body.color,
    bar: bar ? getComputedStyle(bar).backgroundColor : null,
    wide: document.documentElement.scrollWidth > window.innerWidth,
  };
}"""


def test_the_404_page_is_styled_in_light_and_dark(page, axe_source):
    looks = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto("/")
        home = page.evaluate(LOOK)
        answer = page.goto("/games/999999")
        assert answer.status == 404
        look = page.evaluate(LOOK)
        # The same colours as every other page of the app in this theme, and nothing too wide.
        assert look == home and not look["wide"], scheme
        assert page.get_by_role("heading", name="No game 999999").is_visible()
        assert page.get_by_text("Game 999999 does not exist.").is_visible()
        assert page.get_by_role("navigation", name="Main").is_visible()
        for way_back in ("Your games", "Home"):
            assert page.get_by_role("link", name=way_back, exact=True).is_visible()
        assert axe_violations(page, axe_source) == [], scheme
        looks[scheme] = look
    assert looks["light"]["background"] != looks["dark"]["background"]


@AT_ONE_SIZE
def test_the_way_back_from_a_404_leads_to_the_games(page):
    page.goto("/no-such-page")
    page.get_by_role("link", name="Your games", exact=True).click()
    page.wait_for_url("**/games/")
    assert page.get_by_role("heading", level=1).is_visible()
