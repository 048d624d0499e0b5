"""Page weight as the tablet downloads it: each page with everything it fetches, cold cache.

Chromium loads each page in a profile of its own, opens its folded boxes and lets its lazy
images come; Playwright counts what crossed the network (tests/support/weight.py; bench/weight.py
prints the same figures as a table). Elsewhere: no inline script or style on any page, which
the CSP forbids (tests/test_security.py::test_no_page_needs_inline_script_or_style), and the
round form saving without JavaScript
(tests/e2e/test_table_mishaps.py::test_without_javascript_the_forms_save_and_back_shows_a_clean_form).
"""

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import TABLET_VIEWPORTS
from tests.support.weight import TARGET_BYTES, table_sights, weigh_cold

pytestmark = pytest.mark.browser

LEDGER_ROW = re.compile(r"<tr[^>]*\sdata-round=")
# The one script that runs before the first paint, on purpose: it sets the light or dark theme,
# so that the page does not paint in one and flash into the other (tests/e2e/test_tablet.py
# measures that nothing moves as a page loads). It holds up the parser for one small file.
BEFORE_FIRST_PAINT = re.compile(r"/static/theme\.js(\?v=[0-9a-f]+)?$")


@pytest.mark.parametrize("viewport", sorted(TABLET_VIEWPORTS))
def test_every_page_comes_whole_in_60_kb_from_this_machine_alone(browser, live_server, viewport):
    """At most 60,000 bytes with every asset, nothing from another host, no asset missing, no
    script holding up the content, and the content in the HTML as served."""
    port = int(live_server.rsplit(":", 1)[1])
    problems = {}
    for sight in table_sights(port):
        weight = weigh_cold(browser, live_server, sight, TABLET_VIEWPORTS[viewport])
        found = []
        if weight.total > TARGET_BYTES:
            found.append(f"{weight.total:,} B transferred > {TARGET_BYTES:,}: {weight.by_kind()}")
        if weight.external():
            found.append(f"reaches beyond this machine: {weight.external()}")
        if weight.missing():
            found.append(f"missing: {weight.missing()}")
        blocking = [url for url in weight.blocking_scripts if not BEFORE_FIRST_PAINT.search(url)]
        if blocking:
            found.append(f"scripts without defer hold up the content: {blocking}")
        if sight.rounds is not None and len(LEDGER_ROW.findall(weight.html)) != sight.rounds:
            found.append(f"the HTML as served lacks the ledger's {sight.rounds} rounds")
        if not any(t.kind == "stylesheet" for t in weight.transfers):
            found.append("no stylesheet counted: the measure missed the assets")
        if found:
            problems[sight.name] = found
    assert problems == {}


def test_the_rules_check_answers_without_javascript(browser, live_server):
    """Typed cards, the Check button, a verdict: the form is the page's, not its script's."""
    context = browser.new_context(
        viewport=TABLET_VIEWPORTS["portrait"], base_url=live_server, java_script_enabled=False
    )
    try:
        tab = context.new_page()
        tab.goto("/rules?q=meld")
        tab.locator("#cards").fill("7♠ 7♥ 7♦")
        tab.get_by_role("button", name="Check").click()
        expect(tab.locator("#verdict .verdict-title")).to_have_text("LEGAL")
        tab.locator("#cards").fill("7♠ 8♥ 9♦")
        tab.get_by_role("button", name="Check").click()
        expect(tab.locator("#verdict .verdict-title")).to_have_text("NOT LEGAL")
    finally:
        context.close()
