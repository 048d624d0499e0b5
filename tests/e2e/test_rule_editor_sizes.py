"""The rule editor at the sizes a family holds it, by the LAN name (both tablet sizes and a
phone): a run switched to a set takes a set's size, a number's problem reads as a sentence, and
a rule set already saved is not offered to be saved again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS
from tests.support.tablet import by_lan_name

pytestmark = pytest.mark.browser

SIZES = [
    pytest.param(TABLET_VIEWPORTS["landscape"], id="1024x768"),
    pytest.param(TABLET_VIEWPORTS["portrait"], id="768x1024"),
    pytest.param(PHONE_VIEWPORT, id="360x640"),
]


@pytest.mark.parametrize("viewport", SIZES)
def test_a_run_switched_to_a_set_takes_a_sets_size(tablet, live_server, viewport):
    page = by_lan_name(tablet, live_server, viewport)
    page.goto("/rulesets/new")
    # Liverpool's deal 2 is a set of 3 and a run of 4.
    kind, size = page.locator("#deals-1-contract-1-kind"), page.locator("#deals-1-contract-1-size")
    expect(size).to_have_value("4")
    kind.select_option("set")
    expect(size).to_have_value("3")
    kind.select_option("run")
    expect(size).to_have_value("4")
    # A size typed for the run is not carried over to the set either.
    size.fill("5")
    kind.select_option("set")
    expect(size).to_have_value("3")
    page.wait_for_load_state("networkidle")
    expect(page.locator("[data-summary]")).not_to_contain_text("sets of 4")
    assert page.problems == []


@pytest.mark.parametrize("viewport", SIZES)
def test_a_numbers_problem_wraps_at_its_width_not_a_word_a_line(tablet, live_server, viewport):
    page = by_lan_name(tablet, live_server, viewport)
    page.goto("/rulesets/new")
    for place, typed, said in [
        ("deals-1-contract-1-size", "99", "must be from 4 to 14, not 99"),
        ("values-JK", "101", "must be from 0 to 100, not 101"),
        ("cut_bonus", "150", "must be from 0 to 100 points off the cutter's round"),
    ]:
        page.locator(f"#{place}").fill(typed)
        problem = page.locator(f"#problem-{place}")
        expect(problem).to_have_text(said)
        lines = problem.evaluate(
            "e => Math.round(e.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(e).lineHeight))"
        )
        assert lines <= 2, f"{place}: {lines} lines"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert page.problems == []


@pytest.mark.parametrize("viewport", SIZES)
def test_a_saved_rule_set_opened_by_its_link_is_not_offered_to_be_saved_again(
    tablet, live_server, viewport
):
    page = by_lan_name(tablet, live_server, viewport)
    page.goto("/rulesets/new")
    page.locator("#name").fill("Smith family")
    page.locator("#values-JK").fill("50")
    page.get_by_role("button", name="Save as our table's rules").click()
    expect(page.locator("h1")).to_contain_text("Smith family")
    page.goto(page.locator("#share-link").get_attribute("href"))
    expect(page.locator("h1")).to_have_text("Shared rules: Smith family")
    expect(page.get_by_role("button", name="Save as our table's rules")).to_have_count(0)
    saved = page.locator("#already-saved")
    expect(saved).to_contain_text("Saved here as Smith family")
    expect(saved.get_by_role("link", name="Smith family", exact=True)).to_be_visible()
    expect(saved.get_by_role("link", name="Change Smith family")).to_be_visible()
    assert page.problems == []
