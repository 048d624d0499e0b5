"""The tablet at the table: the 8-player ledger fits, the page follows the game, the dark room,
the screen kept on, the app installed and opening without the server, static files kept."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.names import LONG_EIGHT_NAMES, NAMES
from tests.support.tablet import AT_ONE_SIZE, make_game

pytestmark = pytest.mark.browser

# The longest names a table of eight brings, to the last seat.
LONG = [*LONG_EIGHT_NAMES[:6], "Gwendolyn", "Humphrey"]


def as_editor(page, game_id, key):
    page.goto(f"/games/{game_id}/join?key={key}")
    expect(page.locator(".record-round, #standings")).to_be_visible()


# --- The ledger fits -------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["spectator", "editor"])
def test_eight_players_ledger_fits_the_screen(page, role):
    game_id, key = make_game(page, LONG, 3, "family")
    if role == "editor":
        as_editor(page, game_id, key)
    page.goto(f"/games/{game_id}")
    wrap = page.locator("#ledger .table-wrap")
    sizes = wrap.evaluate("w => ({view: w.clientWidth, content: w.scrollWidth})")
    assert sizes["content"] <= sizes["view"], sizes
    width = page.viewport_size["width"]
    totals = page.locator(".ledger tfoot td.total")
    assert totals.count() == 8
    for index in range(8):
        box = totals.nth(index).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    if role == "editor":
        correct = page.get_by_role("link", name="Correct round 3")
        fits = correct.evaluate("b => b.scrollWidth <= b.clientWidth")
        box = correct.bounding_box()
        assert fits and box["x"] + box["width"] <= width and box["height"] >= 44
    # A wide table scrolls in a frame a keyboard can reach, named, with the rounds held still.
    assert wrap.get_attribute("tabindex") == "0"
    assert wrap.get_attribute("aria-label")
    wrap.focus()
    assert page.evaluate("() => document.activeElement.classList.contains('table-wrap')")
    sticky = page.locator(".ledger tbody tr > :first-child").first
    assert sticky.evaluate("c => getComputedStyle(c).position") == "sticky"


def test_a_table_too_wide_scrolls_with_the_round_column_held(page):
    game_id, _ = make_game(page, LONG, 2, "family")
    page.set_viewport_size({"width": 480, "height": 800})
    page.goto(f"/games/{game_id}")
    wrap = page.locator("#ledger .table-wrap")
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
    first = page.locator('.ledger tr[data-round="2"] > th')
    before = first.bounding_box()["x"]
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    page.wait_for_function("() => document.querySelector('.table-wrap').scrollLeft > 50")
    assert abs(first.bounding_box()["x"] - before) < 1
    last = page.locator(".ledger tfoot td.total").last.bounding_box()
    assert last["x"] + last["width"] <= 480


# --- Live for spectators ---------------------------------------------------------------------


@AT_ONE_SIZE
def test_a_spectator_sees_another_tablets_round_within_five_seconds(watched):
    page = watched
    game_id, key = make_game(page, NAMES, 0, "liverpool")
    checks = []
    page.on(
        "response",
        lambda r: checks.append(r.status) if r.url.endswith(f"/games/{game_id}/state") else None,
    )
    page.clock.install()  # the page's timers, moved on at will below (and running as usual)
    page.goto(f"/games/{game_id}")
    expect(page.locator("#round-title")).to_contain_text("Round 1 of 7")
    # Two of the page's checks (every 2 s), without waiting for them: nothing but 304s.
    for _ in range(2):
        with page.expect_response(lambda r: r.url.endswith(f"/games/{game_id}/state")):
            page.clock.fast_forward(2000)
    assert len(checks) >= 2 and set(checks) == {304}, checks
    recorded = page.request.post(
        f"/api/games/{game_id}/rounds",
        data={"cut_exact": False, "out": "Ann", "leftovers": {"Bob": "K", "Cat": "7", "Dan": "A"}},
        headers={"X-Game-Key": key},
    )
    assert recorded.status == 201
    expect(page.locator('.ledger tr[data-round="1"]')).to_be_visible(timeout=5000)
    expect(page.locator("#round-title")).to_contain_text("Round 2 of 7")
    expect(page.locator("#live")).to_have_text(re.compile("updated"))
    assert page.title().startswith("Round 2")


@AT_ONE_SIZE
def test_the_editors_open_panel_and_focus_stay_through_an_update(watched):
    page = watched
    game_id, key = make_game(page, NAMES, 1, "liverpool")
    as_editor(page, game_id, key)
    page.locator("#share summary").click()
    link = page.locator("#share .edit-link")
    link.focus()
    recorded = page.request.post(
        f"/api/games/{game_id}/rounds",
        data={"cut_exact": True, "out": "Bob", "leftovers": {"Ann": "K", "Cat": "7", "Dan": "A"}},
        headers={"X-Game-Key": key},
    )
    assert recorded.status == 201
    expect(page.locator('.ledger tr[data-round="2"]')).to_be_visible(timeout=5000)
    expect(page.locator(".record-round")).to_contain_text("Record round 3")
    assert page.locator("#share").evaluate("d => d.open")
    assert page.evaluate("() => document.activeElement.classList.contains('edit-link')")


# --- The dark room ---------------------------------------------------------------------------

CONTRAST = """(selectors) => {
  const rgb = s => s.match(/[\\d.]+/g).map(Number);
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const background = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  const out = {};
  for (const selector of selectors) {
    const el = document.querySelector(selector);
    if (!el) { out[selector] = null; continue; }
    const a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
    out[selector] = Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
  }
  out.body = lum(rgb(getComputedStyle(document.body).backgroundColor));
  return out;
}"""
TEXTS = [
    "main h1",
    ".kicker",
    ".contract",
    ".deal-facts dt",
    ".deal-facts dd",
    ".exact-cut",
    ".spectator-note",
    ".ledger thead th",
    ".ledger .score",
    ".ledger .cards",
    ".badge.out",
    ".badge.cut",
    ".badge.lead",
    ".ledger tfoot td",
    ".dispute-links .button",
    ".topbar nav a",
    ".theme-toggle",
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_both_themes_meet_wcag_aa_contrast(page, scheme):
    page.emulate_media(color_scheme=scheme)
    game_id, _ = make_game(page, NAMES, 2, "liverpool")
    page.goto(f"/games/{game_id}")
    ratios = page.evaluate(CONTRAST, TEXTS)
    body = ratios.pop("body")
    assert (body < 0.05) if scheme == "dark" else (body > 0.9), body
    missing = [selector for selector, ratio in ratios.items() if ratio is None]
    assert missing == []
    low = {selector: ratio for selector, ratio in ratios.items() if ratio < 4.5}
    assert low == {}, ratios


@AT_ONE_SIZE
def test_the_dark_room_button_is_remembered(watched):
    page = watched
    page.emulate_media(color_scheme="light")
    page.goto("/")
    dark_body = "() => getComputedStyle(document.body).backgroundColor"
    light = page.evaluate(dark_body)
    toggle = page.get_by_role("button", name="Dark room", exact=True)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    # The label shows the state it is in (a tick when on), not only its name.
    expect(toggle).to_have_text("Dark room")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text("✓ Dark room")
    dark = page.evaluate(dark_body)
    assert dark != light
    page.goto("/games/new")
    assert page.evaluate(dark_body) == dark
    expect(page.get_by_role("button", name="Dark room")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Dark room").click()
    assert page.evaluate(dark_body) == light
    page.reload()
    assert page.evaluate(dark_body) == light
    # The tablet asks for dark itself: the page follows it with no choice stored.
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(dark_body) == dark
    expect(page.get_by_role("button", name="Dark room")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("button", name="Dark room")).to_have_text("✓ Dark room")


# --- The screen stays on ---------------------------------------------------------------------

WAKE_LOCK_STUB = """
window.__wake = { requests: 0, visible: true, sentinels: [] };
Object.defineProperty(document, 'visibilityState', { get: () => window.__wake.visible ? 'visible' : 'hidden' });
Object.defineProperty(navigator, 'wakeLock', { value: { request(type) {
  window.__wake.requests += 1;
  const sentinel = new EventTarget();
  sentinel.type = type;
  sentinel.released = false;
  sentinel.release = () => { sentinel.released = true; sentinel.dispatchEvent(new Event('release')); return Promise.resolve(); };
  window.__wake.sentinels.push(sentinel);
  return Promise.resolve(sentinel);
} } });
window.__hide = () => {
  window.__wake.visible = false;
  window.__wake.sentinels.forEach(s => s.released || s.release());
  document.dispatchEvent(new Event('visibilitychange'));
};
window.__show = () => { window.__wake.visible = true; document.dispatchEvent(new Event('visibilitychange')); };
"""


@AT_ONE_SIZE
def test_the_screen_stays_on_on_the_editors_game_page_and_round_form(watched):
    page = watched
    game_id, key = make_game(page, NAMES, 1, "liverpool")
    page.add_init_script(WAKE_LOCK_STUB)
    page.goto(f"/games/{game_id}")  # a spectator's page keeps no screen on
    page.wait_for_load_state("load")
    assert page.evaluate("() => window.__wake.requests") == 0
    as_editor(page, game_id, key)
    for path in (f"/games/{game_id}", f"/games/{game_id}/rounds/new"):
        page.goto(path)
        page.wait_for_function("() => window.__wake.requests === 1")
        note = page.locator(".wakelock-note")
        expect(note).to_have_text("Screen stays on")
        page.evaluate("() => window.__hide()")
        expect(note).to_be_hidden()
        assert page.evaluate("() => window.__wake.requests") == 1
        page.evaluate("() => window.__show()")
        page.wait_for_function("() => window.__wake.requests === 2")
        expect(note).to_be_visible()


LAYOUT_SHIFT = """
window.__shift = 0;
const noted = (entries) => {
  for (const entry of entries) {
    if (!entry.hadRecentInput) window.__shift += entry.value;
    window.__sources = (window.__sources || []).concat(entry.sources.map(s => s.node && s.node.outerHTML ? s.node.outerHTML.slice(0, 90) : String(s.node)));
  }
};
const observer = new PerformanceObserver(list => noted(list.getEntries()));
observer.observe({ type: 'layout-shift', buffered: true });
// The shift so far: once the frame after this one has begun, the frame that drew what is on
// the screen now is done, and its shifts are in the observer's records, delivered or not.
window.__shiftSoFar = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
  noted(observer.takeRecords());
  done(window.__shift);
})));
"""


def test_the_screen_note_moves_nothing(watched):
    page = watched
    game_id, key = make_game(page, NAMES, 2, "liverpool")
    as_editor(page, game_id, key)
    page.add_init_script(WAKE_LOCK_STUB + LAYOUT_SHIFT)
    for path in (f"/games/{game_id}", f"/games/{game_id}/rounds/new"):
        page.goto(path)
        expect(page.locator(".wakelock-note")).to_be_visible()
        shift = page.evaluate("() => window.__shiftSoFar()")
        assert shift < 0.01, page.evaluate("() => window.__sources")


COVERED = """note => {
    const box = note.getBoundingClientRect();
    const meets = r => r.width > 0 && r.height > 0 && r.left < box.right && box.left < r.right
        && r.top < box.bottom && box.top < r.bottom;
    return [...document.querySelectorAll('a, button, input, select, label, h1, h2, p, output')]
        .filter(el => !el.contains(note) && !note.contains(el) && meets(el.getBoundingClientRect()))
        .map(el => el.outerHTML.slice(0, 60));
}"""


def test_the_screen_note_covers_nothing(watched):
    """Not a key of the card pad, not a penalty, not a link of the top bar, at either size."""
    page = watched
    game_id, key = make_game(page, NAMES, 2, "liverpool")
    as_editor(page, game_id, key)
    page.goto("/")
    bar = page.locator(".topbar").bounding_box()["height"]  # no screen note here
    page.add_init_script(WAKE_LOCK_STUB)
    for path in (f"/games/{game_id}", f"/games/{game_id}/rounds/new"):
        page.goto(path)
        page.wait_for_load_state("load")
        note = page.locator(".wakelock-note")
        expect(note).to_be_visible()
        assert note.evaluate(COVERED) == []
        assert page.locator(".topbar").bounding_box()["height"] == bar  # the bar kept its rows
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        assert note.evaluate(COVERED) == []


@AT_ONE_SIZE
def test_no_wake_lock_no_sign_and_no_error(watched):
    page = watched
    game_id, key = make_game(page, NAMES, 0, "liverpool")
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    as_editor(page, game_id, key)
    page.wait_for_load_state("load")
    assert page.evaluate("() => 'wakeLock' in navigator") is False
    assert page.locator(".wakelock-note").count() == 0


# --- Installable, and opening without the server ---------------------------------------------


@pytest.mark.service_worker
@AT_ONE_SIZE
def test_installable_with_a_service_worker_and_an_offline_page(page, live_server):
    page.goto("/")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest?language=en")  # the page's language
    assert manifest.get("errors", []) == []
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == live_server + "/"
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's browser profile is a throwaway one, which chromium never installs into.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    page.reload()  # now under the worker's control
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    try:
        page.goto("/games/")
        expect(page.locator("h1")).to_have_text("The score book cannot be reached")
        # The style sheet came from the worker's cache: the page is styled, not bare.
        assert (
            page.evaluate("() => getComputedStyle(document.querySelector('.topbar')).display")
            == "flex"
        )
    finally:
        page.context.set_offline(False)
    page.goto("/games/")
    expect(page.locator("h1")).to_have_text("Games")


@pytest.mark.service_worker
def test_the_offline_page_is_in_the_language_the_tablet_chose(tablet, live_server):
    """The worker fetches its offline page without the tablet's cookie: it is the language the
    tablet chose all the same, and choosing another installs the worker again with that one's."""
    context = tablet("landscape", base_url=live_server, service_workers="allow", locale="en-US")
    page = context.new_page()
    page.goto("/language/fi?next=/")
    controlled_by_worker_in(page, "fi")
    context.set_offline(True)
    try:
        page.goto("/games/")
        expect(page.locator("h1")).to_have_text("Pistekirjaan ei saada yhteyttä")
        assert page.locator("html").get_attribute("lang") == "fi"
    finally:
        context.set_offline(False)
    page.goto("/language/en?next=/")
    controlled_by_worker_in(page, "en")
    context.set_offline(True)
    try:
        page.goto("/games/")
        expect(page.locator("h1")).to_have_text("The score book cannot be reached")
    finally:
        context.set_offline(False)


def controlled_by_worker_in(page, code: str) -> None:
    """Wait until the worker of language `code` has finished activating (its offline page kept,
    the other language's cache deleted, the open page claimed: static/sw.js's `activate`), then
    reload so the page is one the worker answered. A worker only "activating" is already the
    registration's active one, while the page may still be controlled by the worker it
    replaces; and a page the worker only claimed is not enough: under Playwright's offline
    switch its next navigation still goes to the network (ERR_INTERNET_DISCONNECTED)."""
    worker = f"/sw.js?language={code}"
    controlled = "(url) => navigator.serviceWorker.controller?.scriptURL.endsWith(url) ?? false"
    page.wait_for_function(
        """async (url) => {
            const active = (await navigator.serviceWorker.getRegistration())?.active;
            return active?.state === "activated" && active.scriptURL.endsWith(url);
        }""",
        arg=worker,
    )
    page.wait_for_function(controlled, arg=worker)
    page.reload()
    page.wait_for_function(controlled, arg=worker)


@AT_ONE_SIZE
def test_static_files_are_kept_and_pages_compressed(page):
    seen = {}
    page.on("response", lambda r: seen.setdefault(r.url.split("?")[0].rsplit("/", 1)[-1], r))
    page.goto("/games/new")
    page.wait_for_load_state("load")
    style = seen["style.css"]
    assert re.search(r"\?v=[0-9a-f]{8,}$", style.url)
    assert style.all_headers()["cache-control"] == "public, max-age=31536000, immutable"
    assert seen["new"].all_headers()["content-encoding"] in {"br", "gzip", "zstd", "deflate"}
    description = page.locator('meta[name="description"]').get_attribute("content")
    assert len(description) > 50


# --- Small frictions -------------------------------------------------------------------------


@AT_ONE_SIZE
def test_unused_seats_hint_only_for_rules_with_more_than_four(watched):
    page = watched
    page.goto("/games/new")
    hint = page.get_by_text("Leave unused seats blank.")
    expect(hint).to_be_hidden()  # Liverpool (default): exactly 4 players
    page.select_option(".profile-select", "family")
    expect(hint).to_be_visible()
    page.select_option(".profile-select", "contract")
    expect(hint).to_be_hidden()


def test_keyboard_focus_ring_is_at_least_two_pixels(page):
    game_id, key = make_game(page, NAMES, 1, "liverpool")
    as_editor(page, game_id, key)
    page.goto(f"/games/{game_id}")
    rings = []
    for _ in range(12):
        page.keyboard.press("Tab")
        rings.append(
            page.evaluate(
                """() => { const e = document.activeElement, s = getComputedStyle(e);
                return [e.textContent.trim().slice(0, 20) || e.className, s.outlineStyle,
                        parseFloat(s.outlineWidth)]; }"""
            )
        )
    assert len({name for name, _, _ in rings}) >= 8, rings  # the tabbing really moved on
    thin = [ring for ring in rings if ring[1] == "none" or ring[2] < 2]
    assert thin == [], rings
