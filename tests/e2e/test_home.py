"""The home page as a person sees it on a tablet."""

import pytest

pytestmark = pytest.mark.browser


def test_home_page_links_work(page):
    page.goto("/")
    assert page.title() == "Liverpool Scorekeeper"
    links = page.locator("a[href]")
    assert links.count() >= 1
    for index in range(links.count()):
        href = links.nth(index).get_attribute("href")
        response = page.request.get(href)
        assert response.status == 200, href


def test_tap_targets_are_finger_sized(page):
    page.goto("/")
    for element in page.locator("a, button, input, select").all():
        if not element.is_visible():
            continue
        box = element.bounding_box()
        assert box["height"] >= 48, element.evaluate("e => e.outerHTML")


def test_no_external_requests(page, live_server):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("/")
    page.wait_for_load_state("networkidle")
    assert requested
    assert all(url.startswith(live_server) for url in requested), requested
