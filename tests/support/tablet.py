"""The pages driven as a person at the table drives them, in chromium at tablet size: start a
game, tap a round's cards into the pad, record rounds; and what the browser tests measure with
(axe-core, figures beside a test's name)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.support import games
from tests.support.browser import lan_url
from tests.support.games import PageSender
from tests.support.names import NAMES

# What a test checks of how the pages behave (a draft kept, a save sent once, a whole flow to its
# end, a keyboard's way through a form) is the same at both tablet sizes, so such a test opens
# `page` at one of them: the upright one, the narrower, where more wraps and scrolls. How a page
# fits its screen (first screens, one-line bars, tap targets, axe) is tested at every size, by
# `page`'s own parameters.
AT_ONE_SIZE = pytest.mark.parametrize("page", ["portrait"], indirect=True)

PENALTY = {"A": 15, "J": 10, "Q": 10, "K": 10, "10": 10, "JK": 15}
PENALTY.update({str(n): n for n in range(2, 10)})

# (out or None, exact cut?, cards left by player). Ann deals round 1, so the cutters are
# Dan, Ann, Bob, Cat, Dan, Ann, Bob (the dealer's right, R2).
ROUNDS = {
    1: ("Ann", True, {"Bob": ["7", "K"], "Cat": ["A"], "Dan": ["3"]}),
    2: ("Bob", False, {"Ann": ["Q", "J"], "Cat": ["5♥"], "Dan": ["JK"]}),
    3: (None, False, {"Ann": ["2"], "Bob": ["4"], "Cat": ["6"], "Dan": ["8"]}),
    4: ("Cat", True, {"Ann": ["K"], "Bob": ["9"], "Dan": ["A♠", "A"]}),
    5: ("Ann", False, {"Bob": ["3"], "Cat": ["2"], "Dan": ["K"]}),
    6: ("Dan", True, {"Ann": ["7"], "Bob": ["8"], "Cat": ["9"]}),
    7: ("Bob", False, {"Ann": ["A"], "Cat": ["K", "Q"], "Dan": ["JK", "JK"]}),
}


def penalty(cards):
    return sum(PENALTY[re.sub("[♠♥♦♣]$", "", card)] for card in cards)


def start_game(page):
    page.goto("/games/new")
    expect(page.locator('.seat[data-seat="4"]')).to_be_hidden()  # liverpool: 4 seats
    for seat, name in enumerate(["Bob", "Ann", "Cat", "Dan"]):
        page.locator(f"#names-{seat}").fill(name)
    # Bob and Ann sit the other way round: swap them with the move button.
    page.get_by_role("button", name="Move seat 1 down").tap()
    expect(page.locator("#names-0")).to_have_value("Ann")
    expect(page.locator("#names-1")).to_have_value("Bob")
    page.locator('.seat[data-seat="0"] .deals-first').tap()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")
    expect(page.locator(".dealer")).to_have_text("Ann")
    expect(page.locator(".cutter")).to_have_text("Dan")
    expect(page.locator(".first-player")).to_have_text("Bob")
    expect(page.locator(".exact-cut")).to_have_text("Exact cut: 41 — Dan gets −50")


def tap_cards(page, seat, cards):
    """A tap on the player's name gives them the form's one card pad, then a tap for each card."""
    page.locator(f'.hand[data-seat="{seat}"] .hand-name').tap()
    pad = page.locator(f'.cardpad[data-for="cards_{seat}"]')
    expect(page.locator(f'.hand[data-seat="{seat}"]')).to_have_class(re.compile(r"\bis-active\b"))
    for card in cards:
        rank, suit = re.match(r"^(10|JK|[2-9AJQK])([♠♥♦♣]?)$", card).groups()
        pad.locator(f'button[data-rank="{rank}"]').tap()
        if suit:
            pad.locator(f'button[data-suit="{suit}"]').tap()


def fill_round(page, out, cut, hands):
    if out is None:
        page.locator(".out-choice .tile.nobody").tap()
    else:
        page.locator(".out-choice .tile", has_text=out).tap()
        expect(page.locator(f'.hand[data-seat="{NAMES.index(out)}"]')).to_be_hidden()
    if cut:
        page.locator(".cut-choice .tile").tap()
    for name, cards in hands.items():
        seat = NAMES.index(name)
        tap_cards(page, seat, cards)
        expect(page.locator(f'output[data-penalty-for="cards_{seat}"]')).to_have_text(
            str(penalty(cards))
        )


def record_round(page, number, out, cut, hands):
    page.get_by_role("link", name=re.compile(f"Record round {number}")).tap()
    expect(page.locator("h1")).to_contain_text(f"Record round {number}")
    fill_round(page, out, cut, hands)
    page.get_by_role("button", name=f"Save round {number}").tap()
    expect(page.locator(".flash")).to_have_text(f"Round {number} saved.")


def with_figures(page, what: str, value) -> None:
    """Print a measured figure beside the test's name (shown with `pytest -s`)."""
    print(
        f"[{page.viewport_name}] {what}: {value if isinstance(value, dict) else f'{value:.2f} s'}"
    )


def axe_violations(page, source: str, skip: tuple[str, ...] = ()) -> list[str]:
    """Every violation axe.run finds with its defaults (best practices included), one line each;
    `skip` names rules left out. The engine goes in through the DevTools protocol, which the
    page's CSP does not govern. Only violations are gathered (axe's `resultTypes`): every rule
    still runs on every element, but the passes, incomplete and inapplicable results are not
    assembled node by node (axe's runs on one evening's 24 pages: 2.9-3.2 s -> 2.5-2.8 s)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    options = {
        "rules": {rule: {"enabled": False} for rule in skip},
        "resultTypes": ["violations"],
    }
    return page.evaluate(
        """async (options) => (await axe.run(document, options)).violations.map(v =>
            `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)""",
        options,
    )


def make_game(page, names, rounds, rules):
    """A game made through the JSON API with `rounds` rounds recorded (players go out in seat
    order, the others holding K 7): (id, edit key)."""
    sender = PageSender(page)
    game = games.create_game(sender, names, rules)
    games.play_rounds(sender, game, rounds, held="K 7")
    return game.id, game.key


# Where static/drafts.js keeps what is typed into a form, per game, round and version.
DRAFTS = "scorekeeper.draft:"


def wait_for_draft(page, needle: str, within_ms: int = 1000) -> None:
    """A draft holding `needle` is in localStorage within `within_ms` of the last tap."""
    page.wait_for_function(
        """([prefix, needle]) => Object.keys(localStorage).some(
            k => k.startsWith(prefix) && localStorage[k].includes(needle))""",
        arg=[DRAFTS, needle],
        timeout=within_ms,
    )


# What a control must measure at least, each way (WCAG 2.5.5's target size, near the app's 48).
FINGERTIP = 44
# Every control a person taps on a page's main part.
CONTROLS = "main .button, main button, main input:not([type=hidden]), main select, main summary"


def moved_on_until(page, done: Callable[[], bool], step_ms: int, within_s: float = 10) -> None:
    """The page's timers (`page.clock.install()` before it loaded) moved on `step_ms` at a time
    until `done()`, instead of waiting for them in real time: each step fires what falls due in
    it, and between steps, polled every 20 ms, the page's own work goes on as usual (a request,
    its answer, the timer it sets again once the answer is in)."""
    deadline = time.monotonic() + within_s
    while not done():
        assert time.monotonic() < deadline, f"not done within {within_s} s of moved-on timers"
        page.clock.run_for(step_ms)
        page.wait_for_timeout(20)


def navigated_by_its_timers(page, step_ms: int) -> str:
    """Where the page goes by itself once its timers are moved on (`moved_on_until`), such as
    the offline page's reload once the score book answers again."""
    navigated: list[str] = []

    def noted(frame) -> None:
        if frame == page.main_frame:
            navigated.append(frame.url)

    page.on("framenavigated", noted)
    try:
        moved_on_until(page, lambda: bool(navigated), step_ms)
    finally:
        page.remove_listener("framenavigated", noted)
    return navigated[0]


def by_lan_name(tablet, live_server, viewport):
    """A page of a fresh browser profile (another tablet) at `viewport`, opening the app by its
    LAN name; `page.problems` holds its script errors and CSP violations."""
    return noting_problems(tablet(viewport, base_url=lan_url(live_server)).new_page())


def noting_problems(page):
    """The page, with `page.problems` holding its script errors and CSP violations."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and problems.append(msg.text))
    page.problems = problems
    return page


def laid_out(page):
    """The page once its load event has fired, every stylesheet applied: an action that
    navigates returns when the new page starts to arrive, and a box measured before its
    stylesheets is a box no person ever sees (the browser paints nothing until they are in)."""
    page.wait_for_load_state("load")
    return page


def small_controls(page, selector: str = CONTROLS) -> list[str]:
    """Every visible control `selector` finds that is smaller than a fingertip either way."""
    return laid_out(page).evaluate(
        """([selector, least]) => [...document.querySelectorAll(selector)]
            .filter(e => e.offsetParent !== null)
            .map(e => [e, e.getBoundingClientRect()])
            .filter(([, box]) => box.width < least || box.height < least)
            .map(([e, box]) => `${e.outerHTML.slice(0, 120)}: ${box.width}x${box.height}`)""",
        [selector, FINGERTIP],
    )
