"""Saved rule sets in chromium at both tablet sizes: a share link opened on a second tablet shows
the same rules and saves them there, the QR code is that link, the game page's summary line
opens the rules read out with the changes marked, the rules check says whose rules it applies;
axe-core finds nothing on these pages, light and dark, and every control is a fingertip wide."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from scorekeeper.platform import network
from scorekeeper.rules import RuleSet, sharing
from tests.support import games
from tests.support.browser import lan_url
from tests.support.config import TEST_CONFIG
from tests.support.games import PageSender
from tests.support.names import NAMES
from tests.support.saved import SMITH, smith_document
from tests.support.server import serving
from tests.support.tablet import AT_ONE_SIZE, axe_violations, by_lan_name, small_controls

pytestmark = pytest.mark.browser

SMITH_RULES = RuleSet.parse(smith_document())


def save_smith(page) -> int:
    """The Smith family's rules saved through the API, as the editor would; the saved id."""
    answer = PageSender(page).send_json("POST", "/api/rulesets", {"rules": smith_document()})
    assert answer.status == 201, answer.body
    return answer.json()["id"]


def smith_game(page) -> int:
    return games.create_game(PageSender(page), NAMES, smith_document()).id


def downloaded(page) -> str:
    """The page's "Download the rule set file", fetched by the page itself (by its own name)."""
    href = page.locator("#download").get_attribute("href")
    return page.evaluate("async (href) => await (await fetch(href)).text()", href)


@AT_ONE_SIZE
def test_a_share_link_opened_on_a_second_tablet_shows_and_saves_the_same_rules(
    page, tablet, live_server
):
    ruleset_id = save_smith(page)
    first = by_lan_name(tablet, live_server, page.viewport_name)
    first.goto("/rulesets/")
    first.get_by_role("link", name=f"Share {SMITH}").tap()
    expect(first.locator("h1")).to_have_text(SMITH)
    link = first.locator("#share-link").get_attribute("href")
    assert link.startswith(f"{lan_url(live_server)}/rulesets/shared/")
    expect(first.locator("#loopback-hint")).to_have_count(0)
    # The QR code is an image of that very link (qrcode draws the same code for the same text).
    assert first.locator("#share-qr").get_attribute("src") == network.qr_data_uri(link)
    assert first.locator("#share-qr").evaluate("img => img.complete && img.naturalWidth > 0")

    second = by_lan_name(tablet, live_server, page.viewport_name)
    second.goto(link)
    expect(second.locator("h1")).to_have_text(f"Shared rules: {SMITH}")
    expect(second.locator(".ruleset-summary")).to_have_text(SMITH_RULES.summary())
    expect(second.locator("#shared-read")).to_contain_text("A joker left in hand is 50.")
    expect(second.locator("#shared-read li.changed")).to_have_count(len(SMITH_RULES.differences()))
    # This table keeps them already under that name: said, and only a copy is offered.
    expect(second.locator("#already-saved")).to_contain_text(SMITH)
    expect(second.get_by_role("button", name="Save as our table's rules")).to_have_count(0)
    second.locator("#save-copy > summary").tap()
    expect(second.locator("#name")).to_have_value(SMITH)
    second.get_by_role("button", name="Save a copy").tap()
    expect(second.locator("#name-error")).to_contain_text("already saved")
    expect(second.locator("#name")).to_have_value(SMITH)
    second.locator("#name").fill("Smiths at the cottage")
    second.get_by_role("button", name="Save a copy").tap()
    expect(second.locator(".flash")).to_have_text(
        'Saved as your table\'s rules: "Smiths at the cottage".'
    )
    expect(second.locator("h1")).to_have_text("Smiths at the cottage")
    expect(second.locator("#saved-read")).to_contain_text("A joker left in hand is 50.")
    second.goto("/rulesets/")
    expect(second.locator(".ruleset-card")).to_have_count(2)
    assert first.problems == [] and second.problems == []
    assert ruleset_id


@AT_ONE_SIZE
def test_the_link_opened_on_another_tables_server_saves_the_rules_there(
    page, tablet, live_server, tmp_path, fresh_database
):
    """A cousin's tablet runs its own app: the code in the link carries the whole rule set."""
    save_smith(page)
    page.goto("/rulesets/")
    page.get_by_role("link", name=SMITH, exact=True).tap()
    link = page.locator("#share-link").get_attribute("href")
    here = downloaded(page)
    config = dict(TEST_CONFIG, WTF_CSRF_ENABLED=True)
    config["SQLALCHEMY_DATABASE_URI"] = fresh_database("cousins")
    with serving(create_app(config, instance_path=str(tmp_path / "cousins"))) as cousins:
        other = tablet("landscape", base_url=lan_url(cousins)).new_page()
        other.goto("/rulesets/shared/" + link.rsplit("/", 1)[1])
        expect(other.locator("#already-saved")).to_have_count(0)
        other.get_by_role("button", name="Save as our table's rules").tap()
        expect(other.locator("h1")).to_have_text(SMITH)
        there = downloaded(other)
        assert there == here == sharing.file_text(SMITH_RULES)  # the same file, byte for byte


@AT_ONE_SIZE
def test_the_game_page_summary_opens_the_rules_with_the_changes_marked(page):
    game_id = smith_game(page)
    page.goto(f"/games/{game_id}")
    summary = page.locator("#rules > summary")
    expect(summary).to_contain_text(SMITH_RULES.summary())
    read = page.locator("#rules-read")
    expect(read).to_be_hidden()
    summary.tap()
    expect(read).to_be_visible()
    changed = read.locator("li.changed")
    expect(changed).to_have_count(len(SMITH_RULES.differences()))
    # Marked in words, for the eye and for a screen reader: not by colour alone.
    expect(changed.first.locator(".changed-mark")).to_have_text("Changed from Liverpool:")
    expect(changed.first.locator(".changed-mark")).to_be_visible()
    joker = read.locator('li[data-place="values.JK"]')
    expect(joker).to_have_class("rules-line-item changed")
    expect(joker).to_have_text("Changed from Liverpool: A joker left in hand is 50.")
    king = read.locator('li[data-place="values.K"]')
    expect(king.locator(".changed-mark")).to_have_count(0)
    page.get_by_role("link", name="The rulebook under these rules").tap()
    expect(page.locator("h1")).to_have_text("The rules: Smith family rules")
    expect(page.locator("#r10-house")).to_contain_text("A joker left in hand is 50.")


@AT_ONE_SIZE
def test_the_rules_check_says_whose_rules_it_applies(page):
    ruleset_id = save_smith(page)
    game_id = smith_game(page)
    page.goto(f"/rules?game={game_id}")
    expect(page.locator("#rules-context")).to_contain_text(
        f"{SMITH} rules · Deal 1 · {len(NAMES)} players"
    )
    page.goto("/rules?q=opening")
    page.select_option("#rules", f"ruleset:{ruleset_id}")
    # The page's script follows the choice: the Smith family's eight deals.
    expect(page.locator("#round option")).to_have_count(SMITH_RULES.last_deal)
    expect(page.locator("#round option").last).to_have_text("Round 8: 3 runs of 5")


@pytest.fixture(params=["light", "dark"])
def scheme(request, page):
    page.emulate_media(color_scheme=request.param)
    return request.param


def test_the_rule_set_pages_have_no_axe_violations_and_fingertip_controls(page, scheme, axe_source):
    ruleset_id = save_smith(page)
    game_id = smith_game(page)
    for path in ("/rulesets/", f"/rulesets/{ruleset_id}", "/rulesets/upload"):
        page.goto(path)
        assert axe_violations(page, axe_source) == [], path
        assert small_controls(page) == [], path
    page.goto(f"/rulesets/{ruleset_id}")
    page.goto(page.locator("#share-link").get_attribute("href"))
    assert axe_violations(page, axe_source) == [], "shared"
    assert small_controls(page) == [], "shared"
    page.goto(f"/rules/reference?ruleset={ruleset_id}")
    assert axe_violations(page, axe_source) == [], "reference"
    page.goto(f"/games/{game_id}")
    page.locator("#rules > summary").click()
    expect(page.locator("#rules-read")).to_be_visible()
    assert axe_violations(page, axe_source) == [], "game page, rules open"
    assert small_controls(page) == [], "game page"
