"""What the score book's form pages share: pages the browser never keeps, drafts dropped once
saved, answers to forms the page's script posts, and a game just started on this tablet.

The games, rounds and game-action views all use these; none of them owns them.
"""

from __future__ import annotations

import json

from flask import Response, flash, make_response, redirect, request, session, url_for

from .. import keys

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


def drafts_saved_before() -> list[str]:
    """The drafts saved since the last page, for this page to drop (each told once)."""
    return session.pop(DRAFTS_SAVED, [])


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


def attachment(text: str, media_type: str, filename: str) -> Response:
    """The text as a UTF-8 file to save under `filename` (a plain ASCII name)."""
    response = make_response(text)
    response.headers["Content-Type"] = f"{media_type}; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def started(game, key: str, news: str, code: int = 302) -> Response:
    """A game just started on this tablet: who deals first, its page, and its key in a cookie
    (kept sealed by `write_once`, for the answer to a repeat of the form)."""
    flash(f"{news}: {game.players[game.first_dealer].name} deals round 1.")
    response = redirect(url_for("games.show_game", game_id=game.id), code)
    return keys.set_cookie(response, request, game.id, key)
