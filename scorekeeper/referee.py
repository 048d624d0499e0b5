"""The rules-check page and the rulebook reference: thin views over `questions`."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from . import questions, scorebook
from .forms import RulesCheckForm, sentence
from .rules import CONTRACTS, PROFILES, RulesError
from .rules.rulebook import COMMON_QUESTIONS, RULES

bp = Blueprint("referee", __name__, url_prefix="/rules")

CARD_FIELDS = {
    "meld": ("cards",),
    "opening": ("meld1", "meld2", "meld3"),
    "layoff": ("meld", "layoff_cards"),
    "swap": ("meld", "card"),
    "solve": ("hand",),
    "buy": (),
}

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
    game = _game()
    form = RulesCheckForm(names=game.names if game else None)
    if request.method == "GET":
        form.profile.data = game.profile if game else request.args.get("profile", form.profile.data)
        if game:
            form.players.data = len(game.names)
    verdict = None
    error = None
    if form.validate_on_submit():
        try:
            verdict = questions.QUESTIONS[question](form.to_data(question))
        except RulesError as problem:
            error = sentence(str(problem))
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
        game=game.id if game else None,
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


def _game():
    """The game the page was opened from (`?game=ID`): its seat names and rules fill the form."""
    game_id = request.args.get("game", type=int)
    return None if game_id is None else scorebook.get_game(game_id)
