"""Player pages: everyone who has sat at this table, one player's season, and the merge pages
(`merges_bp`: "Annie" is "Ann", confirmed, and undone)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_babel.speaklater import LazyString

from ..games import chart, errors, gamelist
from ..games.forms import WriteOnceForm
from ..platform import writeonce
from ..platform.errorpages import NotHere
from ..platform.formpages import form_page, shown_after_redirect
from ..platform.organisers import organiser_required
from . import merges, records
from . import players as season

bp = Blueprint("players", __name__, url_prefix="/players")


@dataclass(frozen=True)
class Column:
    """A column the players' table sorts by: its heading, how it sorts, whether lowest first
    by default, and its heading on a narrow screen (`short`, else the heading)."""

    heading: str | LazyString
    sort_by: Callable[[season.PlayerRecord], Any]
    ascending: bool
    short: str | LazyString = ""

    @property
    def narrow(self) -> str | LazyString:
        return self.short or self.heading


COLUMNS = {
    "name": Column(_l("Player"), lambda record: record.key, True),
    # By the exact conservative rating (μ − 3σ), the best first; the page shows it rounded.
    "rating": Column(
        _l("Rating"), lambda record: record.rating.mu - 3 * record.rating.sigma, False
    ),
    "games": Column(_l("Games"), lambda record: record.games, False),
    "wins": Column(_l("Wins"), lambda record: record.wins, False),
    "win_rate": Column(_l("Win rate"), lambda record: record.win_rate, False, _l("Win %")),
    "average_total": Column(
        _l("Average total"), lambda record: _last(record.average_total), True, _l("Avg total")
    ),
    "best_total": Column(
        _l("Best total"), lambda record: _last(record.best_total), True, _l("Best")
    ),
    "rounds_out": Column(_l("Rounds out"), lambda record: record.rounds_out, False, _l("Outs")),
    "cut_bonuses": Column(_l("Cut bonuses"), lambda record: record.cut_bonuses, False, _l("Cuts")),
    "average_penalty": Column(
        _l("Average penalty"), lambda record: _last(record.average_penalty), True, _l("Avg pen")
    ),
}

DEFAULT_SORT = "rating"


def _last(value):
    """Players without the figure sort after every player with it."""
    return (value is None, value or 0)


# Path segments a browser resolves away before it sends the request, `%2e` as a dot too
# (WHATWG URL): `/players/a/..` is sent as `/players/`.
DOT_SEGMENTS = (".", "..")
# Addresses under /players/ that are pages of their own, not a player's.
RESERVED = ("records",)


@bp.app_template_global()
def player_url(name: str, page: int | None = None) -> str:
    """The address of a player's page, which every browser opens as it is written: the name in
    the path (`/players/Ann`, as always), unless a browser would read a folder into it (`..`,
    `a/..`, `../../etc/passwd`: percent-encoding a dot does not help, and servers decode `%2F`);
    then in the query (`/players/?name=a/..`), which no browser resolves. A player named as
    a page under /players/ is ("records": `/players/?name=records`). `page`: that page of
    their games, the first when None."""
    if "/" in name or name in DOT_SEGMENTS or name in RESERVED:
        return url_for("players.list_players", name=name, page=page)
    return url_for("players.show_player", name=name, page=page)


@bp.get("/")
def list_players():
    """The players' table, by rating unless another column is asked for (`?sort=wins`,
    `&order=asc|desc`), filtered (`?period=year|12m|all`, `&min_games=5`); with `?name=`, that
    player's page (see `player_url`)."""
    if name := request.args.get("name"):
        return show_player(name)
    sort = request.args.get("sort", DEFAULT_SORT)
    if sort not in COLUMNS:
        sort = DEFAULT_SORT
    column = COLUMNS[sort]
    order = request.args.get("order")
    if order not in ("asc", "desc"):
        order = "asc" if column.ascending else "desc"
    chosen, problems = _filters()
    listed = [] if problems else sorted(season.season(chosen), key=lambda record: record.key)
    listed.sort(key=column.sort_by, reverse=order == "desc")
    return _filtered_page(
        "list.html", chosen, problems, records=listed, columns=COLUMNS, sort=sort, order=order
    )


@bp.get("/records")
def show_records():
    """The season's records, filtered as the players' table is."""
    chosen, problems = _filters()
    held = [] if problems else records.season_records(chosen)
    return _filtered_page("records.html", chosen, problems, held=held)


def _filters() -> tuple[season.Filters, list[str]]:
    """The filters the query asks for and no problem, or the defaults and every problem (the
    form then shows the values as typed, from the query)."""
    try:
        return season.parse_filters(request.args), []
    except season.FilterError as error:
        return season.Filters(), error.problems


def _filtered_page(template: str, chosen: season.Filters, problems: list[str], **context):
    """A page with the filters' form: 400 with every problem said when the query had any."""
    page = render_template(
        f"season/{template}",
        chosen=chosen,
        problems=problems,
        periods=season.PERIODS,
        **context,
    )
    return page, 400 if problems else 200


# A player's page stays the same size however long the season: the chart of final totals
# draws each rule set's last CHART_GAMES finished games, and the games are listed a page of
# SITTINGS_PER_PAGE at a time, newest first.
CHART_GAMES = 50
SITTINGS_PER_PAGE = 50


@dataclass(frozen=True)
class Sittings:
    """One page of a player's games, newest first."""

    shown: list
    page: int
    pages: int
    total: int

    @property
    def first_number(self) -> int:
        """The number of the first game shown, counting the player's games from the first."""
        return self.total - (self.page - 1) * SITTINGS_PER_PAGE


@bp.get("/<path:name>")
def show_player(name: str):
    """One player's games, their final totals over time, and head to head. Every name is
    reached here, whatever it holds; the links say it as `player_url` does. `?page=` pages the
    list of games."""
    try:
        page, _per_page, _archived = gamelist.paging_from(request.args, SITTINGS_PER_PAGE)
    except errors.ScorebookError as error:
        abort(400, description=error.message)
    computed = season.current()  # one season for every part of the page
    record = season.find_player(name, computed)
    if record is None:
        abort(404, description=_("nobody called %(name)s has played here yet", name=repr(name)))
    if _merged_away(record, name):
        return redirect(player_url(record.name))
    sittings = _sittings_page(record, page)
    over_time = _totals_by_rules(record)
    held = records.held_by(records.season_records(season=computed), record.key)
    return render_template(
        "season/show.html",
        record=record,
        sittings=sittings,
        chart_games=CHART_GAMES,
        over_time=over_time,
        held=held,
        rivals=season.rivals(record),
        tally=season.tally,
        rating_trend=_rating_trend(record),
        undos=[(row, WriteOnceForm()) for row in merges.into(record.key)],
    )


def _sittings_page(record: season.PlayerRecord, page: int) -> Sittings:
    """The player's games on page `page` (newest first), or a 404 with the way to the last."""
    total = len(record.sittings)
    pages = max(1, -(-total // SITTINGS_PER_PAGE))
    if page > pages:
        raise NotHere(
            _("there is no page %(page)s: the last page is %(last)s", page=page, last=pages),
            heading=_("No page %(page)s", page=page),
            hint=_("The list may have grown shorter since the link was made."),
            ways=[(_("The last page (%(last)s)", last=pages), player_url(record.name, pages))],
        )
    end = total - (page - 1) * SITTINGS_PER_PAGE
    shown = record.sittings[max(0, end - SITTINGS_PER_PAGE) : end][::-1]
    return Sittings(shown, page, pages, total)


def _totals_by_rules(record: season.PlayerRecord):
    """The final totals of the player's finished games, one line per rule set (most played
    first, as `by_rules`), each over its own last CHART_GAMES games oldest first: a total is only
    drawn beside totals of the same rules, never joined to a game of another deal count."""
    if not record.finished:
        return None
    lines = [
        chart.Line(
            rules.rules,
            record.totals_by_rules[rules.rules][-CHART_GAMES:],
        )
        for rules in record.by_rules
    ]
    longest = max(len(line.values) for line in lines)
    said = "; ".join(
        _(
            "%(rules)s: %(totals)s",
            rules=line.name,
            totals=", ".join(chart.number(value) for value in line.values),
        )
        for line in lines
    )
    return chart.line_chart(
        lines,
        [str(index) for index in range(1, longest + 1)],
        label=_(
            "%(name)s's final totals, one line per rule set, each over its own last "
            "%(most)s finished games at most, oldest first. %(totals)s",
            name=record.name,
            most=CHART_GAMES,
            totals=said,
        ),
        x_title=_("Finished game under those rules, oldest first"),
        css_class="chart player-chart",
    )


def _rating_trend(record: season.PlayerRecord):
    """A small chart of the rating after each of the player's last games (see `ratings.TREND_GAMES`)."""
    trend = record.rating.trend
    if not trend:
        return None
    return chart.line_chart(
        [chart.Line(record.name, trend)],
        [str(index) for index in range(1, len(trend) + 1)],
        label=ngettext(
            "%(name)s's rating after each of their last %(num)s finished game, oldest first: "
            "%(ratings)s",
            "%(name)s's rating after each of their last %(num)s finished games, oldest first: "
            "%(ratings)s",
            len(trend),
            name=record.name,
            ratings=", ".join(chart.number(value) for value in trend),
        ),
        x_title=_("Last finished games, oldest first"),
        css_class="chart player-chart rating-chart",
    )


def _merged_away(record: season.PlayerRecord, name: str) -> bool:
    """True when `name` is a player merged into `record`'s (whose page is the one to show),
    and that player has games of their own under their name to show it by."""
    asked = season.player_key(name)
    merged = record.merged_sittings
    named = any(sitting.name == name or sitting.seat_key == asked for sitting in merged)
    return named and len(merged) < len(record.sittings)  # some seats are the player's own


# The merge pages: "Annie" is "Ann", asked on a player's page, confirmed, and undone. A player's
# page picks the other player; the confirmation says what will happen ("Annie's 12 games become
# Ann's: Ann will have 30 games") or every reason it cannot; its post merges once (`write_once`,
# the form's token), and the merged-into player's page offers the undo. No edit key is asked
# for: a merge changes no game (see `merges`); on a server with organisers, only theirs.
merges_bp = Blueprint("player_merges", __name__, url_prefix="/players/merges")
shown_after_redirect(merges_bp)


@merges_bp.route("/new", methods=["GET", "POST"])
@organiser_required
@writeonce.write_once(scope=merges.WRITES)
def new():
    """`?from=Annie&into=Ann`: what merging Annie into Ann does, and the button that does it;
    or every problem (nobody of that name, one player already, a game both sat in)."""
    from_name = request.args.get("from", "")
    into_name = request.args.get("into", "")
    form = WriteOnceForm()
    # Shown in the season as kept (a post takes it without waiting for a newer one, or reads the
    # two players' seats while the first season is worked out); the post is judged on the games
    # as they are (`merges.merge`).
    computed = season.kept_now() if form.is_submitted() else season.current()
    proposal = merges.propose(from_name, into_name, computed)
    problems = list(proposal.problems)
    if form.validate_on_submit():
        try:
            row, proposal = merges.merge(from_name, into_name)
        except merges.MergeRefused as refused:
            proposal = refused.proposal
            problems = list(proposal.problems)
        else:
            flash(
                _(
                    "%(one)s's %(games)s became %(other)s's: %(other)s has %(total)s. Every game "
                    "keeps the names as played.",
                    one=row.from_name,
                    other=row.into_name,
                    games=_games(proposal.source.games),
                    total=_games(proposal.games_after),
                )
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


@merges_bp.post("/<int:merge_id>/undo")
@organiser_required
@writeonce.write_once(scope=merges.WRITES)
def undo(merge_id: int):
    """Undo a merge: the two players are counted apart again, exactly as before it."""
    form = WriteOnceForm()
    if not form.validate_on_submit():
        abort(400, description=_("the undo's form was not complete: open the player's page again"))
    row = merges.get(merge_id)
    try:
        merges.undo(merge_id)
    except errors.Conflict as refused:
        flash(_("%(problem)s.", problem=refused.message), "error")
        return redirect(player_url(row.into_name), 303)
    flash(
        _(
            "%(one)s is counted apart from %(other)s again.",
            one=row.from_name,
            other=row.into_name,
        )
    )
    return redirect(player_url(row.into_name), 303)


def _games(count: int) -> str:
    return ngettext("%(num)s game", "%(num)s games", count)
