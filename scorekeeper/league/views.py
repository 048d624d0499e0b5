"""The league pages: the leagues, a new league, a league's table (with its CSV and a printed
sheet, and every change of its scoring), a change of its scoring, a player's nights in it, and a
night's summary (`/nights/<id>/summary`: each table's winners and the best round).

Reads are on `bp` and `summary_bp`; the organiser's pages and writes on `setup_bp`, so one guard
(`setup_bp.before_request(...)`) keeps them to organisers.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from wtforms.fields.choices import SelectChoice

from ..nights.service import get_night
from ..platform import organisers, writeonce
from ..platform.database import db
from ..platform.formpages import attachment, form_page
from . import service, sheets, standings
from .api import LEAGUES
from .forms import AddNightForm, NewLeagueForm, ScoringForm
from .models import League
from .service import LeagueRefused

bp = Blueprint("league", __name__, url_prefix="/league")
setup_bp = Blueprint("league_setup", __name__, url_prefix="/league")
# Changing a league is an organiser's, where the club has organisers (ORGANISER_PASSWORD).
setup_bp.before_request(organisers.require)
summary_bp = Blueprint("league_summary", __name__, url_prefix="/nights")
# Names a browser would resolve away or read a folder into: given in the query instead.
DOT_SEGMENTS = (".", "..")


@bp.app_template_global()
def league_player_url(league_id: int, name: str) -> str:
    """A player's page in a league: the name in the path, or in the query where a browser
    would read a folder into it (as the season's `player_url`)."""
    if "/" in name or name in DOT_SEGMENTS:
        return url_for("league.player_by_query", league_id=league_id, name=name)
    return url_for("league.show_player", league_id=league_id, name=name)


@bp.get("")
def list_leagues():
    """The club's leagues, the newest first."""
    return render_template("league/list.html", leagues=service.leagues())


@setup_bp.route("/new", methods=["GET", "POST"])
@writeonce.write_once(scope=LEAGUES)
def new_league():
    """A league's name, its scoring and the points of each place."""
    form = NewLeagueForm()
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            league = service.create_league(form.name.data, form.scoring.data, form.points_given())
        except LeagueRefused as refused:
            problems = list(refused.fields.values()) or [refused.message]
        else:
            flash(_("League set up: add the nights that count."))
            return redirect(url_for("league.show_league", league_id=league.id), 303)
    response = form_page(render_template("league/new.html", form=form, problems=problems))
    response.status_code = 400 if request.method == "POST" else 200
    return response


def _table(league_id: int) -> standings.Table:
    league = service.get_league(league_id)
    return standings.table(league, service.league_nights(league))


@bp.get("/<int:league_id>")
def show_league(league_id: int):
    """The league table, its nights, and (for an organiser) the nights to add."""
    return _league_page(_table(league_id))


def _league_page(table: standings.Table, problems: list[str] | None = None, status: int = 200):
    form = AddNightForm(formdata=None)
    free = service.free_nights(table.league) if organisers.may_organise() else []
    form.night.choices = [
        SelectChoice(night.id, f"{night.held_on} · {night.rules_name}") for night in free
    ]
    page = render_template(
        "league/show.html",
        table=table,
        league=table.league,
        add=form,
        problems=problems or [],
        shown=standings.shown,
        scoring=standings.scoring_words(table.league),
        changes=[standings.change_words(change) for change in table.league.changes],
        ties=standings.tie_words(table.ties),
        heading=sheets.score_heading(table.league),
        new_token=writeonce.new_token,
    )
    response = form_page(page)
    response.status_code = status
    return response


@bp.get("/<int:league_id>/table.csv")
def table_csv(league_id: int):
    """The league table as CSV, its headers in the page's language."""
    table = _table(league_id)
    return attachment(sheets.table_csv(table), "text/csv", f"league-{league_id}.csv")


@bp.get("/<int:league_id>/print")
def print_table(league_id: int):
    """The league table as a sheet to print: every column, the scoring and ties in words."""
    table = _table(league_id)
    return render_template(
        "league/print.html",
        table=table,
        league=table.league,
        shown=standings.shown,
        scoring=standings.scoring_words(table.league),
        ties=standings.tie_words(table.ties),
        heading=sheets.score_heading(table.league),
    )


@bp.get("/<int:league_id>/players/<path:name>")
def show_player(league_id: int, name: str):
    """A player's nights in the league: each night's table, place, total and score."""
    return _player_page(service.get_league(league_id), name)


@bp.get("/<int:league_id>/player")
def player_by_query(league_id: int):
    return _player_page(service.get_league(league_id), request.args.get("name", ""))


def _player_page(league: League, name: str):
    nights = service.league_nights(league)
    found = standings.player_nights(league, nights, name)
    key = standings.player_key(name)
    table = standings.table(league, nights)
    line = next((line for line in table.lines if line.key == key), None)
    status = 200 if found else 404
    return render_template(
        "league/player.html",
        league=league,
        name=found[-1].name if found else name,
        seats=found,
        line=line,
        shown=standings.shown,
        heading=sheets.score_heading(league),
    ), status


@setup_bp.route("/<int:league_id>/scoring", methods=["GET", "POST"])
@writeonce.write_once(scope=LEAGUES)
def change_scoring(league_id: int):
    """The league's scoring and points, to change: the table follows at once, the change is
    kept and told on the league's page."""
    league = service.get_league(league_id, for_update=request.method == "POST")
    form = ScoringForm()
    if request.method == "GET":
        form.scoring.data = league.scoring
        form.points.data = ", ".join(str(value) for value in league.points) or form.points.data
    problems: list[str] = []
    status = 200
    if form.validate_on_submit():
        try:
            service.change_scoring(league, form.scoring.data, form.points_given())
        except LeagueRefused as refused:
            db.session.rollback()
            problems = list(dict.fromkeys(refused.fields.values())) or [refused.message]
            status = refused.status
        else:
            flash(_("The scoring changed: the league table is worked out the new way."))
            return redirect(url_for("league.show_league", league_id=league_id), 303)
    elif request.method == "POST":
        status = 400
    page = render_template(
        "league/scoring.html",
        form=form,
        league=league,
        problems=problems,
        scoring=standings.scoring_words(league),
    )
    response = form_page(page)
    response.status_code = status
    return response


@setup_bp.post("/<int:league_id>/nights")
@writeonce.write_once(scope=LEAGUES)
def add_night(league_id: int):
    """Count the night picked for the league."""
    league = service.get_league(league_id, for_update=True)
    picked = request.form.get("night", "")
    try:
        night = service.add_night(league, int(picked) if picked.isdigit() else None)
    except LeagueRefused as refused:
        return _refused(league_id, refused)
    flash(_("The night of %(date)s counts for this league.", date=night.held_on.isoformat()))
    return redirect(url_for("league.show_league", league_id=league_id), 303)


@setup_bp.post("/<int:league_id>/nights/<int:night_id>/remove")
@writeonce.write_once(scope=LEAGUES)
def remove_night(league_id: int, night_id: int):
    """The night no longer counts for the league."""
    league = service.get_league(league_id, for_update=True)
    try:
        service.remove_night(league, night_id)
    except LeagueRefused as refused:
        return _refused(league_id, refused)
    flash(_("The night no longer counts for this league."))
    return redirect(url_for("league.show_league", league_id=league_id), 303)


def _refused(league_id: int, refused: LeagueRefused):
    db.session.rollback()
    problems = list(refused.fields.values()) or [refused.message]
    return _league_page(_table(league_id), problems, refused.status)


@summary_bp.get("/<int:night_id>/summary")
def night_summary(night_id: int):
    """The night's summary: each table's winners (leaders while in play) and the best round."""
    summary = standings.night_summary(get_night(night_id))
    leagues = service.leagues_of(summary.night)
    return render_template("league/summary.html", summary=summary, leagues=leagues)
