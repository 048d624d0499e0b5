"""The tests' chromium as `tests/support/browser.py` launches it.

The pages open in Debian's chromium-headless-shell, the same chromium as the tablet's at the same
version. The whole chromium (the tests of the browser's own trust, and the benchmarks) builds no
address-bar popups for a new window (otherwise a renderer and about half a second of CPU each),
and Playwright's own switches still hold beside the tests' (chromium honours only the last
`--disable-features`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.browser import launch_whole

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def whole(browser) -> Iterator:
    launched = launch_whole(browser)
    yield launched
    launched.close()


def test_the_pages_browser_is_the_tablets_chromium_at_its_version(browser, whole):
    """The headless shell and the whole chromium come from one Debian source at one version: a
    page the tests pass is laid out and run by the engine the tablet's browser has."""
    assert browser.version == whole.version


def test_a_new_context_opens_only_its_page(whole):
    context = whole.new_context()
    try:
        page = context.new_page()
        page.set_content("<p>the page</p>")
        session = whole.new_browser_cdp_session()
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        session.detach()
    finally:
        context.close()
    assert [target["url"] for target in targets if target["type"] not in ("page", "tab")] == []


def test_playwrights_own_features_stay_off(whole):
    """Chromium's command line carries Playwright's `--disable-features` first and the tests' after
    it; the last is the one chromium honours, so it must hold every feature of Playwright's (a
    newer Playwright that turns off one more fails here until `DISABLED_FEATURES` names it)."""
    context = whole.new_context()
    try:
        page = context.new_page()
        page.goto("chrome://version")
        command_line = page.locator("#command_line").inner_text()
    finally:
        context.close()
    switches = [
        set(part.removeprefix("--disable-features=").split(","))
        for part in command_line.split()
        if part.startswith("--disable-features=")
    ]
    assert len(switches) == 2, command_line
    playwrights, honoured = switches
    assert playwrights - honoured == set()
    assert {"WebUIOmniboxPopup", "WebUIOmniboxAimPopup"} <= honoured
