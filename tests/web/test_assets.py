"""Fast repeat visits and the installable app, as a client sees them over HTTP: fingerprinted
static URLs kept a year, compressed pages, the manifest, the service worker and the live check."""

from __future__ import annotations

import gzip
import hashlib
import re
import struct
from pathlib import Path
from urllib.parse import urljoin

import brotli
import pytest
from flask import Flask
from flask_babel import force_locale, gettext
from markupsafe import escape

from scorekeeper.platform import assets
from tests.support.book import new_game, record, start

ROOT = Path(__file__).resolve().parents[2]
FINGERPRINTED = re.compile(r'/static/([\w./-]+)\?v=([0-9a-f]{8,})"')
# Every specifier a module's text names, whatever its form: `import … from "x"`, `export … from
# "x"`, `import "x"` (each a statement of its own), `import("x")`.
SPECIFIER = re.compile(
    r"""^\s*(?:import|export)\b[^;"']*\bfrom\s*["']([^"']+)["']"""
    r"""|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']""",
    re.MULTILINE,
)
PINNED = re.compile(r"/static/([\w./-]+)\?v=([0-9a-f]{12})")
ENTRY = re.compile(r'<script type="module" src="(/static/[^"]+)"[^>]*></script>')
PRELOADS = re.compile(r'<link rel="modulepreload" href="(/static/[^"]+)">')


def digest(client, name):
    with client.application.app_context():
        return assets.static_digest(name)


def pages(client):
    game = new_game(client)
    return [
        "/",
        "/games/new",
        "/games/",
        f"/games/{game.id}",
        "/rules",
        "/rules/reference",
        "/offline",
    ]


def test_every_static_url_names_its_content(client):
    html = client.get("/").get_data(as_text=True)
    found = FINGERPRINTED.findall(html)
    assert {"style.css", "theme.js", "pwa.js", "favicon.svg"} <= {name for name, _ in found}
    for name, shown in found:
        assert len(shown) >= 8
        assert shown == digest(client, name)


def test_a_fingerprinted_file_is_kept_a_year_and_any_other_is_checked(client):
    kept = client.get(f"/static/style.css?v={digest(client, 'style.css')}")
    assert kept.status_code == 200
    assert kept.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    plain = client.get("/static/style.css")
    assert plain.headers["Cache-Control"] == "no-cache"
    stale = client.get("/static/style.css?v=0123456789ab")
    assert stale.headers["Cache-Control"] == "no-cache"


def test_a_changed_file_gets_a_new_url(app, tmp_path):
    (tmp_path / "static").mkdir()
    target = tmp_path / "static" / "x.css"
    target.write_text("a { color: red }")
    app.static_folder = str(tmp_path / "static")
    with app.test_request_context():
        first = assets.static_digest("x.css")
        target.write_text("a { color: blue }")
        assert assets.static_digest("x.css") == first  # one look at a file in a request
    with app.test_request_context():  # the next request
        assert assets.static_digest("x.css") != first
        assert assets.static_digest("../secret") is None
        assert assets.static_digest("missing.css") is None


def imported(client, url: str) -> dict[str, str]:
    """Every module the module at `url` imports, directly or not, by the URL it is imported by;
    each answers 200 and is kept a year, and none is imported by a URL without its digest."""
    found: dict[str, str] = {}
    queue = [url]
    while queue:
        answer = client.get(queue.pop())
        assert answer.status_code == 200, answer.request.url
        assert answer.headers["Cache-Control"] == assets.IMMUTABLE, answer.request.url
        for match in SPECIFIER.finditer(answer.get_data(as_text=True)):
            spec = next(group for group in match.groups() if group)
            target = urljoin(answer.request.url, spec).removeprefix("http://localhost")
            pinned = PINNED.fullmatch(target)
            assert pinned, f"{answer.request.url} imports {spec!r}, a URL without its digest"
            assert pinned[2] == digest(client, pinned[1]), f"{spec} is not the file's digest"
            if pinned[1] not in found:
                found[pinned[1]] = target
                queue.append(target)
    return found


def test_every_import_of_every_module_is_a_url_kept_a_year(client):
    """Each script in static/, asked for by its URL, names what it imports by the imported
    file's fingerprinted URL, all the way down: no module is revalidated on a repeat visit."""
    every = {}
    for script in sorted((ROOT / "static").glob("*.js")):
        every |= imported(client, f"/static/{script.name}?v={digest(client, script.name)}")
    assert {"cards.js", "rove.js", "cardpad.js", "hands.js", "handsteps.js"} <= set(every)


def test_a_page_asks_for_every_module_its_entry_imports_at_once(client):
    """The round form and the rules check name their entry module's whole import graph in the
    head (`modulepreload`), by the URLs the modules import each other by."""
    game_id = start(client)
    for path, entry in (
        (f"/games/{game_id}/rounds/new", "roundform.js"),
        ("/rules", "checkpad.js"),
    ):
        page = client.get(path).get_data(as_text=True)
        assert ENTRY.findall(page) == [f"/static/{entry}?v={digest(client, entry)}"], path
        head = page.split("</head>")[0]
        graph = imported(client, ENTRY.findall(page)[0])
        assert graph, path
        assert sorted(PRELOADS.findall(head)) == sorted(graph.values()), path


def write_static(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_a_change_deep_in_the_imports_gives_every_module_above_it_a_new_url(app, tmp_path):
    static = tmp_path / "static"
    write_static(
        static,
        {
            "lib/leaf.js": 'export const colour = "red";\n',
            "mid.js": 'export { colour } from "./lib/leaf.js";\n',
            "top.js": 'import { colour } from "./mid.js";\nimport("./lib/leaf.js");\n',
            "apart.js": "export const size = 1;\n",
        },
    )
    app.static_folder = str(static)
    names = ["lib/leaf.js", "mid.js", "top.js", "apart.js"]
    with app.test_request_context():
        before = {name: assets.static_digest(name) for name in names}
        assert assets.module_imports("top.js") == ["mid.js", "lib/leaf.js"]
    write_static(static, {"lib/leaf.js": 'export const colour = "blue";\n'})
    with app.test_request_context():
        after = {name: assets.static_digest(name) for name in names}
    assert [name for name in names if before[name] != after[name]] == names[:3]
    plain = hashlib.sha256((static / "apart.js").read_bytes()).hexdigest()
    assert after["apart.js"] == plain[: assets.DIGEST_CHARS]
    top = app.test_client().get(f"/static/top.js?v={after['top.js']}")
    assert top.headers["Cache-Control"] == assets.IMMUTABLE
    assert top.get_data(as_text=True) == (
        f'import {{ colour }} from "./mid.js?v={after["mid.js"]}";\n'
        f'import("./lib/leaf.js?v={after["lib/leaf.js"]}");\n'
    )
    assert hashlib.sha256(top.get_data()).hexdigest()[: assets.DIGEST_CHARS] == after["top.js"]


def test_modules_that_import_each_other_in_a_circle_stop_the_app_at_start(tmp_path):
    """Neither's URL could name the other's digest: the app says which modules, at start."""
    static = tmp_path / "static"
    write_static(
        static,
        {
            "a.js": 'import "./b.js";\n',
            "b.js": 'import { c } from "./sub/c.js";\n',
            "sub/c.js": 'import "../a.js";\nexport const c = 1;\n',
        },
    )
    with pytest.raises(assets.ImportCycle, match=r"a\.js -> b\.js -> sub/c\.js -> a\.js"):
        assets.init_app(Flask(__name__, static_folder=str(static)))


@pytest.mark.parametrize("encoding,decode", [("br", brotli.decompress), ("gzip", gzip.decompress)])
def test_pages_and_json_are_compressed_when_accepted(client, encoding, decode):
    game = new_game(client, ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"], "family")
    for _ in range(3):
        record(client, game, "Ann")
    for path in ("/", f"/games/{game.id}", f"/api/games/{game.id}"):
        plain = client.get(path)
        packed = client.get(path, headers={"Accept-Encoding": encoding})
        assert packed.headers["Content-Encoding"] == encoding, path
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert decode(packed.get_data()) == plain.get_data()
        assert len(packed.get_data()) < len(plain.get_data()) / 2
    assert "Content-Encoding" not in client.get("/").headers


def test_every_page_has_a_description(client):
    for path in pages(client):
        html = client.get(path).get_data(as_text=True)
        assert re.search(r'<meta name="description" content="[^"]{50,}">', html), path


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_manifest_declares_real_icons(client):
    html = client.get("/games/new").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest?language=en">' in html
    assert 'rel="apple-touch-icon"' in html
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}"', html)
    answer = client.get("/manifest.webmanifest")
    assert answer.mimetype == "application/manifest+json"
    manifest = answer.get_json(force=True)
    assert manifest["name"] == "Liverpool Scorekeeper"
    assert manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["theme_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        data = client.get(icon["src"]).get_data()
        width, height = png_size(data)
        assert icon["sizes"] == f"{width}x{height}"
        assert icon["type"] == "image/png"
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert {192, 512} <= sizes["any"]
    assert sizes["maskable"]
    touch = re.search(r'rel="apple-touch-icon" href="([^"]+)"', html).group(1)
    assert png_size(client.get(touch).get_data()) == (180, 180)


def test_service_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    script = answer.get_data(as_text=True)
    assert '"/offline"' in script
    assert f"/static/style.css?v={digest(client, 'style.css')}" in script
    offline = client.get("/offline")
    assert offline.status_code == 200
    assert "cannot be reached" in offline.get_data(as_text=True)


def test_the_offline_page_says_what_happened_what_it_does_and_what_to_do(client):
    """Every cause the table meets (never only the Wi-Fi), that the page retries by itself, what
    a save sent just before may have done, and the three things the family can check."""
    html = client.get("/offline").get_data(as_text=True)
    assert "the laptop may be asleep, the app stopped there, or this tablet off the Wi-Fi" in html
    assert "tries again by itself every few seconds" in html
    assert "Sending a form again never saves it twice" in html
    for step in ("Wake the laptop", "the app is still running there", "on the same Wi-Fi"):
        assert step in html


def test_every_page_registers_the_worker_for_its_own_language(client):
    english = client.get("/").get_data(as_text=True)
    assert 'data-worker="/sw.js?language=en"' in english
    finnish = client.get("/", headers={"Accept-Language": "fi"}).get_data(as_text=True)
    assert 'data-worker="/sw.js?language=fi"' in finnish
    client.set_cookie("language", "es_CL")
    assert 'data-worker="/sw.js?language=es_CL"' in client.get("/games/").get_data(as_text=True)


def test_the_worker_keeps_the_offline_page_of_the_language_it_was_registered_for(app, client):
    """The worker fetches the offline page without the device's cookie: its own URL names the
    language, and so do the offline page it keeps and the cache it keeps it in."""
    script = client.get("/sw.js?language=fi").get_data(as_text=True)
    assert 'var OFFLINE = "/offline?language=fi";' in script
    assert '["/offline?language=fi", ' in script
    assert re.search(r'var CACHE = "scorekeeper-fi-[0-9a-f]{12}";', script)
    other = client.get("/sw.js?language=de").get_data(as_text=True)
    cache = re.search(r'var CACHE = "([^"]+)"', script).group(1)
    assert cache not in other  # a language switch installs the worker again, with its own cache

    # Asked for with a browser that prefers English and no cookie, as the worker asks.
    page = client.get("/offline?language=fi", headers={"Accept-Language": "en"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert '<html lang="fi"' in html
    with app.test_request_context(), force_locale("fi"):
        expected = [
            escape(gettext(text))
            for text in (
                "The score book cannot be reached",
                "No connection to the score book",
                "Check that this tablet is on the same Wi-Fi as the laptop.",
            )
        ]
    for text in expected:
        assert text in html
    assert "Pistekirjaan ei saada yhteyttä" in html  # the shipped fi catalog's words


DESCRIPTION = (
    "The score book and referee for Liverpool Rummy at the card table: seats, deals, rounds, "
    "totals and rule disputes on one tablet."
)


def test_the_manifest_describes_the_app_in_the_language_its_address_names(app, client):
    finnish = client.get("/", headers={"Accept-Language": "fi"}).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest?language=fi">' in finnish
    described = client.get("/manifest.webmanifest?language=fi", headers={"Accept-Language": "en"})
    with app.test_request_context(), force_locale("fi"):
        expected = gettext(DESCRIPTION)
    assert described.get_json(force=True)["description"] == expected
    assert f'<meta name="description" content="{escape(expected)}">' in finnish
    assert "Accept-Language" not in described.headers.get("Vary", "")  # its address says
    unnamed = client.get("/manifest.webmanifest?language=xx")
    assert unnamed.get_json(force=True)["description"] == DESCRIPTION
    assert {"Cookie", "Accept-Language"} <= set(unnamed.headers["Vary"].split(", "))


@pytest.mark.parametrize("asked", ["xx", "<script>", "fi_FI", "", "EN"])
def test_an_unknown_language_is_never_echoed_and_the_usual_choice_speaks(client, asked):
    script = client.get("/sw.js", query_string={"language": asked}).get_data(as_text=True)
    assert 'var OFFLINE = "/offline";' in script
    assert re.search(r'var CACHE = "scorekeeper-[0-9a-f]{12}";', script)
    if asked:
        assert asked not in script
    page = client.get(
        "/offline", query_string={"language": asked}, headers={"Accept-Language": "fi"}
    )
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert '<html lang="fi"' in html  # the browser's own choice, as without the parameter
    # Only the language switch's way back names this address (URL-encoded), as on every page.
    words = re.sub(r'href="/language/[^"]*"', "", html)
    if asked:
        assert asked not in words and escape(asked) not in words


def test_live_check_answers_304_until_the_game_changes(client):
    game = new_game(client)
    url = f"/games/{game.id}/state"
    first = client.get(url)
    assert first.status_code == 200
    tag = first.get_json()["tag"]
    assert first.headers["ETag"] == f'"{tag}"'
    assert game.key not in first.get_data(as_text=True)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert f'data-tag="{tag}"' in page
    same = client.get(url, headers={"If-None-Match": f'"{tag}"'})
    assert same.status_code == 304
    assert same.get_data() == b""
    record(client, game, "Ann")
    changed = client.get(url, headers={"If-None-Match": f'"{tag}"'})
    assert changed.status_code == 200
    assert changed.get_json()["tag"] != tag
    assert client.get("/games/999999/state").status_code == 404


def test_no_colour_token_is_defined_by_itself():
    """A custom property that refers to itself is invalid, and whatever uses it turns transparent."""
    for sheet in sorted((ROOT / "static").glob("*.css")):
        for name, value in re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", sheet.read_text()):
            assert f"var({name})" not in value, f"{sheet.name}: {name}: {value}"


# The pages and scripts of the score book: every rule they show or use comes from the game's
# rule set (templates from `book.rules`, scripts from the `data-` attributes the templates write).
RULE_FREE = [
    *(ROOT / "templates" / "games").rglob("*.html"),
    *(ROOT / "templates" / "rulesets").rglob("*.html"),
    *(ROOT / "templates" / "season").rglob("*.html"),
    ROOT / "templates" / "_macros.html",
    ROOT / "templates" / "index.html",
    *(
        path
        for path in (ROOT / "static").glob("*.js")
        if path.name not in ("referee.js", "checkpad.js")
    ),
    *(ROOT / "scorekeeper" / "games" / "views").glob("*.py"),
    ROOT / "scorekeeper" / "games" / "forms.py",
    ROOT / "scorekeeper" / "rulesets" / "editor.py",
    ROOT / "scorekeeper" / "rulesets" / "pages.py",
    ROOT / "scorekeeper" / "home.py",
]
# What a fixed rule looked like there: the last round, the round range, the table sizes.
FIXED_RULES = re.compile(
    r"LAST_ROUND|PROFILES|get_profile|(?<!book\.)(?<!\w)last_round\b|\bof 7\b|\b1[-–]7\b"
    r"|\b3[-–]8\b|\b[45][-–]8\b|\bmore than 4 players\b|\bround 7\b"
)


@pytest.mark.parametrize("path", RULE_FREE, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_page_or_script_holds_a_rule_of_its_own(path):
    found = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if FIXED_RULES.search(line)
    ]
    assert found == []


# The scripts that show words and take every one from the server (`data-words`, `data-draft-words`).
SERVER_WORDED = ["drafts.js", "outbox.js", "penalty.js", "phonehand.js", "words.js", "hands.js"]
# A string literal in a script, its comments taken out first.
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
LITERAL = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")
# Prose: two words with a space between, or an ellipsis.
PROSE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}|…")


@pytest.mark.parametrize("name", SERVER_WORDED)
def test_a_script_worded_by_the_server_has_no_words_of_its_own(name):
    code = COMMENT.sub("", (ROOT / "static" / name).read_text())
    prose = [match[2] for match in LITERAL.finditer(code) if PROSE.search(match[2])]
    assert prose == []


def test_every_script_is_an_es_module(client):
    """No classic script is left: every page's scripts are modules, and none asks for its own
    tag (`document.currentScript` is null in a module)."""
    for name in sorted(path.name for path in (ROOT / "static").glob("*.js")):
        assert "document.currentScript" not in (ROOT / "static" / name).read_text(), name
    for path in (*pages(client), "/trust"):
        html = client.get(path).get_data(as_text=True)
        tags = re.findall(r"<script\b[^>]*>", html)
        assert [tag for tag in tags if 'type="module"' not in tag] == [], path


def test_the_header_of_a_script_post_is_named_by_the_server(client):
    """The outbox sends the header the server reads, by the name every page's head gives; no
    script spells it."""
    from scorekeeper.platform.formpages import SCRIPT_POST_HEADER

    page = client.get("/").get_data(as_text=True)
    assert f'<meta name="script-post-header" content="{SCRIPT_POST_HEADER}">' in page
    spelled = [
        p.name for p in (ROOT / "static").glob("*.js") if SCRIPT_POST_HEADER in p.read_text()
    ]
    assert spelled == []


def test_the_worker_keeps_every_module_the_offline_page_imports(client):
    """Offline, the offline page's script runs only if each module it imports is kept too."""
    script = client.get("/sw.js").get_data(as_text=True)
    assert "import" in client.get(f"/static/offline.js?v={digest(client, 'offline.js')}").text
    for name in ("offline.js", "words.js"):
        assert f"/static/{name}?v={digest(client, name)}" in script
