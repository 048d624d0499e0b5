"""The score book's refusals as its JSON API answers them (`{"error": ...}` with the status
the refusal carries), on its own API and on every API built on the score book (phones,
players)."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from ..platform import writeonce
from . import errors, ledger


def answer_errors(blueprint) -> None:
    """Answer the score book's refusals in JSON on `blueprint`: this API's, and every API built
    on the score book (the phones')."""
    blueprint.register_error_handler(writeonce.BadKey, _bad_key)
    blueprint.register_error_handler(errors.ScorebookError, _scorebook_error)


def _bad_key(error: writeonce.BadKey):
    return jsonify(error=str(error)), 400


def _scorebook_error(error: errors.ScorebookError):
    # A repeat of the DELETE that removed its game: the first answer, not this 404.
    if (first := writeonce.answer_of_gone(error)) is not None:
        return first
    body: dict[str, Any] = {"error": error.message}
    if isinstance(error, errors.RulesRefused):
        body["problems"] = error.rule_problems
    if isinstance(error, errors.RoundRefused):
        body["problems"] = error.places
    current = getattr(error, "current", None)
    if current is not None:
        body["round"] = ledger.round_json(current.game, current)
    return jsonify(body), error.status
