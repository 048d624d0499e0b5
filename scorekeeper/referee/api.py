"""The referee's JSON API: `POST /api/rules/<question>`, one route per question, and the presets."""

from __future__ import annotations

from flask import jsonify
from flask_babel import gettext as _

from ..platform import writeonce
from ..platform.http import ApiError, blueprint, json_body
from . import questions

bp = blueprint("rules_api", __name__)


@bp.post("/rules/<question>")
@writeonce.reads_only("a question carries its cards in a JSON body; its verdict is only read")
def ask(question: str):
    """Answer one rules question with the engine's verdict."""
    asked = questions.QUESTIONS.get(question)
    if asked is None:
        raise ApiError(
            _(
                "unknown question '%(question)s': ask one of %(known)s",
                question=question,
                known=", ".join(questions.QUESTIONS),
            ),
            404,
        )
    return jsonify(asked.answer(json_body()))


@bp.get("/rules/presets")
def presets():
    """The presets a game or a question may name, each as its whole rule set document."""
    return jsonify(questions.presets_summary())


# The older address of the same list.
bp.add_url_rule("/rules/profiles", "profiles", presets)
