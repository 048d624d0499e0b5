"""An evening in every shipped language, by the LAN name, at a tablet's and a phone's size: each
page a table opens — home, a new game, the game in play and its round form, the finished game,
the rules check with a verdict, the rulebook, the rule sets and their editor, the season, the
phones' join page, the paper sheet import, the offline and trust pages, a page not found, and a
club's night, its room screen and summary, and its league — speaks the language with no English message
left, nothing cut off or wider than the screen, and axe finds nothing."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.support.browser import PHONE_VIEWPORT, TABLET_VIEWPORTS, lan_url
from tests.support.games import PageSender
from tests.support.names import NAMES
from tests.support.tablet import axe_violations, laid_out, make_game, noting_problems

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import catalogs  # noqa: E402  (tools/ is not a package)

SIZES = {"landscape": TABLET_VIEWPORTS["landscape"], "phone": PHONE_VIEWPORT}
CODES = catalogs.languages() + catalogs.regions()
# axe's findings do not turn on the words: two languages (the longest words among them) at
# each size are enough, and keep the evening short.
AXE_CODES = {"de", "fi"}
# The players of the evening's club night: two tables of four.
CLUB = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}|<")


def english_left_over(code: str) -> list[str]:
    """The English messages a page in `code` must not show: each of three words or more that the
    language's catalog says otherwise, with nothing filled in."""
    whole = catalogs.catalog(code)
    found = []
    for message in whole:
        if not message.id or isinstance(message.id, tuple) or PLACEHOLDER.search(message.id):
            continue
        if len(message.id.split()) >= 3 and message.string and message.string != message.id:
            found.append(message.id)
    return found


# Every box a person reads on a page that shows less than its words: wider than its box while
# its overflow is cut, or past the right edge of the screen.
CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  // Inside a box that scrolls sideways (a wide table), a person scrolls to what is past the edge.
  const scrolled = (e) => {
    for (let up = e.parentElement; up; up = up.parentElement) {
      if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const found = [];
  if (document.documentElement.scrollWidth > width + 1) {
    const widest = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .map((e) => e.outerHTML.slice(0, 80));
    found.push(`the page is ${document.documentElement.scrollWidth}px wide on ${width}px: ${widest}`);
  }
  for (const e of document.querySelectorAll(
      "main button, main .button, main a, main label, main h1, main h2, main th, main .tile," +
      " main .badge, main summary, header a, header button, footer a")) {
    if (e.offsetParent === null || e.closest(".visually-hidden")) continue;
    const style = getComputedStyle(e);
    const box = e.getBoundingClientRect();
    const cut = style.overflowX !== "visible" && e.scrollWidth > e.clientWidth + 1;
    const past = box.right > width + 1 && !scrolled(e);
    if (cut || past) found.push(`${e.outerHTML.slice(0, 100)} (${Math.round(box.width)}px)`);
  }
  return found;
}"""


def club_night(setup) -> tuple[int, int]:
    """A club's night of 8 drawn into two tables of Liverpool, and a league counting it, made
    through the JSON API: (night id, league id)."""
    sender = PageSender(setup)
    made = sender.send_json("POST", "/api/nights", {"rules": "liverpool", "players": CLUB})
    night = made.json()["id"]
    assert sender.send_json("POST", f"/api/nights/{night}/draw", {}).status == 201
    body = {"name": "Torstai", "scoring": "places", "nights": [night]}
    league = sender.send_json("POST", "/api/league", body)
    assert league.status == 201, league.body
    return night, league.json()["id"]


def opened_pages(page, game_id: int, finished_id: int, key: str, club: tuple[int, int]):
    """Each page of the evening, opened in turn: yields its name once it is shown."""
    night, league = club
    page.goto(f"/games/{game_id}/join?key={key}")
    for path in (
        "/",
        "/games/new",
        "/games/",
        f"/games/{game_id}",
        f"/games/{game_id}/rounds/new",
        f"/games/{finished_id}",
        "/rules/reference?rules=shanghai",
        "/rulesets/",
        "/rulesets/new",
        "/players/",
        f"/players/{NAMES[0]}",
        "/players/records",
        "/join",
        "/games/import-sheet",
        "/offline",
        "/trust",
        "/games/999999",
        "/nights",
        f"/nights/{night}",
        f"/nights/{night}/screen",
        f"/nights/{night}/summary",
        "/league",
        f"/league/{league}",
    ):
        page.goto(path)
        yield path
    page.goto("/rules?q=opening")
    page.select_option("#round", "2")
    page.fill("#meld1", "7♣ 7♦ 7♥")
    page.fill("#meld2", "3♠ 4♠ 6♠")
    page.locator("form.rules-form button[type=submit]").first.tap()
    page.locator("#verdict").wait_for(state="visible")
    yield "/rules (a verdict)"


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("code", CODES)
def test_an_evening_in_the_language_meets_no_english(tablet, live_server, axe_source, code, size):
    tag = code.replace("_", "-")
    # The games are made through the JSON API, from the test itself (not a device at the table).
    setup = tablet(SIZES[size], base_url=live_server).new_page()
    game_id, key = make_game(setup, NAMES, 2, "liverpool")
    finished_id, _ = make_game(setup, NAMES, 7, "liverpool")
    club = club_night(setup)
    context = tablet(SIZES[size], base_url=lan_url(live_server), locale=tag)
    page = noting_problems(context.new_page())
    english = english_left_over(code)
    assert len(english) > 300, "the catalog says too little to judge a page by"
    problems = []
    for shown in opened_pages(page, game_id, finished_id, key, club):
        laid_out(page)
        lang = page.locator("html").get_attribute("lang")
        if lang != tag:
            problems.append(f"{shown}: <html lang={lang}>")
        text = page.evaluate("() => document.body.innerText")
        problems += [f"{shown}: English left: {left!r}" for left in english if left in text]
        problems += [f"{shown}: cut off: {cut}" for cut in page.evaluate(CUT_OFF)]
        if code in AXE_CODES:
            problems += [f"{shown}: axe: {v}" for v in axe_violations(page, axe_source)]
    print("\n".join(problems))
    assert problems == []
    # The page not found is asked for on purpose: the browser notes its 404, nothing else.
    assert [problem for problem in page.problems if "status of 404" not in problem] == []
