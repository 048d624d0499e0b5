"""Game pages: start a game, list games, the game page left open on the table, and edit links;
and the paper sheet page, where a family's old score sheets (a CSV file or pasted rows) are shown
as the games they make, every problem named by row and column, then imported all or nothing."""

from __future__ import annotations

import hashlib

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from ...platform import cache, limits, writeonce
from ...platform.errorpages import NotHere
from ...platform.formpages import answer_script_posts, form_page, shown_after_redirect
from ...platform.network import on_loopback, qr_svg
from ...platform.organisers import may_organise
from ...rules.verdict import sentence
from .. import buys, chart, errors, gamelist, keys, ledger, newgame, papersheets
from ..forms import EVERY_PRESET_SEATS, ImportForm, SheetForm, chosen_rules
from . import NEW_GAME_DRAFT, draft_saved, drafts_saved_before, started

bp = Blueprint("games", __name__, url_prefix="/games")
# The rendered game pages kept, each under its game's stamp: the page left open on the table is
# asked for again and again, and changes only when the game does.
PAGES = "game pages"
PAGES_KEPT = 256
# A game's stamp read less than this long ago is the stamp: the page left open asks every few
# seconds, and a change made by another process (a second server, a command) shows within it.
STAMP_SECONDS = 1.0
bp.after_request(answer_script_posts)
shown_after_redirect(bp)


@bp.route("/new", methods=["GET", "POST"])
@writeonce.write_once(scope=keys.GAMES)
@limits.limited(limits.NEW_GAMES)
def new_game():
    """Seat the players clockwise, pick the rules (and change any of them) and the first dealer;
    this tablet gets the key. The rules' editor is `newgame`'s."""
    setup = newgame.NewGame.from_request()
    if setup.ready():
        try:
            game, key = newgame.start(setup)
        except errors.ScorebookError as error:
            setup.refused(error)
        else:
            draft_saved(NEW_GAME_DRAFT)
            return started(game, key, _("Game started"))
    return form_page(
        render_template(
            "games/new.html",
            setup=setup,
            form=setup.form,
            editor=setup.editor,
            draft=NEW_GAME_DRAFT,
            every_preset_seats=EVERY_PRESET_SEATS,
            recent_names=newgame.recent_names(),
        )
    )


@bp.get("/")
def list_games():
    """A page of 25 games: ongoing ones first, then finished ones, each newest first."""
    try:
        page, _per_page, archived = gamelist.paging_from(request.args)
    except errors.ScorebookError as error:
        abort(400, description=error.message)
    listing = gamelist.game_page(page, archived=archived)
    if page > listing.pages:
        last = url_for("games.list_games", page=listing.pages, archived=1 if archived else None)
        raise NotHere(
            _(
                "there is no page %(page)s: the last page is %(last)s",
                page=page,
                last=listing.pages,
            ),
            heading=_("No page %(page)s", page=page),
            hint=_("The list may have grown shorter since the link was made."),
            ways=[(_("The last page (%(last)s)", last=listing.pages), last)],
        )
    return render_template("games/list.html", listing=listing)


@bp.get("/<int:game_id>")
def show_game(game_id: int):
    """The round to play, the ledger, the standings and the history; buttons only with the key."""
    stamp = current_stamp(game_id)
    key = keys.from_cookie(request, game_id)
    editor = keys.matches(stamp[0], key)
    # The page depends on the game's state, on whether this tablet edits (its link holds the
    # key) and on the address it was opened by; a pending flash message makes it one-off.
    one_off = "_flashes" in session

    def render(_previous) -> str:
        game = ledger.get_game(game_id)
        book = ledger.book(game)
        return render_template(
            "games/show.html",
            game=game,
            book=book,
            chart=chart.totals_chart(book),
            summary=ledger.game_summary(book),
            buys_left=buys.line(game),
            editor=editor,
            live_tag=live_tag(stamp),
            drafts_saved=drafts_saved_before() if one_off else [],
            join_path=url_for("games.join", game_id=game_id, key=key) if editor else None,
            loopback=on_loopback(request.host_url),
        )

    # A page is kept per language too: one tablet may read Finnish while another reads English.
    # And on whether an organiser reads it (the archive and delete buttons).
    page_key = (game_id, editor, may_organise(), request.host_url, str(get_locale()))
    page = render(None) if one_off else cache.kept(PAGES).get(page_key, stamp, render)
    response = make_response(page)
    if editor:
        response.headers["Cache-Control"] = "no-store"  # the page holds the edit link
    return response


@bp.get("/<int:game_id>/state")
def game_state(game_id: int):
    """A small answer the game page asks for every few seconds: a tag that changes when the page
    would, and 304 with no body while the tag the page holds is still current."""
    tag = live_tag(current_stamp(game_id))
    response = make_response({"tag": tag})
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def current_stamp(game_id: int) -> tuple:
    """The game's stamp (`ledger.game_stamp`), read `recently`; 404 for a game that never was."""
    name = ledger.stamp_name(game_id)
    stamp = cache.recently(name, lambda: ledger.game_stamp(game_id), STAMP_SECONDS)
    if stamp is None:
        raise no_such_game(game_id)
    return stamp


def no_such_game(game_id: int) -> NotHere:
    """The 404 of a game that is not in this score book, and where the games are."""
    return NotHere(
        _("game %(game)s does not exist", game=game_id),
        heading=_("No game %(game)s", game=game_id),
        hint=_(
            "It may have been deleted, or the link is from another score book: "
            "your games are all on the games page."
        ),
        ways=[],
    )


def live_tag(stamp: tuple) -> str:
    """The stamp as an opaque tag, without the key's hash it starts with."""
    return hashlib.sha256(repr(stamp[1:]).encode()).hexdigest()[:16]


@bp.get("/<int:game_id>/join")
@limits.limited(limits.BAD_EDIT_LINKS)
def join(game_id: int):
    """Take the key from an edit link into a cookie, then show the game with no key in the URL."""
    game = ledger.get_game(game_id)
    key = request.args.get("key", "")
    if keys.matches(game.key_hash, key):
        response = redirect(url_for("games.show_game", game_id=game_id), 303)
        keys.set_cookie(response, request, game_id, key)
        flash(_("This tablet can now record and correct this game."))
    else:
        response = make_response(render_template("games/bad_link.html", game=game), 403)
    # The address held the key: it must not travel on to any other page as a Referer.
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/<int:game_id>/edit-link.svg")
@keys.editor_required
def edit_link_qr(game_id: int):
    """The edit link as a QR code, for another tablet's camera; only for a tablet with the key."""
    response = make_response(qr_svg(join_url(game_id, g.key)))
    response.headers["Content-Type"] = "image/svg+xml"
    response.headers["Cache-Control"] = "no-store"
    return response


def join_url(game_id: int, key: str | None) -> str:
    """The edit link, with the scheme and host this tablet used (as a trusted proxy saw them)."""
    return url_for("games.join", game_id=game_id, key=key, _external=True)


# --- The paper sheet page --------------------------------------------------------------------

sheets_bp = Blueprint("paper_sheets", __name__, url_prefix="/games/import-sheet")
# A sheet of thousands of mistakes is named in full by the command; the page shows this many.
SHOWN_PROBLEMS = 200


@sheets_bp.route("", methods=["GET", "POST"])
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
    return _sheet_page(form, sheet, importing)


@sheets_bp.post("/import")
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
        form.text.errors = [_("The sheet could not be imported: preview it again.")]
        return _sheet_page(form, None, None, 400)
    sheet = papersheets.read_sheet(posted.text.data or "", rules)
    try:
        games = papersheets.store(sheet)
    except papersheets.SheetAlreadyStored as stored:
        # Imported before, or by another tablet at the same moment: its games are opened.
        flash(_("%(problem)s.", problem=sentence(stored.message)))
        return redirect(url_for("games.show_game", game_id=stored.game_ids[0]), 303)
    except errors.ScorebookError:
        return _sheet_page(form, sheet, None, 400)  # changed since the preview
    count = len(games)
    flash(
        ngettext(
            "Imported %(num)s game from a paper sheet (game %(first)s).",
            "Imported %(num)s games from a paper sheet (games %(first)s to %(last)s).",
            count,
            first=games[0].id,
            last=games[-1].id,
        )
    )
    return redirect(url_for("games.show_game", game_id=games[0].id), 303)


@sheets_bp.get("/template.csv")
def template():
    """The template to fill in: the format's notes and two example games."""
    response = make_response(papersheets.template_text())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = 'attachment; filename="paper-sheet-template.csv"'
    return response


def _sheet_page(form, sheet, importing, status: int = 200):
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
