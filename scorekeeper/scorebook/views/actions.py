"""Game pages beyond the evening: play again, archive, restore, delete, and the sheets to take.

Play again, archive, restore and delete need the game's edit key (in this tablet's cookie) and
a confirming POST; the ledger CSV and the export are open to anyone who can see the game.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    url_for,
)

from ... import rules
from .. import errors, gamelist, keys, ledger, rematch, sheets, transfer, writeonce
from ..forms import WriteOnceForm
from ..models import Game
from .games import started

bp = Blueprint("game_actions", __name__, url_prefix="/games/<int:game_id>")

# What each confirmed action says and does: (question, explanation, button, service, done).
ACTIONS = {
    "archive": (
        "Archive this game?",
        "It leaves the games lists; its link still opens it, and Archived games lists it "
        "so that it can be restored. Nothing is deleted.",
        "Archive the game",
        gamelist.archive,
        "Game archived: it no longer shows in the games lists.",
    ),
    "restore": (
        "Restore this game?",
        "It comes back into the games lists.",
        "Restore the game",
        gamelist.restore,
        "Game restored to the games lists.",
    ),
    "delete": (
        "Delete this game?",
        "No round is recorded in it yet. It is removed for good, with its edit link.",
        "Delete the game",
        gamelist.delete,
        "Game deleted.",
    ),
}


@bp.route("/archive", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once
def archive(game_id: int):
    """Take the game out of the games lists, after asking."""
    return _confirm(game_id, "archive")


@bp.route("/restore", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once
def restore(game_id: int):
    """Bring the game back into the games lists, after asking."""
    return _confirm(game_id, "restore")


@bp.route("/delete", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once
def delete(game_id: int):
    """Delete a game that has no round yet, after asking."""
    return _confirm(game_id, "delete")


def _confirm(game_id: int, action: str):
    """Ask first, then do it: archive, restore, or delete a game that has no round yet."""
    game = g.game
    form = WriteOnceForm()  # its one-time token: a second tap gets the first one's answer
    question, explanation, button, service, done = ACTIONS[action]
    error = None
    if form.validate_on_submit():
        try:
            service(game)
        except errors.ScorebookError as refused:
            error = refused.message
        else:
            flash(done)
            if action == "delete":
                return redirect(url_for("games.list_games"), 303)
            return redirect(url_for("games.show_game", game_id=game_id), 303)
    return render_template(
        "scorebook/games/confirm.html",
        game=game,
        form=form,
        action=action,
        question=question,
        explanation=explanation,
        button=button,
        error=error,
    )


@bp.route("/rematch", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once
def play_again(game_id: int):
    """The same table again: shows the seats and the first dealer, then starts the game with
    this tablet holding the new game's key."""
    game = g.game
    form = WriteOnceForm()  # a double tap starts one game
    error = None
    if form.validate_on_submit():
        try:
            new_game, key = rematch.rematch(game)
        except errors.ScorebookError as refused:
            error = refused.message
        else:
            return started(new_game, key, "New game with the same table", 303)
    elif not game.finished:
        error = f"This game is not finished yet: play again once round {rules.LAST_ROUND} is in."
    return render_template(
        "scorebook/games/rematch.html",
        game=game,
        form=form,
        first_dealer=rematch.next_first_dealer(game),
        profile=ledger.profile_of(game),
        error=error,
    )


@bp.get("/ledger.csv")
def ledger_csv(game_id: int):
    """The ledger as CSV: a row per recorded round and the totals."""
    game = ledger.get_game(game_id)
    return _download(sheets.ledger_csv(ledger.book(game)), "text/csv", game, "csv")


@bp.get("/export.json")
def export_json(game_id: int):
    """The game in the export format, without its edit key's hash, for `import` elsewhere."""
    game = ledger.get_game(game_id)
    return _download(transfer.dumps(sheets.game_export(game)), "application/json", game, "json")


def _download(text: str, media_type: str, game: Game, suffix: str):
    """The text as a UTF-8 file to save, named after the game."""
    response = make_response(text)
    response.headers["Content-Type"] = f"{media_type}; charset=utf-8"
    filename = sheets.export_filename(game, suffix)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
