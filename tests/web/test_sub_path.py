"""The score book under a sub-path (`/cards/`) behind a trusted proxy that says so with
`X-Forwarded-Prefix`, as Home Assistant's ingress serves an add-on: every page's links, form
actions, scripts and styles, every redirect, every cookie's path, the manifest and the service
worker stay under the prefix; from an address that is not the proxy's the header is ignored.

The browser's walk through a real nginx is tests/e2e/test_sub_path.py."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from scorekeeper.platform import network
from scorekeeper.rules import sharing
from scorekeeper.rules.ruleset import LIVERPOOL
from tests.support.book import new_game, record
from tests.support.browsing import FormClient
from tests.support.names import EIGHT_NAMES, NAMES
from tests.support.organisers import HASH, PASSWORD, basic
from tests.support.saved import save_ruleset

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "/cards"
HOST = "homeassistant.lan:8123"
PROXY = "172.30.32.2"  # Home Assistant's ingress proxy
THROUGH_PROXY = {
    "REMOTE_ADDR": PROXY,
    "HTTP_X_FORWARDED_PREFIX": PREFIX,
    "HTTP_X_FORWARDED_FOR": "192.168.1.30",
    "HTTP_X_FORWARDED_PROTO": "https",
    "HTTP_X_FORWARDED_HOST": HOST,
}
# Attributes whose value is an address the browser follows or fetches.
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "poster", "content"}
# Every page a GET reaches, its arguments filled in from the score book `walked` sets up
# (`test_the_walk_names_every_page` checks that the list names every route there is).
PAGES = [
    "/",
    "/healthz",
    "/offline",
    "/manifest.webmanifest",
    "/sw.js",
    "/trust",
    "/trust/check",
    "/trust/scorekeeper-ca.crt",
    "/trust/scorekeeper-ca.pem",
    "/trust/scorekeeper.mobileconfig",
    "/language/fi?next={root}/games/",
    "/organiser/sign-in",
    "/games/",
    "/games/new",
    "/games/import-sheet",
    "/games/import-sheet/template.csv",
    "/games/{game}",
    "/games/{game}/state",
    "/games/{game}/join?key={key}",
    "/games/{game}/edit-link.svg",
    "/games/{game}/rename",
    "/games/{game}/end",
    "/games/{game}/rematch",
    "/games/{game}/archive",
    "/games/{game}/restore",
    "/games/{game}/resume",
    "/games/{game}/delete",
    "/games/{game}/export.json",
    "/games/{game}/ledger.csv",
    "/games/{game}/rounds.csv",
    "/games/{game}/rounds/new",
    "/games/{game}/rounds/1/edit",
    "/games/{game}/rounds/1/undo",
    "/games/{game}/rounds/2/phones",
    "/games/{game}/rounds/2/phones/qr.svg",
    "/games/{game}/rounds/2/phones/state",
    "/join",
    "/join/{code}",
    "/join/{code}/hand",
    "/players/",
    "/players/Ann",
    "/players/records",
    "/players/merges/new",
    "/rules",
    "/rules/reference",
    "/rulesets/",
    "/rulesets/new",
    "/rulesets/upload",
    "/rulesets/{ruleset}",
    "/rulesets/{ruleset}.json",
    "/rulesets/{ruleset}/edit",
    "/rulesets/{ruleset}/rename",
    "/rulesets/{ruleset}/delete",
    "/rulesets/shared/{shared}",
    "/nights",
    "/nights/new",
    "/nights/{night}",
    "/nights/{night}/screen",
    "/nights/{night}/screen/state",
    "/nights/{night}/summary",
    "/league",
    "/league/new",
    "/league/{league}",
    "/league/{league}/player?name=Ann",
    "/league/{league}/players/Ann",
    "/league/{league}/print",
    "/league/{league}/scoring",
    "/league/{league}/table.csv",
    "/no/such/page",
    "/games/999999",
    "/api/games",
    "/api/games/{game}",
    "/api/games/{game}/rounds/2/hands",
    "/api/join/{code}/hand",
    "/api/players",
    "/api/players/records",
    "/api/players/merges",
    "/api/rules/presets",
    "/api/rules/profiles",
    "/api/rulesets",
    "/api/rulesets/{ruleset}",
    "/api/nights",
    "/api/nights/{night}",
    "/api/league",
    "/api/league/{league}",
    "/api/league/{league}/players/Ann",
    "/api/league/nights/{night}/summary",
    "/api/no/such/thing",
]


class Addresses(HTMLParser):
    """Every address a page names in an attribute, and every inline `<script>` text."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and (name in URL_ATTRIBUTES or name.startswith("data-")):
                self.found.append((tag, name, value))


def addresses_in(html: str) -> list[tuple[str, str, str]]:
    parser = Addresses()
    parser.feed(html)
    return parser.found


def escapes(address: str) -> bool:
    """Whether an address leaves the prefix: a path of this server outside `/cards/`."""
    parts = urlsplit(address)
    if parts.scheme in ("data", "mailto", "tel", "javascript"):
        return False
    if parts.scheme and parts.netloc != HOST:
        return False  # another site's (a rule book's source)
    if not parts.scheme and not parts.netloc and not address.startswith("/"):
        return False  # relative: `#main`, `?page=2`, a word in a data- attribute
    return not (parts.path == PREFIX or parts.path.startswith(PREFIX + "/"))


class _Stand(dict):
    """Any value for each argument of `PAGES`, to name the route a page is of."""

    def __missing__(self, key):
        return "ABCD" if key in ("code", "shared", "key") else "1"


def escaping_strings(text: str) -> list[str]:
    """Quoted strings of a script or a JSON body that are paths of this server outside the
    prefix."""
    paths = re.findall(r'"((?:https?://[^"/]+)?/[A-Za-z_.][^"]*)"', text)
    return [path for path in paths if escapes(path)]


def cookie_paths(response) -> dict[str, str]:
    """Each cookie the answer sets, by name: its Path (Flask's default is `/`)."""
    paths = {}
    for line in response.headers.getlist("Set-Cookie"):
        name = line.split("=", 1)[0]
        found = re.search(r";\s*Path=([^;]*)", line, re.I)
        paths[name] = found.group(1) if found else ""
    return paths


class ProxiedClient(FormClient):
    """A browser that opens the score book at `https://homeassistant.lan:8123/cards/…`, the
    proxy asking the app for the path without its prefix (as nginx's `proxy_pass …/` does):
    the client's cookie jar sees the browser's paths, the app the proxy's. `prefix` empty: a
    browser at the app's own root (the headers still sent, from wherever `REMOTE_ADDR` says)."""

    prefix = PREFIX

    def open(self, *args, **kwargs):
        if args and isinstance(args[0], str) and args[0].startswith(PREFIX + "/"):
            args = (args[0].removeprefix(PREFIX), *args[1:])
        kwargs["environ_overrides"] = {
            "SCRIPT_NAME": self.prefix,
            "HTTP_HOST": HOST,
            **kwargs.get("environ_overrides", {}),
        }
        return super().open(*args, **kwargs)


@pytest.fixture
def prefixed(app_with):
    """A club's score book behind Home Assistant's ingress: one trusted proxy at its address."""
    app = app_with(
        TRUSTED_PROXIES=1, TRUSTED_PROXY_ADDRESSES=f"{PROXY}/32", ORGANISER_PASSWORD=HASH
    )
    app.test_client_class = ProxiedClient
    return app.test_client()


def _through(client):
    client.environ_base.update(THROUGH_PROXY)
    return client


@pytest.fixture
def walked(prefixed):
    """The score book with one of everything, made through the proxy: a game with a round and
    its next round open to phones, a drawn night, a league, a saved rule set."""
    client = _through(prefixed)
    organiser = basic(PASSWORD)
    game = new_game(client)
    record(client, game, "Ann")
    opened = client.post(f"/api/games/{game.id}/rounds/2/open", headers=game.write_headers)
    assert opened.status_code == 201, opened.get_json()
    assert opened.get_json()["url"].startswith(f"https://{HOST}{PREFIX}/join/")
    night = client.post(
        "/api/nights", json={"rules": "liverpool", "held_on": "2026-12-05"}, headers=organiser
    )
    assert night.status_code == 201, night.get_json()
    assert night.headers["Location"].startswith(PREFIX + "/api/nights/")
    night_id = night.get_json()["id"]
    players = client.post(
        f"/api/nights/{night_id}/players", json={"players": EIGHT_NAMES}, headers=organiser
    )
    assert players.status_code == 201, players.get_json()
    drawn = client.post(f"/api/nights/{night_id}/draw", headers=organiser)
    assert drawn.status_code == 201, drawn.get_json()
    league = client.post(
        "/api/league",
        json={"name": "Winter", "scoring": "places", "nights": [night_id]},
        headers=organiser,
    )
    assert league.status_code == 201, league.get_json()
    ruleset = save_ruleset(client)
    values = {
        "game": game.id,
        "key": game.key,
        "code": opened.get_json()["code"],
        "night": night_id,
        "league": league.get_json()["id"],
        "ruleset": ruleset["id"],
        "shared": sharing.code(LIVERPOOL),
    }
    return client, values


def addresses_of(response) -> list[str]:
    """Every address an answer names: its redirect, its page's attributes, the paths its
    script or JSON quotes."""
    found = [response.headers["Location"]] if "Location" in response.headers else []
    if response.mimetype == "text/html":
        found += [value for _tag, _name, value in addresses_in(response.get_data(as_text=True))]
    elif response.mimetype in ("text/javascript", "application/json", "application/manifest+json"):
        found += re.findall(r'"((?:https?://[^"/]+)?/[A-Za-z_.][^"]*)"', response.get_data(True))
    return found


def problems_through_proxy(response) -> list[str]:
    """What leaves the prefix: an address outside `/cards/`, a cookie kept for another path."""
    found = [address for address in addresses_of(response) if escapes(address)]
    for name, cookie_path in cookie_paths(response).items():
        if cookie_path != PREFIX:
            found.append(f"cookie {name} at Path={cookie_path or '(none)'}")
    return found


def problems_elsewhere(response) -> list[str]:
    """What took the header of a request that did not come through the proxy: an address
    under the prefix, a cookie kept for it."""
    found = [address for address in addresses_of(response) if PREFIX + "/" in address]
    found += [
        f"cookie {name} at Path={cookie_path}"
        for name, cookie_path in cookie_paths(response).items()
        if cookie_path != "/"
    ]
    return found


@pytest.mark.parametrize("through_proxy", [True, False], ids=["proxy", "not-the-proxy"])
def test_every_page_keeps_to_the_prefix_the_proxy_names(walked, through_proxy):
    """Every page, file, redirect and JSON answer a GET reaches, each asked through the proxy
    (nothing leaves `/cards/`), or by the same headers from another address (nothing takes
    them)."""
    client, values = walked
    values = {**values, "root": PREFIX if through_proxy else ""}
    if not through_proxy:
        client.environ_base["REMOTE_ADDR"] = "192.168.1.30"
        client.prefix = ""
    judge = problems_through_proxy if through_proxy else problems_elsewhere
    problems = {}
    for template in PAGES:
        path = template.format(**values)
        response = client.get(path)
        assert response.status_code < 500, (path, response.status_code)
        if found := judge(response):
            problems[path] = found
    assert problems == {}


def test_a_post_and_its_refusal_stay_under_the_prefix(walked):
    """A form's redirect and the page shown again with what to fix, and a round recorded."""
    client, values = walked
    game = values["game"]
    joined = client.get(f"/games/{game}/join", query_string={"key": values["key"]})
    assert joined.headers["Location"] == f"{PREFIX}/games/{game}"
    answer = client.post(
        f"/games/{game}/rounds/new",
        data={"out": "1", **{f"cards_{seat}": "5" for seat in (0, 2, 3)}},
    )
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)
    assert answer.headers["Location"] == f"{PREFIX}/games/{game}", answer.headers["Location"]
    started = client.post("/games/new", data={"names-0": "Ann"})  # too few players
    assert problems_through_proxy(started) == []


def test_the_installable_app_is_scoped_to_the_prefix(walked):
    client, _values = walked
    manifest = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))
    assert manifest["start_url"] == manifest["scope"] == PREFIX + "/"
    assert all(icon["src"].startswith(PREFIX + "/static/icons/") for icon in manifest["icons"])
    page = client.get("/").get_data(as_text=True)
    worker = re.search(r'data-worker="([^"]+)" data-scope="([^"]+)"', page)
    assert worker is not None
    assert worker.group(1).startswith(PREFIX + "/sw.js?")
    assert worker.group(2) == PREFIX + "/"
    script = client.get("/sw.js").get_data(as_text=True)
    assert f'"{PREFIX}/offline"' in script
    assert f'"{PREFIX}/static/"' in script  # what it keeps in its cache: the prefix's files


def test_every_cookie_is_kept_for_the_prefix_alone(walked):
    """The session (the forms' token, an organiser's sign-in), the language, the games' keys and
    a phone's token: each at Path=/cards, so another app on the same host never reads them."""
    client, values = walked
    seen = {}
    seen |= cookie_paths(client.get("/games/new"))  # the session, for the form's token
    seen |= cookie_paths(client.get("/language/de?next=/cards/"))
    started = client.post(
        "/games/new",
        data={f"names-{seat}": name for seat, name in enumerate(NAMES)}
        | {"first_dealer": "0", "profile": "liverpool"},
    )
    assert started.status_code == 302, started.get_data(as_text=True)
    seen |= cookie_paths(started)
    seen |= cookie_paths(client.get(f"/join/{values['code']}"))
    seen |= cookie_paths(
        client.post("/organiser/sign-in", data={"password": PASSWORD, "next": "/cards/"})
    )
    assert {"session", "language", "game_keys", "phone"} <= set(seen), seen
    assert set(seen.values()) == {PREFIX}, seen


def test_a_way_back_outside_the_prefix_goes_home_under_it(walked):
    client, _values = walked
    for outside in ("/games/", "//elsewhere.example/", "https://elsewhere.example/"):
        answer = client.get("/language/fi", query_string={"next": outside})
        assert answer.headers["Location"] == PREFIX + "/", outside


@pytest.mark.parametrize(
    ("settings", "remote"),
    [
        ({"TRUSTED_PROXIES": 0}, PROXY),  # no proxy trusted at all
        ({"TRUSTED_PROXIES": 1, "TRUSTED_PROXY_ADDRESSES": f"{PROXY}/32"}, "192.168.1.30"),
    ],
    ids=["no-proxy", "not-the-proxy"],
)
def test_the_prefix_from_anyone_but_the_proxy_is_ignored(app_with, settings, remote):
    client = app_with(**settings).test_client()
    client.environ_base.update({**THROUGH_PROXY, "REMOTE_ADDR": remote})
    page = client.get("/games/new")
    html = page.get_data(as_text=True)
    assert f'href="{PREFIX}/' not in html
    assert 'action="/games/new"' in html
    assert cookie_paths(client.get("/language/fi?next=/games/"))["language"] == "/"
    assert client.get("/language/fi?next=/games/").headers["Location"] == "/games/"


def test_a_proxy_address_setting_that_is_no_address_is_one_sentence(app_with):
    with pytest.raises(ValueError, match="TRUSTED_PROXY_ADDRESSES"):
        app_with(TRUSTED_PROXIES=1, TRUSTED_PROXY_ADDRESSES="the router")


def test_the_walk_names_every_page(prefixed):
    """A new route is walked too: each GET route matches one of PAGES."""
    app = prefixed.application
    adapter = app.url_map.bind("localhost")
    walked = set()
    for template in PAGES:
        path = urlsplit(template.format_map(_Stand())).path
        try:
            endpoint, _args = adapter.match(path, method="GET")
        except Exception:  # noqa: BLE001  (an unknown address: the 404 pages)
            continue
        walked.add(endpoint)
    routes = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and rule.endpoint != "static"
    }
    assert routes - walked == set()


SCRIPTS = sorted((ROOT / "static").glob("*.js"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_no_script_writes_an_address_of_its_own(script):
    """Scripts take every address from the page (a data- attribute, a form's action, their
    own page's): an address written into a script would leave the prefix."""
    text = script.read_text()
    assert (
        re.findall(r"""["'`]/(?:api|games|static|nights|join|rules|players|league)\b""", text) == []
    )


def test_the_qr_codes_hand_over_addresses_under_the_prefix(walked):
    """A second tablet's edit link and a phone's code, drawn as the camera reads them: the
    scheme and host the proxy saw, and the prefix."""
    client, values = walked
    game, key, code = values["game"], values["key"], values["code"]
    client.get(f"/games/{game}/join", query_string={"key": key})  # this tablet holds the key
    edit_link = client.get(f"/games/{game}/edit-link.svg")
    assert edit_link.status_code == 200
    expected = f"https://{HOST}{PREFIX}/games/{game}/join?key={key}"
    assert edit_link.data == network.qr_svg(expected)
    phones = client.get(f"/games/{game}/rounds/2/phones/qr.svg")
    assert phones.status_code == 200
    assert phones.data == network.qr_svg(f"https://{HOST}{PREFIX}/join/{code}")
