"""The rule set editor's pages: a new rule set, a saved one changed, and the live check the
editor's script asks on every change (it reads only)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from ...rules import RuleSet
from .. import writeonce
from ..ruleforms import RuleSetForm

bp = Blueprint("ruleeditor", __name__, url_prefix="/rulesets")


def answer(form: RuleSetForm) -> dict:
    """What the editor's script shows: each problem beside its control, each note beside its
    setting, and the summary line (or how many problems remain)."""
    rules = form.rule_set()
    if rules is None:
        count = len(form.problems)
        summary = f"{count} problem{'' if count == 1 else 's'} to fix"
    else:
        summary = rules.summary()
    return {
        "problems": form.problems,
        "listed": [{"place": p, "label": label, "text": t} for p, label, t in form.listed()],
        "notes": form.notes,
        "summary": summary,
    }


@bp.post("/check")
@writeonce.reads_only("the editor's fields are judged and answered; nothing is kept")
def check():
    """The editor's fields judged by the engine, as JSON; nothing is written."""
    return jsonify(answer(RuleSetForm(request.form)))


def summary_of(rules: RuleSet | None) -> str:
    return rules.summary() if rules is not None else ""
