"""The home page, the navigation every page shows, and the bare health check."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from flask import Blueprint, current_app, render_template, request

from . import gamelist, network, qr, scorebook

bp = Blueprint("home", __name__)

NAV_LINKS = (
    ("games.new_game", "New game", "Seat the players and start round 1"),
    ("games.list_games", "Games", "Resume a game or see final standings"),
    ("referee.check", "Rules check", "Is this meld, opening or lay-off legal?"),
)


@dataclass(frozen=True)
class TabletHint:
    """What the serving machine's own screen shows so that the tablet can find the app."""

    url: str | None  # the first address a tablet can open; None when there is none
    qr: str | None = field(default=None, repr=False)  # that address as a data: SVG QR code
    others: tuple[str, ...] = ()  # the machine's further addresses, on other networks
    local_only: bool = False  # the server listens on loopback: no tablet can reach it


@bp.app_context_processor
def navigation():
    return {"nav_links": NAV_LINKS}


@bp.get("/")
def index():
    hint = tablet_hint() if on_serving_machine() else None
    return render_template(
        "index.html",
        first_game=not scorebook.has_games(),
        tablet=hint,
        resume=gamelist.resumable(request.cookies.items()),
    )


@bp.get("/healthz")
def healthz():
    return {"ok": True}


def on_serving_machine() -> bool:
    """Whether the page is on the serving machine's own screen: asked from loopback, and not
    relayed by a reverse proxy on this machine (with TRUSTED_PROXIES the client's own address is
    already in remote_addr; without it every relayed request would look local)."""
    relayed = "X-Forwarded-For" in request.headers or "Forwarded" in request.headers
    return network.is_loopback(request.remote_addr) and not relayed


def tablet_hint() -> TabletHint:
    """The addresses `make run` printed: its host and port, else every interface and this
    request's own port (the development server)."""
    host = current_app.config.get("SERVE_HOST", network.EVERY_INTERFACE[0])
    if network.is_loopback(host):
        return TabletHint(url=None, local_only=True)
    urls = network.tablet_urls(host, current_app.config.get("SERVE_PORT") or request_port())
    if not urls:
        return TabletHint(url=None)
    return TabletHint(url=urls[0], qr=qr.svg_data_uri(urls[0]), others=tuple(urls[1:]))


def request_port() -> int:
    """The port this page was asked for on (localhost:5000 -> 5000)."""
    return urlsplit(f"//{request.host}").port or (443 if request.scheme == "https" else 80)
