"""Fast repeat visits and an installable app: fingerprinted static URLs kept for a year,
compressed pages, the web app manifest, the service worker at `/sw.js` and its offline page."""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache

from flask import Blueprint, Flask, Response, current_app, render_template, request, url_for
from flask_compress import Compress

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
    "favicon.svg",
    "icons/icon-192.png",
)
THEME_COLOR = {"light": "#0b6e4f", "dark": "#0a2f23"}
DESCRIPTION = (
    "The score book and referee for Liverpool Rummy at the card table: seats, deals, rounds, "
    "totals and rule disputes on one tablet."
)

bp = Blueprint("pwa", __name__)
compress = Compress()


@lru_cache(maxsize=512)
def _digest(path: str, _mtime_ns: int, _size: int) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()[:DIGEST_CHARS]


def static_digest(filename: str) -> str | None:
    """The start of the file's SHA-256, or None for a file that does not exist."""
    folder = current_app.static_folder
    if not folder:
        return None
    path = os.path.realpath(os.path.join(folder, filename))
    if not path.startswith(os.path.realpath(folder) + os.sep):
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _digest(path, info.st_mtime_ns, info.st_size)


def fingerprint(endpoint: str, values: dict) -> None:
    """Every `url_for('static', ...)` names the file's content: `style.css?v=<digest>`."""
    if endpoint == "static" and "filename" in values and "v" not in values:
        digest = static_digest(values["filename"])
        if digest:
            values["v"] = digest


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
    app.url_defaults(fingerprint)
    app.after_request(cache_static)
    app.register_blueprint(bp)

    @app.context_processor
    def head_values():
        return {"theme_color": THEME_COLOR, "site_description": DESCRIPTION}


@bp.get("/manifest.webmanifest")
def manifest():
    """What a tablet needs to put the app on its home screen and open it full screen."""
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
        "description": DESCRIPTION,
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
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the root so that its scope can be the whole app."""
    precache = [url_for("pwa.offline")] + [url_for("static", filename=f) for f in PRECACHED]
    version = hashlib.sha256("\n".join(precache).encode()).hexdigest()[:DIGEST_CHARS]
    script = render_template(
        "pwa/sw.js", precache=precache, offline=url_for("pwa.offline"), version=version
    )
    response = current_app.response_class(script, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline():
    """What the service worker shows when a page is asked for and the server cannot answer."""
    return render_template("pwa/offline.html")
