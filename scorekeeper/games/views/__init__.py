"""The score book's pages: games, rounds, the actions on a game and the paper sheets, and what
they share.

Beyond what every app page shares (`scorekeeper.platform.formpages`), the score book's pages
drop a form's draft once it is saved (`draft_saved`), and a game just started on this tablet is
answered the same way wherever it starts (`started`).
"""

from __future__ import annotations

from flask import Response, flash, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from .. import keys

# What static/drafts.js says of a draft offered back and of a save that has not arrived
# (`{at}`: the time the draft was kept).
DRAFT_WORDS = {
    "restored": _l("Restored your entries, kept on this tablet: check them, then save."),
    "restored_at": _l(
        "Restored your entries from {at}, kept on this tablet: check them, then save."
    ),
    "keep": _l("Keep them"),
    "discard": _l("Discard them"),
    "try_again": _l("Try again"),
    "busy_what": _l("The score book is busy: nothing is saved yet."),
    "busy_doing": _l(
        "Trying again in a few seconds, by itself; your entries are kept on this tablet."
    ),
    "busy_help": _l("Nothing to do but wait, or tap Try again."),
    "unconfirmed_offline": _l(
        "The tablet went offline before the score book answered: the save is not confirmed."
    ),
    "unconfirmed_unreached": _l(
        "The score book's answer did not arrive (the laptop may be asleep, the app stopped "
        "there, or this tablet off the Wi-Fi): the save is not confirmed."
    ),
    "unsent_offline": _l("The tablet is offline: nothing is saved yet."),
    "unsent_unreached": _l(
        "The score book could not be reached (the laptop may be asleep, the app stopped there, "
        "or this tablet off the Wi-Fi): nothing is saved yet."
    ),
    "meaning": _l(
        "Not confirmed means the score book may have saved it already; sending it again never "
        "saves it twice."
    ),
    "doing": _l("Trying again every few seconds, by itself; your entries are kept on this tablet."),
    "help": _l(
        "Wake the laptop, check the app is still running there (make run) and this tablet is on "
        "the table's Wi-Fi, then tap Try again."
    ),
}
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
    flash(
        _(
            "%(news)s: %(dealer)s deals round 1.",
            news=news,
            dealer=game.players[game.first_dealer].name,
        )
    )
    response = redirect(url_for("games.show_game", game_id=game.id), code)
    return keys.set_cookie(response, request, game.id, key)
