"""Trust at the edges: security headers, body limits, and kind answers to an expired form or a
busy database, which never hand a forged post a second chance."""

from __future__ import annotations

import contextlib
import hmac
import io
import ipaddress
import re
from collections.abc import Callable

from flask import (
    Flask,
    Request,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    render_template,
    request,
    session,
)
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from itsdangerous import BadData, URLSafeTimedSerializer
from markupsafe import escape
from sqlalchemy.exc import OperationalError
from werkzeug.middleware.proxy_fix import ProxyFix

from .database import db
from .http import is_api_request
from .paths import HOST_ONLY, cookie_path, here

SECRET_FIELD_WORDS = ("key", "password", "secret", "token")
# What a refused or busy page shows of a post is at most what the app's own forms hold, so a
# forged post of 64 KiB is never answered with a page many times its size. The fullest form is
# the rule editor's (12 deals of 5 melds: about 200 fields), every field is named like
# `deals-3-contract-2-kind` or `cards_2`, and the longest value is a hand of cards.
SHOWN_ENTRIES = 250
SHOWN_VALUE = 400
# Characters of names and (escaped) values on the whole page: several times a real form's.
SHOWN_TEXT = 16_000
SHOWN_FILES = 4
FIELD_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
# Flask-WTF's words for a token whose signature is good but whose time is up.
CSRF_EXPIRED = "The CSRF token has expired."
# How long a client is asked to wait before trying again when the database stays busy.
RETRY_AFTER_SECONDS = 5
# A trusted proxy's address or network (`TRUSTED_PROXY_ADDRESSES`).
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


# No inline script or style anywhere: every script and stylesheet is a file under /static/.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
HSTS = "Strict-Transport-Security"


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is `Secure` exactly when the request came over HTTPS, and then named
    `__Host-session`: a tablet that has used the secure address and opens the plain one again
    (an old bookmark) gets a session of its own there, where a browser would refuse to let plain
    HTTP replace the secure cookie of the same name and every form would fail its check. Behind
    trusted proxies the name stays `session`, as it always was: the proxy serves one scheme.

    The JSON API keeps nothing in the session (its writes are guarded by the edit key, never by
    a form's token): its requests leave the session cookie unread and never set it."""

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
        if is_api_request():
            return None  # Flask's null session: empty, and never saved
        return super().open_session(app, request)

    def cookie_session(self, app: Flask, request: Request) -> SessionMixin | None:
        """The session the cookie holds, read even under /api/ (where `open_session` reads
        none): for the few API routes an organiser's signed-in session may open
        (`organisers`)."""
        return super().open_session(app, request)

    def get_cookie_name(self, app: Flask) -> str:
        return host_only_name(super().get_cookie_name(app))

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)

    def get_cookie_path(self, app: Flask) -> str:
        """The score book's own path on its host (`/`, or the prefix a trusted proxy names),
        not Flask's one `APPLICATION_ROOT` for every request."""
        return cookie_path(self.get_cookie_name(app))


def host_only_name(name: str) -> str:
    """A cookie's name for this request: `__Host-<name>` on the score book's own HTTPS (a name a
    plain page's cookie can never take), the name itself on plain HTTP and behind proxies."""
    own_https = request.is_secure and not trusted_proxies(current_app)
    return f"{HOST_ONLY}{name}" if own_https else name


def trusted_proxies(app: Flask) -> int:
    """How many reverse proxies in front of the app to believe (`TRUSTED_PROXIES`)."""
    return _whole_number(
        app,
        "TRUSTED_PROXIES",
        lambda value: _(
            "TRUSTED_PROXIES must be a whole number of proxies, not %(value)s", value=value
        ),
    )


def trusted_proxy_networks(app: Flask) -> tuple[Network, ...]:
    """The addresses the trusted proxies ask from (`TRUSTED_PROXY_ADDRESSES`: addresses or
    networks, separated by commas or spaces); none: any address, as every request comes through
    the proxies."""
    value = app.config["TRUSTED_PROXY_ADDRESSES"] or ""
    written = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    try:
        return tuple(ipaddress.ip_network(str(text).strip(), strict=False) for text in written)
    except ValueError:
        raise ValueError(
            _(
                "TRUSTED_PROXY_ADDRESSES must be the proxies' addresses or networks, such as"
                " 127.0.0.1 or 172.30.32.0/23, not %(value)s",
                value=repr(value),
            )
        ) from None


class FromProxies:
    """Werkzeug's `ProxyFix` for the requests the trusted proxies relay: the client's address,
    scheme, host, port and the prefix the score book is served under (`X-Forwarded-Prefix`,
    Home Assistant's ingress) as the proxies saw them. A request from any other address
    (`TRUSTED_PROXY_ADDRESSES`) keeps its own, and its forwarded headers are left unread."""

    def __init__(self, app, count: int, networks: tuple[Network, ...]) -> None:
        self.app = app
        self.networks = networks
        self.fixed = ProxyFix(
            app, x_for=count, x_proto=count, x_host=count, x_port=count, x_prefix=count
        )

    def from_proxy(self, address: str | None) -> bool:
        if not self.networks:
            return True
        try:
            peer = ipaddress.ip_address((address or "").split("%")[0])
        except ValueError:
            return False
        peer = getattr(peer, "ipv4_mapped", None) or peer
        return any(peer in network for network in self.networks)

    def __call__(self, environ, start_response):
        if self.from_proxy(environ.get("REMOTE_ADDR")):
            return self.fixed(environ, start_response)
        return self.app(environ, start_response)


def hsts_seconds(app: Flask) -> int:
    """How long a browser is told to use only HTTPS for this host (`HSTS_SECONDS`); 0 is never."""
    return _whole_number(
        app,
        "HSTS_SECONDS",
        lambda value: _(
            "HSTS_SECONDS must be a whole number of seconds, not %(value)s", value=value
        ),
    )


def _whole_number(app: Flask, name: str, refusal: Callable[[str], str]) -> int:
    """A setting that is a count (0 or more), or one sentence saying what is wrong with it (the
    `refusal` of the value as written)."""
    value = app.config[name] or 0
    try:
        count = int(value)
    except (TypeError, ValueError):
        count = -1
    if count < 0:
        raise ValueError(refusal(repr(value)))
    return count


def init_app(app: Flask) -> None:
    """Attach the header, body-limit and CSRF-error hooks to the app; trust configured proxies."""
    count = trusted_proxies(app)
    networks = trusted_proxy_networks(app)
    hsts_seconds(app)  # a wrong value is one sentence on start, not a 500 on the first answer
    if count:
        # The client's address, scheme, host and prefix as the proxies saw them; without the
        # setting forwarded headers are ignored, since any client could send them.
        app.wsgi_app = FromProxies(app.wsgi_app, count, networks)  # type: ignore[method-assign]
    app.session_interface = SessionInterface()
    # First of all hooks: CSRFProtect's own before_request reads the form, and so the body.
    app.before_request_funcs.setdefault(None, []).insert(0, limit_body)
    app.after_request(add_security_headers)
    app.register_error_handler(CSRFError, csrf_error)


def limit_body() -> None:
    """Answer 413 for a body over the limit, whether its length is declared or chunked."""
    limit = request.max_content_length
    if limit is None:
        return
    length = request.content_length
    if length is not None:
        if length > limit:
            abort(413)
        return
    if not request.environ.get("wsgi.input_terminated"):
        # No length and no terminated stream: Werkzeug reads the body as empty. (cheroot sets
        # the key on every request, True only for a chunked body.)
        return
    # A chunked body: Werkzeug would cut it silently at the limit (and call that invalid JSON),
    # so read it here, one byte past the limit, and hand the views an ordinary in-memory body.
    body = _read_at_most(request.environ["wsgi.input"], limit + 1)
    if len(body) > limit:
        abort(413)
    request.environ["wsgi.input"] = io.BytesIO(body)


def _read_at_most(stream, size: int) -> bytes:
    """Up to `size` bytes of a stream that may return short reads before its end."""
    parts = []
    while size > 0:
        part = stream.read(min(size, 64 * 1024))
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def edge_headers(app: Flask, secure: bool) -> dict[str, str]:
    """The headers every answer carries; over HTTPS the HSTS header too (never over plain HTTP,
    where a browser must ignore it and anyone on the way could have added it)."""
    headers = dict(SECURITY_HEADERS)
    seconds = hsts_seconds(app) if secure else 0
    if seconds:
        headers[HSTS] = f"max-age={seconds}"
    return headers


def add_security_headers(response: Response) -> Response:
    """Put the security headers on every response; a view that set one itself keeps its own."""
    headers = response.headers
    own = {name.lower() for name, _value in headers.items()}
    for name, value in edge_headers(current_app, request.is_secure).items():
        if name.lower() not in own:
            headers.add(name, value)
    if is_api_request():
        # Scores and verdicts change from one request to the next: never serve them from a cache.
        headers.set("Cache-Control", "no-store")
    return response


def csrf_error(error: CSRFError):
    """An expired form of this tablet's own comes back with what was typed and a fresh token;
    anything else (a missing or foreign token: a post made by another site) is shown, read-only,
    with a link to open a fresh form, and never with a token that would let one tap send it."""
    if is_api_request():
        return jsonify(error=error.description), 400
    own = _own_expired_form(error)
    html = render_template(
        "csrf_error.html",
        own=own,
        entries=_entries(resend=own),
        reason=error.description,
    )
    return html, 400


def _own_expired_form(error: CSRFError) -> bool:
    """True when the post carries this session's own token, signed here, only too old.

    Flask-WTF says "expired" for any token signed with this app's key, whichever session it
    was made for: the token must also be the one this browser's session holds.
    """
    if error.description != CSRF_EXPIRED:
        return False
    field = current_app.config["WTF_CSRF_FIELD_NAME"]
    held = session.get(field)
    posted = request.form.get(field)
    if not held or not posted:
        return False
    secret = current_app.config["WTF_CSRF_SECRET_KEY"]
    try:
        token = URLSafeTimedSerializer(secret, salt="wtf-csrf-token").loads(posted)
    except BadData:
        return False
    return isinstance(token, str) and hmac.compare_digest(token, held)


def database_busy(error: OperationalError):
    """The database stayed busy past its wait (or is unreachable): 503, nothing saved, and the
    entries kept with a way to try again; never a 500 (called by `errorpages.database_error`)."""
    with contextlib.suppress(Exception):
        db.session.rollback()
    current_app.logger.warning("database unavailable, answered 503: %s", error.orig)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if is_api_request():
        message = _("the score book is busy: nothing was saved, try again in a moment")
        return jsonify(error=message), 503, headers
    html = render_template("busy.html", entries=kept_entries(), retry_after=RETRY_AFTER_SECONDS)
    return html, 503, headers


def kept_entries() -> dict:
    """What a post that was not taken (busy, over a limit) held, for its page to show; only a
    post that passed the CSRF check is offered again, with a fresh token."""
    passed = g.get("csrf_valid", False) or not current_app.config["WTF_CSRF_ENABLED"]
    return _entries(resend=request.method == "POST" and passed)


def _entries(*, resend: bool) -> dict:
    """What was posted, for a page that shows it and, with `resend`, offers to send it again:
    whole, since only a post that passed the CSRF check (this tablet's own) is resent, while
    what is shown is bounded (see `SHOWN_ENTRIES`)."""
    token_field = current_app.config["WTF_CSRF_FIELD_NAME"]
    fields = [
        (name, value)
        for name, value in request.form.items(multi=True)
        if name != token_field and not _never_resent(name)
    ]
    action = here()
    if request.query_string:
        action += "?" + request.query_string.decode("latin-1")
    shown, left_out = _shown(fields)
    files = [f.filename for f in request.files.values() if f.filename]
    return {
        "resend": resend,
        "token_field": token_field,
        "fields": fields if resend else [],
        "shown": shown,
        "left_out": left_out,
        "action": action,
        "method": request.method,
        "dropped_files": [_clipped(name) for name in files[:SHOWN_FILES]],
    }


def _shown(fields: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], int]:
    """The entries to show, as the app's forms have them, and how many others were left out.
    A secret (an edit key) is not shown on screen; a form's one-time token is not either."""
    shown: list[tuple[str, str]] = []
    left_out = 0
    budget = SHOWN_TEXT
    for name, value in fields:
        if not value or name == "write_token":
            continue
        text = "••••" if _is_secret(name) else _clipped(value)
        cost = len(name) + len(escape(text))
        if len(shown) == SHOWN_ENTRIES or not FIELD_NAME.fullmatch(name) or cost > budget:
            left_out += 1
            continue
        budget -= cost
        shown.append((name, text))
    return shown, left_out


def _clipped(text: str) -> str:
    """Text at most `SHOWN_VALUE` characters long, marked where it was cut."""
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"


def _never_resent(name: str) -> bool:
    """A field never written into a page, not even hidden to be sent again: a password (the
    organisers' sign-in, past its limit, is typed again)."""
    return "password" in name.lower()


def _is_secret(name: str) -> bool:
    """A field whose value must not be shown on screen, judged by its name."""
    lowered = name.lower()
    return any(word in lowered for word in SECRET_FIELD_WORDS)
