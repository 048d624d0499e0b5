"""The table's saved rule sets as pages: list them, read one out, share it by a link, a QR code
or a file, rename and delete it, and open one another tablet shared (save it, or start a game).

Thin views over `rulesets` (the same service the JSON API and the command line call) and the
engine's `sharing`. A shared link carries the whole rule set in its code, so the tablet that
opens it needs nothing from the one that made it; opening one, or a file, writes nothing until
"Save as our table's rules". A refusal shows the form again, as every form page of the app
does (200, the problem beside its field, what was typed kept); only an address that cannot be
read (a damaged share code) is an error page. On a server with organisers
(`ORGANISER_PASSWORD`) renaming and deleting are theirs (`organiser_required`).
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..games import errors
from ..platform import limits, writeonce
from ..platform.formpages import attachment, form_page, shown_after_redirect
from ..platform.network import on_loopback, qr_data_uri
from ..platform.organisers import organiser_required
from ..rules import RuleSetError, sharing
from ..rules.ruleset import RuleSet
from . import choice
from . import service as rulesets
from .forms import ConfirmForm, NameForm, UploadForm

bp = Blueprint("rulesets", __name__, url_prefix="/rulesets")
shown_after_redirect(bp)
# Where a problem of the file as a whole (not of a setting in it) is named.
FILE_PROBLEM = "rules"


@bp.get("/")
def list_rulesets():
    """Every saved rule set, the one a game last started from (or last changed) first."""
    return render_template("rulesets/list.html", saved=rulesets.saved())


@bp.get("/<int:ruleset_id>")
def show(ruleset_id: int):
    """One saved rule set read out, with its share link, the link's QR code and its file."""
    row = rulesets.get(ruleset_id)
    link = share_url(row.rule_set)
    return render_template(
        "rulesets/show.html",
        row=row,
        rules=row.rule_set,
        link=link,
        qr=qr_data_uri(link),
        loopback=on_loopback(request.host_url),
    )


@bp.get("/<int:ruleset_id>.json")
def download(ruleset_id: int):
    """The rule set's file: the document `flask rules export` writes and the upload reads."""
    rules = rulesets.get(ruleset_id).rule_set
    return attachment(sharing.file_text(rules), "application/json", sharing.file_name(rules))


@bp.route("/<int:ruleset_id>/rename", methods=["GET", "POST"])
@organiser_required
@writeonce.write_once(scope=rulesets.WRITES)
def rename(ruleset_id: int):
    """A new name for a saved rule set; a name taken or a preset's is refused beside the field,
    with what was typed kept."""
    row = rulesets.get(ruleset_id)
    form = NameForm(name=row.name)
    if form.validate_on_submit():
        old = row.name
        try:
            row = rulesets.change(ruleset_id, name=form.name.data)
        except errors.ScorebookError as refused:
            form.refuse(refused.message)
        else:
            flash(
                _('"%(old)s" is now called "%(new)s".', old=old, new=row.name)
                if old != row.name
                else _("Name kept.")
            )
            return redirect(url_for("rulesets.show", ruleset_id=ruleset_id), 303)
    page = render_template("rulesets/rename.html", row=row, form=form)
    return form_page(page)


@bp.route("/<int:ruleset_id>/delete", methods=["GET", "POST"])
@organiser_required
@writeonce.write_once(scope=rulesets.WRITES)
def delete(ruleset_id: int):
    """Forget a saved rule set, after asking; the games played with it keep their copy."""
    row = rulesets.get(ruleset_id)
    form = ConfirmForm()
    if form.validate_on_submit():
        name = row.name
        rulesets.delete(ruleset_id)
        flash(
            _(
                '"%(name)s" deleted. The games played with it keep their own copy of its rules.',
                name=name,
            )
        )
        return redirect(url_for("rulesets.list_rulesets"), 303)
    return form_page(render_template("rulesets/delete.html", row=row, form=form))


@bp.route("/shared/<code>", methods=["GET", "POST"])
@writeonce.write_once(scope=rulesets.WRITES)
@limits.limited(limits.IMPORTS)
def shared(code: str):
    """A rule set another tablet shared, read out: save it here under a name, or start a game
    with it. A damaged code is a 400 page naming the problem."""
    rules = choice.opened(code).rules
    form = NameForm(name=rules.name)
    if form.validate_on_submit():
        try:
            row = rulesets.save(rules, form.name.data)
        except errors.ScorebookError as refused:
            form.refuse(refused.message)
        else:
            flash(_('Saved as your table\'s rules: "%(name)s".', name=row.name))
            return redirect(url_for("rulesets.show", ruleset_id=row.id), 303)
    page = render_template(
        "rulesets/shared.html",
        rules=rules,
        code=code,
        form=form,
        same=[row for row in rulesets.saved() if row.rule_set.plays_like(rules)],
    )
    return form_page(page)


@bp.route("/upload", methods=["GET", "POST"])
@writeonce.reads_only("a rule set file is only read, then opened like a shared link")
@limits.limited(limits.IMPORTS)
def upload():
    """Open a rule set file (the download, or one written by hand): every problem of a bad one
    named; a good one opens like a shared link, where it can be saved."""
    form = UploadForm()
    if form.validate_on_submit():
        try:
            rules = read_file(form.file.data)
        except RuleSetError as refused:
            form.problems = dict(refused.problems) or {FILE_PROBLEM: str(refused)}
        else:
            return redirect(url_for("rulesets.shared", code=sharing.code(rules)), 303)
    return form_page(render_template("rulesets/upload.html", form=form))


def read_file(upload) -> RuleSet:
    """The rule set a posted file holds; `RuleSetError` naming every problem of one that is
    missing, not text, not a document or not playable."""
    if upload is None or not getattr(upload, "filename", ""):
        raise _file_problem(_("choose a rule set file first (a .json file, like the download)"))
    try:
        text = upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _file_problem(
            _("%(file)s is not text: a rule set file is JSON", file=upload.filename)
        ) from None
    if not text.lstrip().startswith("{"):
        raise _file_problem(
            _(
                "%(file)s does not hold a rule set: its JSON document starts with {",
                file=upload.filename,
            )
        )
    return RuleSet.parse(text)


def _file_problem(message: str) -> RuleSetError:
    return RuleSetError(message, {FILE_PROBLEM: message})


def share_url(rules: RuleSet) -> str:
    """The link that opens these rules on another tablet, with the scheme and host this tablet
    used (as a trusted proxy saw them), like the game's edit link."""
    return url_for("rulesets.shared", code=sharing.code(rules), _external=True)
