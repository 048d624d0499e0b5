"""Game pages: start a game, list games, the game page left open on the table, and edit links."""

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
from flask_babel import get_locale

from ...platform import cache, limits, qr, writeonce
from ...platform.errorpages import NotHere
from ...platform.formpages import answer_script_posts, form_page, shown_after_redirect
from ...platform.network import on_loopback
from .. import buys, chart, errors, gamelist, keys, ledger, newgame, summary
from ..forms import EVERY_PRESET_SEATS
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
            return started(game, key, "Game started")
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
        page, _, archived = gamelist.paging_from(request.args)
    except errors.ScorebookError as error:
        abort(400, description=error.message)
    listing = gamelist.game_page(page, archived=archived)
    if page > listing.pages:
        last = url_for("games.list_games", page=listing.pages, archived=1 if archived else None)
        raise NotHere(
            f"there is no page {page}: the last page is {listing.pages}",
            heading=f"No page {page}",
            hint="The list may have grown shorter since the link was made.",
            ways=[(f"The last page ({listing.pages})", last)],
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
            summary=summary.game_summary(book),
            buys_left=buys.line(game),
            editor=editor,
            live_tag=live_tag(stamp),
            drafts_saved=drafts_saved_before() if one_off else [],
            join_path=url_for("games.join", game_id=game_id, key=key) if editor else None,
            loopback=on_loopback(request.host_url),
        )

    # A page is kept per language too: one tablet may read Finnish while another reads English.
    page_key = (game_id, editor, request.host_url, str(get_locale()))
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
        f"game {game_id} does not exist",
        heading=f"No game {game_id}",
        hint="It may have been deleted, or the link is from another score book: "
        "your games are all on the games page.",
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
        flash("This tablet can now record and correct this game.")
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
    response = make_response(qr.svg(join_url(game_id, g.key)))
    response.headers["Content-Type"] = "image/svg+xml"
    response.headers["Cache-Control"] = "no-store"
    return response


def join_url(game_id: int, key: str | None) -> str:
    """The edit link, with the scheme and host this tablet used (as a trusted proxy saw them)."""
    return url_for("games.join", game_id=game_id, key=key, _external=True)
