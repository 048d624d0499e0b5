"""The score book: games, rounds and their ledger, export and import (players across games:
`scorekeeper.season`; the rule sets a table keeps: `scorekeeper.rulesets`).

`service` writes, `ledger` reads, both with the engine in `scorekeeper.rules`; `views` (pages)
and `api` (JSON) only translate requests into calls to them, and their errors into answers.
"""

from __future__ import annotations

from flask import Flask, current_app, make_response, render_template
from werkzeug.exceptions import NotFound

from ..platform import cache, writeonce
from . import api, keys, ledger, sheettransfer
from .errors import Missing, NoSuchGame, NotEditor
from .views import DRAFT_WORDS, actions, games, rounds


def init_app(app: Flask) -> None:
    """Register the score book's pages, its JSON API, its games' stamps, its page cache, what
    every write-once route shares (its edit keys and refusals) and the paper sheets' records in
    the export."""
    writeonce.init_app(app, keys.write_hooks())
    blueprints = (api.bp, games.bp, rounds.bp, actions.bp, games.sheets_bp)
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    app.register_error_handler(Missing, _not_found)
    app.register_error_handler(NotEditor, _spectator)
    cache.stamp_rows(app, ledger.stamped)
    cache.keep(app, games.PAGES, games.PAGES_KEPT)
    # The words of the drafts' notices, on the tag of every page's static/drafts.js.
    app.jinja_env.globals["draft_words"] = DRAFT_WORDS
    sheettransfer.register(app)  # in the score book's export and import


def _not_found(error: Missing):
    """A page for a game or round that does not exist: the app's 404 page, saying which; to a
    second tap on "Delete the game", what the first one got."""
    missing = games.no_such_game(error.game_id) if isinstance(error, NoSuchGame) else None
    return writeonce.answer_of_gone(error) or current_app.handle_http_exception(
        missing or NotFound(error.message)
    )


def _spectator(error: NotEditor):
    """A page for editors only, asked for by a tablet without the key: what it may do instead."""
    return make_response(render_template("games/spectator.html", game=error.game), 403)
