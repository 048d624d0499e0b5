"""The tests' chromium as `tests/support/browser.py` launches it: a new browser context holds the
pages a test opens and nothing else (headless chromium otherwise builds two address-bar popups
for every new window, a renderer and about half a second of CPU each), and Playwright's own
switches still hold beside the tests' (chromium honours only the last `--disable-features`)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_a_new_context_opens_only_its_page(browser):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<p>the page</p>")
        session = browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        session.detach()
    finally:
        context.close()
    assert [target["url"] for target in targets if target["type"] not in ("page", "tab")] == []


def test_playwrights_own_features_stay_off(browser):
    """Chromium's command line carries Playwright's `--disable-features` first and the tests' after
    it; the last is the one chromium honours, so it must hold every feature of Playwright's (a
    newer Playwright that turns off one more fails here until `DISABLED_FEATURES` names it)."""
    context = browser.new_context()
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
