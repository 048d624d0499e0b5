"""The rules-check page and the rulebook reference: thin views over `questions`."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from . import questions
from .forms_referee import CARD_FIELDS, RulesCheckForm
from .rules import CONTRACTS, PROFILES, RulesError
from .rules.rulebook import COMMON_QUESTIONS, RULES

bp = Blueprint("referee", __name__, url_prefix="/rules")

TABS = {
    "meld": "Is this a meld?",
    "opening": "Is this opening legal?",
    "layoff": "Can I lay this off?",
    "swap": "Can I swap this joker?",
    "solve": "Can this hand go down?",
    "buy": "Who gets the discard?",
}


@bp.route("", methods=["GET", "POST"])
def check():
    """Ask one question; answer with the same verdict the JSON API gives."""
    question = request.args.get("q", "meld")
    if question not in TABS:
        abort(404)
    names = _seat_names()
    form = RulesCheckForm(names=names)
    if request.method == "GET":
        form.profile.data = request.args.get("profile", form.profile.data)
        if names:
            form.players.data = len(names)
    verdict = None
    error = None
    if form.validate_on_submit():
        try:
            verdict = questions.QUESTIONS[question](form.to_data(question))
        except RulesError as problem:
            error = str(problem)
    return render_template(
        "referee/check.html",
        form=form,
        question=question,
        tabs=TABS,
        verdict=verdict,
        error=error,
        rule=RULES.get(verdict.get("rule")) if verdict else None,
        card_fields=CARD_FIELDS[question],
        contracts=CONTRACTS,
        names=form.names,
        game=request.args.get("game"),
    )


@bp.get("/reference")
def reference():
    """R1-R11 in the app's own words, with the questions players ask most."""
    return render_template(
        "referee/reference.html",
        rules=RULES.values(),
        common=COMMON_QUESTIONS,
        profiles=PROFILES.values(),
        contracts=CONTRACTS,
    )


def _seat_names() -> list[str] | None:
    """Seat names when the page was opened from a game (`?game=ID`), else None."""
    game_id = request.args.get("game", type=int)
    if game_id is None:
        return None
    try:
        from .scorebook import seat_names
    except ImportError:
        return None
    return seat_names(game_id)
