"""Player pages: everyone who has sat at this table, and one player's season."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..scorebook import chart
from ..scorebook.forms import WriteOnceForm
from . import merges
from . import players as season

bp = Blueprint("players", __name__, url_prefix="/players")

# The columns the players' table sorts by: (heading, how to sort, lowest first?).
COLUMNS = {
    "name": ("Player", lambda record: record.key, True),
    "games": ("Games", lambda record: record.games, False),
    "wins": ("Wins", lambda record: record.wins, False),
    "win_rate": ("Win rate", lambda record: record.win_rate, False),
    "average_total": ("Average total", lambda record: _last(record.average_total), True),
    "best_total": ("Best total", lambda record: _last(record.best_total), True),
    "rounds_out": ("Rounds out", lambda record: record.rounds_out, False),
    "cut_bonuses": ("Cut bonuses", lambda record: record.cut_bonuses, False),
    "average_penalty": ("Average penalty", lambda record: _last(record.average_penalty), True),
}


def _last(value):
    """Players without the figure sort after every player with it."""
    return (value is None, value or 0)


# Path segments a browser resolves away before it sends the request, `%2e` as a dot too
# (WHATWG URL): `/players/a/..` is sent as `/players/`.
DOT_SEGMENTS = (".", "..")


@bp.app_template_global()
def player_url(name: str) -> str:
    """The address of a player's page, which every browser opens as it is written: the name in
    the path (`/players/Ann`, as always), unless a browser would read a folder into it (`..`,
    `a/..`, `../../etc/passwd`: percent-encoding a dot does not help, and servers decode `%2F`);
    then in the query (`/players/?name=a/..`), which no browser resolves."""
    if "/" in name or name in DOT_SEGMENTS:
        return url_for("players.list_players", name=name)
    return url_for("players.show_player", name=name)


@bp.get("/")
def list_players():
    """The players' table, sorted by any column (`?sort=wins`, `&order=asc|desc`); with
    `?name=`, that player's page (see `player_url`)."""
    if name := request.args.get("name"):
        return show_player(name)
    sort = request.args.get("sort", "name")
    if sort not in COLUMNS:
        sort = "name"
    _, key, ascending = COLUMNS[sort]
    order = request.args.get("order")
    if order not in ("asc", "desc"):
        order = "asc" if ascending else "desc"
    records = sorted(season.season(), key=lambda record: record.key)
    records.sort(key=key, reverse=order == "desc")
    return render_template(
        "scorebook/players/list.html", records=records, columns=COLUMNS, sort=sort, order=order
    )


@bp.get("/<path:name>")
def show_player(name: str):
    """One player's games, their final totals over time, and head to head. Every name is
    reached here, whatever it holds; the links say it as `player_url` does."""
    record = season.find_player(name)
    if record is None:
        abort(404, description=f"nobody called {name!r} has played here yet")
    if _merged_away(record, name):
        return redirect(player_url(record.name))
    finished = record.finished
    over_time = None
    if finished:
        over_time = chart.line_chart(
            [chart.Line(record.name, tuple(sitting.total for sitting in finished))],
            [str(index) for index in range(1, len(finished) + 1)],
            label=(
                f"{record.name}'s final totals over {len(finished)} finished game"
                f"{'s' if len(finished) > 1 else ''}, oldest first: "
                + ", ".join(chart.number(sitting.total) for sitting in finished)
            ),
            x_title="Finished game, oldest first",
            css_class="chart player-chart",
        )
    undos = [(row, WriteOnceForm()) for row in merges.into(record.key)]
    return render_template(
        "scorebook/players/show.html", record=record, over_time=over_time, undos=undos
    )


def _merged_away(record: season.PlayerRecord, name: str) -> bool:
    """True when `name` is a player merged into `record`'s (whose page is the one to show),
    and that player has games of their own under their name to show it by."""
    asked = season.player_key(name)
    merged = any(
        sitting.seat_key != record.key and (sitting.name == name or sitting.seat_key == asked)
        for sitting in record.sittings
    )
    return merged and any(sitting.seat_key == record.key for sitting in record.sittings)
