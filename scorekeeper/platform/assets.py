"""Fast repeat visits and an installable app: fingerprinted static URLs kept for a year,
compressed pages, the web app manifest, the service worker at `/sw.js` and its offline page.

The service worker fetches its offline page without cookies, so the page a tablet registers it
from names its own language in the worker's URL (`/sw.js?language=fi`), and the worker keeps the
offline page of that language (`/offline?language=fi`); choosing another language registers
the worker again, with the offline page in the new one.

An ES module is served with each relative import (`from "./cards.js"`) naming the imported
file's digest (`"./cards.js?v=<digest>"`), and its own digest is that of the text as served, so
every module a page fetches has a URL kept for a year, and a change anywhere in the import graph
gives every module above it a new URL."""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import stat
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    has_request_context,
    render_template,
    request,
    url_for,
)
from flask_babel import force_locale, get_locale
from flask_babel import lazy_gettext as _l
from flask_compress import Compress

from . import language

# How long a browser may keep a static file whose URL names its content (a year, the most
# that caches honour); the URL changes whenever the file does.
IMMUTABLE = "public, max-age=31536000, immutable"
DIGEST_CHARS = 12
# The files the service worker keeps for the table's tablet to start from without the server.
PRECACHED = (
    "style.css",
    "games.css",
    "theme.js",
    "pwa.js",
    "offline.js",
    "favicon.svg",
    "icons/icon-192.png",
)
# How often the offline page asks whether the server answers again.
OFFLINE_RETRY_SECONDS = 5
THEME_COLOR = {"light": "#0b6e4f", "dark": "#0a2f23"}
DESCRIPTION = _l(
    "The score book and referee for Liverpool Rummy at the card table: seats, deals, rounds, "
    "totals and rule disputes on one tablet."
)

bp = Blueprint("pwa", __name__)
compress = Compress()


# The scripts that may be ES modules, whose relative imports are rewritten.
MODULE_SUFFIXES = (".js", ".mjs")
# A relative specifier: `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"`
# and `import("./x.js")`. A bare name or a full URL is not the static folder's and stays.
SPECIFIER = re.compile(r"""(\b(?:from|import)\s*\(?\s*)(["'])(\.{1,2}/[^"'?#\s]+)\2""")


class ImportCycle(ValueError):
    """Modules that import each other in a circle: each one's URL would have to name the
    digest of a text that names its own."""


def _hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]


@lru_cache(maxsize=512)
def _digest(path: str, _mtime_ns: int, _size: int) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()[:DIGEST_CHARS]


@lru_cache(maxsize=256)
def _imports(path: str, _mtime_ns: int, _size: int) -> tuple[str, tuple[str, ...]]:
    """The module's text and its relative specifiers, read once per version of the file."""
    with open(path, encoding="utf-8", errors="surrogateescape") as handle:
        text = handle.read()
    return text, tuple(dict.fromkeys(match[3] for match in SPECIFIER.finditer(text)))


@lru_cache(maxsize=256)
def _rewrite(text: str, digests: tuple[tuple[str, str], ...]) -> tuple[bytes, str]:
    """The module as served, each specifier naming its file's digest, and that text's digest."""
    known = dict(digests)

    def pinned(match: re.Match) -> str:
        lead, quote, spec = match.groups()
        if spec not in known:
            return match[0]
        return f"{lead}{quote}{spec}?v={known[spec]}{quote}"

    body = SPECIFIER.sub(pinned, text).encode("utf-8", errors="surrogateescape")
    return body, _hex(body)


class _Graph:
    """One look at the static folder's files, for one request: each asked for at most once, so
    a file that a page names (a stylesheet, a module many others import) is stat'ed once for
    all its URLs, and a file changed on disk is served by its new digest from the next request
    on."""

    def __init__(self, folder: str):
        self.folder = folder
        self.inside = os.path.realpath(folder) + os.sep
        self.done: dict[str, tuple[bytes | None, str] | None] = {}
        self.edges: dict[str, tuple[str, ...]] = {}

    def asset(self, filename: str, above: tuple[str, ...] = ()) -> tuple[bytes | None, str] | None:
        """(the body to serve instead of the file, or None to send the file as it is; the
        digest), or None for a file that does not exist."""
        filename = posixpath.normpath(filename)
        if filename in above:
            circle = " -> ".join((*above[above.index(filename) :], filename))
            raise ImportCycle(f"static modules import each other in a circle: {circle}")
        if filename not in self.done:
            self.done[filename] = self._look(filename, above)
        return self.done[filename]

    def _located(self, filename: str) -> tuple[str, os.stat_result] | None:
        """The file's real path and its stat, if it is a file inside the static folder."""
        path = os.path.realpath(os.path.join(self.folder, filename))
        if not path.startswith(self.inside):
            return None
        try:
            info = os.stat(path)
        except OSError:
            return None
        return (path, info) if stat.S_ISREG(info.st_mode) else None

    def _look(self, filename: str, above: tuple[str, ...]) -> tuple[bytes | None, str] | None:
        located = self._located(filename)
        if located is None:
            return None
        path, info = located
        if not filename.endswith(MODULE_SUFFIXES):
            return None, _digest(path, info.st_mtime_ns, info.st_size)
        text, specifiers = _imports(path, info.st_mtime_ns, info.st_size)
        digests, edges = [], []
        for spec in specifiers:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(filename), spec))
            found = self.asset(target, (*above, filename))
            if found is not None:
                digests.append((spec, found[1]))
                edges.append(target)
        self.edges[filename] = tuple(edges)
        if not digests:
            return None, _digest(path, info.st_mtime_ns, info.st_size)
        return _rewrite(text, tuple(digests))

    def imports(self, filename: str) -> list[str]:
        """Every file the module imports, directly or not, each once, nearest first."""
        self.asset(filename)
        order: dict[str, None] = {}
        queue = list(self.edges.get(posixpath.normpath(filename), ()))
        while queue:
            name = queue.pop(0)
            if name not in order:
                order[name] = None
                queue.extend(self.edges.get(name, ()))
        return list(order)


def check_modules(folder: str) -> None:
    """Read every module of the folder once, so that modules importing each other in a circle
    stop the app at start rather than its pages later (ImportCycle)."""
    graph = _Graph(folder)
    for root, _dirs, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(MODULE_SUFFIXES):
                graph.asset(os.path.relpath(os.path.join(root, name), folder).replace(os.sep, "/"))


def _graph() -> _Graph | None:
    """This request's look at the static folder (a new one for each request, or each use outside
    one)."""
    folder = current_app.static_folder
    if not folder:
        return None
    if not has_request_context():
        return _Graph(folder)
    graph = getattr(request, "static_graph", None)
    if graph is None or graph.folder != folder:
        graph = request.static_graph = _Graph(folder)
    return graph


def static_asset(filename: str) -> tuple[bytes | None, str] | None:
    """What the static view serves for the file: (the rewritten module, or None for the file as
    it is; its digest), or None for a file that does not exist."""
    graph = _graph()
    return graph.asset(filename) if graph else None


def static_digest(filename: str) -> str | None:
    """The start of the SHA-256 of the file as served, or None for a file that does not exist."""
    found = static_asset(filename)
    return found[1] if found else None


def module_imports(filename: str) -> list[str]:
    """The static files an ES module imports, directly or through others: what a page that
    loads it can ask for at once (`<link rel="modulepreload">`) instead of one level at a time."""
    graph = _graph()
    return graph.imports(filename) if graph else []


def fingerprint(endpoint: str, values: dict) -> None:
    """Every `url_for('static', ...)` names the file's content: `style.css?v=<digest>`."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        digest = static_digest(values["filename"])
        if digest:
            values["v"] = digest


def _serving_modules(send: Callable[..., Response]) -> Callable[..., Response]:
    """The static view, answering an ES module that imports others with its rewritten text."""

    def static(filename: str) -> Response:
        found = static_asset(filename)
        if found is None or found[0] is None:
            return send(filename=filename)
        body, digest = found
        response = current_app.response_class(body, mimetype="text/javascript")
        response.set_etag(digest)
        return response.make_conditional(request)

    return static


def cache_static(response: Response) -> Response:
    """A static file asked for by its current digest never changes: keep it for a year.
    Asked for without one, or by an old one, it is checked each time."""
    if request.endpoint == "static" and response.status_code in (200, 304):
        filename = (request.view_args or {}).get("filename", "")
        current = static_digest(filename)
        if current and request.args.get("v") == current:
            response.headers["Cache-Control"] = IMMUTABLE
            response.headers.pop("Expires", None)
        else:
            response.headers["Cache-Control"] = "no-cache"
    return response


def init_app(app: Flask) -> None:
    """Fingerprint static URLs, compress what a client accepts compressed, and add the app's
    manifest, service worker and offline page."""
    compress.init_app(app)
    if app.has_static_folder:
        check_modules(app.static_folder)
        app.view_functions["static"] = _serving_modules(app.view_functions["static"])
    app.url_defaults(fingerprint)
    app.after_request(cache_static)
    app.register_blueprint(bp)

    @app.context_processor
    def head_values():
        return {
            "theme_color": THEME_COLOR,
            "site_description": DESCRIPTION,
            "module_imports": module_imports,
            "service_worker_url": service_worker_url,
            "manifest_url": manifest_url,
        }


@bp.get("/manifest.webmanifest")
def manifest():
    """What a tablet needs to put the app on its home screen and open it full screen: its
    description in the language the address names (a browser fetches it without cookies)."""
    return in_asked_language(_manifest)


def _manifest() -> Response:
    icons = [
        {
            "src": url_for("static", filename=f"icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any",
        }
        for size in (192, 512)
    ]
    icons.append(
        {
            "src": url_for("static", filename="icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        }
    )
    body = {
        "name": "Liverpool Scorekeeper",
        "short_name": "Scorekeeper",
        "description": str(DESCRIPTION),
        "start_url": url_for("home.index"),
        "scope": url_for("home.index"),
        "display": "standalone",
        "orientation": "any",
        "background_color": "#fbfaf7",
        "theme_color": THEME_COLOR["light"],
        "icons": icons,
    }
    response = current_app.response_class(
        json.dumps(body, ensure_ascii=False, indent=1), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "no-cache"
    if asked_language() is None:
        response.vary.update(("Cookie", "Accept-Language"))  # its words are the request's
    return response


def precached() -> list[str]:
    """`PRECACHED`, and every module a precached script imports (the offline page's script
    reads its words through words.js): offline, a module not kept is a script that never runs."""
    files = list(PRECACHED)
    for name in PRECACHED:
        if name.endswith(".js"):
            files += [f for f in module_imports(name) if f not in files]
    return files


def service_worker_url() -> str:
    """The service worker's URL as this page registers it: naming the page's language."""
    return url_for("pwa.service_worker", language=_page_code())


def manifest_url() -> str:
    """The manifest's URL as this page links it: naming the page's language."""
    return url_for("pwa.manifest", language=_page_code())


def _page_code() -> str:
    return str(get_locale() or language.ENGLISH)


def asked_language() -> str | None:
    """The language the address names (`?language=fi`) when the score book offers it; None for
    none or any other (the page then speaks the request's own choice)."""
    code = request.args.get("language")
    return code if code in {offered.code for offered in language.offered()} else None


def in_asked_language(answer: Callable[[], Any]) -> Any:
    """The answer made in the language the address names, else in the request's own."""
    code = asked_language()
    if code is None:
        return answer()
    with force_locale(code):
        return answer()


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the root so that its scope can be the whole app; it
    keeps the offline page in the language its URL names, in a cache named for it."""
    code = asked_language()
    offline_url = url_for("pwa.offline", language=code)
    precache = [offline_url] + [url_for("static", filename=f) for f in precached()]
    version = hashlib.sha256("\n".join(precache).encode()).hexdigest()[:DIGEST_CHARS]
    cache = f"scorekeeper-{code}-{version}" if code else f"scorekeeper-{version}"
    static = f"{request.script_root}{current_app.static_url_path}/"
    script = render_template(
        "pwa/sw.js", precache=precache, offline=offline_url, cache=cache, static=static
    )
    response = current_app.response_class(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """What the service worker shows when a page is asked for and the server cannot answer: in
    the language the address names (the worker fetches it without the device's cookie)."""
    return in_asked_language(
        lambda: render_template("pwa/offline.html", retry_seconds=OFFLINE_RETRY_SECONDS)
    )
