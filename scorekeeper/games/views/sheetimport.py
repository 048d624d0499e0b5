"""The paper sheet page: a family's old score sheets (a CSV file or pasted rows) shown as the
games they make, every problem named by row and column, then imported all or nothing."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, url_for

from ...platform import limits, writeonce
from ...platform.formpages import form_page
from ...rules.verdict import sentence
from .. import errors, keys, papersheets
from ..forms import ImportForm, SheetForm, chosen_rules
from ..sheetrows import template_text

bp = Blueprint("paper_sheets", __name__, url_prefix="/games/import-sheet")
# A sheet of thousands of mistakes is named in full by the command; the page shows this many.
SHOWN_PROBLEMS = 200


@bp.route("", methods=["GET", "POST"])
@writeonce.reads_only("a sheet is only read and previewed: importing it is its own post")
def preview():
    """The sheet and its rules; posted, what it would make and every problem, storing nothing."""
    form = SheetForm()
    sheet = text = None
    if form.validate_on_submit():
        upload = form.file.data
        raw = upload.read() if upload is not None and upload.filename else (form.text.data or "")
        sheet = papersheets.read_sheet(raw, chosen_rules(form.rules.data))
        if sheet.ready:
            text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    # Filled from the sheet as read (a file's text too), not from the preview's posted fields.
    importing = (
        None if text is None else ImportForm(formdata=None, text=text, rules=form.rules.data)
    )
    return _page(form, sheet, importing)


@bp.post("/import")
@writeonce.write_once(scope=keys.GAMES)
@limits.limited(limits.IMPORTS)
def import_sheet():
    """Store every game of the sheet previewed, or none, and open the first of them; a sheet
    already in the score book (imported before, or from another preview at the same moment)
    opens the game it made, storing nothing."""
    posted = ImportForm()
    rules = chosen_rules(posted.rules.data)
    form = SheetForm(formdata=None, text=posted.text.data, rules=posted.rules.data)
    if not posted.validate_on_submit() or rules is None:
        form.text.errors = ["The sheet could not be imported: preview it again."]
        return _page(form, None, None, 400)
    sheet = papersheets.read_sheet(posted.text.data or "", rules)
    try:
        games = papersheets.store(sheet)
    except papersheets.SheetAlreadyStored as stored:
        # Imported before, or by another tablet at the same moment: its games are opened.
        flash(f"{sentence(stored.message)}.")
        return redirect(url_for("games.show_game", game_id=stored.game_ids[0]), 303)
    except errors.ScorebookError:
        return _page(form, sheet, None, 400)  # changed since the preview
    count = len(games)
    which = f"game {games[0].id}" if count == 1 else f"games {games[0].id} to {games[-1].id}"
    flash(f"Imported {count} game{'s' if count != 1 else ''} from a paper sheet ({which}).")
    return redirect(url_for("games.show_game", game_id=games[0].id), 303)


@bp.get("/template.csv")
def template():
    """The template to fill in: the format's notes and two example games."""
    response = make_response(template_text())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = 'attachment; filename="paper-sheet-template.csv"'
    return response


def _page(form, sheet, importing, status: int = 200):
    page = render_template(
        "games/import_sheet.html",
        form=form,
        sheet=sheet,
        importing=importing,
        shown_problems=SHOWN_PROBLEMS,
    )
    response = form_page(page)
    response.status_code = status
    return response
