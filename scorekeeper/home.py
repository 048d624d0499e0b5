"""The home page, the navigation and template filters every page shares, and the health check."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from flask import Blueprint, current_app, render_template, request
from flask_babel import lazy_gettext as _l

from .games import gamelist, keys, ledger
from .platform import backups, language, network, shared
from .rules.cards import notation
from .rules.ruleset import RuleSet
from .tls import addresses

bp = Blueprint("home", __name__)

NAV_LINKS = (
    ("games.new_game", _l("New game"), _l("Seat the players and start round 1")),
    ("games.list_games", _l("Games"), _l("Resume a game or see final standings")),
    ("referee.check", _l("Rules check"), _l("Is this meld, opening or lay-off legal?")),
)
# The home page's big buttons: the top bar's, and the table's saved rule sets (the top bar has
# no room for a fourth link beside the screen note at the landscape tablet's width; the games
# list links them too).
HOME_LINKS = (
    *NAV_LINKS[:2],
    ("rulesets.list_rulesets", _l("Our rules"), _l("Save, share and read your table's own rules")),
    *NAV_LINKS[2:],
)


@dataclass(frozen=True)
class TabletHint:
    """What the serving machine's own screen shows so that the tablet can find the app."""

    url: str | None  # the first address a tablet can open; None when there is none
    qr: str | None = field(default=None, repr=False)  # that address as a data: SVG QR code
    others: tuple[str, ...] = ()  # the machine's further addresses, on other networks
    local_only: bool = False  # the server listens on loopback: no tablet can reach it
    # With HTTPS served, the tablet's two steps at the first address (as `make run` prints them):
    # (what to do, address, its QR code) for "trust this score book", then "open it".
    steps: tuple[tuple[str, str, str], ...] = field(default=(), repr=False)


@bp.app_context_processor
def navigation():
    return {"nav_links": NAV_LINKS}


@bp.record_once
def _globals(state) -> None:
    """Names every template sees, the imported macros included. No rule is among them: a
    page takes its deal count, contracts and values from its game's rule set."""
    # R1 for the tap card pad's `data-notation`: the pad's script spells no card itself.
    state.app.jinja_env.globals["card_notation"] = notation()


# A score with a real minus sign, as the ledger shows it.
bp.add_app_template_filter(ledger.signed, "points")


# A rule set read out, group by group, each setting marked where it differs from liverpool
# (templates/_rules.html shows it on every page that reads a rule set).
@bp.app_template_filter("read_out")
def read_out(rules: RuleSet):
    return rules.read_out(language.speech())


@bp.app_template_filter("changes_count")
def changes_count(rules: RuleSet) -> int:
    """How many settings the rule set changes from liverpool, for the read-out's last line."""
    return len(rules.differences())


@bp.get("/")
def index():
    hint = tablet_hint() if on_serving_machine() else None
    return render_template(
        "index.html",
        links=HOME_LINKS,
        first_game=not ledger.has_games(),
        tablet=hint,
        resume=gamelist.resumable(keys.held(request)),
        # A plain-HTTP page on the network: the secure address gives what it lacks.
        secure=addresses.secure_address() if addresses.insecure_context() else None,
    )


@bp.get("/healthz")
def healthz():
    """200 while this process answers, with how old the last backup is (`last_backup` null when
    none was ever taken), for a monitor that warns when the nightly backup stopped. With
    `REDIS_URL`, also Redis as it finds it: `"ok"` or `"unreachable"`, still 200, since the score
    book keeps scoring without it (a proxy that took every process out for want of Redis would
    stop the evening; docs/security.md)."""
    taken = backups.last()
    last = None
    if taken is not None:
        at = taken.taken_at.isoformat(timespec="seconds") + "Z"
        last = {"at": at, "kind": taken.kind, "age_seconds": backups.age_seconds(taken)}
    health: dict[str, object] = {"ok": True, "last_backup": last}
    redis = shared.state()
    if redis is not None:
        health["redis"] = redis
    return health


def on_serving_machine() -> bool:
    """Whether the page is on the serving machine's own screen: asked from loopback, and not
    relayed by a reverse proxy on this machine (with TRUSTED_PROXIES the client's own address is
    already in remote_addr; without it every relayed request would look local)."""
    relayed = "X-Forwarded-For" in request.headers or "Forwarded" in request.headers
    return network.is_loopback(request.remote_addr) and not relayed


def tablet_hint() -> TabletHint:
    """The addresses `make run` printed: its host and port, else every interface and this
    request's own port (the development server)."""
    host = current_app.config["SERVE_HOST"]
    if network.is_loopback(host):
        return TabletHint(url=None, local_only=True)
    urls = network.tablet_urls(host, current_app.config["SERVE_PORT"] or request_port())
    if not urls:
        return TabletHint(url=None)
    https_port = current_app.config["SERVE_HTTPS_PORT"]
    if https_port is None:
        return TabletHint(url=urls[0], qr=network.qr_data_uri(urls[0]), others=tuple(urls[1:]))
    steps = tuple(
        (name, url, network.qr_data_uri(url))
        for name, url in zip(
            addresses.STEP_NAMES, addresses.steps(urls[0], https_port), strict=True
        )
    )
    return TabletHint(url=urls[0], others=tuple(urls[1:]), steps=steps)


def request_port() -> int:
    """The port this page was asked for on (localhost:5000 -> 5000)."""
    return urlsplit(f"//{request.host}").port or (443 if request.scheme == "https" else 80)
