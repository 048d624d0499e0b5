"""The referee's JSON API: `POST /api/rules/<question>`, one route per question."""

from __future__ import annotations

from flask import jsonify

from ..jsonapi import ApiError, blueprint, json_body
from ..scorebook import writeonce
from . import questions

bp = blueprint("rules_api", __name__)


@bp.post("/rules/<question>")
@writeonce.reads_only("a question carries its cards in a JSON body; its verdict is only read")
def ask(question: str):
    """Answer one rules question with the engine's verdict."""
    asked = questions.QUESTIONS.get(question)
    if asked is None:
        raise ApiError(
            f"unknown question '{question}': ask one of {', '.join(questions.QUESTIONS)}", 404
        )
    return jsonify(asked.answer(json_body()))


@bp.get("/rules/profiles")
def profiles():
    """The profiles a game or a question may name, with what each one sets."""
    return jsonify(questions.profiles_summary())
