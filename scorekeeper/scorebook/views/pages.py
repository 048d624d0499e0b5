"""What the score book's form pages share beyond every app page's (`scorekeeper.formpages`):
drafts dropped once saved, and a game just started on this tablet.
"""

from __future__ import annotations

from flask import Response, flash, redirect, request, session, url_for

from .. import keys

# The drafts (see static/drafts.js) of forms whose save succeeded, for the next page to drop.
DRAFTS_SAVED = "drafts_saved"
NEW_GAME_DRAFT = "new-game"


def draft_saved(key: str) -> None:
    """Tell the page shown next that the form's draft is saved and can be dropped."""
    session[DRAFTS_SAVED] = [*session.get(DRAFTS_SAVED, [])[-7:], key]


def drafts_saved_before() -> list[str]:
    """The drafts saved since the last page, for this page to drop (each told once)."""
    return session.pop(DRAFTS_SAVED, [])


def started(game, key: str, news: str, code: int = 302) -> Response:
    """A game just started on this tablet: who deals first, its page, and its key in a cookie
    (kept sealed by `write_once`, for the answer to a repeat of the form)."""
    flash(f"{news}: {game.players[game.first_dealer].name} deals round 1.")
    response = redirect(url_for("games.show_game", game_id=game.id), code)
    return keys.set_cookie(response, request, game.id, key)
