"""The JSON API's blueprint and its request/response conventions.

Every error is JSON: `{"error": "..."}` with 400 for input the engine refuses, 401/403 for a
write without the game's edit key or with a wrong one, 404 for an unknown game, 409 for a
conflict, 413 for a body over the limit, 415 for a body that is not JSON, 503 when the database
stayed busy.
Feature modules add their routes to `bp`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import HTTPException

from .extensions import csrf
from .inputs import field  # noqa: F401  (re-exported for the route modules)
from .rules import RulesError

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)


class ApiError(Exception):
    """An error answered as `{"error": message}` with the given status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def json_body() -> dict[str, Any]:
    """The request's JSON object, or an ApiError that says what is wrong with the body."""
    if not request.is_json:
        raise ApiError("send the body as JSON with Content-Type: application/json", 415)
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise ApiError("the body nests too deeply to be a rules question or a score") from None
    if data is None:
        raise ApiError("the body is not valid JSON")
    if not isinstance(data, dict):
        raise ApiError('the body must be a JSON object, like {"cards": "7♠ 7♥ 7♦"}')
    return data


@bp.errorhandler(ApiError)
def _api_error(error: ApiError):
    return jsonify(error=error.message), error.status


@bp.errorhandler(RulesError)
def _rules_error(error: RulesError):
    return jsonify(error=str(error)), 400


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException):
    return jsonify(error=error.description or error.name), error.code


def init_app(app) -> None:
    """Register the blueprint, and answer errors under /api/ in JSON even when no route matched."""
    from . import (
        api_games,  # noqa: F401  (adds the score book's routes to bp)
        api_players,  # noqa: F401  (adds the players' routes to bp)
        api_rules,  # noqa: F401  (adds its routes to bp)
    )

    app.register_blueprint(bp)

    @app.errorhandler(HTTPException)
    def _json_for_api(error: HTTPException):
        if request.path.startswith(bp.url_prefix + "/"):
            return jsonify(error=error.description or error.name), error.code
        return error
