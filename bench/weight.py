"""Page weight as the tablet downloads it: each page with every asset it references, cold cache.

The app runs under waitress on loopback (as `make run` serves it) with a fresh SQLite file. For
each page this fetches the HTML and every asset it references - `<link>` stylesheets, icons and
preloads, `<script src>`, `<img>`/`<source>` (src and srcset), and what the stylesheets pull in
(`url()`, `@import`) - each once, over raw sockets with `Accept-Encoding: gzip, deflate, br`,
and counts the bytes as transferred: status line, headers and body. Waitress does not compress,
so the figure is raw; were a response compressed, the transferred figure would be the compressed
one. "gzip -6" is what the same bodies would weigh gzipped, for reference only. Lazy images
(`loading="lazy"`) are counted in the total and shown apart: the browser fetches them only
when they come into view.

It asserts nothing; each row says met or MISSED against the targets: at most 60 KB
(60,000 bytes) transferred, no external URL referenced anywhere (HTML attributes, CSS, scripts,
SVG), and usable before any script has run: no render-blocking or inline script, the content
in the HTML as served, and the page's form doing its job when posted the way a browser
without JavaScript posts it (record-round stores the round; rules-check answers a verdict).

Pages: the game page of a finished seven-round game and of a game at round 4, as the tablet
that keeps score sees them (with the game's key cookie) and as a spectator does, the
record-round page, and the rules-check page.
"""

from __future__ import annotations

import gzip
import re
import socket
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

from bench._server import LAST_ROUND, LOOPBACK, Client, Server, key_cookie, seed_game

TITLE = "Weight (page + assets as transferred, cold cache)"

TARGET_BYTES = 60_000
TIMEOUT = 10.0

# <link rel> values a browser fetches while loading the page.
FETCHED_RELS = {
    "stylesheet",
    "icon",
    "shortcut",
    "apple-touch-icon",
    "mask-icon",
    "preload",
    "modulepreload",
    "manifest",
}
# Attributes that hold a URL (a request, a navigation or a form target).
URL_ATTRIBUTES = {
    "href",
    "src",
    "action",
    "formaction",
    "data",
    "poster",
    "cite",
    "background",
    "manifest",
    "xlink:href",
    "ping",
}
# Namespace names look like URLs but are never fetched.
NAMESPACES = ("http://www.w3.org/",)
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)|@import\s+(['"])([^'"]+)\3""", re.I)
VERDICT = re.compile(r'class="verdict (?:legal|illegal)"')
SCRIPT_URL = re.compile(r"""(?:https?:|wss?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}[^\s'"`)]*""")


# --- Fetching, as transferred -----------------------------------------------------------------


@dataclass
class Fetched:
    path: str
    status: int
    headers: dict[str, str]
    wire: int  # bytes received: status line, headers and body as sent
    body: bytes  # decoded (decompressed) body
    encoding: str = ""

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    def cookies(self) -> dict[str, str]:
        jar = SimpleCookie()
        for line in self.headers.get("set-cookie", "").split("\n"):
            if line:
                jar.load(line)
        return {name: morsel.value for name, morsel in jar.items()}


def fetch(
    port: int,
    path: str,
    cookies: dict[str, str] | None = None,
    method: str = "GET",
    body: bytes = b"",
    content_type: str = "",
) -> Fetched:
    """One request on its own connection; every byte the server sends back is counted."""
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {LOOPBACK}:{port}",
        "User-Agent: scorekeeper-bench-weight",
        "Accept: text/html,application/xhtml+xml,*/*;q=0.8",
        "Accept-Encoding: gzip, deflate, br",
        "Connection: close",
    ]
    if cookies:
        lines.append("Cookie: " + "; ".join(f"{name}={value}" for name, value in cookies.items()))
    if method != "GET":
        lines += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    chunks = []
    with socket.create_connection((LOOPBACK, port), timeout=TIMEOUT) as connection:
        connection.sendall(request)
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    raw = b"".join(chunks)
    head, _, payload = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        headers[name] = headers[name] + "\n" + value.strip() if name in headers else value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        payload = _dechunk(payload)
    encoding = headers.get("content-encoding", "").lower()
    if encoding == "gzip":
        payload = gzip.decompress(payload)
    elif encoding == "deflate":
        payload = zlib.decompress(payload)
    elif encoding:
        raise RuntimeError(f"{path}: cannot decode Content-Encoding {encoding!r}")
    return Fetched(path, int(status_line.split()[1]), headers, len(raw), payload, encoding)


def _dechunk(data: bytes) -> bytes:
    out, position = [], 0
    while True:
        end = data.index(b"\r\n", position)
        size = int(data[position:end].split(b";")[0], 16)
        if size == 0:
            return b"".join(out)
        out.append(data[end + 2 : end + 2 + size])
        position = end + 2 + size + 2


# --- Reading the HTML ---------------------------------------------------------------------------


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    form: int | None  # index of the enclosing <form>, if any
    in_head: bool
    after_main: bool = False  # after </main>: the content is already parsed
    options: list[tuple[str, bool]] = field(default_factory=list)  # a <select>'s (value, selected)


@dataclass
class Page:
    elements: list[Element] = field(default_factory=list)
    inline_scripts: int = 0
    inline_styles: list[str] = field(default_factory=list)
    forms: list[Element] = field(default_factory=list)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.form: int | None = None
        self.in_head = True
        self.capture: str | None = None
        self.script_src = False
        self.after_main = False
        self.select: Element | None = None
        self.option: list[str] | None = None  # the text of an <option> without a value

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value if value is not None else "" for name, value in attrs}
        if tag == "body":
            self.in_head = False
        element = Element(tag, values, self.form, self.in_head, self.after_main)
        if tag == "select":
            self.select = element
        elif tag == "option" and self.select is not None:
            if "value" in values:
                self.select.options.append((values["value"], "selected" in values))
            else:
                self.option = []
                self.select.options.append(("", "selected" in values))
        if tag == "form":
            self.page.forms.append(element)
            self.form = len(self.page.forms) - 1
            element.form = self.form
        self.page.elements.append(element)
        if tag == "script":
            self.script_src = "src" in values
            self.capture = "script"
        elif tag == "style":
            self.capture = "style"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self.option is not None and self.select is not None:
            _value, selected = self.select.options[-1]
            self.select.options[-1] = (" ".join("".join(self.option).split()), selected)
            self.option = None
        elif tag == "select":
            self.select = None
        elif tag == "main":
            self.after_main = True
        elif tag == "form":
            self.form = None
        elif tag == "head":
            self.in_head = False
        elif tag in ("script", "style"):
            self.capture = None

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option.append(data)
        if self.capture == "script" and not self.script_src and data.strip():
            self.page.inline_scripts += 1
        elif self.capture == "style":
            self.page.inline_styles.append(data)


def parse(html: str) -> Page:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.page


def assets_of(page: Page) -> list[tuple[str, str, bool]]:
    """(url, kind, lazy) of everything the page makes the browser fetch while loading."""
    found = []
    for element in page.elements:
        attrs = element.attrs
        lazy = attrs.get("loading", "").lower() == "lazy"
        if element.tag == "link":
            rels = set(attrs.get("rel", "").lower().split())
            if rels & FETCHED_RELS and attrs.get("href"):
                kind = "css" if "stylesheet" in rels else "icon" if "icon" in rels else "other"
                found.append((attrs["href"], kind, False))
        elif element.tag == "script" and attrs.get("src"):
            found.append((attrs["src"], "js", False))
        elif element.tag in ("img", "source", "video", "audio", "iframe", "embed", "input"):
            if element.tag == "input" and attrs.get("type", "").lower() != "image":
                continue
            for name in ("src", "poster"):
                if attrs.get(name):
                    found.append((attrs[name], "img", lazy))
            for candidate in attrs.get("srcset", "").split(","):
                if candidate.strip():
                    found.append((candidate.split()[0], "img", lazy))
        elif element.tag == "object" and attrs.get("data"):
            found.append((attrs["data"], "img", lazy))
        if "url(" in attrs.get("style", ""):
            found += [(url, "img", False) for url in css_urls(attrs["style"])]
    for text in page.inline_styles:
        found += [(url, "img", False) for url in css_urls(text)]
    return found


def css_urls(text: str) -> list[str]:
    return [match.group(2) or match.group(4) for match in CSS_URL.finditer(text)]


def referenced_urls(page: Page) -> list[str]:
    """Every URL the HTML names, fetched or not: links, forms, assets, srcset, meta refresh."""
    urls = []
    for element in page.elements:
        for name, value in element.attrs.items():
            if name in URL_ATTRIBUTES and value:
                urls.append(value)
            elif name in ("srcset", "imagesrcset"):
                urls += [part.split()[0] for part in value.split(",") if part.strip()]
            elif name == "style":
                urls += css_urls(value)
        if element.tag == "meta" and "url=" in element.attrs.get("content", "").lower():
            urls.append(element.attrs["content"].lower().split("url=", 1)[1].strip())
    for text in page.inline_styles:
        urls += css_urls(text)
    return urls


def is_external(url: str, port: int) -> bool:
    """True for a URL on another host: the page must never make the tablet reach out."""
    url = url.strip()
    if url.startswith(NAMESPACES):
        return False
    parts = urlsplit(url)
    if parts.scheme in ("", "data", "blob", "about", "mailto", "tel", "javascript"):
        return url.startswith("//") and parts.netloc not in (f"{LOOPBACK}:{port}", "")
    return parts.netloc not in (f"{LOOPBACK}:{port}", f"localhost:{port}")


def svg_urls(text: str) -> list[str]:
    """URL attributes in an SVG document (xmlns and friends are names, not requests)."""
    return [
        value
        for name, value in re.findall(r"""\s([\w:-]+)\s*=\s*["']([^"']*)["']""", text)
        if name.lower() in ("href", "xlink:href", "src") and value
    ]


# --- One page -----------------------------------------------------------------------------------


@dataclass
class Weighed:
    name: str
    path: str
    requests: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)  # body bytes (decoded) per kind
    wire: int = 0
    bodies: int = 0
    lazy: int = 0
    gzipped: int = 0
    compressed_by_server: bool = False
    external: list[str] = field(default_factory=list)
    blocking_scripts: int = 0  # synchronous scripts before the content (in <head> or in <main>)
    late_sync_scripts: int = 0  # synchronous scripts after </main>: the content is parsed first
    inline_scripts: int = 0
    missing: list[str] = field(default_factory=list)
    no_js: str = "n/a"
    no_js_ok: bool = True


def weigh(port: int, name: str, path: str, cookies: dict[str, str]) -> tuple[Weighed, Page, str]:
    """The page and every asset it references, each fetched once, cold cache."""
    result = Weighed(name, path)
    first = fetch(port, path, cookies)
    if first.status != 200:
        raise RuntimeError(f"{path} answered {first.status}")
    html = first.body.decode("utf-8")
    page = parse(html)
    count(result, first, "html", lazy=False)
    result.inline_scripts = page.inline_scripts
    result.external += [url for url in referenced_urls(page) if is_external(url, port)]
    synchronous = [
        element
        for element in page.elements
        if element.tag == "script"
        and element.attrs.get("src")
        and "defer" not in element.attrs
        and "async" not in element.attrs
        and element.attrs.get("type", "").lower() != "module"
    ]
    result.blocking_scripts = sum(1 for element in synchronous if not element.after_main)
    result.late_sync_scripts = sum(1 for element in synchronous if element.after_main)

    seen = {path}
    queue = [(urljoin(path, url), kind, lazy) for url, kind, lazy in assets_of(page)]
    while queue:
        url, kind, lazy = queue.pop(0)
        if is_external(url, port):
            result.external.append(url)
            continue
        if url.startswith("data:"):
            continue
        local = urlsplit(url)
        local_path = local.path + (f"?{local.query}" if local.query else "")
        if local_path in seen:
            continue
        seen.add(local_path)
        asset = fetch(port, local_path, cookies)
        if asset.status != 200:
            result.missing.append(f"{local_path} ({asset.status})")
        count(result, asset, kind, lazy)
        text = asset.body.decode("utf-8", "replace")
        if asset.content_type == "text/css" or kind == "css":
            nested = css_urls(text)
            result.external += [url for url in nested if is_external(url, port)]
            queue += [(urljoin(local_path, url), "img", False) for url in nested]
        elif "javascript" in asset.content_type or kind == "js":
            result.external += [url for url in SCRIPT_URL.findall(text) if is_external(url, port)]
        elif "svg" in asset.content_type:
            result.external += [url for url in svg_urls(text) if is_external(url, port)]
    return result, page, html


def count(result: Weighed, fetched: Fetched, kind: str, lazy: bool) -> None:
    result.requests += 1
    result.wire += fetched.wire
    result.bodies += len(fetched.body)
    result.by_kind[kind] = result.by_kind.get(kind, 0) + len(fetched.body)
    result.gzipped += len(gzip.compress(fetched.body, 6))
    result.compressed_by_server |= bool(fetched.encoding)
    if lazy:
        result.lazy += fetched.wire


# --- Usable before any script: the HTML alone, and its form posted without JavaScript -----------


def form_fields(page: Page, form: int) -> list[tuple[str, str, Element]]:
    """The form's successful controls with the values the HTML gives them (no script ran)."""
    out = []
    for element in page.elements:
        if element.form != form or element.tag not in ("input", "select", "textarea"):
            continue
        attrs = element.attrs
        name = attrs.get("name")
        kind = attrs.get("type", "text").lower()
        if not name or "disabled" in attrs or kind in ("submit", "button", "image", "reset"):
            continue
        if element.tag == "select":
            chosen = [value for value, selected in element.options if selected]
            if chosen or element.options:
                out.append((name, (chosen or [element.options[0][0]])[0], element))
            continue
        if element.tag == "textarea":
            out.append((name, "", element))
            continue
        if kind in ("checkbox", "radio") and "checked" not in attrs:
            out.append((name, "", element))  # a candidate, unchecked
            continue
        out.append((name, attrs.get("value", ""), element))
    return out


def post_form(
    port: int,
    page: Page,
    form: int,
    cookies: dict[str, str],
    fill: dict[str, str],
    choose: dict[str, int],
) -> Fetched:
    """Post the form as a browser without JavaScript would, after the person's input.

    `fill` sets text fields by name (a name ending in "*" fills every empty field it prefixes);
    `choose` picks the nth option of a radio group that has no checked option.
    """
    pairs: list[tuple[str, str]] = []
    radios: dict[str, list[str]] = {}
    checked_radio = set()
    for name, value, element in form_fields(page, form):
        kind = element.attrs.get("type", "text").lower()
        if kind == "radio":
            if "checked" in element.attrs:
                checked_radio.add(name)
                pairs.append((name, value))
            else:
                radios.setdefault(name, []).append(element.attrs.get("value", "on"))
            continue
        if kind == "checkbox":
            if "checked" in element.attrs:
                pairs.append((name, element.attrs.get("value", "on")))
            continue
        if name in fill:
            value = fill[name]
        else:
            for prefix, text in fill.items():
                if prefix.endswith("*") and name.startswith(prefix[:-1]) and not value:
                    value = text
        pairs.append((name, value))
    for name, options in radios.items():
        if name not in checked_radio and name in choose:
            pairs.append((name, options[choose[name]]))
    action = page.forms[form].attrs.get("action") or "/"
    body = urlencode(pairs).encode()
    return fetch(port, action, cookies, "POST", body, "application/x-www-form-urlencoded")


def main_form(page: Page) -> int | None:
    """The page's form that posts (the one a person fills in), if any."""
    for index, form in enumerate(page.forms):
        if form.attrs.get("method", "get").lower() == "post":
            return index
    return None


# --- The run ------------------------------------------------------------------------------------


def has_link(page: Page, href: str) -> bool:
    return any(
        element.tag == "a" and element.attrs.get("href") == href for element in page.elements
    )


def ledger_rows(html: str) -> int:
    return len(re.findall(r"<tr[^>]*\bdata-round=", html))


def run_pages(port: int) -> list[Weighed]:
    setup = Client(port, TIMEOUT)
    finished = seed_game(setup, LAST_ROUND)
    playing = seed_game(setup, 3, salt=1)
    setup.close()
    keeper_f, keeper_p = key_cookie(finished), key_cookie(playing)
    results = []

    # The game pages: the ledger is in the HTML as served, and so is the way to the next step.
    for name, game, cookies, rounds in (
        ("game page, finished (keeper)", finished, keeper_f, LAST_ROUND),
        ("game page, round 4 (keeper)", playing, keeper_p, 3),
        ("game page, round 4 (spectator)", playing, {}, 3),
    ):
        weighed, page, html = weigh(port, name, f"/games/{game.id}", cookies)
        checks = [f"{ledger_rows(html)}/{rounds} ledger rows"]
        ok = ledger_rows(html) == rounds
        if game is playing and cookies:
            link = has_link(page, f"/games/{game.id}/rounds/new")
            checks.append("record link" if link else "NO record link")
            ok &= link
        weighed.no_js, weighed.no_js_ok = ", ".join(checks), ok
        results.append(weighed)

    # Record round: post the form with the cards typed in, no card pad; the round must be stored.
    path = f"/games/{playing.id}/rounds/new"
    weighed, page, _html = weigh(port, "record round 4 (keeper)", path, keeper_p)
    form = main_form(page)
    if form is None:
        weighed.no_js, weighed.no_js_ok = "no form to post", False
    else:
        first = fetch(port, path, keeper_p)  # the session cookie that goes with the CSRF token
        page = parse(first.body.decode())
        cookies = {**keeper_p, **first.cookies()}
        # The first player goes out; every other hand is typed in (rank-only cards are fine).
        out = [e.attrs.get("value") for name, _v, e in form_fields(page, form) if name == "out"][0]
        hands = {
            name: "K 7"
            for name, _value, element in form_fields(page, form)
            if element.attrs.get("type", "text") == "text" and name != f"cards_{out}"
        }
        answer = post_form(port, page, form, cookies, hands, {"out": 0})
        after = fetch(port, f"/games/{playing.id}", {**cookies, **answer.cookies()})
        stored = ledger_rows(after.body.decode()) == 4
        weighed.no_js = (
            f"form post → {answer.status}, round 4 {'stored' if stored else 'NOT stored'}"
        )
        weighed.no_js_ok = answer.status in (302, 303) and stored
    results.append(weighed)

    # Rules check: post the meld question without the card pad; the verdict must come back.
    weighed, page, _html = weigh(port, "rules check", "/rules", {})
    form = main_form(page)
    if form is None:
        weighed.no_js, weighed.no_js_ok = "no form to post", False
    else:
        first = fetch(port, "/rules", {})
        page = parse(first.body.decode())
        answer = post_form(port, page, form, first.cookies(), {"cards": "7♠ 7♥ 7♦"}, {})
        verdict = bool(VERDICT.search(answer.body.decode("utf-8", "replace")))
        weighed.no_js = (
            f"form post → {answer.status}, {'verdict shown' if verdict else 'NO verdict'}"
        )
        weighed.no_js_ok = answer.status == 200 and verdict
    results.append(weighed)
    return results


def row(weighed: Weighed) -> dict[str, Any]:
    problems = []
    if weighed.wire > TARGET_BYTES:
        problems.append(f"{weighed.wire:,} B > {TARGET_BYTES:,} B")
    if weighed.external:
        problems.append("external URL")
    if weighed.blocking_scripts or weighed.inline_scripts:
        problems.append("script before content")
    if not weighed.no_js_ok:
        problems.append("not usable without JS")
    if weighed.missing:
        problems.append("missing assets: " + ", ".join(weighed.missing))
    kinds = weighed.by_kind
    notes = []
    if weighed.late_sync_scripts:
        notes.append("a script after the content lacks defer")
    verdict = "met" if not problems else "MISSED (" + "; ".join(problems) + ")"
    if notes:
        verdict += " (note: " + "; ".join(notes) + ")"
    return {
        "page": weighed.name,
        "requests": weighed.requests,
        "HTML B": f"{kinds.get('html', 0):,}",
        "CSS B": f"{kinds.get('css', 0):,}",
        "JS B": f"{kinds.get('js', 0):,}",
        "images/icons B": f"{kinds.get('img', 0) + kinds.get('icon', 0) + kinds.get('other', 0):,}",
        "transferred B (headers + bodies)": f"{weighed.wire:,}",
        "of which lazy": f"{weighed.lazy:,}",
        "served gzip?": "yes" if weighed.compressed_by_server else "no (raw)",
        "gzip -6 B (if served)": f"{weighed.gzipped:,}",
        "external URLs": ", ".join(sorted(set(weighed.external))) or "none",
        "scripts: blocking / inline / sync after content": (
            f"{weighed.blocking_scripts} / {weighed.inline_scripts} / {weighed.late_sync_scripts}"
        ),
        "without JS": weighed.no_js,
        "result (<= 60 KB, no external, usable before JS)": verdict,
    }


def main(quick: bool = False) -> list[dict[str, Any]]:
    """Weighing is deterministic: quick mode runs the same (it takes about a second)."""
    del quick
    with Server() as server:
        return [row(weighed) for weighed in run_pages(server.port)]
