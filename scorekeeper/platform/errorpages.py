"""Every error is a page in the layout (light and dark, with a way back), or JSON under /api/.

Werkzeug's HTTP errors (404, 405, 413 and the rest, from a route that does not match or a view's
`abort`), an unexpected error (500), and a database without the tables this version needs (503,
with the command that sets it up) are all answered here. The API's answer is the same, as
`{"error": ...}` (see `jsonapi`), so a script reads the same status a person sees.
"""

from __future__ import annotations

import contextlib
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, render_template, request
from flask_babel import gettext as _
from jinja2 import TemplateNotFound
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.routing import RequestRedirect

from . import database, http, security
from .database import db

bp = Blueprint("errors", __name__)

# What sets up (or upgrades) the database by hand; `make run` does the same before it serves.
UPGRADE_COMMAND = "flask --app scorekeeper db upgrade"
# Headers of Werkzeug's own answer a page keeps (405's Allow, say), but not its content type.
DROPPED_HEADERS = frozenset({"content-type", "content-length"})


class NotHere(NotFound):
    """A 404 that knows what is missing: its own heading ("No game 999"), a sentence of why it
    may be so, and the ways on (label, address), shown first; the API still answers its JSON."""

    def __init__(self, description: str, heading: str, hint: str, ways: list[tuple[str, str]]):
        super().__init__(description)
        self.heading = heading
        self.hint = hint
        self.ways = ways


def init_app(app: Flask) -> None:
    """Answer every error of the app with a page, or JSON under /api/."""
    app.register_blueprint(bp)


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException, **shown: Any):
    """The error's page: its own template (errors/404.html) or the general one, with its status;
    `shown` is more for its template (what a refused post held, say)."""
    if http.is_api_request():
        return http.http_error(error)
    if error.response is not None:
        return error.response  # a view that aborted with an answer of its own
    if error.code == 500:
        with contextlib.suppress(Exception):
            db.session.rollback()
    headers = [
        (name, value) for name, value in error.get_headers() if name.lower() not in DROPPED_HEADERS
    ]
    name, description = http.error_words(error)
    context = {
        "error": error,
        # Werkzeug's name and description in the request's language (a view's own description
        # as it gave it).
        "error_name": name,
        "error_description": description,
        # A description a view gave ("game 7 does not exist"), not Werkzeug's general one.
        "told": error.description != type(error).description,
        "reopen": reopen_link() if request.method not in ("GET", "HEAD") else None,
        # A page not ready yet (503 with Retry-After) opens itself again at this address.
        "again": reopen_link() if getattr(error, "retry_after", None) else None,
        "limit": current_app.config["MAX_CONTENT_LENGTH"],
        **shown,
    }
    try:
        html = render_template(f"errors/{error.code}.html", **context)
    except TemplateNotFound:
        html = render_template("errors/error.html", **context)
    except Exception:
        if error.code != 500:
            raise
        # The layout itself is what failed: Werkzeug's plain page, never a second error.
        current_app.logger.exception("the error page could not be drawn")
        return error
    return html, error.code, headers


@bp.app_errorhandler(DBAPIError)
def database_error(error: DBAPIError):
    """A database without this version's tables is not set up, which no retry mends: 503 with
    the command that sets it up. Anything else the database refused is busy (or gone) or a fault."""
    if not database.schema_missing(error):
        if isinstance(error, OperationalError):
            return security.database_busy(error)
        raise error
    with contextlib.suppress(Exception):
        db.session.rollback()
    problem = None
    with contextlib.suppress(Exception):
        problem = database.revision_problem()
    problem = problem or _("the database lacks what this app needs (%(reason)s)", reason=error.orig)
    current_app.logger.warning("database not set up, answered 503: %s", problem)
    if http.is_api_request():
        return jsonify(
            error=_(
                "the score book is not set up: %(problem)s; run `%(command)s`",
                problem=problem,
                command=UPGRADE_COMMAND,
            )
        ), 503
    html = render_template(
        "errors/not_set_up.html", problem=problem, command=UPGRADE_COMMAND, reopen=reopen_link()
    )
    return html, 503


def reopen_link() -> str | None:
    """This address again, when it is a page to open (a GET to it would be answered), for the way
    back from a post that could not be taken; None when it is not."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    try:
        adapter.match(method="GET")
    except (RequestRedirect, NotFound, MethodNotAllowed):
        return None
    return request.script_root + request.full_path.rstrip("?")
