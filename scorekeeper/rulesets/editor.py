"""The rule set editor's pages: a new rule set saved as the table's, a saved one changed, and
the live check the editor's script asks on every change (it reads only). Each is a thin
translation: `RuleSetForm` reads the fields, the engine judges them, `rulesets` keeps them."""

from __future__ import annotations

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ..games import errors
from ..games.forms import WriteOnceForm
from ..games.newgame import sentence
from ..platform import language, organisers, writeonce
from ..platform.formpages import form_page, shown_after_redirect
from ..rules import PRESETS, RuleSet
from . import choice
from . import service as rulesets
from .forms import RuleSetForm

bp = Blueprint("ruleeditor", __name__, url_prefix="/rulesets")
shown_after_redirect(bp)


def answer(form: RuleSetForm) -> dict:
    """What the editor's script shows: each problem beside its control, each note beside its
    setting, and the summary line (or how many problems remain)."""
    rules = form.rule_set()
    count = form.count()
    if rules is None:
        summary = ngettext("%(num)s problem to fix", "%(num)s problems to fix", count)
    else:
        summary = rules.summary(language.speech())
    return {
        "problems": form.problems,
        "listed": [
            {"place": p, "label": label, "text": t, "said": _listed(label, t)}
            for p, label, t in form.listed()
        ],
        "count": count,
        "count_said": ngettext("%(num)s problem", "%(num)s problems", count),
        "notes": form.notes,
        "summary": summary,
    }


def _listed(label: str, text: str) -> str:
    """A problem as the list above the editor says it: `Deal 3: …`, or its text alone."""
    return _("%(label)s: %(text)s", label=label, text=text) if label else text


@bp.post("/check")
@writeonce.reads_only("the editor's fields are judged and answered; nothing is kept")
def check():
    """The editor's fields judged by the engine, as JSON; nothing is written. From the new game
    page (its picker posted as `profile`) the summary names the rules as the game would. A
    variant tapped (`variant`, R12.1, R12.2) is made to the fields, and the rules it gives come
    back whole (`document`) for the script to fill the editor with."""
    form, pressed = RuleSetForm.edited(request.form)
    found = answer(form)
    if pressed and "variant" in request.form:
        rules = form.rule_set()
        found["document"] = rules.every_setting() if rules is not None else form.document()
    picked = request.form.get("profile")
    rules = form.rule_set() if picked and not form.problems else None
    if rules is not None:
        shared = choice.shared_or_none(request.form.get("shared_code", ""))
        chosen = choice.offered(picked, shared)
        if chosen is not None:
            played = choice.game_rules(rules, chosen)
            found["summary"] = played.summary(language.speech())
            found["saved_as"] = choice.saved_as(played, chosen)
    return jsonify(found)


def starting_rules() -> tuple[RuleSet, str]:
    """The rules a new rule set starts from (`?from=` a preset, `?ruleset=` a saved one,
    `?rules=` a shared code; else the default) and the name it is offered under: none for a
    preset's or a saved set's copy, which need a name of their own."""
    shared = choice.link_code(request.args.get("rules", ""))
    if shared is not None:
        return shared.rules, shared.rules.name
    saved = request.args.get("ruleset", "")
    if saved.isascii() and saved.isdigit() and len(saved) < 10:
        chosen = choice.pick(f"{choice.SAVED}{saved}")
        if chosen is not None:
            return chosen.rules, ""
    return PRESETS.get(request.args.get("from", ""), PRESETS["liverpool"]), ""


def editor_page(page: WriteOnceForm, editor: RuleSetForm, *, title: str, saved=None):
    """The editor's page; its notes (and problems, for a post) from the engine."""
    rules = editor.rule_set() if request.method == "POST" and not editor.problems else None
    return form_page(
        render_template(
            "rulesets/edit.html",
            page=page,
            editor=editor,
            title=title,
            saved=saved,
            summary=rules.summary(language.speech()) if rules is not None else "",
        )
    )


def posted_rules(page: WriteOnceForm) -> tuple[RuleSetForm, RuleSet | None]:
    """The editor as posted; its rules when the post asks to save and they are playable."""
    editor, pressed = RuleSetForm.edited(request.form)
    if pressed or not page.validate():
        return editor, None
    return editor, editor.rule_set()


def refused(editor: RuleSetForm, error: errors.ScorebookError) -> None:
    """A name the table cannot save under goes beside the name; anything else at the top."""
    if isinstance(error, errors.Conflict | errors.NameRefused):
        editor.problems["name"] = sentence(error.message)
        editor.name.errors = [*editor.name.errors, sentence(error.message)]
    else:
        editor.problems[""] = sentence(error.message)


@bp.route("/new", methods=["GET", "POST"])
@writeonce.write_once(scope=rulesets.WRITES)
def new_rule_set():
    """Make the table's own rules from a preset (or a saved or shared set) and save them."""
    page = WriteOnceForm()
    if request.method != "POST":
        rules, name = starting_rules()
        editor = RuleSetForm.of(rules)
        editor.rule_set()  # the notes beside the settings
        editor.name.data = name  # a copy of a preset or a saved set needs its own name
        return editor_page(page, editor, title=_("New rules for our table"))
    editor, rules = posted_rules(page)
    if rules is not None:
        try:
            row = rulesets.save(rules)
        except errors.ScorebookError as error:
            refused(editor, error)
        else:
            flash(_("Saved “%(name)s” as your table's rules.", name=row.name))
            return redirect(url_for("rulesets.show", ruleset_id=row.id), 303)
    return editor_page(page, editor, title=_("New rules for our table"))


@bp.route("/<int:ruleset_id>/edit", methods=["GET", "POST"])
@writeonce.write_once(scope=rulesets.WRITES)
def edit_rule_set(ruleset_id: int):
    """Change a saved rule set; the games already played keep the copy they started with."""
    row = rulesets.get(ruleset_id)
    page = WriteOnceForm()
    title = _("Change “%(name)s”", name=row.name)
    if request.method != "POST":
        editor = RuleSetForm.of(row.rule_set)
        editor.rule_set()  # the notes beside the settings
        return editor_page(page, editor, title=title, saved=row)
    editor, rules = posted_rules(page)
    if rules is not None:
        try:
            if rules.name != row.name and not organisers.may_organise():
                raise errors.NameRefused(_("only an organiser may rename a saved rule set"))
            row = rulesets.change(ruleset_id, rules=rules, name=rules.name)
        except errors.ScorebookError as error:
            refused(editor, error)
        else:
            flash(_("Changed “%(name)s”: games from now on play these rules.", name=row.name))
            return redirect(url_for("rulesets.show", ruleset_id=row.id), 303)
    return editor_page(page, editor, title=title, saved=row)
