"""The merge pages: "Annie" is "Ann", asked on a player's page, confirmed, and undone.

A player's page picks the other player; the confirmation says what will happen ("Annie's 12
games become Ann's: Ann will have 30 games") or every reason it cannot; its post merges once
(`write_once`, the form's token), and the merged-into player's page offers the undo. No edit
key is asked for: a merge changes no game (see `merges`).
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request

from ..games import errors
from ..games.forms import WriteOnceForm
from ..platform import writeonce
from ..platform.formpages import form_page, shown_after_redirect
from . import merges
from .views import player_url

bp = Blueprint("player_merges", __name__, url_prefix="/players/merges")
shown_after_redirect(bp)


@bp.route("/new", methods=["GET", "POST"])
@writeonce.write_once(scope=merges.WRITES)
def new():
    """`?from=Annie&into=Ann`: what merging Annie into Ann does, and the button that does it;
    or every problem (nobody of that name, one player already, a game both sat in)."""
    from_name = request.args.get("from", "")
    into_name = request.args.get("into", "")
    form = WriteOnceForm()
    proposal = merges.propose(from_name, into_name)
    problems = list(proposal.problems)
    if not problems and form.validate_on_submit():
        try:
            row = merges.merge(from_name, into_name)
        except merges.MergeRefused as refused:
            problems = [refused.message]  # changed meanwhile on another device
        else:
            flash(
                f"{row.from_name}'s {_games(proposal.source.games)} became {row.into_name}'s: "
                f"{row.into_name} has {_games(proposal.games_after)}. "
                "Every game keeps the names as played."
            )
            return redirect(player_url(row.into_name), 303)
    page = render_template(
        "season/merge.html",
        proposal=proposal,
        problems=problems,
        from_name=from_name,
        into_name=into_name,
        form=form,
    )
    return form_page(page)


@bp.post("/<int:merge_id>/undo")
@writeonce.write_once(scope=merges.WRITES)
def undo(merge_id: int):
    """Undo a merge: the two players are counted apart again, exactly as before it."""
    form = WriteOnceForm()
    if not form.validate_on_submit():
        abort(400, description="the undo's form was not complete: open the player's page again")
    row = merges.get(merge_id)
    try:
        merges.undo(merge_id)
    except errors.Conflict as refused:
        flash(f"{refused.message}.", "error")
        return redirect(player_url(row.into_name), 303)
    flash(f"{row.from_name} is counted apart from {row.into_name} again.")
    return redirect(player_url(row.into_name), 303)


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"
