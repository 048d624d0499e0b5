"""The night pages: the list of nights, a new night, and a night's page, where players are
checked in, pinned and drawn to tables, each table's game is linked with its edit link's QR code
for that table's tablet, and a late arrival is seated.

Reads are on `bp`; the organiser's set-up pages and writes on `setup_bp`, so one guard
(`setup_bp.before_request(...)`) keeps them to organisers.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ..games import keys
from ..games.errors import ScorebookError
from ..platform import limits, organisers, writeonce
from ..platform.database import db
from ..platform.formpages import form_page
from ..platform.network import on_loopback
from ..rulesets import choice as rulechoice
from . import draw as drawing
from . import reading, service
from .api import NIGHTS
from .forms import CheckInForm, LateForm, NewNightForm
from .models import Night
from .service import NightRefused

bp = Blueprint("nights", __name__, url_prefix="/nights")
setup_bp = Blueprint("nights_setup", __name__, url_prefix="/nights")
# Setting a night up is an organiser's, where the club has organisers (ORGANISER_PASSWORD).
setup_bp.before_request(organisers.require)


@bp.get("")
def list_nights():
    """The club's nights, the newest first."""
    return render_template("nights/list.html", nights=service.nights())


@setup_bp.route("/new", methods=["GET", "POST"])
@writeonce.write_once(scope=NIGHTS)
def new_night():
    """Pick the date and the rules; the night opens for check-in."""
    form = NewNightForm(choices=rulechoice.choices())
    if form.validate_on_submit():
        night = service.create_night(form.choice(), form.held_on.data)
        flash(_("Night set up: check the players in."))
        return redirect(url_for("nights.show_night", night_id=night.id), 303)
    status = 400 if request.method == "POST" else 200
    response = form_page(render_template("nights/new.html", form=form))
    response.status_code = status
    return response


@bp.get("/<int:night_id>")
def show_night(night_id: int):
    """Check-in, pins and the draw; once drawn, the tables and their games."""
    return _night_page(service.get_night(night_id))


def _night_page(night: Night, problems: list[str] | None = None, status: int = 200, **forms):
    held = keys.held(request)
    tables = reading.tables(night)
    page = render_template(
        "nights/show.html",
        night=night,
        tables=tables,
        held={table.number for table in tables if table.game and table.game.id in held},
        waiting=reading.waiting(night),
        chips=_chips(night) if not night.drawn else [],
        table_count=_table_count(night),
        check_in=forms.get("check_in") or CheckInForm(formdata=None),
        late=forms.get("late") or LateForm(formdata=None),
        problems=problems or [],
        new_token=writeonce.new_token,
        loopback=on_loopback(request.host_url),
    )
    response = form_page(page)
    response.status_code = status
    return response


def _chips(night: Night) -> list[str]:
    """The season's players not checked in yet, as the check-in's chips."""
    here = {player.name_key for player in night.players}
    known = service.as_season_knows(service.season_names())
    return list(dict.fromkeys(shown for shown, key in known if key not in here))


def _table_count(night: Night) -> int:
    """How many tables the draw would make now (at least 1), for the pin picker."""
    rules = night.rule_set
    try:
        return len(drawing.table_sizes(len(night.players), rules.min_players, rules.max_players))
    except drawing.DrawError:
        return 1


def _refused(night_id: int, error: NightRefused | Exception, **forms):
    """The night's page again with the refusal named, nothing stored."""
    db.session.rollback()
    night = service.get_night(night_id)
    fields = getattr(error, "fields", {}) or {}
    problems = list(fields.values()) or [getattr(error, "message", str(error))]
    return _night_page(night, problems, getattr(error, "status", 400), **forms)


@setup_bp.post("/<int:night_id>/check-in")
@writeonce.write_once(scope=NIGHTS)
def check_in(night_id: int):
    """The chips ticked and the names typed, checked in together (or none, every problem said)."""
    form = CheckInForm()
    night = service.get_night(night_id, for_update=True)
    names = form.names(request.form.getlist("known"))
    try:
        added = service.check_in(night, [(name, None) for name in names])
    except ScorebookError as error:
        return _refused(night_id, error, check_in=form)
    flash(ngettext("%(num)s player checked in.", "%(num)s players checked in.", len(added)))
    return redirect(url_for("nights.show_night", night_id=night_id), 303)


@setup_bp.post("/<int:night_id>/check-out")
@writeonce.write_once(scope=NIGHTS)
def check_out(night_id: int):
    night = service.get_night(night_id, for_update=True)
    name = request.form.get("name", "")
    try:
        service.check_out(night, name)
    except ScorebookError as error:
        return _refused(night_id, error)
    flash(_("%(name)s checked out.", name=name))
    return redirect(url_for("nights.show_night", night_id=night_id), 303)


@setup_bp.post("/<int:night_id>/pin")
@writeonce.write_once(scope=NIGHTS)
def pin(night_id: int):
    night = service.get_night(night_id, for_update=True)
    name = request.form.get("name", "")
    table = request.form.get("table", "")
    try:
        player = service.pin(night, name, int(table) if table.isdigit() else None)
    except ScorebookError as error:
        return _refused(night_id, error)
    if player.pinned_table is None:
        flash(_("%(name)s sits wherever the draw puts them.", name=player.name))
    else:
        flash(
            _("%(name)s is pinned to table %(table)s.", name=player.name, table=player.pinned_table)
        )
    return redirect(url_for("nights.show_night", night_id=night_id), 303)


@setup_bp.post("/<int:night_id>/draw")
@writeonce.write_once(scope=NIGHTS)
@limits.limited(limits.NEW_GAMES)  # each table is a new game
def draw(night_id: int):
    """Draw the tables; this tablet gets every table's edit key, to hand each to its table."""
    night = service.get_night(night_id, for_update=True)
    try:
        made = service.draw(night)
    except ScorebookError as error:
        return _refused(night_id, error)
    flash(
        ngettext(
            "Drawn: %(num)s table. Hand each table its edit link.",
            "Drawn: %(num)s tables. Hand each table its edit link.",
            len(made),
        )
    )
    response = redirect(url_for("nights.show_night", night_id=night_id), 303)
    return keys.set_cookies(response, request, made)


@setup_bp.post("/<int:night_id>/late")
@writeonce.write_once(scope=NIGHTS)
def late_arrival(night_id: int):
    form = LateForm()
    night = service.get_night(night_id, for_update=True)
    if not form.validate():
        return _refused(
            night_id, NightRefused(" ".join(map(str, form.name.errors)), "name"), late=form
        )
    try:
        player = service.late_arrival(night, form.name.data or "")
    except ScorebookError as error:
        return _refused(night_id, error, late=form)
    flash(_("%(name)s joins table %(table)s.", name=player.name, table=player.table_number))
    return redirect(url_for("nights.show_night", night_id=night_id), 303)
