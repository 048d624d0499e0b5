"""Trust at the edges: security headers, body limits, and a kind answer to an expired form."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, Response, abort, current_app, jsonify, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFError
from werkzeug.middleware.proxy_fix import ProxyFix

API_PREFIX = "/api/"
SECRET_FIELD_WORDS = ("key", "password", "secret", "token")

F = TypeVar("F", bound=Callable)

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


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is `Secure` exactly when the request came over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)


def trusted_proxies(app: Flask) -> int:
    """How many reverse proxies in front of the app to believe (`TRUSTED_PROXIES`, default 0)."""
    value = app.config.get("TRUSTED_PROXIES") or 0
    try:
        count = int(value)
    except (TypeError, ValueError):
        count = -1
    if count < 0:
        raise ValueError(f"TRUSTED_PROXIES must be a whole number of proxies, not {value!r}")
    return count


def init_app(app: Flask) -> None:
    """Attach the header, body-limit and CSRF-error hooks to the app; trust configured proxies."""
    count = trusted_proxies(app)
    if count:
        # The client's address, scheme and host as the proxies saw them; without the setting
        # forwarded headers are ignored, since any client could send them.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=count, x_prefix=count
        )
    app.session_interface = SessionInterface()
    # First of all hooks: CSRFProtect's own before_request reads the form, and so the body.
    app.before_request_funcs.setdefault(None, []).insert(0, limit_body)
    app.after_request(add_security_headers)
    app.register_error_handler(CSRFError, csrf_error)


def is_api_request() -> bool:
    """True for the JSON API, whose answers (errors included) are JSON and never cached."""
    return request.path.startswith(API_PREFIX)


def body_limit(nbytes: int | None) -> Callable[[F], F]:
    """Give one view its own body limit, e.g. a game import; put it under the route decorator."""

    def decorate(view: F) -> F:
        view.body_limit = nbytes  # type: ignore[attr-defined]
        return view

    return decorate


def limit_body() -> None:
    """Answer 413 for a body over the limit, whether its length is declared or chunked."""
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    if hasattr(view, "body_limit"):
        request.max_content_length = view.body_limit  # Werkzeug's own reads obey it too
    limit = request.max_content_length
    if limit is None:
        return
    length = request.content_length
    if length is not None:
        if length > limit:
            abort(413)
        return
    if "wsgi.input_terminated" not in request.environ:
        return  # no length and no terminated stream: Werkzeug reads the body as empty
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


def add_security_headers(response: Response) -> Response:
    """Put the security headers on every response; a view that set one itself keeps its own."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if is_api_request():
        # Scores and verdicts change from one request to the next: never serve them from a cache.
        response.headers["Cache-Control"] = "no-store"
    return response


def csrf_error(error: CSRFError):
    """Give back what the player typed with a fresh token, instead of losing it to a 400 page."""
    if is_api_request():
        return jsonify(error=error.description), 400
    token_field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    fields = [
        (name, value) for name, value in request.form.items(multi=True) if name != token_field
    ]
    action = request.path
    if request.query_string:
        action += "?" + request.query_string.decode("latin-1")
    # Everything goes back in hidden inputs; a secret (an edit key) is not also shown on screen.
    shown = [(name, "••••" if _is_secret(name) else value) for name, value in fields if value]
    html = render_template(
        "csrf_error.html",
        token_field=token_field,
        fields=fields,
        shown=shown,
        action=action,
        reason=error.description,
        dropped_files=[f.filename for f in request.files.values() if f.filename],
    )
    return html, 400


def _is_secret(name: str) -> bool:
    """A field whose value must not be shown on screen, judged by its name."""
    lowered = name.lower()
    return any(word in lowered for word in SECRET_FIELD_WORDS)
