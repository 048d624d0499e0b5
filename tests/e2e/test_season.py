"""The season at tablet size: the chart, the summary in view after round 7, play again, the
player chips, and the printed sheet of a finished 8-player game on one A4 landscape page."""

from __future__ import annotations

import re
import threading

import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from scorekeeper.platform import cache
from scorekeeper.season import players
from tests.support import games
from tests.support.book import game_with_stored_names, new_game, play_rounds
from tests.support.browser import PHONE_VIEWPORT, lan_url
from tests.support.config import TEST_CONFIG
from tests.support.games import PageSender
from tests.support.names import NAMES
from tests.support.server import serving
from tests.support.tablet import (
    AT_ONE_SIZE,
    ROUNDS,
    axe_violations,
    moved_on_until,
    record_round,
)

pytestmark = pytest.mark.browser
# The page, failing the test on any script error or CSP violation.


def api_game(page, names=NAMES, profile="liverpool", first_dealer="Ann"):
    """A game made through the API; this browser gets its key through the edit link."""
    game = games.create_game(PageSender(page), names, profile, first_dealer)
    page.goto(f"/games/{game.id}/join?key={game.key}")
    return game


def api_rounds(page, game, rounds):
    """Record these rounds (cards as lists) through the API."""
    played = [
        (out, cut, {name: " ".join(held) for name, held in hands.items()})
        for out, cut, hands in rounds
    ]
    games.play(PageSender(page), game, played)


@AT_ONE_SIZE
def test_the_chart_follows_the_game(watched):
    page = watched
    game = api_game(page)
    page.goto(f"/games/{game.id}")
    expect(page.locator("#chart")).to_have_count(0)
    api_rounds(page, game, [ROUNDS[n] for n in (1, 2, 3)])
    page.goto(f"/games/{game.id}")
    chart = page.locator("#chart svg")
    expect(chart).to_have_attribute("role", "img")
    expect(chart).to_have_attribute(
        "aria-label", re.compile(r"^Running totals after round 3 of 7: Dan leads\.")
    )
    totals = page.locator("#chart [data-player]")
    expect(totals).to_have_count(4)
    assert {
        totals.nth(i).get_attribute("data-player"): totals.nth(i).get_attribute("data-totals")
        for i in range(4)
    } == {"Ann": "0,20,22", "Bob": "17,17,21", "Cat": "15,20,26", "Dan": "-47,-32,-24"}
    # Readable on the tablet: as wide as the content, labels at least 11 CSS pixels high.
    box = chart.bounding_box()
    assert box["width"] >= 0.9 * page.locator("#ledger").bounding_box()["width"]
    label = page.locator("#chart .series.lead text").bounding_box()
    assert label["height"] >= 11
    expect(page.locator("#chart .series.lead text")).to_have_text("★ Dan −24")
    # Nothing drawn outside the picture: every label stays inside the chart's box.
    for index in range(4):
        text = totals.nth(index).locator("text").bounding_box()
        assert box["x"] <= text["x"] and text["x"] + text["width"] <= box["x"] + box["width"] + 1


def test_the_summary_opens_in_view_when_round_7_is_saved(watched):
    page = watched
    game = api_game(page)
    api_rounds(page, game, [ROUNDS[n] for n in range(1, 7)])
    page.goto(f"/games/{game.id}")
    record_round(page, 7, *ROUNDS[7])
    assert page.url.endswith("#summary")
    summary = page.locator("#summary")
    expect(summary).to_be_in_viewport()
    expect(summary.locator(".verdict-title")).to_have_text("Ann wins")
    expect(summary.locator(".final-standings li")).to_have_text(
        [
            re.compile(r"1\. Ann 4"),
            re.compile(r"2\. Cat 7"),
            re.compile(r"3\. Bob 41"),
            re.compile(r"4\. Dan 46"),
        ]
    )
    expect(summary.locator(".most-out")).to_have_text("Most rounds went out: Ann and Bob (2 each)")
    expect(summary.locator(".round-highlights tbody tr")).to_have_count(4)
    expect(page.locator("#chart svg")).to_have_attribute("aria-label", re.compile("Ann wins"))


@AT_ONE_SIZE
def test_play_again_with_this_table(watched):
    page = watched
    game = api_game(page, first_dealer="Dan")
    api_rounds(page, game, [ROUNDS[n] for n in range(1, 8)])
    page.goto(f"/games/{game.id}")
    page.get_by_role("link", name=re.compile("Play again with this table")).tap()
    expect(page.locator("p.lead")).to_contain_text("Ann deals round 1")  # after Dan, wrapping
    page.get_by_role("button", name="Start the new game").tap()
    expect(page.locator(".flash")).to_have_text("New game with the same table: Ann deals round 1.")
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")
    expect(page.locator(".dealer")).to_have_text("Ann")
    expect(page.get_by_role("link", name=re.compile("Record round 1"))).to_be_visible()
    assert re.search(r"/games/(\d+)$", page.url).group(1) != str(game.id)


@AT_ONE_SIZE
def test_chips_seat_players_seen_before(watched):
    page = watched
    api_game(page, ["Zoë", "Bob", "Cat", "Dan"], first_dealer="Zoë")
    page.goto("/games/new")
    chips = page.locator(".player-chips .chip")
    expect(chips).to_have_text(["Zoë", "Bob", "Cat", "Dan"])
    page.locator("#names-0").fill("bob")
    expect(chips.nth(1)).to_have_attribute("aria-pressed", "true")  # already at the table
    chips.nth(0).tap()
    chips.nth(3).tap()
    expect(page.locator("#names-1")).to_have_value("Zoë")
    expect(page.locator("#names-2")).to_have_value("Dan")
    chips.nth(3).tap()  # a second tap takes Dan off again
    expect(page.locator("#names-2")).to_have_value("")
    chips.nth(2).tap()
    page.locator("#names-3").fill("Eve")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".kicker").first).to_contain_text("bob, Zoë, Cat, Eve")


FINISHED_EIGHT = ["Annabelle", "Bartholomew", "Cat", "Dominique", "Evangeline", "Fay", "Gus", "Hal"]


def finished_eight(page):
    """A finished family game of 8, with long names and many cards left, as the API makes it."""
    names = FINISHED_EIGHT
    game = api_game(page, names, "family", names[0])
    hands = ["K Q J 10 9", "A A 2", "JK 7 7 7", "5", "Q Q", "3 4 5 6", "K", "9 8"]
    rounds = []
    for number in range(7):
        out = names[number]
        held = {
            name: hands[(seat + number) % 8].split()
            for seat, name in enumerate(names)
            if name != out
        }
        rounds.append((out, number % 3 == 0, held))
    api_rounds(page, game, rounds)
    return game


HIDDEN_IN_PRINT = ".topbar, nav, button, .button, .big-button"


@pytest.mark.parametrize("editor", [True, False], ids=["editor", "spectator"])
def test_a_finished_game_of_eight_prints_on_one_a4_landscape_page(page, editor):
    game = finished_eight(page)
    if not editor:
        page.context.clear_cookies()
    page.goto(f"/games/{game.id}")
    expect(page.get_by_role("link", name=re.compile("Play again"))).to_have_count(
        1 if editor else 0
    )
    # Chromium's own print, A4 landscape, with a browser's default margins (about 1 cm).
    margin = {"top": "10mm", "bottom": "10mm", "left": "10mm", "right": "10mm"}
    pdf = page.pdf(format="A4", landscape=True, margin=margin, print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 1, f"{pages} pages"
    # The same layout on screen: A4 landscape less the margins is 277 mm = 1047 CSS pixels.
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 1047, "height": 718})
    for selector in HIDDEN_IN_PRINT.split(", "):
        for element in page.locator(selector).all():
            assert not element.is_visible(), element.evaluate("e => e.outerHTML.slice(0, 80)")
    ledger = page.locator(".ledger")
    headings = ledger.locator("thead th:visible")
    expect(headings).to_have_count(9)  # Round and 8 players: no correction column on paper
    expect(headings).to_have_text(["Round", *FINISHED_EIGHT])
    bottom = page.locator("main").bounding_box()
    assert bottom["y"] + bottom["height"] <= 718, bottom
    wrap = page.locator("#ledger .table-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    right = wrap.bounding_box()["x"] + wrap.bounding_box()["width"]
    for index in range(9):
        cell = headings.nth(index).bounding_box()
        assert cell["x"] + cell["width"] <= right + 1, index


# Names whose link, written as they are in the path, chromium resolved elsewhere.
FOLDER_NAMES = [["..", "a/..", "../../etc/passwd", "Ann"], [".", "a/b", "%2e%2e", ".%2e", "Ann"]]


@pytest.fixture
def odd_names_server(tmp_path, fresh_database):
    """A score book whose players include names stored as an earlier release let them in."""
    config = dict(TEST_CONFIG, SQLALCHEMY_DATABASE_URI=fresh_database("odd"))
    application = create_app(config, instance_path=str(tmp_path / "odd-instance"))
    client = application.test_client()
    for names in FOLDER_NAMES:
        play_rounds(client, game_with_stored_names(client, names))
    with serving(application) as url:
        yield url


def test_every_players_link_opens_that_player_in_chromium(tablet, odd_names_server):
    page = tablet(base_url=odd_names_server).new_page()
    everyone = sorted({name for names in FOLDER_NAMES for name in names})
    for name in everyone:
        page.goto("/players/")
        page.locator("td, th").get_by_role("link", name=name, exact=True).click()
        expect(page.locator("h1")).to_have_text(name)
    for name in [name for name in everyone if name != "Ann"]:
        page.goto("/players/Ann")  # head to head: each opponent by its link
        page.locator("tr:has(td.together)").get_by_role("link", name=name, exact=True).click()
        expect(page.locator("h1")).to_have_text(name)


def test_a_season_page_opened_as_the_score_book_starts_opens_itself_again(
    tablet, fresh_database, tmp_path, monkeypatch, axe_source
):
    """A phone in Finnish opens the players as the score book starts, before the season is
    worked out: a page that says so in Finnish (with nothing for axe to find), which opens the
    players by itself once they are ready."""
    config = dict(
        TEST_CONFIG, SQLALCHEMY_DATABASE_URI=fresh_database("starting"), SEASON_WAIT_SECONDS=0.2
    )
    application = create_app(config, instance_path=str(tmp_path / "starting-instance"))
    client = application.test_client()
    play_rounds(client, new_game(client, ["Ann", "Bob", "Cat"], "family"))
    with application.app_context():
        cache.kept(players.STAMP).clear()  # as a server just started
    release, compute = threading.Event(), players._compute
    monkeypatch.setattr(
        players, "_compute", lambda previous: release.wait(20) and compute(previous)
    )
    with serving(application) as url:
        context = tablet(PHONE_VIEWPORT, base_url=lan_url(url), locale="fi-FI")
        page = context.new_page()
        page.clock.install()  # the page opens itself again only as the test moves its clock on
        try:
            page.goto("/players/")
            expect(page.locator("h1")).to_have_text("Hetki vain")
            expect(page.locator("[role=status]")).to_contain_text("Kauden lukuja lasketaan")
            assert axe_violations(page, axe_source) == []
        finally:
            release.set()
        moved_on_until(page, lambda: page.locator("h1").inner_text() == "Pelaajat", 1000)
        expect(page.locator("td, th").get_by_role("link", name="Ann", exact=True)).to_be_visible()
        assert page.url == f"{lan_url(url)}/players/"
