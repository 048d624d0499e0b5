"""Game pages beyond the evening: play again, archive, restore, delete, and the sheets to take.

Play again, archive, restore and delete need the game's edit key (in this tablet's cookie) and
a confirming POST (archive, restore and delete, on a server with organisers, an organiser too); the ledger CSV and the export are open to anyone who can see the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import (
    Blueprint,
    flash,
    g,
    redirect,
    render_template,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ...platform import limits, writeonce
from ...platform.formpages import attachment, form_page, shown_after_redirect
from ...platform.organisers import organiser_required
from .. import errors, gamelist, keys, ledger, service, transfer
from ..forms import EndEarlyForm, RenameForm, WriteOnceForm
from ..models import Game
from . import started

bp = Blueprint("game_actions", __name__, url_prefix="/games/<int:game_id>")
shown_after_redirect(bp)


@dataclass(frozen=True)
class Action:
    """A change to a whole game that is confirmed first: what its page asks and explains, its
    button, the service call that does it, what it says when done, and whether the game is
    gone afterwards (then the games list is shown, not the game)."""

    question: str
    # The explanation and the news are %-formatted with the game's facts (`_facts`).
    explanation: str
    button: str
    do: Callable[..., object]
    done: str
    gone: bool = False
    # The form that confirms it; its `arguments()` are passed on to `do` after the game.
    form: type[WriteOnceForm] = WriteOnceForm

    def explain(self, game: Game) -> str:
        """The explanation, with the game's last round and leaders filled in."""
        return str(self.explanation) % self._facts(game)

    def news(self, game: Game) -> str:
        """What it says once done, with the same facts filled in (the winners of a game just
        ended early, say)."""
        return str(self.done) % self._facts(game)

    @staticmethod
    def _facts(game: Game) -> dict[str, object]:
        book = ledger.book(game)
        leaders = book.leader_names
        return {
            "round": len(game.rounds),
            "last": book.last_round,
            "leaders": together(leaders) or _("nobody"),
            "winners": ngettext(
                "%(names)s wins", "%(names)s share the win", len(leaders), names=together(leaders)
            ),
        }


ACTIONS = {
    "archive": Action(
        question=_l("Archive this game?"),
        explanation=_l(
            "It leaves the games lists; its link still opens it, and Archived games "
            "lists it so that it can be restored. Nothing is deleted."
        ),
        button=_l("Archive the game"),
        do=gamelist.archive,
        done=_l("Game archived: it no longer shows in the games lists."),
    ),
    "restore": Action(
        question=_l("Restore this game?"),
        explanation=_l("It comes back into the games lists."),
        button=_l("Restore the game"),
        do=gamelist.restore,
        done=_l("Game restored to the games lists."),
    ),
    "delete": Action(
        question=_l("Delete this game?"),
        explanation=_l(
            "No round is recorded in it yet. It is removed for good, with its edit link."
        ),
        button=_l("Delete the game"),
        do=gamelist.delete,
        done=_l("Game deleted."),
        gone=True,
    ),
    "end_early": Action(
        question=_l("End the game here?"),
        explanation=_l(
            "The game ends after round %(round)s of %(last)s: %(leaders)s, leading now, "
            "wins (a tie shares the win). The summary, the games list and the players' figures say "
            "it ended early. It can be taken back until the table plays again from it."
        ),
        button=_l("End after this round"),
        do=service.end_early,
        done=_l("Game ended early after round %(round)s of %(last)s: %(winners)s."),
        form=EndEarlyForm,
    ),
    "resume": Action(
        question=_l("Take back the early end?"),
        explanation=_l(
            "The game goes on after round %(round)s of %(last)s, as if it had never ended."
        ),
        button=_l("Play on"),
        do=service.resume_game,
        done=_l("The early end is taken back: play on."),
    ),
}


# What is the club's, not the table's: with organisers (`ORGANISER_PASSWORD`), only theirs.
ORGANISERS_ONLY = ("archive", "restore", "delete")


def together(names: list[str]) -> str:
    """Names said together: "Ann", "Ann and Bob", "Ann and Bob and Cat"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s", names=together(names[:-1]), last=names[-1])


def _confirm_page(name: str, path: str) -> None:
    """The page of `ACTIONS[name]` at `path`, for the game's editor only: it asks first, then
    does it (a double tap acts once)."""

    def confirm(game_id: int):
        return _confirm(game_id, name)

    confirm.__name__ = confirm.__qualname__ = name
    confirm.__doc__ = f"{ACTIONS[name].question} Asked first, then done."
    view = keys.editor_required(writeonce.write_once(scope=keys.GAMES)(confirm))
    if name in ORGANISERS_ONLY:
        view = organiser_required(view)
    bp.add_url_rule(path, view_func=view, methods=["GET", "POST"])


for _name, _path in (
    ("archive", "/archive"),
    ("restore", "/restore"),
    ("delete", "/delete"),
    ("end_early", "/end"),
    ("resume", "/resume"),
):
    _confirm_page(_name, _path)


def _confirm(game_id: int, name: str):
    """Ask first, then do it: archive, restore, delete a game that has no round yet, end it
    early or take the early end back."""
    game, action = g.game, ACTIONS[name]
    form = action.form()  # a double tap acts once
    if isinstance(form, EndEarlyForm) and not form.is_submitted():
        form.after.data = str(len(game.rounds))
    error = None
    if form.validate_on_submit():
        try:
            action.do(game, **getattr(form, "arguments", dict)())
        except errors.ScorebookError as refused:
            error = refused.message
        else:
            flash(action.news(game))
            if action.gone:
                return redirect(url_for("games.list_games"), 303)
            return redirect(url_for("games.show_game", game_id=game_id), 303)
    return render_template(
        "games/confirm.html", game=game, form=form, name=name, action=action, error=error
    )


@bp.route("/rematch", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
@limits.limited(limits.NEW_GAMES)
def play_again(game_id: int):
    """The same table again: shows the seats and the first dealer, then starts the game with
    this tablet holding the new game's key."""
    game = g.game
    form = WriteOnceForm()  # a double tap starts one game
    error = None
    if form.validate_on_submit():
        try:
            new_game, key = service.rematch(game)
        except errors.ScorebookError as refused:
            error = refused.message
        else:
            return started(new_game, key, _("New game with the same table"), 303)
    elif not game.finished:
        last = ledger.rules_of(game).last_deal
        error = _("This game is not finished yet: play again once round %(last)s is in.", last=last)
    return render_template(
        "games/rematch.html",
        game=game,
        form=form,
        coming=service.coming(game),
        error=error,
    )


@bp.route("/rename", methods=["GET", "POST"])
@keys.editor_required
@writeonce.write_once(scope=keys.GAMES)
def rename(game_id: int):
    """Put a misspelt name right: every seat's name to write over, under the name rules of a
    new game; the history keeps the former name, and the player's page follows the new one."""
    game = g.game
    form = RenameForm.of(game)
    error, problems = None, {}
    if form.validate_on_submit():
        try:
            made = service.rename_players(game, form.renamed(), form.seen_names())
        except errors.ScorebookError as refused:
            error, problems = refused.message, refused.problems or {}
        else:
            flash(
                _(
                    "Renamed: %(renames)s",
                    renames=", ".join(
                        _("%(before)s is now %(after)s", before=each.before, after=each.after)
                        for each in made
                    ),
                )
                if made
                else _("No name was changed.")
            )
            return redirect(url_for("games.show_game", game_id=game_id), 303)
    return form_page(
        render_template("games/rename.html", game=game, form=form, error=error, problems=problems)
    )


@bp.get("/rounds.csv")
def rounds_csv(game_id: int):
    """The detailed sheet as CSV: a row per player and round (dealer, cutter, who went out, the
    cut bonus, the cards left, counted or not, penalty, score, running total, when)."""
    game = ledger.get_game(game_id)
    return _download(transfer.rounds_csv(ledger.book(game)), "text/csv", game, "rounds.csv")


@bp.get("/ledger.csv")
def ledger_csv(game_id: int):
    """The ledger as CSV: a row per recorded round and the totals."""
    game = ledger.get_game(game_id)
    return _download(transfer.ledger_csv(ledger.book(game)), "text/csv", game, "csv")


@bp.get("/export.json")
def export_json(game_id: int):
    """The game in the export format, without its edit key's hash, for `import` elsewhere."""
    game = ledger.get_game(game_id)
    return _download(transfer.dumps(transfer.game_export(game)), "application/json", game, "json")


def _download(text: str, media_type: str, game: Game, suffix: str):
    """The text as a UTF-8 file to save, named after the game."""
    return attachment(text, media_type, transfer.export_filename(game, suffix))
