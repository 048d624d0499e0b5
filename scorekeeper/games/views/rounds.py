"""Round pages: record the next round, correct any recorded round, undo the latest.

Every page here changes the score, so every one needs the game's edit key (see `keys`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from ...platform import writeonce
from ...platform.formpages import answer_script_posts, form_page, shown_after_redirect
from .. import errors, keys, ledger, service
from ..forms import UndoForm, form_context, round_form
from ..roundvalues import RoundSnapshot
from . import draft_saved

bp = Blueprint("rounds", __name__, url_prefix="/games/<int:game_id>/rounds")
bp.after_request(answer_script_posts)
shown_after_redirect(bp)

# What a round page does when the score book refuses its write: an answer, or None to show the
# form again (the handler has put the refusal on it).
Refusal = Callable[[Any], Any]


def _to_game(game_id: int, anchor: str | None = "ledger"):
    return redirect(url_for("games.show_game", game_id=game_id, _anchor=anchor))


def _save(
    game_id: int,
    write: Callable[[], Any],
    saved: str,
    anchor: str | None,
    *,
    conflict: Refusal,
    refused: Refusal,
    draft: str | None = None,
):
    """The one ladder of every round page: the write; `conflict` when another device changed
    the round first, `refused` for any other refusal; once written, the message, the draft
    dropped, and the game page at `anchor`."""
    try:
        write()
    except errors.Conflict as error:
        return conflict(error)
    except errors.ScorebookError as error:
        return refused(error)
    flash(saved)
    if draft is not None:
        draft_saved(draft)
    return _to_game(game_id, anchor)


def draft_key(game_id: int, number: int, version: str | None = None) -> str:
    """Where the browser keeps what is typed into a round form: per game, round and version."""
    return f"game-{game_id}/round-{number}/" + (f"v{version}" if version else "new")


@bp.route("/new", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def record_round(game_id: int):
    """Who went out, the exact cut, and the cards left in every other hand (R10)."""
    game = g.game
    number = ledger.next_round(game)
    if number is None:
        last = ledger.rules_of(game).last_deal
        flash(_("This game is finished: all %(last)s rounds are recorded.", last=last), "warning")
        return _to_game(game_id, "standings")
    form = round_form(game, number)
    if form.opened_for_another_round():
        form.recorded_meanwhile(number)
    elif form.validate_on_submit():
        answer = _save(
            game_id,
            lambda: service.record_round(game, form.entry(), number),
            _("Round %(number)s saved.", number=number),
            # The top of the page: the confirmation and the next round; the last opens the summary.
            "summary" if number == ledger.rules_of(game).last_deal else None,
            conflict=lambda _error: _recorded_meanwhile(game, form),
            refused=form.attach,
            draft=draft_key(game_id, number),
        )
        if answer is not None:
            return answer
        number = ledger.next_round(game)
    elif form.is_submitted():
        form.check_hands()
    return _render_form(game, number, form, editing=False)


def _recorded_meanwhile(game, form):
    """Another device recorded this round first: saving again would record the next one."""
    number = ledger.next_round(game)
    form.recorded_meanwhile(number)
    if number is None:
        flash(_("This game was finished on another device: nothing was saved."), "warning")
        return _to_game(game.id, "standings")
    return None


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def edit_round(game_id: int, number: int):
    """The same form, filled in with the round as recorded; the change goes into the history."""
    played = _round_or_gone(g.game, number)
    if played is None:
        return _to_game(game_id)
    game = played.game
    form = round_form(game, number, prefill=played if request.method == "GET" else None)
    if form.validate_on_submit():
        answer = _save(
            game_id,
            lambda: service.correct_round(game, number, form.entry(), form.seen_version()),
            _("Round %(number)s corrected.", number=number),
            None,
            # The round as it is now beside what was typed, ready to be saved over it.
            conflict=form.changed_meanwhile,
            refused=form.attach,
            draft=draft_key(game_id, number, str(form.seen_version())),
        )
        if answer is not None:
            return answer
    elif form.is_submitted():
        form.check_hands()
    return _render_form(game, number, form, editing=True)


@bp.route("/<int:number>/undo", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def undo_round(game_id: int, number: int):
    """Ask, then remove the latest round as it was shown; it stays in the history."""
    game = g.game
    played = _round_or_gone(game, number)
    if played is None:
        return _to_game(game_id)
    if played is not game.rounds[-1]:
        flash(
            _(
                "Only the latest round can be undone: correct round %(number)s instead.",
                number=number,
            ),
            "warning",
        )
        return _to_game(game_id)
    form = UndoForm(data={"version": str(played.version)} if request.method == "GET" else None)
    if form.validate_on_submit():
        return _save(
            game_id,
            lambda: service.undo_round(game, number, form.seen_version()),
            _("Round %(number)s undone: it is kept in the history below.", number=number),
            # The top, as after a save: the round to play again and the standings without it.
            None,
            conflict=lambda error: _undo_page(game, played, form, form.changed_meanwhile(error)),
            refused=lambda error: _refused(game_id, error),
        )
    return _undo_page(game, played, form)


def _undo_page(game, played, form, warning: str | None = None):
    return render_template(
        "games/rounds/undo.html",
        game=game,
        played=played,
        form=form,
        warning=warning,
        summary=ledger.summary(RoundSnapshot.of_round(played), game.names),
    )


def _refused(game_id: int, error: errors.ScorebookError):
    flash(error.message, "error")
    return _to_game(game_id)


def _round_or_gone(game, number: int):
    """The round; for a GET of a round never recorded 404, for a POST a note that it is gone."""
    try:
        return service.find_round(game, number)
    except errors.Missing:
        if request.method != "POST" or number not in ledger.rules_of(game).deal_numbers:
            abort(404)
    flash(
        _(
            "Round %(number)s is no longer in the ledger (undone on another device?): nothing "
            "was saved.",
            number=number,
        ),
        "warning",
    )
    return None


def _render_form(game, number: int, form, *, editing: bool):
    page = render_template(
        "games/rounds/form.html",
        **form_context(game, number, form, editing=editing),
        draft=draft_key(game.id, number, str(form.seen_version()) if editing else None),
    )
    return form_page(page)
