"""The JSON API's conventions, shared by every feature's API blueprint, and the forms' CSRF
protection (`csrf`) that the API goes without: its writes are guarded by the edit key.

Every error is JSON: `{"error": "..."}` with 400 for input the engine refuses, 401/403 for a
write without the game's edit key or with a wrong one, 404 for an unknown game, 409 for a
conflict, 413 for a body over the limit, 415 for a body that is not JSON, 429 past a limit per
client address (`ratelimits`), 503 when the database stayed busy or is not set up. An error no
API route saw (an unknown /api/ address) is answered
the same way by `errorpages`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import CSRFProtect
from werkzeug.exceptions import HTTPException

from ..rules import RulesError
from ..rules.document import Reader
from ..rules.errors import InputError
from ..rules.words import Message
from .language import say, spoken

PREFIX = "/api"
# Werkzeug's own words for an error (its name, its description), as the catalogs carry them, for
# the statuses the score book answers; any other keeps Werkzeug's English.
WERKZEUG_WORDS = {
    400: (
        _l("Bad Request"),
        _l("The browser (or proxy) sent a request that this server could not understand."),
    ),
    401: (
        _l("Unauthorized"),
        _l(
            "The server could not verify that you are authorized to access the URL requested."
            " You either supplied the wrong credentials (e.g. a bad password), or your browser"
            " doesn't understand how to supply the credentials required."
        ),
    ),
    403: (
        _l("Forbidden"),
        _l(
            "You don't have the permission to access the requested resource. It is either"
            " read-protected or not readable by the server."
        ),
    ),
    404: (
        _l("Not Found"),
        _l(
            "The requested URL was not found on the server. If you entered the URL manually"
            " please check your spelling and try again."
        ),
    ),
    405: (_l("Method Not Allowed"), _l("The method is not allowed for the requested URL.")),
    409: (
        _l("Conflict"),
        _l(
            "A conflict happened while processing the request. The resource might have been"
            " modified while the request was being processed."
        ),
    ),
    410: (
        _l("Gone"),
        _l(
            "The requested URL is no longer available on this server and there is no forwarding"
            " address. If you followed a link from a foreign page, please contact the author of"
            " this page."
        ),
    ),
    413: (
        _l("Request Entity Too Large"),
        _l("The data value transmitted exceeds the capacity limit."),
    ),
    414: (
        _l("Request URI Too Long"),
        _l(
            "The length of the requested URL exceeds the capacity limit for this server. The"
            " request cannot be processed."
        ),
    ),
    415: (
        _l("Unsupported Media Type"),
        _l("The server does not support the media type transmitted in the request."),
    ),
    422: (
        _l("Unprocessable Entity"),
        _l("The request was well-formed but was unable to be followed due to semantic errors."),
    ),
    429: (
        _l("Too Many Requests"),
        _l("This user has exceeded an allotted request count. Try again later."),
    ),
    500: (
        _l("Internal Server Error"),
        _l(
            "The server encountered an internal error and was unable to complete your request."
            " Either the server is overloaded or there is an error in the application."
        ),
    ),
    501: (
        _l("Not Implemented"),
        _l("The server does not support the action requested by the browser."),
    ),
    503: (
        _l("Service Unavailable"),
        _l(
            "The server is temporarily unable to service your request due to maintenance"
            " downtime or capacity problems. Please try again later."
        ),
    ),
}
# Every form's token checked on every write, but for the API's blueprints and the views exempted.
csrf = CSRFProtect()


class ApiError(Exception):
    """An error answered as `{"error": message}` with the given status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def blueprint(name: str, import_name: str) -> Blueprint:
    """A feature's blueprint under /api/: no CSRF token (the edit key guards writes), JSON errors
    (its own here; Werkzeug's, like every error under /api/, from `errorpages`)."""
    bp = Blueprint(name, import_name, url_prefix=PREFIX)
    csrf.exempt(bp)
    bp.register_error_handler(ApiError, _api_error)
    bp.register_error_handler(RulesError, _rules_error)
    return bp


def is_api_request() -> bool:
    """True for the JSON API, whose answers (errors included) are JSON and never cached."""
    return request.path.startswith(PREFIX + "/")


def json_body() -> dict[str, Any]:
    """The request's JSON object, or an ApiError that says what is wrong with the body."""
    if not request.is_json:
        raise ApiError(_("send the body as JSON with Content-Type: application/json"), 415)
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise ApiError(_("the body nests too deeply to be a rules question or a score")) from None
    if data is None:
        raise ApiError(_("the body is not valid JSON"))
    if not isinstance(data, dict):
        raise ApiError(_('the body must be a JSON object, like {"cards": "7♠ 7♥ 7♦"}'))
    return data


def field(
    data: dict[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    *,
    required: bool = True,
    default: Any = None,
) -> Any:
    """One field, checked for presence and type by the typed-document reader (a bool is never
    taken for a number)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return Reader(refuse=_refused).field(data, name, kinds, required, default)


def _refused(path: str, said: Message) -> InputError:
    return InputError(said)


def _api_error(error: ApiError):
    return jsonify(error=error.message), error.status


def _rules_error(error: RulesError):
    """Input the engine cannot judge: 400, its words in the language the request asks for
    (`Accept-Language`), with every problem named where there are several (a rule set that is
    not playable, `bought` with unknown players)."""
    text = say(error.said, sentence=False) if error.said is not None else str(error)
    problems = getattr(error, "problems", None)
    if problems:
        said = {str(place): spoken(problem) for place, problem in problems.items()}
        return jsonify(error=text, problems=said), 400
    return jsonify(error=text), 400


def error_words(error: HTTPException) -> tuple[str, str]:
    """The error's name and description in the request's language: Werkzeug's own words through
    the catalog (`WERKZEUG_WORDS`), a description a view gave as it gave it."""
    own = WERKZEUG_WORDS.get(error.code or 0)
    if own is None:
        return error.name, error.description
    told = error.description != type(error).description
    return str(own[0]), error.description if told else str(own[1])


# The headers of Werkzeug's error an answer in JSON keeps: 405's Allow, 503's Retry-After.
KEPT_HEADERS = frozenset({"allow", "retry-after"})


def http_error(error: HTTPException):
    """Werkzeug's error as JSON, with its status and headers (`KEPT_HEADERS`)."""
    headers = [(name, value) for name, value in error.get_headers() if name.lower() in KEPT_HEADERS]
    name, description = error_words(error)
    return jsonify(error=description or name), error.code, headers
