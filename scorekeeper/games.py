"""Game pages: start a game, list games, the game page left open on the table, and edit links."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from . import keys, pagecache, qr, scorebook
from .forms import NewGameForm
from .rules import PROFILES

# Names only this machine reaches: an edit link made with one is useless to another tablet.
LOOPBACK = {"localhost", "127.0.0.1", "::1"}
# Sent by static/drafts.js with a form it posts itself, so that it can keep the page when the
# post does not arrive; the answer to such a post says where to go instead of redirecting.
SCRIPT_POST_HEADER = "X-Posted-By-Script"
# The drafts (see static/drafts.js) of forms whose save succeeded, for the next page to drop.
DRAFTS_SAVED = "drafts_saved"
NEW_GAME_DRAFT = "new-game"


def form_page(page: str) -> Response:
    """A form page that is never kept by the browser: Back or Forward asks the server again, so
    a form always shows the choices of the round it is for, never another round's."""
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


def draft_saved(key: str) -> None:
    """Tell the page shown next that the form's draft is saved and can be dropped."""
    session[DRAFTS_SAVED] = [*session.get(DRAFTS_SAVED, [])[-7:], key]


def answer_script_posts(response: Response) -> Response:
    """To a form posted by the page's script, a redirect becomes a note of where to go: the
    script then opens that page, and the message waiting for it is still there to show."""
    if (
        request.method == "POST"
        and request.headers.get(SCRIPT_POST_HEADER)
        and response.status_code in (301, 302, 303)
    ):
        target = response.location
        del response.headers["Location"]
        response.status_code = 200
        response.set_data(json.dumps({"location": target}))
        response.mimetype = "application/json"
        response.headers["Cache-Control"] = "no-store"
    return response


bp = Blueprint("games", __name__, url_prefix="/games")
bp.after_request(answer_script_posts)


@bp.route("/new", methods=["GET", "POST"])
def new_game():
    """Seat the players clockwise, pick the rules and the first dealer; this tablet gets the key."""
    form = NewGameForm()
    if form.validate_on_submit():
        try:
            game, key = scorebook.create_game(
                form.player_names(), form.profile.data, form.dealer_seat()
            )
        except scorebook.ScorebookError as error:
            form.form_errors.append(error.message)
        else:
            dealer = game.players[game.first_dealer].name
            flash(f"Game started: {dealer} deals round 1.")
            draft_saved(NEW_GAME_DRAFT)
            response = redirect(url_for("games.show_game", game_id=game.id))
            return keys.set_cookie(response, request, game.id, key)
    return form_page(
        render_template("games/new.html", form=form, profiles=PROFILES, draft=NEW_GAME_DRAFT)
    )


@bp.get("/")
def list_games():
    """Ongoing games first, then finished ones; any can be resumed."""
    games = scorebook.list_games()
    books = [scorebook.book(game) for game in games]
    return render_template(
        "games/list.html",
        ongoing=[b for b in books if not b.game.finished],
        finished=[b for b in books if b.game.finished],
    )


@bp.get("/<int:game_id>")
def show_game(game_id: int):
    """The round to play, the ledger, the standings and the history; buttons only with the key."""
    pages = pagecache.pages()
    stamp = pages.stamp(game_id)
    if stamp is None:
        stamp = scorebook.game_stamp(game_id)
        if stamp is None:
            abort(404, description=f"game {game_id} does not exist")
        pages.remember(game_id, stamp)
    key = keys.from_cookie(request, game_id)
    editor = keys.matches(stamp[0], key)
    # The page depends on the game's state, on whether this tablet edits (its link holds the
    # key) and on the address it was opened by; a pending flash message makes it one-off.
    cache_key = (game_id, stamp, editor, request.host_url)
    one_off = "_flashes" in session
    page = None if one_off else pages.get(cache_key)
    if page is None:
        game = scorebook.get_game(game_id)
        page = render_template(
            "games/show.html",
            game=game,
            book=scorebook.book(game),
            editor=editor,
            drafts_saved=session.pop(DRAFTS_SAVED, []) if one_off else [],
            join_path=url_for("games.join", game_id=game_id, key=key) if editor else None,
            loopback=urlsplit(request.host_url).hostname in LOOPBACK,
        )
        if not one_off:
            pages.put(cache_key, page)
    response = make_response(page)
    if editor:
        response.headers["Cache-Control"] = "no-store"  # the page holds the edit link
    return response


@bp.get("/<int:game_id>/join")
def join(game_id: int):
    """Take the key from an edit link into a cookie, then show the game with no key in the URL."""
    game = scorebook.get_game(game_id)
    key = request.args.get("key", "")
    if scorebook.can_edit(game, key):
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
def edit_link_qr(game_id: int):
    """The edit link as a QR code, for another tablet's camera; only for a tablet with the key."""
    game = scorebook.get_game(game_id)
    key = keys.from_cookie(request, game_id)
    if not scorebook.can_edit(game, key):
        abort(403)
    response = make_response(qr.svg(join_url(game_id, key)))
    response.headers["Content-Type"] = "image/svg+xml"
    response.headers["Cache-Control"] = "no-store"
    return response


def join_url(game_id: int, key: str | None) -> str:
    """The edit link, with the scheme and host this tablet used (as a trusted proxy saw them)."""
    return url_for("games.join", game_id=game_id, key=key, _external=True)


@bp.app_template_filter("localtime")
def localtime(moment: datetime | None, pattern: str = "%a %d %b, %H:%M") -> str:
    """A stored UTC time in the clock of the machine serving the table."""
    if moment is None:
        return ""
    return moment.replace(tzinfo=UTC).astimezone().strftime(pattern)


@bp.app_template_filter("points")
def points(value: int) -> str:
    """A score with a real minus sign, as the ledger shows it."""
    return f"−{-value}" if value < 0 else str(value)
