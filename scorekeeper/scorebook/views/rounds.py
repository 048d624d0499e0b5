"""Round pages: record the next round, correct any recorded round, undo the latest.

Every page here changes the score, so every one needs the game's edit key (see `keys`).
"""

from __future__ import annotations

import functools

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

from ... import rules
from .. import errors, keys, ledger, service, writeonce
from ..forms import UndoForm, round_form
from .games import answer_script_posts, draft_saved, form_page

bp = Blueprint("rounds", __name__, url_prefix="/games/<int:game_id>/rounds")
bp.after_request(answer_script_posts)


def _once_per_form(view):
    """A form posted again (a double tap, a retry) gets the first post's answer, and nothing is
    written; the game's row is locked by now, so a first post still running has finished."""

    @functools.wraps(view)
    def checked(*args, **kwargs):
        if request.method == "POST":
            g.once = writeonce.from_form(f"page game {g.game.id}")
            if (done := _done_already()) is not None:
                return done
        return view(*args, **kwargs)

    return checked


def _done_already():
    """The first answer to this form's token, if the write it asked for is done."""
    done = writeonce.find(g.get("once"))
    return None if done is None else writeonce.page_answer(done)


def _kept(message: str, anchor: str | None = "ledger"):
    """Keep the write's answer with it, for a repeat of the form's token."""
    location = url_for("games.show_game", game_id=g.game.id, _anchor=anchor)
    return lambda _result: writeonce.keep(
        g.get("once"), 302, writeonce.page_body(message), location
    )


def _to_game(game_id: int, anchor: str | None = "ledger"):
    return redirect(url_for("games.show_game", game_id=game_id, _anchor=anchor))


def draft_key(game_id: int, number: int, version: str | None = None) -> str:
    """Where the browser keeps what is typed into a round form: per game, round and version."""
    return f"game-{game_id}/round-{number}/" + (f"v{version}" if version else "new")


@bp.route("/new", methods=["GET", "POST"])
@keys.editor_required
@_once_per_form
def record_round(game_id: int):
    """Who went out, the exact cut, and the cards left in every other hand (R10)."""
    game = g.game
    number = ledger.next_round(game)
    if number is None:
        flash(f"This game is finished: all {rules.LAST_ROUND} rounds are recorded.", "warning")
        return _to_game(game_id, "standings")
    form = round_form(game, number)
    if form.opened_for_another_round():
        form.recorded_meanwhile(number)
    elif form.validate_on_submit():
        try:
            anchor = "summary" if number == rules.LAST_ROUND else None
            service.record_round(
                game, form.entry(), number, keep=_kept(f"Round {number} saved.", anchor)
            )
        except errors.Conflict:
            if (twin := _done_already()) is not None:
                return twin
            # Another device recorded this round first: saving again would record the next one.
            number = ledger.next_round(game)
            form.recorded_meanwhile(number)
            if number is None:
                flash("This game was finished on another device: nothing was saved.", "warning")
                return _to_game(game_id, "standings")
        except errors.ScorebookError as error:
            form.attach(error)
        else:
            flash(f"Round {number} saved.")
            draft_saved(draft_key(game_id, number))
            # The top of the page: the confirmation and the next round; the last opens the summary.
            return _to_game(game_id, anchor)
    return _render_form(game, number, form, editing=False)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@keys.editor_required
@_once_per_form
def edit_round(game_id: int, number: int):
    """The same form, filled in with the round as recorded; the change goes into the history."""
    game = g.game
    played = _round_or_gone(game, number)
    if played is None:
        return _to_game(game_id)
    form = round_form(game, number, prefill=played if request.method == "GET" else None)
    if form.validate_on_submit():
        try:
            service.correct_round(
                game,
                number,
                form.entry(),
                form.seen_version(),
                keep=_kept(f"Round {number} corrected.", None),
            )
        except errors.Conflict as error:
            if (twin := _done_already()) is not None:
                return twin
            # The round as it is now beside what was typed, ready to be saved over it.
            form.changed_meanwhile(error)
        except errors.ScorebookError as error:
            form.attach(error)
        else:
            flash(f"Round {number} corrected.")
            draft_saved(draft_key(game_id, number, str(form.seen_version())))
            return _to_game(game_id, None)
    return _render_form(game, number, form, editing=True)


@bp.route("/<int:number>/undo", methods=["GET", "POST"])
@keys.editor_required
@_once_per_form
def undo_round(game_id: int, number: int):
    """Ask, then remove the latest round as it was shown; it stays in the history."""
    game = g.game
    played = _round_or_gone(game, number)
    if played is None:
        return _to_game(game_id)
    if played is not game.rounds[-1]:
        flash(f"Only the latest round can be undone: correct round {number} instead.", "warning")
        return _to_game(game_id)
    form = UndoForm(data={"version": str(played.version)} if request.method == "GET" else None)
    warning = None
    if form.validate_on_submit():
        undone = f"Round {number} undone: it is kept in the history below."
        try:
            service.undo_round(game, number, form.seen_version(), keep=_kept(undone))
        except errors.Conflict as error:
            if (twin := _done_already()) is not None:
                return twin
            warning = form.changed_meanwhile(error)
        except errors.ScorebookError as error:
            flash(error.message, "error")
            return _to_game(game_id)
        else:
            flash(undone)
            return _to_game(game_id)
    return render_template(
        "scorebook/rounds/undo.html",
        game=game,
        played=played,
        form=form,
        warning=warning,
        summary=ledger.summary(service.snapshot(played), game.names),
    )


def _round_or_gone(game, number: int):
    """The round; for a GET of a round never recorded 404, for a POST a note that it is gone."""
    try:
        return service.find_round(game, number)
    except errors.Missing:
        if request.method != "POST" or not 1 <= number <= rules.LAST_ROUND:
            abort(404)
    flash(
        f"Round {number} is no longer in the ledger (undone on another device?): nothing was saved.",
        "warning",
    )
    return None


def _render_form(game, number: int, form, *, editing: bool):
    page = render_template(
        "scorebook/rounds/form.html",
        game=game,
        number=number,
        form=form,
        editing=editing,
        draft=draft_key(game.id, number, str(form.seen_version()) if editing else None),
        setup=ledger.setup_for(game, number),
        penalties=ledger.penalty_table(game.profile),
    )
    return form_page(page)
